"""The report as a picture: a reliability diagram and the log loss by move, one line per
model, drawn with matplotlib (PNG or SVG by the file's suffix). Reads only the report's JSON,
so a stored report can be drawn again without the store."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # after choosing the backend

COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red")


def draw(reports: Sequence[Mapping[str, Any]], path: Path) -> None:
    """One row per report (a variant, say): reliability on the left, loss by move right."""
    rows = len(reports)
    figure, axes = plt.subplots(rows, 2, figsize=(11, 4.2 * rows), squeeze=False)
    for row, report in zip(axes, reports, strict=True):
        _reliability(row[0], report)
        _by_move(row[1], report)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _title(report: Mapping[str, Any]) -> str:
    return (f"{report.get('title') or report.get('variant') or 'all variants'}: "
            f"{report['matches']} matches, {report['positions']} positions")


def _reliability(ax: Any, report: Mapping[str, Any]) -> None:
    ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle="--", label="perfect")
    for k, (name, model) in enumerate(report["models"].items()):
        bins = [b for b in model["reliability"] if b["count"]]
        x = [b["mean_predicted"] for b in bins]
        y = [b["observed"] for b in bins]
        low = [b["observed"] - b["wilson95"][0] for b in bins]
        high = [b["wilson95"][1] - b["observed"] for b in bins]
        ax.errorbar(x, y, yerr=[low, high], marker="o", markersize=4, capsize=2,
                    color=COLOURS[k % len(COLOURS)],
                    label=f"{name} (log loss {model['log_loss']:.3f})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted probability (bin mean)")
    ax.set_ylabel("observed frequency (Wilson 95%)")
    ax.set_title(_title(report), fontsize=10)
    ax.legend(fontsize=8, loc="upper left")


def _by_move(ax: Any, report: Mapping[str, Any]) -> None:
    for k, (name, model) in enumerate(report["models"].items()):
        rows = [r for r in model["by_move"] if r["items"]]
        ax.plot([r["move"] for r in rows], [r["log_loss"] for r in rows], marker=".",
                color=COLOURS[k % len(COLOURS)], label=name)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("moves into the hand")
    ax.set_ylabel("log loss per uncertain tile (nats)")
    ax.set_title("log loss by move", fontsize=10)
    ax.legend(fontsize=8)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m calibration.picture OUT.png REPORT.json[=TITLE] ...`: several stored
    `calibrate --json` reports drawn as one picture, one row each."""
    import json
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2:
        print("usage: python -m calibration.picture OUT.png|svg REPORT.json[=TITLE] ...",
              file=sys.stderr)
        return 2
    reports = []
    for arg in args[1:]:
        path, _, title = arg.partition("=")
        report = json.loads(Path(path).read_text())
        if title:
            report["title"] = title
        reports.append(report)
    draw(reports, Path(args[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
