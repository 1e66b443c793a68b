"""Each rule of Texas 42 by example: deal, bids, redeal, trump, following, count, marks."""

from __future__ import annotations

from collections import Counter

import pytest

from games.interface import SPECTATOR, LogProblem, RuleViolation
from games.texas42.commands import Bid, DealHand, NameTrump, PlayTile
from games.texas42.dominoes import SEATS, TILES, TOTAL_POINTS, count_of
from games.texas42.events import Dealt, HandEnded, HandStarted, MatchEnded, TrickWon
from games.texas42.game import TEXAS42
from games.texas42.rules import decide, evolve, legal_commands, to_act
from games.texas42.suits import DOUBLES, FOLLOW_ME
from tests.games.texas42.helpers import fold, match, playing, started, t

SEED = "ab" * 32


def dealt_state(**options):
    state = started(**options)
    return fold(decide(state, DealHand(SEED)), state)


def test_the_count_is_35_and_the_tricks_7_making_42() -> None:
    assert sum(count_of(x) for x in TILES) == 35 and len(TILES) == 28
    assert TOTAL_POINTS == 42


def test_a_deal_gives_seven_to_each_seat_all_28_and_commits_the_seed() -> None:
    state = started()
    events = decide(state, DealHand(SEED))
    assert isinstance(events[0], HandStarted) and events[0].seed == SEED
    hands = [e.tiles for e in events if isinstance(e, Dealt)]
    assert [len(h) for h in hands] == [7, 7, 7, 7]
    assert sorted(x for h in hands for x in h) == sorted(str(x) for x in TILES)
    # the same seed deals the same hands (the deal is a function of the seed)
    assert decide(state, DealHand(SEED)) == events


def test_bidding_starts_after_the_dealer_one_bid_each() -> None:
    state = dealt_state()
    assert state.dealer == "E" and to_act(state) == "S"
    order = []
    for bid in (30, 0, 31, 0):
        seat = to_act(state)
        order.append(seat)
        state = fold(decide(state, Bid(seat, bid)), state)
    assert order == ["S", "W", "N", "E"]
    assert state.phase == "trump" and state.bidder == "N" and to_act(state) == "N"


def test_a_bid_must_be_30_to_41_42_or_84_and_above_the_last() -> None:
    state = dealt_state()
    for bad in (29, 43, 50, 85, -1):
        with pytest.raises(RuleViolation) as error:
            decide(state, Bid("S", bad))
        assert error.value.code == "illegal_move"
    state = fold(decide(state, Bid("S", 35)), state)
    with pytest.raises(RuleViolation):
        decide(state, Bid("W", 35))
    assert [c.bid for c in legal_commands(state, "W")] == [0, *range(36, 43), 84]
    state = fold(decide(state, Bid("W", 84)), state)
    assert [c.bid for c in legal_commands(state, "N")] == [0]


def test_out_of_turn_is_refused_with_its_code() -> None:
    state = dealt_state()
    with pytest.raises(RuleViolation) as error:
        decide(state, Bid("W", 30))
    assert error.value.code == "not_your_turn"
    with pytest.raises(RuleViolation) as error:
        decide(state, PlayTile("S", t("0-0")))
    assert error.value.code == "wrong_phase"


def test_when_all_pass_the_hand_is_redealt_by_the_next_dealer() -> None:
    state = dealt_state()
    events = []
    for seat in ("S", "W", "N"):
        events += decide(state, Bid(seat, 0))
        state = fold(events[-1:], state)
    last = decide(state, Bid("E", 0))
    assert isinstance(last[-1], HandEnded) and last[-1].outcome == "redeal"
    assert last[-1].seed == SEED  # revealed
    state = fold(last, state)
    assert state.phase == "between_hands" and state.dealer == "S"
    assert state.totals == {"NS": 0, "EW": 0}
    state = fold(decide(state, DealHand("cd" * 32)), state)
    assert to_act(state) == "W"


def test_with_the_option_the_dealer_must_bid_when_the_others_pass() -> None:
    state = dealt_state(dealer_must_bid=True)
    for seat in ("S", "W", "N"):
        state = fold(decide(state, Bid(seat, 0)), state)
    with pytest.raises(RuleViolation) as error:
        decide(state, Bid("E", 0))
    assert "dealer must bid" in error.value.message
    assert [c.bid for c in legal_commands(state, "E")] == [*range(30, 43), 84]
    state = fold(decide(state, Bid("E", 30)), state)
    assert state.phase == "trump" and state.bidder == "E"


def test_the_bidder_names_trump_and_leads() -> None:
    state = dealt_state()
    for seat, bid in zip(SEATS, (0, 30, 0, 0), strict=True):
        state = fold(decide(state, Bid(seat, bid)), state)
    assert len(legal_commands(state, "W")) == 9  # 0..6, doubles, follow-me
    with pytest.raises(RuleViolation):
        decide(state, NameTrump("S", 3))
    state = fold(decide(state, NameTrump("W", DOUBLES)), state)
    assert state.trump == DOUBLES and to_act(state) == "W"


