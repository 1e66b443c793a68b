"""The player model's softmax log-probability far out in the tail (greedy's β = 30)."""

from __future__ import annotations

import math

from games.dominoes.behaviour.model import softmax_log_prob


def test_a_move_scored_far_below_the_best_is_unlikely_not_an_error() -> None:
    # double-nine: a play 30 points under the best, at β = 30 (exp(-900) is 0.0 in floats)
    got = softmax_log_prob([0.0, 30.0, 12.0], [0], 30.0)
    assert math.isfinite(got) and abs(got - (-900.0)) < 1e-9
    # two chosen moves (a tile fitting both ends), both in the tail
    got = softmax_log_prob([0.0, 0.0, 40.0], [0, 1], 30.0)
    assert abs(got - (-1200.0 + math.log(2.0))) < 1e-9


def test_it_agrees_with_the_plain_formula_where_that_is_finite() -> None:
    scores, beta = [1.0, 2.5, 2.5, 0.0], 1.3
    for chosen in ([0], [1, 2], [3], [0, 1, 2, 3]):
        plain = math.log(sum(math.exp(beta * scores[j]) for j in chosen)
                         / sum(math.exp(beta * s) for s in scores))
        assert abs(softmax_log_prob(scores, chosen, beta) - plain) < 1e-12
