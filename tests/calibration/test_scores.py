"""The scores on cases small enough to work out by hand."""

from __future__ import annotations

import math

import pytest

from calibration.scores import Scorecard, brier, log_loss, paired_difference, wilson


def test_log_loss_and_brier_of_one_forecast() -> None:
    dist = {"W": 0.25, "E": 0.75}
    assert log_loss(dist, "E") == pytest.approx(-math.log(0.75))
    assert log_loss(dist, "W") == pytest.approx(math.log(4))
    assert brier(dist, "E") == pytest.approx(0.25**2 + 0.25**2)
    assert brier({"W": 1.0, "E": 0.0}, "E") == pytest.approx(2.0)
    assert brier({"W": 1.0}, "E") == pytest.approx(2.0)  # the truth named nowhere counts too


def test_wilson_interval_known_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_scorecard_bins_skips_sure_items_and_counts_the_impossible() -> None:
    card = Scorecard(bins=4)
    forecasts = {
        "1-2": {"W": 0.3, "E": 0.7},  # E held it
        "3-4": {"W": 1.0, "E": 0.0},  # sure: skipped
        "5-6": {"W": 0.6, "E": 0.4},  # W held it
    }
    truth = {"1-2": "E", "3-4": "W", "5-6": "W"}
    card.add_position(("m", "1", "S", "5"), 2, forecasts, truth)
    assert card.overall.items == 2 and card.overall.positions == 1
    assert card.overall.log_loss == pytest.approx(-math.log(0.7) - math.log(0.6))
    counts = [(b.count, b.hits) for b in card.reliability]
    # 0.3 -> bin 1 (miss), 0.4 -> bin 1 (miss), 0.6 -> bin 2 (hit), 0.7 -> bin 2 (hit)
    assert counts == [(0, 0), (2, 0), (2, 2), (0, 0)]
    assert card.per_position[("m", "1", "S", "5")] == pytest.approx(
        (-math.log(0.7) - math.log(0.6)) / 2)
    wrong = Scorecard()
    wrong.add_position(("m", "1", "S", "6"), 3, {"1-2": {"W": 1.0, "E": 0.0}}, {"1-2": "E"},
                       items={"1-2"})
    assert wrong.overall.impossible == 1 and wrong.overall.log_loss > 27
    table = card.to_dict()
    assert table["by_move"] == [{"move": 2, "positions": 1, "items": 2,
                                 "log_loss": pytest.approx(card.overall.log_loss / 2, abs=1e-6),
                                 "brier": pytest.approx(card.overall.brier / 2, abs=1e-6),
                                 "impossible": 0}]


def test_paired_difference_clusters_by_hand() -> None:
    a, b = Scorecard(), Scorecard()
    # hand 1: b better by 0.2 at two positions; hand 2: b worse by 0.1 at one
    for key, la, lb in ((("m", "1", "S", "1"), 1.0, 0.8), (("m", "1", "N", "1"), 0.5, 0.3),
                        (("m", "2", "S", "1"), 0.6, 0.7)):
        a.per_position[key] = la
        b.per_position[key] = lb
    result = paired_difference(a, b, cluster=2)
    assert result["hands"] == 2 and result["positions"] == 3
    assert result["difference"] == pytest.approx((-0.2 + 0.1) / 2)
    low, high = result["ci95"]
    assert low < result["difference"] < high
