"""Nello (a table option, off by default): a mark bidder may name nello instead of a trump;
the hand is played without trump, the bidder's partner sits out (three plays a trick), and
the bidder must lose every trick: the first trick it takes ends the hand, set."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.texas42.bots import greedy_command
from games.texas42.commands import Bid, DealHand, NameTrump, PlayTile
from games.texas42.dominoes import SEATS
from games.texas42.errors import Texas42Violation
from games.texas42.game import DEALER_BIDS, TEXAS42, VARIANT
from games.texas42.greedy import choose_nello_play
from games.texas42.rules import decide, legal_commands, to_act, trump_choices
from games.texas42.suits import FOLLOW_ME, NELLO, TRUMPS
from tests.games.texas42.helpers import fold, match, playing, started, t


def nello_hand(hands: dict[str, str], tricks_done: int, bid: int = 42):
    """South bid `bid` and named nello: North sits out; `tricks_done` tricks already played."""
    state = playing(hands, FOLLOW_ME, leader="S", bid=bid, tricks_done=tricks_done, nello=True)
    return replace(state, nello=True)


def bidding_done(high: int, nello: bool):
    state = started(nello=nello)
    state = fold(decide(state, DealHand("00" * 32)), state)
    for seat in SEATS:
        state = fold(decide(state, Bid(seat, high if seat == "S" else 0)), state)
    assert state.phase == "trump"
    return state


@pytest.mark.parametrize(("option", "bid", "offered"),
                         [(True, 42, True), (True, 84, True), (True, 41, False),
                          (False, 42, False)])
def test_nello_is_offered_only_with_the_option_and_a_bid_in_marks(option, bid, offered) -> None:
    state = bidding_done(bid, option)
    assert (NELLO in trump_choices(state)) is offered
    assert (NameTrump("S", NELLO) in legal_commands(state, "S")) is offered
    if not offered:
        with pytest.raises(Texas42Violation) as refused:
            decide(state, NameTrump("S", NELLO))
        assert refused.value.code == "illegal_move"
    else:
        (named,) = decide(state, NameTrump("S", NELLO))
        after = fold([named], state)
        assert named.trump == "nello" and after.nello and after.trump == FOLLOW_ME
        assert after.sitting_out == "N" and to_act(after) == "S"


def test_the_partner_sits_out_and_the_first_trick_the_bidder_takes_sets_it() -> None:
    state = nello_hand({"S": "6-6 0-1", "W": "2-6 1-2", "N": "3-3 4-4", "E": "5-6 0-0"}, 5)
    events = decide(state, PlayTile("S", t("6-6")))
    state = fold(events, state)
    assert to_act(state) == "W"
    state = fold(decide(state, PlayTile("W", t("2-6"))), state)
    assert to_act(state) == "E"  # North is skipped: it sits out
    with pytest.raises(Texas42Violation):
        decide(state, PlayTile("N", t("3-3")))
    events = decide(state, PlayTile("E", t("5-6")))
    kinds = [e.type for e in events]
    assert kinds == ["played", "trick_won", "hand_ended"]  # three plays, then over at once
    won, ended = events[1], events[2]
    assert to_act(fold(events[:2], state)) is None  # caught: nobody plays on before hand_ended
    assert won.seat == "S" and won.trick == 6
    assert ended.outcome == "set" and ended.trump == "nello"
    assert ended.award == {"NS": 0, "EW": 1}


def test_losing_every_trick_makes_nello_for_its_marks() -> None:
    state = nello_hand({"S": "0-1", "W": "1-2", "N": "3-3", "E": "0-0"}, 6, bid=84)
    state = fold(decide(state, PlayTile("S", t("0-1"))), state)
    state = fold(decide(state, PlayTile("W", t("1-2"))), state)
    events = decide(state, PlayTile("E", t("0-0")))
    assert events[1].seat == "W"
    assert events[-1].type == "hand_ended" and events[-1].outcome == "made"
    assert events[-1].award == {"NS": 2, "EW": 0}  # 84: two marks


def test_greedy_nello_play_keeps_the_bidder_under_and_the_defenders_low() -> None:
    # the bidder, following, plays its strongest domino that still loses
    assert choose_nello_play("S", "S", [t("1-6"), t("2-6"), t("6-6")],
                             (("E", t("4-6")),)) == t("2-6")
    # the bidder, void in the led suit, throws away its most dangerous domino
    assert choose_nello_play("S", "S", [t("0-0"), t("5-5"), t("1-2")],
                             (("E", t("4-6")),)) == t("5-5")
    # a defender plays its weakest
    assert choose_nello_play("W", "S", [t("1-6"), t("2-6"), t("6-6")],
                             (("S", t("3-6")),)) == t("1-6")
    state = nello_hand({"S": "0-1 2-5", "W": "1-2 3-4", "N": "3-3 4-4", "E": "0-0 5-6"}, 5)
    assert greedy_command(state, "S") == PlayTile("S", t("0-1"))  # leads its weakest


def test_whole_matches_with_nello_re_decide_and_keep_beliefs_sound() -> None:
    """Random bots (they bid marks and name nello often enough) over seeded matches with the
    option on: the log checker re-decides every match; at every event of a nello hand each
    seat's belief gives every domino's true holder a positive probability."""
    nello_hands = 0
    for seed in range(40):
        events = match(seed, None, nello=True, target_marks=3)
        TEXAS42.check_log(events)
        assert events[0].nello is True
        state = None
        beliefs = {s: TEXAS42.belief(s, VARIANT) for s in SEATS}
        for event in events:
            state = TEXAS42.evolve(state, event)
            for seat, belief in beliefs.items():
                belief.apply(TEXAS42.view(event, seat))
            if state.phase == "playing" and state.nello:
                for seat, belief in beliefs.items():
                    marginals = belief.snapshot_dict()["marginals"]
                    for holder, row in marginals.items():
                        for tile in state.hands[holder]:
                            assert row[str(tile)] > 0, (seed, seat, holder, tile)
        nello_hands += sum(1 for e in events if e.type == "hand_ended" and e.trump == "nello")
    assert nello_hands >= 3


def test_the_options_are_declared_and_read_at_start() -> None:
    info = TEXAS42.variants()[VARIANT]
    assert {o.name: o.default for o in info.declared} == {"target_marks": 7,
                                                          "dealer_must_bid": False,
                                                          "nello": False}
    players = {s: s for s in SEATS}
    assert TEXAS42.start("m", VARIANT, players, {"nello": True}).nello
    assert not TEXAS42.start("m", VARIANT, players, {}).nello
    assert TEXAS42.start("m", VARIANT, players, {"dealer_must_bid": True}).dealer_must_bid
    alias = TEXAS42.variants()[DEALER_BIDS]
    assert alias.alias_of == VARIANT
    assert TEXAS42.start("m", DEALER_BIDS, players, {}).dealer_must_bid
    assert NELLO not in TRUMPS  # never a trump the oracle evaluates
