"""Seed 004's rules, one test per rule, and whole games re-decided by the log checker."""

from __future__ import annotations

from collections import Counter

import pytest

from games.interface import LogProblem, RuleViolation
from games.uno.cards import matches
from games.uno.commands import Deal, Draw, PlayCard, Reshuffle
from games.uno.events import CardsDrawn, MatchEnded, TurnPassed
from games.uno.game import UNO
from games.uno.rules import legal_moves
from games.uno.variants import VARIANTS
from tests.games.uno.helpers import dealt, match, position, run


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as error:
        run(state, command)
    return error.value.code


@pytest.mark.parametrize("variant,size,hand", [("uno-2", 108, 7), ("uno-2-mini", 20, 3)])
def test_the_deal_gives_each_seat_its_hand_and_turns_a_starter(variant, size, hand) -> None:
    spec = VARIANTS[variant].deck
    assert spec.size() == size
    state = dealt(variant)
    assert state.counts == {"S": hand, "N": hand} and len(state.pile) == 1
    assert state.deck_count == size - 2 * hand - 1 == len(state.deck)
    everything = Counter(state.deck) + Counter(state.pile) + Counter(state.hands["S"]) \
        + Counter(state.hands["N"])
    assert everything == spec.counts() and state.turn == "S"


def test_the_108_card_deck_is_seed_004s() -> None:
    deck = VARIANTS["uno-2"].deck.counts()
    for colour in "rygb":
        assert sum(n for k, n in deck.items() if k[0] == colour) == 25
        assert deck[colour + "0"] == 1 and deck[colour + "7"] == 2
        assert deck[colour + "S"] == deck[colour + "R"] == deck[colour + "+2"] == 2
    assert deck["W"] == deck["W+4"] == 4


def test_a_card_must_match_colour_or_value_or_be_black() -> None:
    assert matches("r3", "r7", "r") and matches("g7", "r7", "r") and matches("W", "r7", "r")
    assert matches("gS", "rS", "r") and not matches("g3", "r7", "r")
    assert matches("g3", "W", "g") and not matches("r3", "W", "g")  # a wild's colour
    state = position({"S": ["g3", "r1"], "N": ["b1"]}, top="r7", deck=["y1"])
    assert refused(state, PlayCard("S", "g3")) == "illegal_move"
    assert refused(state, PlayCard("S", "b5")) == "illegal_move"  # not in the hand
    after, _ = run(state, PlayCard("S", "r1"))
    assert after.top == "r1" and after.turn == "N" and after.colour == "r"


def test_a_player_who_can_play_must_play() -> None:
    state = position({"S": ["g3", "r1"], "N": ["b1"]}, top="r7", deck=["y1"])
    assert refused(state, Draw("S")) == "must_play"
    assert {m.card for m in legal_moves(state, "S")} == {"r1"}


def test_with_nothing_to_play_one_card_is_drawn_and_the_turn_passes() -> None:
    state = position({"S": ["g3"], "N": ["b1"]}, top="r7", deck=["r2", "y1"])
    assert legal_moves(state, "S") == [Draw("S")]
    after, events = run(state, Draw("S"))
    assert events == [CardsDrawn(seat="S", count=1, cards=["r2"], penalty=False)]
    assert after.hands["S"] == ("g3", "r2") and after.turn == "N"  # r2 is playable: not now
    assert refused(after, PlayCard("S", "r2")) == "not_your_turn"


@pytest.mark.parametrize("card,owed", [("r+2", 2), ("W+4", 4)])
def test_a_draw_card_makes_the_other_draw_and_lose_the_turn_without_stacking(card, owed) -> None:
    colour = "y" if card == "W+4" else None
    state = position({"S": [card, "r1"], "N": ["b+2", "r+2", "W+4"]}, top="r7",
                     deck=["g1", "g2", "g3", "g4", "g5"])
    after, _ = run(state, PlayCard("S", card, colour))
    assert after.turn == "N" and after.owed == owed
    assert refused(after, PlayCard("N", "W+4", "r")) == "must_draw"  # no stacking
    assert legal_moves(after, "N") == [Draw("N")]
    after, events = run(after, Draw("N"))
    assert events[0].count == owed and events[0].penalty and after.counts["N"] == 3 + owed
    assert after.turn == "S" and after.owed == 0  # the player of the +2/+4 moves again


@pytest.mark.parametrize("card", ["rS", "rR"])
def test_skip_and_reverse_forfeit_the_others_turn(card) -> None:
    state = position({"S": [card, "r1"], "N": ["b1"]}, top="r7", deck=["y1"])
    after, _ = run(state, PlayCard("S", card))
    assert after.turn == "S"


