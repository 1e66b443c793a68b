"""The Python mirror of the page's number formatting breaks ties as JavaScript does."""

from __future__ import annotations

from tests.web.js_numbers import js_round, js_to_fixed


def test_ties_go_away_from_zero_as_to_fixed_does() -> None:
    assert js_to_fixed(100 * 0.3125, 1) == "31.3"  # Python's format says 31.2
    assert f"{100 * 0.3125:.1f}" == "31.2"
    assert js_to_fixed(37.5, 1) == "37.5" and js_to_fixed(-2.25, 1) == "-2.3"
    assert js_to_fixed(2.675, 2) == "2.67"  # the double is just under 2.675


def test_math_round_takes_ties_up() -> None:
    assert js_round(12.5) == 13 and round(12.5) == 12
    assert js_round(-2.5) == -2 and js_round(0.49999999999999994) == 0
