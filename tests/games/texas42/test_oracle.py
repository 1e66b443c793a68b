"""The bidding oracle (seed 003, Part V) on a fixed set of hands, with the seed's checks:
P_dd >= P_greedy in every cell, max_trump E[V] <= E[max_trump V] on every hand, intervals
narrowing as N grows, the same figures for the same position, and every number labelled with
its completion model and evaluator."""

from __future__ import annotations

import random

import pytest

from games.texas42.dominoes import SEATS, parse_tile
from games.texas42.oracle import (
    COMPLETION_MODEL,
    DD,
    GREEDY,
    LEVELS,
    LeadTest,
    bidding_oracle,
    completions,
    dd_score,
    evaluate,
    evaluated,
    greedy_score,
    oracle_steps,
    stable,
)
from games.texas42.solver import Solver, hands_of
from games.texas42.suits import DOUBLES, FOLLOW_ME, TRUMPS

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
        out[name] = bidding_oracle(tiles(hand), "S", trumps=trumps, n=6)
    return out


def test_completions_keep_the_hand_and_deal_the_other_21(reports) -> None:
    hand = tiles(HANDS["sixes"][0])
    for deal in completions(hand, "W", 5, random.Random(1)):
        assert sorted(deal["W"]) == sorted(hand)
        assert sorted(t for s in SEATS for t in deal[s]) == sorted({t for s in SEATS
                                                                   for t in deal[s]})
        assert all(len(deal[s]) == 7 for s in SEATS)


def test_every_cell_is_labelled_and_p_dd_is_at_least_p_greedy(reports) -> None:
    for report in reports.values():
        assert report["completion_model"] == COMPLETION_MODEL
        for row in report["cells"].values():
            assert [int(k) for k in row] == list(LEVELS)
            for cell in row.values():
                assert (cell["completion_model"], cell["evaluator"],
                        cell["lower_evaluator"]) == (COMPLETION_MODEL, DD, GREEDY)
                assert cell["P_dd"] >= cell["P_greedy"]
                assert cell["fusion_gap"] == cell["P_dd"] - cell["P_greedy"]
                low, high = cell["P_dd_CI"]
                assert low <= cell["P_dd"] <= high
                assert cell["score_cvar10"] <= cell["score_mean"]
                assert cell["score_q5"] <= cell["score_q50"] <= cell["score_q95"]
                assert cell["robustness_gap"] == cell["score_mean"] - cell["score_q5"]
            # the make probability can only fall as the bid rises
            ups = [row[str(k)]["P_dd"] for k in LEVELS]
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
    assert report["cells"]["6"]["30"]["P_dd"] >= 0.8


def test_the_greedy_floor_never_beats_double_dummy_deal_by_deal() -> None:
    hand = tiles(HANDS["fours"][0])
    for deal in completions(hand, "E", 3, random.Random(9)):
        for trump in (4, FOLLOW_ME):
            dd, leads = dd_score(deal, trump, "E")
            assert greedy_score(deal, trump, "E") <= dd
            assert dd_score(deal, trump, "E", at_least=greedy_score(deal, trump, "E"))[0] == dd
            assert leads  # at least one opening lead reaches the optimum


def test_one_call_per_deal_gives_the_per_trump_figures_and_the_reference_value() -> None:
    """evaluate (every trump in one compiled call) equals greedy_score and dd_score trump by
    trump, for a bidder of either team, and its double-dummy score is the pure-Python
    reference's value (on four of the trumps)."""
    for seat, hand in (("S", HANDS["sixes"][0]), ("W", HANDS["fours"][0])):
        for deal in completions(tiles(hand), seat, 2, random.Random(13)):
            found = evaluate(deal, TRUMPS, seat)
            leader = SEATS.index(seat)
            for trump in TRUMPS:
                floor = greedy_score(deal, trump, seat)
                assert found[trump] == (floor, *dd_score(deal, trump, seat, True, floor))
                if trump in (4, 6, DOUBLES, FOLLOW_ME):  # the reference is slow
                    ns = Solver(trump).value(hands_of([deal[s] for s in SEATS]), leader)
                    assert found[trump][1] == (ns if leader % 2 == 0 else 42 - ns)


