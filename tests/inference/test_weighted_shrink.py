"""The defensive mixture's weight on the uniform belief: shrink / (shrink + ESS)."""

from __future__ import annotations

import math

import pytest

from inference.weighted import weigh


@pytest.mark.parametrize("shrink", [0.0, 1.0, 10.0])
def test_the_mixture_leans_on_the_uniform_belief_by_shrink_over_ess(shrink: float) -> None:
    deals = [{"N": ["a"], "pool": ["b"]}, {"N": ["b"], "pool": ["a"]},
             {"N": ["a"], "pool": ["b"]}]
    logs = [0.0, math.log(0.5), math.log(0.25)]
    uniform = {"a": {"N": 0.5, "pool": 0.5}, "b": {"N": 0.5, "pool": 0.5}}
    out = weigh(deals, logs, str, uniform, exact=False, shrink=shrink)
    w = [1.0, 0.5, 0.25]
    ess = sum(w) ** 2 / sum(x * x for x in w)
    assert out.ess == pytest.approx(ess)
    p_hat = (1.0 + 0.25) / sum(w)  # N holds a in deals 1 and 3
    lam = shrink / (shrink + ess)
    assert out.marginals["a"]["N"] == pytest.approx((1 - lam) * p_hat + lam * 0.5)
    assert out.marginals["a"]["N"] + out.marginals["a"]["pool"] == pytest.approx(1.0)
    exact = weigh(deals, logs, str, uniform, exact=True, shrink=shrink)
    assert exact.marginals["a"]["N"] == pytest.approx(p_hat)  # a listing is not shrunk
