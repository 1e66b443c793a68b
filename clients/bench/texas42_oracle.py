"""The bidding oracle over a fixed set of hands: the seed's sanity checks and how often the
fusion gap is large, written as JSON (docs/tournaments/texas-42-oracle.json).

    python -m clients.bench.texas42_oracle --hands 6 --n 16 --out FILE
    python -m clients.bench.texas42_oracle --hand "6-6 5-6 4-6 3-6 1-1 5-5 0-5" \
        --n 150                        # one hand: its whole labelled table

Hands: South's seven from seeded shuffles (the same seed, the same hands). Each hand gets the
full table (every trump, every bid level) at a fixed N, its completions seeded from the
position, so hands compare and a rerun gives the same figures. With --hand, the whole labelled
table of one hand as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from games.texas42.dominoes import SEATS, TILES, parse_tile
from games.texas42.oracle import bidding_oracle

LARGE_GAP = 0.2


def hands(count: int, seed: int) -> list[list[Any]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        tiles = list(TILES)
        rng.shuffle(tiles)
        out.append(sorted(tiles[:7]))
    return out


def summarise(report: dict[str, Any]) -> dict[str, Any]:
    cells = [c for row in report["cells"].values() for c in row.values()]
    chosen = report["cells"][report["trump"]]
    return {
        "hand": report["hand"], "N": report["N"], "trump": report["trump"],
        "max_trump_E_score": report["max_trump_E_score"],
        "E_max_trump_score": report["E_max_trump_score"],
        "max_E_le_E_max": report["max_trump_E_score"] <= report["E_max_trump_score"],
        "p_dd_ge_p_greedy_everywhere": all(c["P_dd"] >= c["P_greedy"] for c in cells),
        "cells": len(cells),
        "cells_with_large_fusion_gap": sum(1 for c in cells if c["fusion_gap"] > LARGE_GAP),
        "chosen_trump_unstable": not chosen["30"]["strategy_stable"],
        "chosen_trump": {k: {x: chosen[k][x] for x in ("P_dd", "P_dd_CI", "P_greedy",
                                                      "fusion_gap", "score_q5", "score_q50",
                                                      "score_q95")}
                         for k in ("30", "32", "34", "36", "42")},
    }


def one_hand(args: argparse.Namespace) -> int:
    hand = sorted(parse_tile(t) for t in args.hand.split())
    if len(hand) != 7 or len(set(hand)) != 7:
        raise SystemExit("--hand: seven different dominoes, e.g. '6-6 5-6 4-6 3-6 1-1 5-5 0-5'")
    report = bidding_oracle(hand, args.seat, n=args.n)
    text = json.dumps(report, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--n", type=int, default=16, help="completions per hand")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--hand", help="one hand of seven ('6-6 5-6 ...'): its full table")
    parser.add_argument("--seat", default="S", choices=SEATS)
    args = parser.parse_args(argv)
    if args.hand:
        return one_hand(args)
    rows = []
    started = time.perf_counter()
    for hand in hands(args.hands, args.seed):
        report = bidding_oracle(hand, "S", n=args.n)
        rows.append(summarise(report))
        row = rows[-1]
        print(f"{' '.join(row['hand'])}: trump {row['trump']}, max_T E = "
              f"{row['max_trump_E_score']:.1f} <= E max_T = {row['E_max_trump_score']:.1f}, "
              f"P(30) dd {row['chosen_trump']['30']['P_dd']:.2f} greedy "
              f"{row['chosen_trump']['30']['P_greedy']:.2f}, large fusion gaps "
              f"{row['cells_with_large_fusion_gap']}/{row['cells']}", flush=True)
    cells = sum(r["cells"] for r in rows)
    large = sum(r["cells_with_large_fusion_gap"] for r in rows)
    out = {"command": f"python -m clients.bench.texas42_oracle --hands {args.hands} "
                      f"--n {args.n} --seed {args.seed}",
           "seat": "S (opening bidder, no bids before it)", "large_gap": LARGE_GAP,
           "cells": cells, "cells_with_large_fusion_gap": large,
           "share_large": large / cells if cells else 0.0,
           "all_p_dd_ge_p_greedy": all(r["p_dd_ge_p_greedy_everywhere"] for r in rows),
           "all_max_E_le_E_max": all(r["max_E_le_E_max"] for r in rows),
           "seconds": round(time.perf_counter() - started, 1), "hands": rows}
    print(f"large fusion gap (> {LARGE_GAP}) in {large}/{cells} cells; sanity: P_dd >= "
          f"P_greedy {out['all_p_dd_ge_p_greedy']}, max E <= E max {out['all_max_E_le_E_max']}")
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
