"""The same belief updates back to back and in bursts after idle: what a paced move costs.

At human pace the inference process sleeps between batches of one or two moves, and each
wake-up starts cold (caches, branch predictors and, on a virtual machine, whatever ran on
the core meanwhile). This replays `--tables` random matches of `--variant` interleaved as a
server sees them (a move of each table in turn), every seat's belief updated per move
(apply + snapshot_dict, as the server's workers), and times the updates in CPU time of the
thread: once back to back, then sleeping `--nap` seconds before every burst of K moves for
each K of `--bursts`. The same updates in the same order each pass, caches cleared before
each, so the ratio to the back-to-back pass is the cost of idling between bursts alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from clients.bench.inference import bot_match_events
from games.interface import Game, match_seats
from games.registry import GAMES
from inference.counting import clear_caches


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="partnership-6")
    parser.add_argument("--tables", type=int, default=120,
                        help="matches replayed interleaved, a move of each in turn")
    parser.add_argument("--moves", type=int, default=2000,
                        help="moves timed per pass (of all tables together)")
    parser.add_argument("--nap", type=float, default=0.012,
                        help="seconds slept before each burst (12 ms: a move every 12.5 ms "
                             "reaches an inference process at 80 moves/s)")
    parser.add_argument("--bursts", default="1,2,4,8",
                        help="moves per burst, a comma list (each is one pass)")
    parser.add_argument("--rounds", type=int, default=2, help="passes of the whole list")
    parser.add_argument("--seed", type=int, default=1)


def _matches(game: Game[Any, Any, Any], variant: str, tables: int, seed: int) -> list[list[Any]]:
    rng = random.Random(seed)
    target = int(game.variants()[variant].options.get("target", 100))
    return [bot_match_events(game, variant, rng, target) for _ in range(tables)]


def _moves(matches: list[list[Any]], limit: int) -> list[tuple[int, Any]]:
    """(table, event) in the order a server sees them: one event of each table in turn."""
    out: list[tuple[int, Any]] = []
    cursors = [0] * len(matches)
    while len(out) < limit and any(c < len(m) for c, m in zip(cursors, matches, strict=True)):
        for table, events in enumerate(matches):
            if cursors[table] < len(events) and len(out) < limit:
                out.append((table, events[cursors[table]]))
                cursors[table] += 1
    return out


def timed_pass(game: Game[Any, Any, Any], variant: str, matches: list[list[Any]],
               moves: list[tuple[int, Any]], nap: float, burst: int) -> list[float]:
    """CPU seconds of every update of `moves`, sleeping `nap` before each `burst` moves
    (nap 0: back to back); fresh beliefs and cold caches."""
    clear_caches()
    seats = [match_seats(game, events[0]) for events in matches]
    beliefs = [{seat: game.belief(seat, variant) for seat in table_seats}
               for table_seats in seats]
    views = [[(beliefs[table][seat], game.view(event, seat)) for seat in seats[table]]
             for table, event in moves]
    clock = time.thread_time
    spent: list[float] = []
    for index, updates in enumerate(views):
        if nap and index % burst == 0:
            time.sleep(nap)
        for belief, seen in updates:
            start = clock()
            belief.apply(seen)
            belief.snapshot_dict()
            spent.append(clock() - start)
    return spent


def run(args: argparse.Namespace) -> int:
    game = GAMES.game_of_variant(args.variant)
    matches = _matches(game, args.variant, args.tables, args.seed)
    moves = _moves(matches, args.moves)
    bursts = [int(b) for b in args.bursts.split(",")]
    arms = [(0.0, 1), *((args.nap, b) for b in bursts)]
    means: dict[tuple[float, int], list[float]] = {arm: [] for arm in arms}
    for _ in range(args.rounds):
        for nap, burst in arms:  # alternated: the machine's load falls on every arm alike
            means[(nap, burst)].append(statistics.mean(
                timed_pass(game, args.variant, matches, moves, nap, burst)))
    base = statistics.median(means[arms[0]])
    print(f"{args.variant}: {len(moves)} moves of {args.tables} tables interleaved, every "
          f"seat's update (apply + snapshot_dict), CPU time of the thread, {args.rounds} "
          f"rounds alternated (median of the rounds' means)")
    print(f"{'arm':<34}{'us/update':>10}{'x back to back':>16}")
    for nap, burst in arms:
        value = statistics.median(means[(nap, burst)])
        name = ("back to back" if not nap
                else f"{nap * 1000:g} ms idle before every {burst} move(s)")
        print(f"{name:<34}{value * 1e6:>10.1f}{value / base:>16.2f}")
    return 0
