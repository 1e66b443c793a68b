"""The β (inverse temperature) of each known player, fitted by `calibrate` on stored matches.

The live uses of the behaviour model (the pimc-behaviour bot, the odds request) cannot fit β
on the match they are in; they take these, fitted by maximum likelihood (.temperature) on
the stores of docs/calibration.md: greedy at the search's bound (it always takes a
top-scored move), pimc (at 0.05 s a decision) far from greedy's scores,
random at 0. A player not listed (a person, another bot) gets `DEFAULT`: 0, a player
choosing uniformly among its legal moves — the weakest claim the model can make, and still
better than the uniform belief on random players (docs/calibration.md).
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT = 0.0
"""β of a player with no fit."""

FITTED: Mapping[str, Mapping[str, float]] = {
    # reports/p6-greedy.json, reports/p6-mixed.json, reports/p6-random.json
    "partnership-6": {"greedy": 30.0, "pimc": 0.138, "random": 0.0},
    # reports/b2-greedy.json, reports/b2-pimc.json, reports/b2-random.json
    "block-2": {"greedy": 30.0, "pimc": 0.225, "random": 0.0},
}
"""Variant -> player name -> β. Variants with no fit of their own borrow the nearest one's
(`betas_for`)."""

SAME_AS = {"pimc-behaviour": "pimc"}
"""Bots that play as another does (pimc-behaviour solves the same deals as pimc, drawn from
another posterior): the other's β until one of their own is fitted."""


def betas_for(variant: str, partnership: bool) -> dict[str, float]:
    """Player name -> β for `variant` (partnership-9 borrows partnership-6's, draw-2
    block-2's); each bot also under its table name `bot:<name>`."""
    fitted = dict(FITTED.get(variant) or FITTED["partnership-6" if partnership else "block-2"])
    for name, like in SAME_AS.items():
        if like in fitted:
            fitted.setdefault(name, fitted[like])
    # a live table names its bots `bot:<name>` (server/tables/local.py)
    return {**fitted, **{f"bot:{name}": beta for name, beta in fitted.items()}}