def test_intervals_narrow_as_n_grows_and_a_prefix_is_the_smaller_n() -> None:
    """oracle_steps streams the table every few completions: the interval narrows, and the
    first k completions of N are those the stream had at k (a caller may show them)."""
    hand = tiles(HANDS["sixes"][0])
    steps = list(oracle_steps(hand, "S", trumps=(6,), n=12, every=3, with_leads=False))
    assert [s["N"] for s in steps] == [3, 6, 9, 12]
    assert steps[-1]["stopped"].startswith("N reached") and steps[0]["stopped"] == "in progress"

    def width(report: dict) -> float:
        cells = report["cells"]["6"].values()
        return sum(c["P_dd_CI"][1] - c["P_dd_CI"][0] for c in cells) / len(cells)

    assert width(steps[-1]) < width(steps[0])
    assert steps[-1] == bidding_oracle(hand, "S", trumps=(6,), n=12, with_leads=False)


def test_the_same_position_gives_the_same_figures_and_cache_key() -> None:
    """No clock, no caller's seed: the completions are seeded from the position, so a table
    and a replay (or two machines) show the same numbers; another hand or seat differs."""
    hand = tiles(HANDS["fours"][0])
    one = bidding_oracle(hand, "W", trumps=(4,), n=5, with_leads=False)
    two = bidding_oracle(list(reversed(hand)), "W", trumps=(4,), n=5, with_leads=False)
    assert one == two
    other = bidding_oracle(hand, "N", trumps=(4,), n=5, with_leads=False)
    assert other["cache_key"] != one["cache_key"] and other["seed"] != one["seed"]
    assert {s for s in SEATS} >= {one["seat"], other["seat"]}


def test_a_lead_is_tested_only_while_it_can_still_decide_the_flag() -> None:
    """LeadTest over 10 completions (the flag needs one lead optimal in 7): nothing once a
    lead has 7, and only the leads that could still reach 7 if optimal in every one left."""
    test = LeadTest(0b1011, 10)
    assert test.to_test(0) == 0b1011
    for _ in range(3):
        test.add(frozenset({0}))
    assert test.to_test(3) == 0b1011  # leads 1 and 3 could still be optimal in all 7 left
    test.add(frozenset({0}))
    assert test.to_test(4) == 0b0001  # 0 + 6 left < 7: only lead 0 can still decide it
    for _ in range(3):
        test.add(frozenset({0}))
    assert test.to_test(7) == 0  # lead 0 has 7 of 10: the flag is true whatever follows


@pytest.mark.parametrize("seat", ["S", "W"])
def test_the_oracle_s_shortcuts_give_every_figure_and_flag_of_the_full_work(seat: str) -> None:
    """`evaluated` (MTD(f) from the floor plus the mean gap so far; leads tested only while
    they can change the flag) against every lead tested from the floor, completion by
    completion: the same floors and values, the stability flag equal at every count, with
    fewer leads tested and both flags met."""
    hand = tiles(HANDS["sixes"][0] if seat == "S" else HANDS["fours"][0])
    trumps = (6, 4, 2, FOLLOW_ME)
    drawn = completions(hand, seat, 30, random.Random(29))
    full = [evaluate(deal, trumps, seat) for deal in drawn]
    fewer = flags = 0
    seen = set()
    for done, found in enumerate(evaluated(drawn, trumps, seat), start=1):
        for trump in trumps:
            floor, score, leads = full[done - 1][trump]
            assert (found[trump].greedy[-1], found[trump].dd[-1]) == (floor, score)
            assert found[trump].leads[-1] <= leads
            fewer += len(leads) - len(found[trump].leads[-1])
            flag = stable([f[trump][2] for f in full[:done]])
            assert stable(found[trump].leads) == flag
            seen.add(flag)
            flags += 1
    assert fewer > 0 and seen == {True, False} and flags == 30 * len(trumps)
