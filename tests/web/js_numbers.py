"""The page's number formatting, in Python: what a test expects the browser to print.

Python's `f"{x:.1f}"` and `round(x)` break ties to the even digit; JavaScript's
`Number.prototype.toFixed` breaks them away from zero and `Math.round` toward +infinity. A
probability of 5/16 is 31.25% exactly: the page shows 31.3, Python's format 31.2. Both work on
the double's exact value, as `Decimal(float)` does here.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal


def js_to_fixed(x: float, digits: int) -> str:
    """`x.toFixed(digits)` as the browser prints it (for |x| < 1e21, as the page's are)."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def js_round(x: float) -> int:
    """`Math.round(x)`: the nearest integer, a tie going toward +infinity."""
    return math.floor(Decimal(x) + Decimal("0.5"))
