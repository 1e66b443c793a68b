"""What offering the legal moves costs the server: for every registered variant, over every
turn of random matches, the time to build the acting seat's own event frame with its
`legal_moves` (legal_moves -> command_to_wire -> JSON) beside the plain shared frame of the
same event, and the frames' sizes. The best of five passes over the same turns.

    python -m clients.bench.offers --matches 3 --seed 1

Figures, not assertions (timing depends on the machine and its load).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

from games.play import play_match
from games.registry import GAMES
from server.feeds.fanout import event_frame
from server.table_game import TableGame

PASSES = 5


def _turns(table: TableGame, matches: int, seed: int) -> list[tuple[Any, str, Any]]:
    """(state, seat to act, the event that led there) at every turn of `matches` matches."""
    game = table.game
    bot = "random" if "random" in game.bots() else next(iter(game.bots()))
    bots = {seat: game.bots()[bot] for seat in table.seats}
    rng = random.Random(seed)
    out = []
    for _ in range(matches):
        state = None
        for event in play_match(game, table.variant.name, bots, rng, table.options()):
            state = game.evolve(state, event)
            acting = () if game.is_over(state) else game.to_act(state)
            if acting:
                out.append((state, acting[0], event))
    return out


def _best(turns: list[tuple[Any, str, Any]], frame: Callable[[Any, str, Any], str]
          ) -> tuple[float, float]:
    """(best mean microseconds per turn over PASSES passes, mean frame bytes)."""
    best, size = float("inf"), 0
    for _ in range(PASSES):
        started, size = time.perf_counter(), 0
        for state, seat, event in turns:
            size += len(frame(state, seat, event))
        best = min(best, (time.perf_counter() - started) / len(turns))
    return best * 1e6, size / len(turns)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = []
    for game in GAMES.games():
        for info in game.variants().values():
            if info.alias_of is not None:
                continue
            table = TableGame.of(info.name)
            turns = _turns(table, args.matches, args.seed)

            def offered(state: Any, seat: str, event: Any, table: TableGame = table) -> str:
                return event_frame("t1", table.game.view(event, seat), table,
                                   table.offered_moves(state, seat))

            def plain(state: Any, seat: str, event: Any, table: TableGame = table) -> str:
                return event_frame("t1", table.game.view(event, seat), table)

            offer_us, offer_bytes = _best(turns, offered)
            plain_us, plain_bytes = _best(turns, plain)
            rows.append({"variant": info.name, "turns": len(turns),
                         "offer_us": round(offer_us, 1), "offer_bytes": round(offer_bytes),
                         "plain_us": round(plain_us, 1), "plain_bytes": round(plain_bytes)})
            print(f"{info.name:14s} {len(turns):5d} turns  with the offer {offer_us:8.1f} us "
                  f"{offer_bytes:7.0f} B   plain {plain_us:6.1f} us {plain_bytes:5.0f} B")
    print(json.dumps({"loadavg": os.getloadavg()[0], "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
