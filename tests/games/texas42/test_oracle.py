"""The bidding oracle (seed 003, Part V) on a fixed set of hands, with the seed's checks:
P_upper >= P_lower in every cell, max_trump E[V] <= E[max_trump V] on every hand, intervals
narrowing as N grows, and every number labelled with its completion model and evaluator."""

from __future__ import annotations

import random

import pytest

from games.texas42.dominoes import SEATS, parse_tile
from games.texas42.oracle import (
    COMPLETION_MODEL,
    LEVELS,
    LOWER,
    UPPER,
    bidding_oracle,
    completions,
    greedy_score,
    solver_score,
)
from games.texas42.suits import DOUBLES, FOLLOW_ME

HANDS = {
    "sixes": ("6-6 5-6 4-6 3-6 1-1 5-5 0-5", (6, 5)),
    "doubles": ("0-0 1-1 3-3 4-4 6-6 2-5 1-4", (DOUBLES, FOLLOW_ME)),
    "fours": ("4-4 4-6 4-5 2-4 0-4 3-3 0-1", (4, FOLLOW_ME)),
}


def tiles(text: str):
    return [parse_tile(x) for x in text.split()]


@pytest.fixture(scope="module")
def reports():
    out = {}
    for name, (hand, trumps) in HANDS.items():
        out[name] = bidding_oracle(tiles(hand), "S", random.Random(5), trumps=trumps,
                                   batch=4, n_min=4, n_max=4)
    return out


def test_completions_keep_the_hand_and_deal_the_other_21(reports) -> None:
    hand = tiles(HANDS["sixes"][0])
    for deal in completions(hand, "W", 5, random.Random(1)):
        assert sorted(deal["W"]) == sorted(hand)
        assert sorted(t for s in SEATS for t in deal[s]) == sorted({t for s in SEATS
                                                                   for t in deal[s]})
        assert all(len(deal[s]) == 7 for s in SEATS)


def test_every_cell_is_labelled_and_p_upper_is_at_least_p_lower(reports) -> None:
    for report in reports.values():
        assert report["completion_model"] == COMPLETION_MODEL
        for row in report["cells"].values():
            assert [int(k) for k in row] == list(LEVELS)
            for cell in row.values():
                assert (cell["completion_model"], cell["evaluator"],
                        cell["lower_evaluator"]) == (COMPLETION_MODEL, UPPER, LOWER)
                assert cell["P_upper"] >= cell["P_lower"]
                assert cell["fusion_gap"] == cell["P_upper"] - cell["P_lower"]
                low, high = cell["P_upper_CI"]
                assert low <= cell["P_upper"] <= high
                assert cell["score_q5"] <= cell["score_q50"] <= cell["score_q95"]
                assert cell["robustness_gap"] == cell["score_mean"] - cell["score_q5"]
            # the make probability can only fall as the bid rises
            ups = [row[str(k)]["P_upper"] for k in LEVELS]
            assert ups == sorted(ups, reverse=True)


def test_trump_is_chosen_by_max_of_means_never_mean_of_maxes(reports) -> None:
    for report in reports.values():
        means = report["score_means"]
        assert report["max_trump_E_score"] == max(means.values())
        assert report["trump"] == max(means, key=means.get)
        assert report["max_trump_E_score"] <= report["E_max_trump_score"]
        assert report["trump_fusion_gap"] >= 0


def test_the_strong_sixes_hand_looks_strong_in_sixes(reports) -> None:
    report = reports["sixes"]
    assert report["trump"] == "6"
    assert report["cells"]["6"]["30"]["P_upper"] >= 0.8


def test_the_lower_bracket_never_beats_the_solver_deal_by_deal() -> None:
    hand = tiles(HANDS["fours"][0])
    for deal in completions(hand, "E", 3, random.Random(9)):
        for trump in (4, FOLLOW_ME):
            upper, leads = solver_score(deal, trump, "E")
            assert greedy_score(deal, trump, "E") <= upper
            assert leads  # at least one opening lead reaches the optimum


def test_intervals_narrow_as_n_grows() -> None:
    hand = tiles(HANDS["sixes"][0])

    def widths(n: int) -> float:
        report = bidding_oracle(hand, "S", random.Random(2), trumps=(6,), batch=4, n_min=n,
                                n_max=n, with_leads=False)
        cells = report["cells"]["6"].values()
        assert all(c["N"] == n for c in cells)
        return sum(c["P_upper_CI"][1] - c["P_upper_CI"][0] for c in cells) / len(cells)

    assert widths(12) < widths(3)


def test_sequential_sampling_stops_on_a_narrow_interval_or_the_budget() -> None:
    hand = tiles(HANDS["sixes"][0])
    calls = []
    report = bidding_oracle(hand, "S", random.Random(3), trumps=(6,), batch=2, n_min=2,
                            n_max=50, target_width=0.0,
                            budget=lambda: calls.append(1) or len(calls) < 2,
                            with_leads=False)
    assert report["stopped"] == "budget" and report["N"] == 2  # checked after each completion
    starved = bidding_oracle(hand, "S", random.Random(3), trumps=(6, 5), batch=2, n_min=2,
                             n_max=50, nodes_left=lambda: 10, with_leads=False)
    # the first completion is always solved; the next cannot be in 10 plays and is left out
    # whole (for every trump: common random numbers)
    assert starved["stopped"] == "budget" and starved["N"] == 1
    assert all(c["N"] == 1 for row in starved["cells"].values() for c in row.values())
    wide = bidding_oracle(hand, "S", random.Random(3), trumps=(6,), batch=2, n_min=2,
                          n_max=50, target_width=1.0, with_leads=False)
    assert wide["stopped"] == "interval narrow enough" and wide["N"] == 2
