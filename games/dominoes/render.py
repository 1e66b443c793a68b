"""Human output: each unknown holder's chances laid out as the domino triangle."""

from __future__ import annotations

from games.dominoes.snapshot import BeliefSnapshot
from inference.classes import POOL


def cell(p: float | None) -> str:
    """Four characters: ' 47%', '100%', '  0%'; '  — ' for a tile that is not unseen."""
    if p is None:
        return "  — "
    if 0.0 < p < 0.005:
        return "  <1"
    if 0.995 <= p < 1.0:
        return " >99"
    return f"{round(p * 100):3d}%"


def triangle(column: dict[str, float], max_pip: int) -> list[str]:
    """Rows = low value, columns = high value; a blank below the diagonal."""
    values = range(max_pip + 1)
    lines = [("     " + "".join(f"  {b}  " for b in values)).rstrip()]
    for a in values:
        cells = ["     " if b < a else cell(column.get(f"{a}-{b}")) + " " for b in values]
        lines.append(f"  {a}  " + "".join(cells).rstrip())
    return lines


def render(snapshot: BeliefSnapshot, max_pip: int) -> str:
    head = f"{snapshot.observer}'s view after event {snapshot.seq}"
    if snapshot.hand is not None:
        head += f" (hand {snapshot.hand}, {snapshot.status})"
    lines = [head]
    if snapshot.status != "live":
        lines.append("nothing unseen: " + {
            "idle": "no hand has started",
            "waiting": "this seat's tiles are not dealt yet",
            "ended": "the hand is over and every tile was shown",
        }[snapshot.status])
        return "\n".join(lines) + "\n"
    if snapshot.consistent_deals is not None:
        lines.append(f"consistent deals: {snapshot.consistent_deals:,} "
                     f"({snapshot.log2_deals:.2f} bits; per-tile entropy "
                     f"{snapshot.marginal_entropy:.2f} bits)")
    else:
        lines.append(f"method {snapshot.method}: {snapshot.samples:,} samples")
    for holder, column in snapshot.marginals.items():
        title = "the pool" if holder == POOL else holder
        count = snapshot.remaining.get(holder)
        tiles = f"{count} tile{'' if count == 1 else 's'}"
        lines += ["", f"{title} ({tiles})" if count is not None else title]
        lines += triangle(column, max_pip)
    if snapshot.facts:
        lines += ["", "facts:"] + [f"  - {fact}" for fact in snapshot.facts]
    return "\n".join(lines) + "\n"
