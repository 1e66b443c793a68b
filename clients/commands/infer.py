"""`domino-oracle infer FILE.jsonl --seat SEAT|spectator`: one observer's exact belief.

Any registered game: the log is cut to what the observer sees (`Game.view`) and folded into
the game's belief (`Game.belief(observer, variant)`); `--json` prints its `snapshot_dict()`.
Dominoes adds its extras: the reference samplers (`--method`), the triangle of
probabilities for a person, and the refusal of a log in which the observer's own tiles are
redacted (it was not written for that observer).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from clients.cli import CommandError
from clients.log_file import (
    check_audience,
    is_dominoes,
    only_for_dominoes,
    read_log,
    variant_of,
    view_of,
)
from games.dominoes.belief_partnership import Belief, ObserverError
from games.dominoes.belief_two import TwoPlayerBelief, two_player
from games.dominoes.render import render
from games.dominoes.snapshot import METHODS
from games.interface import JSON, Game, RuleViolation
from inference.errors import InconsistentLog
from inference.references import BudgetExceeded, SamplerGaveUp


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "infer", help="exact probabilities of who holds each unseen tile, from a JSONL log"
    )
    parser.add_argument("file", type=Path, metavar="FILE.jsonl")
    parser.add_argument("--seat", required=True, metavar="SEAT",
                        help="whose view: a seat of the match (S, W, N, E in partnership "
                             "dominoes) or 'spectator'")
    parser.add_argument("--at", type=int, metavar="SEQ", help="position after event SEQ")
    parser.add_argument("--method", choices=METHODS, default="exact",
                        help="exact (any game) or a reference sampler (dominoes only)")
    parser.add_argument("--samples", type=int, default=10_000, help="for the samplers")
    parser.add_argument("--seed", type=int, default=0, help="random seed for the samplers")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.samples < 1:
        raise CommandError("--samples must be >= 1")
    log = read_log(args.file, args.games)
    events = log.events
    if args.at is not None:
        if not any(e.seq == args.at for e in events):
            raise CommandError(f"--at {args.at}: no event with that seq in {args.file}")
        events = [e for e in events if e.seq <= args.at]
    check_audience(log, args.seat, "--seat", referee=False)
    if is_dominoes(log.game):
        return _infer_dominoes(args, log.game, events)
    if args.method != "exact":
        only_for_dominoes(log.game, f"infer --method {args.method}")
    variant = variant_of(log)
    if variant is None:
        raise CommandError(f"{args.file}: the log names no variant that {log.game.name} hosts")
    snapshot = _fold(log.game, variant.name, args.seat, events, args.file)
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False))
    else:
        print(render_any(snapshot, args.seat, events[-1].seq, log.game.name), end="")
    return 0


def _fold(game: Game, variant: str, seat: str, events: list[Any], file: Path) -> JSON:
    """The game's belief for `seat` after `events` (folded from the seat's own view)."""
    belief = game.belief(seat, variant)
    try:
        for event in view_of(game, events, seat):
            belief.apply(event)
        return belief.snapshot_dict()
    except (ValueError, RuleViolation) as error:
        raise CommandError(f"{file}: the {game.name} belief cannot fold this log: "
                           f"{error}") from error


def _infer_dominoes(args: argparse.Namespace, game: Game, events: list[Any]) -> int:
    """The dominoes belief itself (not its interface wrapper): the samplers and the
    triangle need it; its exact snapshot is what `Game.belief(...).snapshot_dict()` gives.
    Two players (block-2, draw-2): the draw-batch belief, exact only."""
    variant = str(game.event_to_dict(events[0]).get("variant", "")) if events else ""
    belief: Belief | TwoPlayerBelief
    if variant in game.variants() and two_player(variant):
        if args.method != "exact":
            raise CommandError(f"--method {args.method}: {variant} has the exact method only")
        belief = TwoPlayerBelief(args.seat, variant)
    else:
        belief = Belief(args.seat)
    try:
        for event in view_of(game, events, args.seat):
            belief.apply(event)
        snapshot = (belief.snapshot() if isinstance(belief, TwoPlayerBelief) else
                    belief.snapshot(args.method, samples=args.samples,
                                    rng=random.Random(args.seed)))
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


def render_any(snapshot: JSON, observer: str, seq: int, game: str) -> str:
    """Any game's snapshot for a person: its scalar fields, then each holder's items, most
    likely first (dominoes has its own triangle: games.dominoes.render)."""
    lines = [f"{observer}'s view after event {seq} ({game})"]
    for key, value in snapshot.items():
        if key != "marginals" and not isinstance(value, dict | list):
            lines.append(f"{key.replace('_', ' ')}: {value}")
    marginals = snapshot.get("marginals")
    if isinstance(marginals, dict):
        for holder, row in marginals.items():
            ranked = sorted(row.items(), key=lambda item: (-item[1], item[0])) \
                if isinstance(row, dict) else []
            shown = "  ".join(f"{item} {p:.1%}" for item, p in ranked if p > 0) or "—"
            lines.append(f"  {holder}: {shown}")
    return "\n".join(lines) + "\n"
