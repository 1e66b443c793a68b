"""`domino-oracle infer FILE.jsonl --seat S|W|N|E|spectator`: one observer's exact belief.

The log may be the full referee log: it is cut to what the observer sees (other seats'
tiles redacted) before folding. A log in which the observer's own tiles are redacted was
not written for that observer and is refused.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from clients.cli import CommandError
from clients.log_file import read_log
from games.dominoes.audience import view
from inference.belief import OBSERVERS, Belief, ObserverError
from inference.errors import InconsistentLog
from inference.references import BudgetExceeded, SamplerGaveUp
from inference.render import render
from inference.snapshot import METHODS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "infer", help="exact probabilities of who holds each unseen tile, from a JSONL log"
    )
    parser.add_argument("file", type=Path, metavar="FILE.jsonl")
    parser.add_argument("--seat", required=True, choices=OBSERVERS, help="whose view")
    parser.add_argument("--at", type=int, metavar="SEQ", help="position after event SEQ")
    parser.add_argument("--method", choices=METHODS, default="exact")
    parser.add_argument("--samples", type=int, default=10_000, help="for the samplers")
    parser.add_argument("--seed", type=int, default=0, help="random seed for the samplers")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.samples < 1:
        raise CommandError("--samples must be >= 1")
    events = read_log(args.file)
    if args.at is not None:
        if not any(e.seq == args.at for e in events):
            raise CommandError(f"--at {args.at}: no event with that seq in {args.file}")
        events = [e for e in events if e.seq <= args.at]
    belief = Belief(args.seat)
    try:
        for event in events:
            belief.apply(view(event, args.seat))
        snapshot = belief.snapshot(args.method, samples=args.samples,
                                   rng=random.Random(args.seed))
    except ObserverError as error:
        raise CommandError(str(error)) from error
    except InconsistentLog as error:
        raise CommandError(f"inconsistent log at {error}") from error
    except (BudgetExceeded, SamplerGaveUp) as error:
        raise CommandError(f"method {args.method}: {error}") from error
    if args.json:
        print(json.dumps(snapshot.to_json_dict(), ensure_ascii=False))
    else:
        print(render(snapshot, belief.variant.max_pip), end="")
    return 0
