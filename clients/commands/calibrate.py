"""`domino-oracle calibrate --db DB [--variant V] [--json]`: how good the shown odds were.

Every stored match, every observer, every position with someone to move: the exact uniform
belief (and a behaviour model its game declares, e.g. dominoes' behaviour:greedy) scored
against the items revealed (calibration/). `--picture FILE.png|svg` draws the reliability
diagram and the loss by move. `--play N --bots ...` first stores N matches of the variant's
bots (one name per seat for a mixed table).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from archive.matches import ArchiveError, save_matches
from calibration.botmatches import bot_matches
from calibration.picture import draw
from calibration.report import Options, calibrate, summary_lines
from calibration.truth import NotRevealed
from clients.cli import CommandError
from clients.store_option import add_db_option, open_store
from clients.table_options import chosen_options
from games.interface import UnknownGame


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="score the shown probabilities against the revealed hands",
        description="Log loss, Brier score and reliability of each belief model over stored "
                    "matches, at every position and for every observer.")
    add_db_option(parser)
    parser.add_argument("--variant", help="only matches of this variant (default: all)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--picture", type=Path, metavar="FILE",
                        help="also draw the report (.png or .svg)")
    parser.add_argument("--uniform-only", action="store_true",
                        help="skip the behaviour-aware model (much faster)")
    parser.add_argument("--samples", type=int, default=64,
                        help="importance samples per position for the behaviour model")
    parser.add_argument("--ess-target", type=float, default=0.0,
                        help="draw --samples more while the effective sample size is below "
                             "this (default 0: one batch)")
    parser.add_argument("--max-samples", type=int, default=0,
                        help="with --ess-target: at most this many draws per position")
    parser.add_argument("--moves", type=int, default=0,
                        help="resample-move: after the draws, this many Metropolis swap "
                             "proposals per unseen tile for each deal (default 0: none)")
    parser.add_argument("--shrink", type=float, default=1.0,
                        help="sampled positions: weigh the uniform belief by "
                             "K / (K + ESS) in the shown mixture (default 1)")
    parser.add_argument("--pool-strength", default="auto", metavar="K",
                        help="pull each player's behaviour fit toward the pooled one, the pool "
                             "worth K of the player's own choices: 0 (each player alone), inf "
                             "(the pool only), or auto (default: the K that best predicts "
                             "held-out matches)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (sampling, --play)")
    parser.add_argument("--limit", type=int, help="score at most this many matches")
    parser.add_argument("--model", default=None,
                        help="the behaviour model to score (default: the first the matches' "
                             "games declare)")
    parser.add_argument("--fit-db", metavar="DB",
                        help="fit the behaviour model on this store's matches (of --variant) "
                             "instead of the scored ones: an out-of-sample score")
    parser.add_argument("--play", type=int, metavar="N",
                        help="first store N matches of --bots of --variant in --db")
    parser.add_argument("--bots", default="greedy",
                        help="with --play: one bot for every seat, or one per seat in turn "
                             "order, comma-separated (the game's bots, e.g. random, greedy, "
                             "pimc)")
    parser.add_argument("--target", type=int, default=1,
                        help="with --play, for a variant with a target option: points to win "
                             "a match (1: about one hand each)")
    parser.add_argument("--pimc-nodes", type=int, default=10_000,
                        help="with --play: a thinking bot's solver nodes per decision (e.g. "
                             "pimc's; a work budget, about 0.05 s of one core)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.samples < 1 or args.moves < 0 or args.shrink < 0:
        raise CommandError("--samples must be at least 1, --moves and --shrink at least 0")
    if args.variant is not None:
        try:
            args.games.variant(args.variant)
        except UnknownGame as error:
            raise CommandError(str(error)) from None
    if args.play:
        _play(args)
    options = Options(args.variant, behaviour=not args.uniform_only, samples=args.samples,
                      seed=args.seed, max_matches=args.limit, ess_target=args.ess_target,
                      max_samples=max(args.max_samples, args.samples), moves=args.moves,
                      shrink=args.shrink, model=args.model,
                      strength=pool_strength(args.pool_strength))
    with open_store(args.db) as store:
        try:
            if args.fit_db is None:
                result = calibrate(store, options, args.games, _progress).to_dict()
            else:
                with open_store(args.fit_db) as fit_on:
                    result = calibrate(store, options, args.games, _progress,
                                       fit_on).to_dict()
                result["fitted_on"] = args.fit_db
        except (NotRevealed, ArchiveError) as error:
            raise CommandError(str(error)) from None
    if not result["matches"]:
        raise CommandError(f"no stored matches{' of ' + args.variant if args.variant else ''} "
                           f"in {args.db}")
    if args.picture is not None:
        draw([result], args.picture)
    if args.json:
        print(json.dumps(result))
    else:
        print("\n".join(summary_lines(result)))
        if args.picture is not None:
            print(f"picture: {args.picture}")
    return 0


def pool_strength(text: str) -> float | None:
    """--pool-strength: None for auto, else a strength of at least 0 (inf allowed)."""
    if text == "auto":
        return None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise CommandError("--pool-strength must be auto, inf or a number at least 0")
    return value


def _progress(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    print(f"\rcalibrate: {done}/{total} matches", end=end, file=sys.stderr, flush=True)


def _play(args: argparse.Namespace) -> None:
    if args.variant is None:
        raise CommandError("--play needs a --variant")
    info = args.games.variant(args.variant)
    if info.option("target") is None:
        args.target = None  # the default 1 is for variants that score to a target
    options = chosen_options(args, info)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    budgets = {"nodes": args.pimc_nodes, "samples": 8}
    try:
        matches = list(bot_matches(args.variant, bots, args.play, args.seed, options, budgets,
                                   args.games))
    except ValueError as error:
        raise CommandError(str(error)) from None
    with open_store(args.db, create=True) as store:
        try:
            save_matches(store, matches, args.games)
        except ArchiveError as error:
            raise CommandError(f"{error} (matches cal-{args.seed}-* are stored already: "
                               "another --seed plays other matches)") from None
