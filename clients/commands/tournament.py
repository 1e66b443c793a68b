"""`domino-oracle tournament`: two bot teams over mirrored deals, in parallel, with intervals.

A game that declares its own tournament (`Capabilities.tournament`: e.g. points per hand,
budgets per decision, bots not offered at tables) plays it; any other registered game plays
two of its own bots in mirrored pairs (strategy/arena.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from clients.cli import CommandError
from clients.table_options import add_table_options, chosen_options
from games.interface import Game, Tournament, UnknownGame
from games.registry import Registry
from strategy.arena import arena, pool_arena


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="play two bot teams over mirrored deals and report win rates",
        description="Each deal is played twice with the teams swapped (duplicate format); "
        "for two-player variants a team is one bot and the seats swap.",
    )
    parser.add_argument("--variant", default=None,
                        help="any registered variant (default: the default game's first)")
    parser.add_argument("--team-a", help="one of the game's bots (or of those its own "
                                         "tournament takes)")
    parser.add_argument("--team-b", help="as --team-a")
    parser.add_argument("--matches", type=int, default=20, help="even: pairs of mirrored matches")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same deals")
    parser.add_argument("--target", type=int, default=None,
                        help="points to win a match, for a variant with a target option; "
                             "the same as --option target=N")
    add_table_options(parser)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    parser.add_argument(
        "--nodes", type=int, default=None,
        help="pimc/omniscient solver nodes per decision (a work budget: the same answer on "
             "any machine)")
    parser.add_argument("--samples", type=int, default=None, help="pimc deals per decision")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--combine", nargs="+", type=Path, metavar="REPORT.json",
                        help="instead of playing: pool the --json reports of runs with "
                             "different seeds (the same match-up) into one")
    parser.set_defaults(handler=run_command)


def _budgets(args: argparse.Namespace) -> dict[str, float]:
    """`--nodes` and `--samples` for a game's own tournament (its thinking bots' work
    budgets)."""
    budgets: dict[str, float] = {}
    if args.nodes is not None:
        if args.nodes < 1:
            raise CommandError("--nodes must be at least 1")
        budgets["nodes"] = args.nodes
    if args.samples is not None:
        if args.samples < 1:
            raise CommandError("--samples must be at least 1")
        budgets["samples"] = args.samples
    return budgets


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
    if args.workers is not None and args.workers < 1:
        raise CommandError("--workers must be at least 1")
    registry: Registry = args.games
    if args.variant is None:
        args.variant = registry.default_variant()
    try:
        game = registry.game_of_variant(args.variant)
    except UnknownGame as error:
        raise CommandError(str(error)) from None
    options = chosen_options(args, game.variants()[args.variant])  # checked for every game
    own = game.capabilities.tournament
    if own is None:
        return _arena(args, game, options)
    for name in (args.team_a, args.team_b):
        if name not in own.bots:
            raise CommandError(f"no bot {name!r} for {game.name} (known: "
                               f"{', '.join(sorted(own.bots))})")
    workers = args.workers or os.cpu_count() or 1
    figures = own.play(args.variant, args.team_a, args.team_b, args.matches, args.seed,
                       options, _budgets(args), workers, _progress)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(own.describe(figures, args.seed, options))
    return 0


def _arena(args: argparse.Namespace, game: Game, options: dict[str, Any]) -> int:
    """Another game's tournament: two of its own bots over mirrored pairs."""
    known = sorted(game.bots())
    for name in (args.team_a, args.team_b):
        if name not in known:
            raise CommandError(f"no bot {name!r} for {game.name} (known: {', '.join(known)})")
    result = arena(game, args.variant, args.team_a, args.team_b, args.matches // 2, args.seed,
                   options).to_dict()
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
    own = _tournament_of(reports, args.games)
    try:
        figures = own.pool(reports)
    except ValueError as error:
        raise CommandError(str(error)) from error
    print(json.dumps(figures, indent=2))
    return 0


def _tournament_of(reports: list[dict[str, Any]], games: Registry) -> Tournament:
    """The game's own tournament that wrote these reports, from the variant they name (a
    report that names none was written before there were several: the default game's)."""
    variants = {r.get("variant") for r in reports if isinstance(r, dict)}
    variant = next(iter(variants)) if len(variants) == 1 else None
    try:
        game = games.game_of_variant(variant) if isinstance(variant, str) else games.game(None)
    except UnknownGame as error:
        raise CommandError(str(error)) from None
    own = game.capabilities.tournament
    if own is None:
        raise CommandError(f"these are not reports of a tournament {game.name} declares")
    return own


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` things in words: "1 hand", "2 hands" ("1 match", "3 matches" with `many`)."""
    return f"{n} {one if n == 1 else many or one + 's'}"
