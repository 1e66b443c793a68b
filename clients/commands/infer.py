"""`domino-oracle infer FILE.jsonl --seat SEAT|spectator`: one observer's exact belief.

Any registered game: the log is cut to what the observer sees (`Game.view`) and folded into
the game's belief (`Game.belief(observer, variant)`); `--json` prints its `snapshot_dict()`.
A game that declares its own infer (`Capabilities.inspect`, games.interface.Inspector) is
asked instead: its methods (reference samplers beside `exact`), its own picture of a belief
for a person, its own refusals. `--method` other than `exact` for a game that declares none
is a typed refusal.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from clients.cli import CommandError
from clients.log_file import check_audience, not_offered, read_log, variant_of, view_of
from games.interface import JSON, Game, RuleViolation


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "infer", help="exact probabilities of who holds each unseen tile, from a JSONL log"
    )
    parser.add_argument("file", type=Path, metavar="FILE.jsonl")
    parser.add_argument("--seat", required=True, metavar="SEAT",
                        help="whose view: a seat of the match (S, W, N, E in partnership "
                             "dominoes) or 'spectator'")
    parser.add_argument("--at", type=int, metavar="SEQ", help="position after event SEQ")
    parser.add_argument("--method", default="exact",
                        help="exact (any game), or a reference sampler of a game that "
                             "declares them (partnership dominoes: rejection, "
                             "enumeration, seed-7.1)")
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
    inspector = log.game.capabilities.inspect
    methods = inspector.methods if inspector is not None else ("exact",)
    if args.method not in methods:
        raise not_offered(log.game, f"infer --method {args.method}",
                          f"its methods: {', '.join(methods)}")
    variant = variant_of(log)
    if inspector is not None:
        name = variant.name if variant is not None else str(
            log.game.event_to_dict(events[0]).get("variant", ""))
        try:
            print(inspector.inspect(view_of(log.game, events, args.seat), args.seat, name,
                                    args.method, args.samples, args.seed, args.json), end="")
        except ValueError as error:
            raise CommandError(str(error)) from error
        return 0
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


def render_any(snapshot: JSON, observer: str, seq: int, game: str) -> str:
    """Any game's snapshot for a person: its scalar fields, then each holder's items, most
    likely first (a game may declare its own picture: `Capabilities.inspect`)."""
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
