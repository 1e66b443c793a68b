"""Each player's conditional-logit fit pulled toward the pooled one (inference.shrinkage,
games.behaviour.fit_players): the two ends, the choice of strength on held-out matches, and
who is pulled most."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from games.behaviour import fit_players
from inference.choice_logit import Row, fit_choices
from inference.shrinkage import STRENGTHS, choose, shrunk_fit

FEATURES = 3


def _rows(theta: Sequence[float], count: int, rng: random.Random) -> list[Row]:
    """`count` choices among 2–5 options with random features, drawn from the logit θ."""
    out: list[Row] = []
    for _ in range(count):
        x = np.array([[rng.gauss(0, 1) for _ in range(FEATURES)]
                      for _ in range(rng.randint(2, 5))])
        s = x @ np.array(theta)
        p = np.exp(s - s.max())
        out.append((x, rng.choices(range(len(x)), weights=list(p / p.sum()))[0]))
    return out


def _tagged(rows: Sequence[Row], matches: int) -> list[tuple[int, Row]]:
    return [(i % matches, r) for i, r in enumerate(rows)]


def test_strength_zero_is_the_players_own_fit_and_infinity_the_pools() -> None:
    rng = random.Random(1)
    mine = _rows((1.0, -0.5, 0.0), 80, rng)
    every = [*mine, *_rows((0.0, 0.5, 1.0), 400, rng)]
    pool = fit_choices(every, FEATURES)
    own = fit_choices(mine, FEATURES)
    assert shrunk_fit(mine, FEATURES, pool, len(every), 0.0).theta == own.theta
    assert shrunk_fit(mine, FEATURES, pool, len(every), math.inf).theta == pool.theta
    near = shrunk_fit(mine, FEATURES, pool, len(every), 1e9).theta
    assert np.allclose(near, pool.theta, atol=1e-4), (near, pool.theta)
    middle = shrunk_fit(mine, FEATURES, pool, len(every), 80.0).theta
    assert 0.2 < _pull(middle, own.theta, pool.theta) < 0.8  # strictly between the two


def _pull(shrunk: Sequence[float], own: Sequence[float], pool: Sequence[float]) -> float:
    """How far from its own fit toward the pool's a shrunk fit went (0: none, 1: all)."""
    gap = np.array(pool) - np.array(own)
    return float((np.array(shrunk) - np.array(own)) @ gap / (gap @ gap))


def test_a_player_with_few_choices_is_pulled_toward_the_pool_more() -> None:
    rng = random.Random(2)
    truth = (1.5, -1.0, 0.5)
    few = _rows(truth, 20, rng)
    many = _rows(truth, 800, rng)
    every = [*few, *many, *_rows((-1.0, 1.0, 0.0), 800, rng)]
    pool = fit_choices(every, FEATURES)
    pulls = {}
    for name, rows in (("few", few), ("many", many)):
        own = fit_choices(rows, FEATURES).theta
        shrunk = shrunk_fit(rows, FEATURES, pool, len(every), 30.0).theta
        pulls[name] = _pull(shrunk, own, pool.theta)
    assert pulls["few"] > 0.5 and pulls["many"] < 0.2, pulls
    assert pulls["few"] > 3 * pulls["many"], pulls


def test_players_of_one_policy_lean_on_the_pool_and_different_ones_do_not() -> None:
    rng = random.Random(3)
    same = {f"seat-{k}": _tagged(_rows((1.0, -1.0, 0.5), 40, rng), 20) for k in range(4)}
    chosen = choose(same, FEATURES)
    assert chosen.how == "held-out" and chosen.strength >= 30, chosen
    apart = {"a": _tagged(_rows((2.0, -2.0, 0.0), 150, rng), 20),
             "b": _tagged(_rows((-2.0, 2.0, 0.0), 150, rng), 20)}
    chosen = choose(apart, FEATURES)
    assert chosen.strength <= 3, chosen
    losses = dict(chosen.held_out)
    assert losses[chosen.strength] == min(losses.values())
    assert losses[math.inf] > losses[0.0]  # pooling opposite players predicts worse


def _matches() -> list[tuple[list[Row], dict[str, str]]]:
    """Toy matches: a 'log' is the list of its choices, made alternately by N and S."""
    rng = random.Random(4)
    return [(_rows((1.0, -0.5, 0.2), 12, rng), {"N": "north", "S": "south"})
            for _ in range(15)]


def _rows_of(events: Sequence[Any], players: Mapping[str, str]) -> Iterator[tuple[str, Row]]:
    for k, row in enumerate(events):
        yield players["N" if k % 2 == 0 else "S"], row


class _Fit:
    def __init__(self, player: str, rows: Sequence[Row], found: Any) -> None:
        self.player = player
        self.weights = found.theta if found is not None else (0.0,) * FEATURES
        self.choices = len(rows)

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "weights": list(self.weights), "choices": self.choices}


def test_the_chosen_strength_is_the_same_every_time_and_reported() -> None:
    one = fit_players(_matches(), _rows_of, FEATURES, _Fit)
    two = fit_players(_matches(), _rows_of, FEATURES, _Fit)
    assert one.shrinkage == two.shrinkage and one.params == two.params
    assert one.shrinkage is not None and one.shrinkage["how"] == "held-out"
    assert one.shrinkage["strength"] in [*STRENGTHS[:-1], "inf"]
    assert "held-out log loss" in str(one.shrinkage["why"])
    assert len(one.shrinkage["held_out_log_loss"]) == len(STRENGTHS)
    assert [s["player"] for s in one.summaries] == ["pooled", "north", "south"]
    assert all("own" in s for s in one.summaries[1:])


@pytest.mark.parametrize("strength", [0.0, math.inf])
def test_a_given_strength_is_used_as_given(strength: float) -> None:
    fitted = fit_players(_matches(), _rows_of, FEATURES, _Fit, strength)
    per, pooled = fitted.params
    assert fitted.shrinkage is not None and fitted.shrinkage["how"] == "given"
    for line in fitted.summaries[1:]:
        if math.isinf(strength):
            assert tuple(per[line["player"]]) == tuple(pooled)
        else:
            assert line["weights"] == line["own"]
