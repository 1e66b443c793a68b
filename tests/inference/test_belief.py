"""The belief fold: the seed's worked example (§9), resets, typed errors, first-hand rule."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from games.dominoes.belief_partnership import Belief, ObserverError
from games.dominoes.events import HandEnded, MatchEnded, TilesDrawn
from games.dominoes.tiles import parse_tile
from inference import InconsistentLog
from inference.counting import exact_marginals, solve
from inference.references import enumerate_deals
from tests.inference.helpers import SEED, dealt, passed, play, start

SOUTH = ["0-1", "1-3", "2-5", "3-3", "4-6", "5-5", "6-6"]


def worked_example() -> list:
    """§9: S holds SOUTH; S plays 3-3, W passes, N plays 3-6, E plays 2-6 (a later hand:
    in a match's first hand 6-6 would have to open)."""
    return [
        *start(),
        dealt(3, "S", SOUTH),
        dealt(4, "W", None),
        dealt(5, "N", None),
        dealt(6, "E", None),
        play(7, "S", "3-3", None),
        passed(8, "W"),
        play(9, "N", "3-6", "right"),
        play(10, "E", "2-6", "right"),
    ]


def test_worked_example_numbers() -> None:
    belief = Belief.from_events(worked_example(), "S")
    position = belief.position()
    assert belief.ends == (3, 2)
    assert len(position.allowed) == 19
    cands = {h: {t for t, m in position.allowed.items() if m >> i & 1}
             for i, h in enumerate(position.holders)}
    assert len(cands["W"]) == 15 and len(cands["N"]) == 19 and len(cands["E"]) == 19
    assert dict(zip(position.holders, position.counts, strict=True)) == {"W": 7, "N": 6, "E": 6}
    excluded = {parse_tile(t) for t in ["0-3", "2-3", "3-4", "3-5"]}
    assert set(position.allowed) - cands["W"] == excluded
    # |Ω|: W takes 7 of its 15 candidates, N and E split the other 12 six and six
    omega = math.comb(15, 7) * math.comb(12, 6)
    assert solve(position).total == omega == 5_945_940
    exact = exact_marginals(position)
    for t in position.allowed:
        pw = Fraction(*exact["W"][t])
        pn, pe = Fraction(*exact["N"][t]), Fraction(*exact["E"][t])
        assert pn == pe  # N and E are symmetric
        if t in excluded:
            assert pw == 0 and pn == Fraction(1, 2)
        else:  # the seed's "7/15 intuition" is in fact exact here
            assert pw == Fraction(7, 15) and pn == Fraction(4, 15)
    snap = belief.snapshot()
    assert snap.consistent_deals == omega
    assert abs(snap.log2_deals - math.log2(omega)) < 1e-12
    assert "W has no 3s" in snap.facts
    assert "N and E hold all four remaining 3s" in snap.facts
    data = snap.to_json_dict()
    assert data["seq"] == 10 and data["observer"] == "S"
    assert set(data["marginals"]) == {"W", "N", "E"}
    assert all(len(col) == 19 for col in data["marginals"].values())
    assert abs(data["marginals"]["W"]["0-0"] - 7 / 15) < 1e-15


def test_worked_example_cross_checked_by_enumeration() -> None:
    """Enumerate W's hands (C(15,7)); every one leaves 12 tiles N and E may split freely."""
    position = Belief.from_events(worked_example(), "S").position()
    w = position.holder_index("W")
    cands = sorted(t for t, m in position.allowed.items() if m >> w & 1)
    deals = 0
    held = dict.fromkeys(cands, 0)
    for hand in itertools.combinations(cands, 7):
        deals += math.comb(12, 6)
        for t in hand:
            held[t] += math.comb(12, 6)
    assert deals == solve(position).total
    exact = exact_marginals(position)
    assert all(Fraction(held[t], deals) == Fraction(*exact["W"][t]) for t in cands)
    # and the seed's own §8 enumerator one play later (smaller), against the DP
    later = [*worked_example(), play(11, "S", "2-5", "right"), passed(12, "W")]
    small = Belief.from_events(later, "S").position()
    reference = enumerate_deals(small, budget=5_000_000)
    assert reference.consistent_deals == solve(small).total


def test_incremental_equals_from_scratch() -> None:
    events = worked_example()
    belief = Belief("S")
    for i, event in enumerate(events, start=1):
        belief.apply(event)
        scratch = Belief.from_events(events[:i], "S")
        assert belief.snapshot().to_json_dict() == scratch.snapshot().to_json_dict()


def test_spectator_has_four_unknown_holders() -> None:
    belief = Belief.from_events(worked_example(), "spectator")
    snap = belief.snapshot()
    assert set(snap.marginals) == {"S", "W", "N", "E"}
    assert len(snap.marginals["S"]) == 28 - 3


def test_seat_ignores_other_hands_even_if_present() -> None:
    events = worked_example()
    events[3] = dealt(4, "W", ["0-0", "0-2", "0-4", "0-5", "0-6", "1-1", "1-2"])
    a = Belief.from_events(events, "S").snapshot().to_json_dict()
    b = Belief.from_events(worked_example(), "S").snapshot().to_json_dict()
    assert a == b


def test_own_hand_redacted_is_an_observer_error() -> None:
    with pytest.raises(ObserverError):
        Belief.from_events(worked_example(), "W")


def test_play_of_a_tile_the_seat_passed_on_names_the_event() -> None:
    events = [*worked_example(), play(11, "S", "1-3", "left"), play(12, "W", "0-3", "left")]
    with pytest.raises(InconsistentLog) as error:
        Belief.from_events(events, "S")
    assert error.value.seq == 12


def test_play_that_does_not_match_an_end_is_inconsistent() -> None:
    events = [*worked_example(), play(11, "S", "4-6", "left")]
    with pytest.raises(InconsistentLog) as error:
        Belief.from_events(events, "S")
    assert error.value.seq == 11


def test_a_draw_in_the_partnership_game_is_inconsistent() -> None:
    """partnership-6 has no boneyard: a tiles_drawn in its log is a typed error naming the
    event, and the belief is left as it was (it was an AttributeError)."""
    belief = Belief.from_events(worked_example(), "S")
    before = belief.snapshot().to_json_dict()
    drawn = TilesDrawn(seq=11, hand=1, seat="W", tiles=None, count=1)
    with pytest.raises(InconsistentLog) as error:
        belief.apply(drawn)
    assert error.value.seq == 11
    assert "no boneyard" in error.value.reason
    assert belief.snapshot().to_json_dict() == before


def test_passes_that_leave_no_deal_are_inconsistent() -> None:
    """W passed on 3 and on 1-2, N passes on 1-2: the 1s, 2s and 3s overflow E's hand."""
    events = [*worked_example(), play(11, "S", "1-3", "left"), passed(12, "W"),
              passed(13, "N")]
    with pytest.raises(InconsistentLog) as error:
        Belief.from_events(events, "S")
    assert error.value.seq == 13
    assert "E" in error.value.reason


def test_failed_apply_leaves_the_belief_unchanged() -> None:
    belief = Belief.from_events(worked_example(), "S")
    before = belief.snapshot().to_json_dict()
    with pytest.raises(InconsistentLog):
        belief.apply(play(11, "W", "2-3", "left"))
    assert belief.snapshot().to_json_dict() == before


def test_hand_ended_reveals_everything() -> None:
    events = worked_example()
    belief = Belief.from_events(events, "S")
    position = belief.position()
    # a revealed deal consistent with the belief: W its first 7 candidates, etc.
    tiles = sorted(position.allowed)
    w_cands = [t for t in tiles if position.allowed[t] & 1][:7]
    rest = [t for t in tiles if t not in w_cands]
    remaining = {
        "S": ["0-1", "1-3", "2-5", "4-6", "5-5", "6-6"],
        "W": [str(t) for t in w_cands],
        "N": [str(t) for t in rest[:6]],
        "E": [str(t) for t in rest[6:]],
    }
    ended = HandEnded(seq=11, hand=2, reason="blocked", winner=None, points=0,
                      remaining=remaining, seed=SEED, scores={"NS": 0, "EW": 0})
    belief.apply(ended)
    snap = belief.snapshot()
    assert snap.status == "ended" and snap.marginals == {} and snap.consistent_deals == 1
    belief.apply(MatchEnded(seq=12, scores={"NS": 100, "EW": 0}, winner="NS"))
    assert belief.snapshot().status == "ended"
    # a revealed hand that contradicts a pass is caught
    bad = dict(remaining, W=remaining["N"], N=remaining["W"])
    with pytest.raises(InconsistentLog):
        Belief.from_events([*events, ended.model_copy(update={"remaining": bad})], "S")


def test_new_hand_resets_the_belief() -> None:
    events = worked_example()
    again = [*start(hand=3)][1:]
    again[0] = again[0].model_copy(update={"seq": 11})
    belief = Belief.from_events([*events, *again, dealt(12, "S", SOUTH, hand=3)], "S")
    assert belief.hand == 3 and belief.ends is None
    assert solve(belief.position()).total == math.factorial(21) // math.factorial(7) ** 3


def test_first_hand_double_nine_higher_doubles_sleep_in_the_pool() -> None:
    hand = ["0-0", "1-2", "1-3", "2-4", "3-5", "4-6", "5-7", "6-8", "7-9", "0-9"]
    events = [*start("partnership-9", hand=1, leader="W"), dealt(3, "S", hand, hand=1),
              play(4, "W", "7-7", None, hand=1)]
    belief = Belief.from_events(events, "S")
    snap = belief.snapshot()
    for double in ["8-8", "9-9"]:
        assert snap.marginals["pool"][double] == 1.0
        assert all(snap.marginals[s][double] == 0.0 for s in "WNE")
    assert any("pool" in f and "8-8" in f for f in snap.facts)


def test_first_hand_double_six_leader_holds_six_six() -> None:
    events = [*start("partnership-6", hand=1, leader="N"),
              dealt(3, "S", ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"], hand=1)]
    snap = Belief.from_events(events, "S").snapshot()
    assert snap.marginals["N"]["6-6"] == 1.0
    with pytest.raises(InconsistentLog):
        Belief.from_events([*events, play(4, "N", "5-5", None, hand=1)], "S")


def test_a_pass_after_a_play_that_blocked_the_hand_is_inconsistent() -> None:
    """Double-six: no pool, so a play blocks the hand exactly when every tile of both ends is
    out. A log that goes on with a pass there is impossible, for every observer."""
    import random

    from games.dominoes.audience import view
    from games.dominoes.selfplay import random_match_events
    from games.dominoes.tiles import next_seat

    events = random_match_events(random.Random(1), "partnership-6", target=100)
    i, ended = next((i, e) for i, e in enumerate(events)
                    if isinstance(e, HandEnded) and e.reason == "blocked")
    last = events[i - 1]
    forged = [*events[:i], passed(ended.seq, next_seat(last.seat), hand=ended.hand)]
    for observer in ("S", "W", "N", "E", "spectator"):
        with pytest.raises(InconsistentLog) as error:
            Belief.from_events([view(e, observer) for e in forged], observer)
        assert error.value.seq == ended.seq and "blocked" in error.value.reason, observer
    # the log as it was is fine
    Belief.from_events(events[:i + 1], "spectator")


def test_four_passes_after_a_play_are_inconsistent_in_double_nine() -> None:
    """The pool may hide every unseen 9, but then 9-9 blocked the hand: some seat must follow.
    S knows it holds no other 9, so after the three others pass no seat can; the spectator
    knows it after S's own pass too (a clear error, not a crash on an empty list)."""
    hand = ["9-9", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "0-7", "0-8"]
    events = [*start("partnership-9"), dealt(3, "S", hand), dealt(4, "W", None),
              dealt(5, "N", None), dealt(6, "E", None), play(7, "S", "9-9", None),
              passed(8, "W"), passed(9, "N"), passed(10, "E"), passed(11, "S")]
    with pytest.raises(InconsistentLog) as error:
        Belief.from_events(events, "S")
    assert error.value.seq == 10 and "can follow" in error.value.reason
    with pytest.raises(InconsistentLog) as error:
        Belief.from_events(events, "spectator")
    assert error.value.seq == 11 and "can follow" in error.value.reason
    assert Belief.from_events(events[:10], "spectator").condition is not None


def test_own_pass_right_after_a_play_says_someone_else_can_follow() -> None:
    """Double-nine, hand 2: S leads 9-9, W (no 9s) passes. W's own pass shows the hand went on:
    not all nine unseen 9s sleep in the pool. Counted in closed form: all deals of W's 44
    unseen tiles (S 9, N 10, E 10, pool 15) minus those with every 9 in the pool."""
    south = ["9-9", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "0-7", "0-8"]
    west = ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8", "2-2", "2-3"]
    events = [*start("partnership-9"), dealt(3, "S", south), dealt(4, "W", west),
              dealt(5, "N", None), dealt(6, "E", None), play(7, "S", "9-9", None),
              passed(8, "W")]
    f = math.factorial
    every = f(44) // (f(9) * f(10) * f(10) * f(15))
    blocked = math.comb(35, 6) * f(29) // (f(9) * f(10) * f(10))
    assert Belief.from_events(events[:-1], "W").snapshot().consistent_deals == every
    mine = Belief.from_events(events, "W")
    assert mine.condition is not None and mine.condition.kind == "can_follow"
    snap = mine.snapshot()
    assert snap.consistent_deals == every - blocked
    assert "S, N or E can follow: the pool cannot hold all of " in " ".join(snap.facts)


@pytest.mark.parametrize("variant", ["partnership-6", "partnership-9"])
def test_a_spectator_at_the_first_deal_counts_a_quarter_of_all_deals(variant: str) -> None:
    """The lead tile is dealt to each seat in a quarter of the deals, so the leader's view has
    exactly that many; in double-nine that includes the deals with no double, where the
    heaviest tile leads (games.dominoes.rules.lead_tile)."""
    from games.dominoes.variants import get_variant

    v = get_variant(variant)
    f = math.factorial
    every = f(len(v.tiles)) // (f(v.hand_size) ** 4 * f(v.pool_size))
    snap = Belief.from_events(start(variant, hand=1, leader="E"), "spectator").snapshot()
    assert snap.consistent_deals * 4 == every