def test_follow_suit_if_able_under_the_trump_in_force() -> None:
    hands = {"S": "4-6 0-0", "W": "2-6 6-6", "N": "1-2 3-3", "E": "0-4 1-1"}
    state = playing(hands, trump=6, leader="S")
    # sixes are trump: 4-6 is a trump lead, W must play a trump
    state = fold(decide(state, PlayTile("S", t("4-6"))), state)
    assert {c.tile for c in legal_commands(state, "W")} == {t("2-6"), t("6-6")}
    # fours led with sixes trump: 4-6 is not a four; 0-4 follows
    state = playing({"S": "4-5 0-0", "W": "4-6 1-2", "N": "0-4 3-3", "E": "0-1 1-1"},
                    trump=6, leader="S")
    state = fold(decide(state, PlayTile("S", t("4-5"))), state)  # 4-5 calls fives
    assert {c.tile for c in legal_commands(state, "W")} == {t("4-6"), t("1-2")}  # no five
    state = fold(decide(state, PlayTile("W", t("1-2"))), state)
    # N holds no five either: any domino goes
    assert {c.tile for c in legal_commands(state, "N")} == {t("0-4"), t("3-3")}


def test_a_seat_that_can_follow_must() -> None:
    state = playing({"S": "3-5 0-0", "W": "0-5 6-6", "N": "1-2 3-3", "E": "0-4 1-1"},
                    trump=1, leader="S")
    state = fold(decide(state, PlayTile("S", t("3-5"))), state)
    with pytest.raises(RuleViolation) as error:
        decide(state, PlayTile("W", t("6-6")))
    assert error.value.code == "illegal_move"
    assert [c.tile for c in legal_commands(state, "W")] == [t("0-5")]


def test_a_trick_goes_to_the_highest_with_one_point_and_its_count() -> None:
    state = playing({"S": "5-5", "W": "0-5", "N": "4-6", "E": "1-4"}, trump=FOLLOW_ME,
                    leader="S", tricks_done=6, points={"NS": 30, "EW": 0})
    events = []
    for seat, tile in (("S", "5-5"), ("W", "0-5"), ("N", "4-6"), ("E", "1-4")):
        step = decide(state, PlayTile(seat, t(tile)))
        events += step
        state = fold(step, state)
    won = next(e for e in events if isinstance(e, TrickWon))
    assert (won.seat, won.points) == ("S", 1 + 10 + 5 + 10 + 5)


def _last_trick(bid: int, ns_points: int, s_wins: bool, **options) -> list:
    """The seventh trick of a hand N-S bid `bid` in; S leads 2-2 (wins unless W trumps)."""
    w_tile = "2-3" if s_wins else "0-1"
    state = playing({"S": "2-2", "W": w_tile, "N": "0-0", "E": "3-4"}, trump=1,
                    leader="S", bid=bid, tricks_done=6,
                    points={"NS": ns_points, "EW": 36 - ns_points}, **options)
    events = []
    for seat in ("S", "W", "N", "E"):
        step = decide(state, PlayTile(seat, next(iter(state.hands[seat]))))
        events += step
        state = fold(step, state)
    return events


def test_a_made_bid_scores_one_mark_for_the_bidders() -> None:
    ended = next(e for e in _last_trick(30, 24, s_wins=True) if isinstance(e, HandEnded))
    assert ended.points == {"NS": 24 + 6, "EW": 12}  # 1 trick + 2-3 (5)
    assert (ended.outcome, ended.award) == ("made", {"NS": 1, "EW": 0})


def test_a_set_bid_gives_the_marks_to_the_other_team() -> None:
    ended = next(e for e in _last_trick(31, 24, s_wins=True) if isinstance(e, HandEnded))
    assert ended.points["NS"] == 30 and ended.outcome == "set"
    assert ended.award == {"NS": 0, "EW": 1}


def test_42_and_84_need_every_trick_and_84_is_worth_two_marks() -> None:
    ended = next(e for e in _last_trick(84, 36, s_wins=False) if isinstance(e, HandEnded))
    assert ended.points == {"NS": 36, "EW": 1} and ended.award == {"NS": 0, "EW": 2}
    ended = next(e for e in _last_trick(42, 36, s_wins=True) if isinstance(e, HandEnded))
    assert ended.points == {"NS": 42, "EW": 0} and ended.award == {"NS": 1, "EW": 0}


def test_the_points_game_scores_points_and_a_set_gives_the_bid() -> None:
    made = next(e for e in _last_trick(30, 24, True, target_points=250, target_marks=0)
                if isinstance(e, HandEnded))
    assert made.award == {"NS": 30, "EW": 12}
    set_ = next(e for e in _last_trick(34, 24, True, target_points=250, target_marks=0)
                if isinstance(e, HandEnded))
    assert set_.award == {"NS": 0, "EW": 12 + 34}


