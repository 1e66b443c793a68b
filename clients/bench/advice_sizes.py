"""`domino-oracle bench advice-sizes`: how large each game's move advice is, kept.

The advice memo (server/advice_memo.py) keeps answers for the server's lifetime, bounded in
entries and in bytes of their JSON. The bound is chosen from these figures: an answer's
compact JSON, what it takes as Python objects once kept (tracemalloc of one decode), and how
many such answers MAX_KEPT_BYTES holds. One seeded bot match per variant; the advice at
decisions spread over it, under each advisor's own work budgets.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tracemalloc
from dataclasses import dataclass
from typing import Any

from calibration.botmatches import bot_matches
from games.advice import advise_under, advisor_of
from games.registry import GAMES
from server.advice_memo import MAX_KEPT, MAX_KEPT_BYTES

VARIANTS = ("partnership-6", "texas-42", "clue", "uno-2")


@dataclass(frozen=True)
class Sizes:
    variant: str
    json_bytes: list[int]
    python_bytes: list[int]


def python_bytes(text: str) -> int:
    """Bytes the decoded answer holds as Python objects (as the memo keeps it)."""
    tracemalloc.start()
    try:
        decoded = json.loads(text)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del decoded
    return held


def measure(variant: str, decisions: int, seed: int) -> Sizes:
    game = GAMES.game_of_variant(variant)
    advisor = advisor_of(game)
    if advisor is None:
        raise SystemExit(f"{variant}: its game has no advisor")
    bot = "greedy" if "greedy" in game.bots() else next(iter(game.bots()))
    match = next(bot_matches(variant, [bot], 1, seed=seed))
    moves = [i for i, event in enumerate(match) if advisor.decision(event) is not None]
    step = max(1, len(moves) // decisions)
    sizes = Sizes(variant, [], [])
    for index in moves[step // 2::step][:decisions]:
        seat = advisor.decision(match[index])
        assert seat is not None
        seen: list[Any] = [game.event_to_dict(game.view(e, seat)) for e in match[:index]]
        answer = advise_under(advisor, seen, seat, seed, advisor.seconds)
        text = json.dumps(answer, separators=(",", ":"))
        sizes.json_bytes.append(len(text))
        sizes.python_bytes.append(python_bytes(text))
    return sizes


def report(all_sizes: list[Sizes]) -> list[str]:
    lines = [f"{'variant':<15}{'answers':>8}{'JSON KB (median, max)':>24}"
             f"{'Python KB (median)':>20}{'kept in the bound':>19}"]
    for sizes in all_sizes:
        median = statistics.median(sizes.json_bytes)
        kept = min(MAX_KEPT, int(MAX_KEPT_BYTES // median))
        lines.append(f"{sizes.variant:<15}{len(sizes.json_bytes):>8}"
                     f"{median / 1024:>15.1f}{max(sizes.json_bytes) / 1024:>9.1f}"
                     f"{statistics.median(sizes.python_bytes) / 1024:>20.1f}{kept:>19}")
    lines.append(f"bound: {MAX_KEPT} answers and {MAX_KEPT_BYTES / 2**20:.0f} MiB of JSON")
    return lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--decisions", type=int, default=4,
                        help="answers per variant, spread over one bot match")
    parser.add_argument("--seed", type=int, default=3)


def run(args: argparse.Namespace) -> int:
    all_sizes = []
    for variant in args.variants:
        all_sizes.append(measure(variant, args.decisions, args.seed))
        print(f"{variant}: {len(all_sizes[-1].json_bytes)} answers measured", flush=True)
    print("\n".join(report(all_sizes)))
    return 0