def test_a_wild_names_a_colour_that_then_must_be_followed() -> None:
    state = position({"S": ["W", "r1"], "N": ["b1", "g1"]}, top="r7", deck=["y1"])
    assert refused(state, PlayCard("S", "W")) == "bad_colour"
    assert refused(state, PlayCard("S", "r1", "g")) == "bad_colour"
    after, _ = run(state, PlayCard("S", "W", "g"))
    assert after.colour == "g" and {m.card for m in legal_moves(after, "N")} == {"g1"}
    assert len([m for m in legal_moves(state, "S") if m.card == "W"]) == 4  # one per colour


def test_a_black_starter_lets_any_card_follow() -> None:
    state = position({"S": ["g3", "b1"], "N": ["b1"]}, top="W", deck=["y1"])
    assert state.colour is None
    assert {m.card for m in legal_moves(state, "S")} == {"g3", "b1"}


def test_an_empty_deck_is_reshuffled_from_the_pile_under_its_top() -> None:
    state = position({"S": ["g3"], "N": ["b1", "b2"]}, top="r7", deck=["y1"],
                     under=("r1", "r2", "W"))
    after, _ = run(state, Draw("S"))
    assert after.deck_count == 0 and UNO.to_act(after) == ()
    assert refused(after, Draw("N")) == "wrong_phase"
    step = UNO.referee_step(after, "cd" * 32)
    assert step == Reshuffle()  # no fresh secret: the match's committed seed fixes the order
    after, events = run(after, step)
    assert events[0].count == 3 and after.pile == ("r7",)
    assert sorted(after.deck) == ["W", "r1", "r2"] and UNO.to_act(after) == ("N",)


def test_nothing_left_to_draw_passes_and_two_passes_end_the_match() -> None:
    state = position({"S": ["g3"], "N": ["b1", "b2"]}, top="r7", deck=[])
    after, events = run(state, Draw("S"))
    assert events == [TurnPassed(seat="S", penalty=False)] and after.turn == "N"
    after, events = run(after, Draw("N"))
    assert isinstance(events[-1], MatchEnded) and events[-1].reason == "blocked"
    assert events[-1].winner == "S"  # the smaller hand


def test_emptying_the_hand_wins_at_once() -> None:
    state = position({"S": ["r+2"], "N": ["b1"]}, top="r7", deck=["y1", "y2"])
    after, events = run(state, PlayCard("S", "r+2"))
    assert isinstance(events[-1], MatchEnded) and events[-1].winner == "S"
    assert after.over and UNO.winners(after) == ("S",) and UNO.to_act(after) == ()


def test_only_the_seat_to_move_moves_and_only_once_dealt() -> None:
    state = position({"S": ["r1"], "N": ["r2"]}, top="r7", deck=["y1"])
    assert refused(state, PlayCard("N", "r2")) == "not_your_turn"
    assert refused(state, Deal("ef" * 32)) == "wrong_phase"


def test_wire_moves_round_trip_and_bad_ones_are_typed_errors() -> None:
    state = position({"S": ["W", "r1", "rS"], "N": ["b1"]}, top="r7", deck=["y1"])
    for command in legal_moves(state, "S"):
        assert UNO.command_from_wire("S", UNO.command_to_wire(command)) == command
    for payload in ({"kind": "play", "card": "x9"}, {"kind": "fly"}, {"card": 7},
                    {"kind": "play", "card": "W", "colour": "purple"}):
        with pytest.raises(RuleViolation) as error:
            UNO.command_from_wire("S", payload)
        assert error.value.code in ("illegal_move", "bad_colour")
    with pytest.raises(RuleViolation):
        UNO.command_from_wire("E", {"kind": "draw"})


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("variant", ["uno-2", "uno-2-mini"])
def test_whole_games_are_re_decided_by_the_log_checker(variant: str, seed: int) -> None:
    events = match(seed, variant, ("greedy", "random"))
    UNO.check_log(events)
    assert events[-1].type == "match_ended"
    for event in events:
        assert UNO.parse_event(UNO.event_to_dict(event)) == event


def test_the_checker_refuses_a_forged_draw_and_a_forged_play() -> None:
    events = match(3, "uno-2", ("greedy", "random"))
    i = next(i for i, e in enumerate(events) if e.type == "cards_drawn")
    other = "W" if events[i].cards[0] != "W" else "r0"
    forged = events[i].model_copy(update={"cards": [other, *events[i].cards[1:]]})
    with pytest.raises(LogProblem) as problem:
        UNO.check_log([*events[:i], forged, *events[i + 1:]])
    assert problem.value.seq == events[i].seq
    j = next(j for j, e in enumerate(events) if e.type == "card_played")
    state = None
    for event in events[:j]:
        state = UNO.evolve(state, event)
    bad = next(k for k in state.variant.deck.kinds()
               if not matches(k, state.top, state.colour))
    forged = events[j].model_copy(update={"card": bad, "colour": None})
    with pytest.raises(LogProblem) as problem:
        UNO.check_log([*events[:j], forged, *events[j + 1:]])
    assert problem.value.seq == events[j].seq and "illegal_move" in problem.value.reason
    with pytest.raises(LogProblem):
        UNO.check_log(events[:-1])  # the last move's match_ended is missing