def test_the_match_ends_at_seven_marks() -> None:
    events = match(3, {"S": "greedy", "N": "greedy", "W": "random", "E": "random"})
    ended = events[-1]
    assert isinstance(ended, MatchEnded) and max(ended.totals.values()) >= 7
    hands = [e for e in events if isinstance(e, HandEnded) and e.outcome != "redeal"]
    awarded = Counter()
    for hand in hands:
        awarded.update(hand.award)
        assert sum(hand.points.values()) == 42
    assert dict(awarded) == ended.totals
    state = fold(events)
    assert TEXAS42.is_over(state) and TEXAS42.winners(state) == (
        ("S", "N") if ended.winner == "NS" else ("W", "E"))


def test_check_log_re_decides_a_whole_match_and_names_a_forgery() -> None:
    events = match(4)
    TEXAS42.check_log(events)
    i = next(i for i, e in enumerate(events) if e.type == "played")
    other = next(x for x in TILES if str(x) != events[i].tile)
    forged = [*events[:i], events[i].model_copy(update={"tile": str(other)}), *events[i + 1:]]
    with pytest.raises(LogProblem) as problem:
        TEXAS42.check_log(forged)
    assert problem.value.seq == events[i].seq
    with pytest.raises(LogProblem) as problem:
        TEXAS42.check_log(events[:-1] + [events[-1].model_copy(update={"winner": "XX"})])
    assert problem.value.seq == events[-1].seq
    TEXAS42.check_log(events[:i])  # cut at a move boundary: a match in play, no error
    j = next(j for j, e in enumerate(events) if e.type == "trick_won")
    with pytest.raises(LogProblem) as problem:  # cut between a play and the trick it ends
        TEXAS42.check_log(events[:j])
    assert "stops in the middle" in problem.value.reason


def test_every_view_hides_other_hands_and_the_seed_until_revealed() -> None:
    events = match(5)
    for audience in (*SEATS, SPECTATOR):
        for event in events:
            shown = TEXAS42.event_to_dict(TEXAS42.view(event, audience))
            if event.type == "dealt":
                assert (shown["tiles"] is not None) == (event.seat == audience)
            elif event.type == "hand_started":
                assert shown["seed"] is None and shown["commitment"] == event.commitment
            else:
                assert shown == TEXAS42.event_to_dict(event)
            for key, value in shown.items():  # no hidden field under another name
                if key in ("tiles", "seed") and value is not None:
                    assert event.type in ("dealt", "hand_ended")


def test_a_seats_own_view_folds_to_the_same_public_state() -> None:
    events = match(6)
    full = evolve(None, events[0])
    own = {s: evolve(None, TEXAS42.view(events[0], s)) for s in SEATS}
    for event in events[1:]:
        full = evolve(full, event)
        for seat in SEATS:
            own[seat] = evolve(own[seat], TEXAS42.view(event, seat))
            assert TEXAS42.to_act(own[seat]) == TEXAS42.to_act(full)
            assert own[seat].hands.get(seat) == full.hands.get(seat)


def test_wire_round_trip_and_bad_payloads() -> None:
    state = dealt_state()
    for command in legal_commands(state, "S"):
        wire = TEXAS42.command_to_wire(command)
        assert TEXAS42.command_from_wire("S", wire) == command
    for bad in ({"kind": "bid", "bid": "30"}, {"kind": "trump", "trump": "sevens"},
                {"kind": "play", "tile": "7-9x"}, {"kind": "dance"}):
        with pytest.raises(RuleViolation) as error:
            TEXAS42.command_from_wire("S", bad)
        assert error.value.code == "illegal_move"


def test_table_options_and_the_dealer_bids_variant() -> None:
    from games.texas42.game import DEALER_BIDS, VARIANT, targets

    assert targets({}) == (7, 0) and targets({"target": 100}) == (7, 0)
    # another game's `target` is not Texas 42's: its marks are its own option
    assert targets({"target": 5}) == (7, 0) and targets({"target": 250}) == (7, 0)
    assert targets({"target_marks": 5}) == (5, 0)
    assert targets({"target_points": 250}) == (0, 250)
    assert targets({"target_marks": 3, "target": 250}) == (3, 0)
    assert TEXAS42.variants()[VARIANT].option("target_marks") is not None
    assert not TEXAS42.start("m", VARIANT, {s: s for s in SEATS}, {}).dealer_must_bid
    start = TEXAS42.start("m", DEALER_BIDS, {s: s for s in SEATS}, {"target": 100})
    assert start.dealer_must_bid and start.target_marks == 7
    assert TEXAS42.variants()[DEALER_BIDS].options["dealer_must_bid"] is True
    assert TEXAS42.variants()[VARIANT].options["nello"] is False  # special contracts: off
