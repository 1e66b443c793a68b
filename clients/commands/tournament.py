"""`domino-oracle tournament`: two bot teams over mirrored deals, in parallel, with intervals.

Dominoes plays strategy/'s bots (random, greedy, pimc, omniscient) with points per hand;
any other registered game plays two of its own bots in mirrored pairs (strategy/arena.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from clients.cli import CommandError
from clients.table_options import add_table_options, chosen_options
from games.dominoes.game import DOMINOES
from games.dominoes.variants import DEFAULT_VARIANT
from games.interface import Game, UnknownGame
from strategy.arena import arena, pool_arena
from strategy.bots import BOTS
from strategy.tournament import report, run, specs
from strategy.tournament_pool import PoolError, pool


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="play two bot teams over mirrored deals and report win rates",
        description="Each deal is played twice with the teams swapped (duplicate format); "
        "for two-player variants a team is one bot and the seats swap.",
    )
    parser.add_argument("--variant", default=DEFAULT_VARIANT,
                        help="any registered variant (dominoes: partnership-6, partnership-9, "
                             "block-2, draw-2)")
    parser.add_argument("--team-a", help=f"dominoes: {', '.join(sorted(BOTS))}; another "
                                         "game: one of its own bots")
    parser.add_argument("--team-b", help="as --team-a")
    parser.add_argument("--matches", type=int, default=20, help="even: pairs of mirrored matches")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same deals")
    parser.add_argument("--target", type=int, default=100, help="points to win a match")
    add_table_options(parser)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    parser.add_argument(
        "--seconds", type=float, default=None, help="pimc/omniscient time budget per decision"
    )
    parser.add_argument("--samples", type=int, default=None, help="pimc deals per decision")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--combine", nargs="+", type=Path, metavar="REPORT.json",
                        help="instead of playing: pool the --json reports of runs with "
                             "different seeds (the same match-up) into one")
    parser.set_defaults(handler=run_command)


def _options(args: argparse.Namespace) -> dict[str, dict[str, object]]:
    options: dict[str, dict[str, object]] = {"pimc": {}, "omniscient": {}}
    if args.seconds is not None:
        if args.seconds <= 0:
            raise CommandError("--seconds must be positive")
        options["pimc"]["seconds"] = options["omniscient"]["seconds"] = args.seconds
    if args.samples is not None:
        if args.samples < 1:
            raise CommandError("--samples must be at least 1")
        options["pimc"]["samples"] = args.samples
    # pimc on the behaviour posterior (and its flat ablation): the same budget as pimc
    options["pimc-behaviour"] = options["pimc-flat"] = options["pimc"]
    return options


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    bar = "#" * filled + "-" * (width - filled)
    end = "\n" if done == total else ""
    print(f"\rtournament [{bar}] {done}/{total} matches", end=end, file=sys.stderr, flush=True)


def run_command(args: argparse.Namespace) -> int:
    if args.combine:
        return _combine(args)
    if args.team_a is None or args.team_b is None:
        raise CommandError("--team-a and --team-b are required (or --combine REPORT.json ...)")
    if args.matches < 2 or args.matches % 2:
        raise CommandError("--matches must be a positive even number (mirrored pairs)")
    if args.target < 1:
        raise CommandError("--target must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise CommandError("--workers must be at least 1")
    try:
        game = args.games.game_of_variant(args.variant)
    except UnknownGame as error:
        raise CommandError(str(error)) from None
    options = chosen_options(args, game.variants()[args.variant])  # checked for every game
    if game.name != DOMINOES.name:
        return _arena(args, game, options)
    for name in (args.team_a, args.team_b):
        if name not in BOTS:
            raise CommandError(f"no bot {name!r} for dominoes (known: {', '.join(sorted(BOTS))})")
    workers = args.workers or os.cpu_count() or 1
    schedule = specs(args.team_a, args.team_b, args.matches, args.seed, args.target,
                     _options(args), args.variant)
    outcomes = run(schedule, workers=min(workers, len(schedule)), progress=_progress)
    figures = report(outcomes, args.team_a, args.team_b, args.variant)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(_text(figures, args))
    return 0


def _arena(args: argparse.Namespace, game: Game, options: dict[str, Any]) -> int:
    """Another game's tournament: two of its own bots over mirrored pairs."""
    known = sorted(game.bots())
    for name in (args.team_a, args.team_b):
        if name not in known:
            raise CommandError(f"no bot {name!r} for {game.name} (known: {', '.join(known)})")
    result = arena(game, args.variant, args.team_a, args.team_b, args.matches // 2, args.seed,
                   {"target": args.target, **options}).to_dict()
    result["options"] = options
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        low, high = result["win_rate_ci95"]
        chosen = "".join(f", {k}={v}" for k, v in options.items())
        print(f"{args.variant}{chosen}: {count(result['matches'], 'match', 'matches')} in mirrored "
              f"pairs, seed {args.seed}: "
              f"{args.team_a} won {result['wins']}, drew {result['draws']}, lost "
              f"{result['losses']} against {args.team_b} ({100 * result['win_rate']:.1f}%, "
              f"95% CI {100 * low:.1f}-{100 * high:.1f}%)")
    return 0


def _combine(args: argparse.Namespace) -> int:
    reports = []
    for path in args.combine:
        try:
            reports.append(json.loads(path.read_text()))
        except (OSError, ValueError) as error:
            raise CommandError(f"{path}: {error}") from error
    if all("game" in r and "wins" in r for r in reports):  # another game's own bots
        try:
            figures = pool_arena(reports).to_dict()
        except ValueError as error:
            raise CommandError(str(error)) from error
        print(json.dumps(figures, indent=2))
        return 0
    try:
        figures = pool(reports)
    except PoolError as error:
        raise CommandError(str(error)) from error
    print(json.dumps(figures, indent=2))
    return 0


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` things in words: "1 hand", "2 hands" ("1 match", "3 matches" with `many`)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def _text(figures: dict, args: argparse.Namespace) -> str:
    lines = [
        f"{figures['variant']}: {count(figures['matches'], 'match', 'matches')} "
        f"({count(figures['pairs'], 'mirrored pair')}, {count(figures['hands'], 'hand')}), "
        f"target {args.target}, seed {args.seed}"
    ]
    for key in ("a", "b"):
        side = figures[key]
        lo, hi = side["ci95"]
        plo, phi = side["points_per_hand_ci95"]
        p50, p95 = side["decision_ms_p50"], side["decision_ms_p95"]
        timing = "no decisions" if p50 is None else f"decision p50 {p50:.2f} ms, p95 {p95:.2f} ms"
        lines.append(
            f"team {key.upper()} {side['bot']:<10} wins {side['wins']:>4} "
            f"({100 * side['win_rate']:.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)  "
            f"points/hand {side['points_per_hand']:.2f} [{plo:.2f}, {phi:.2f}]  {timing}"
        )
    return "\n".join(lines)
