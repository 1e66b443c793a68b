"""Two pool strengths of a learnt behaviour model scored on the same positions, paired.

`calibrate` scores one behaviour model per run against the uniform belief; whether pulling
each player's fit toward the pool (games.behaviour.fit_players) helped is the difference
between two such runs at the same positions. This scores both and pairs them by position,
the interval clustered by hand as the report's comparison is:

    python -m clients.pool_strengths --db DB --variant V [--fit-db F] [--limit N]
        [--samples S --ess-target E --max-samples M --shrink K --seed X] [--a 0] [--b auto]

prints JSON: each strength's behaviour log loss and `shrinkage`, and `b_minus_a` (negative: b
predicts better).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from typing import Any

from calibration.report import Options, Report, calibrate
from calibration.scores import paired_difference
from clients.commands.calibrate import pool_strength
from clients.store_option import open_store


def score(args: argparse.Namespace, strength: float | None) -> Report:
    """One calibrate pass with the behaviour model's pool strength `strength`."""
    options = Options(args.variant, samples=args.samples, seed=args.seed,
                      max_matches=args.limit, ess_target=args.ess_target,
                      max_samples=max(args.max_samples, args.samples), shrink=args.shrink,
                      strength=strength)
    with open_store(args.db) as store:
        if args.fit_db is None:
            return calibrate(store, options)
        with open_store(args.fit_db) as fit_on:
            return calibrate(store, options, fit_on=fit_on)


def compare(a: Report, b: Report) -> dict[str, Any]:
    """b's behaviour log loss minus a's, paired by position (clustered by hand)."""
    assert a.behaviour is not None and a.behaviour == b.behaviour
    out: dict[str, Any] = {}
    for name, report in (("a", a), ("b", b)):
        card = report.cards[report.behaviour or ""].overall
        out[name] = {"log_loss": round(card.log_loss / max(1, card.items), 6),
                     "shrinkage": report.shrinkage}
    out["b_minus_a"] = paired_difference(a.cards[a.behaviour], b.cards[b.behaviour], cluster=2)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--variant", required=True)
    parser.add_argument("--fit-db")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--samples", type=int, default=128)
    parser.add_argument("--ess-target", type=float, default=30.0)
    parser.add_argument("--max-samples", type=int, default=1024)
    parser.add_argument("--shrink", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--a", default="0", help="the first strength (default 0)")
    parser.add_argument("--b", default="auto", help="the second (default auto)")
    args = parser.parse_args(argv)
    result = compare(score(args, pool_strength(args.a)), score(args, pool_strength(args.b)))
    print(json.dumps(result, default=lambda v: "inf" if v == math.inf else str(v)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
