"""`decide`: seed 004's rules. Pure: the state (with the deck order, for the referee) and a
command in, events out, or a typed UnoRuleViolation.

Choices seed 004 leaves open (docs/games/uno.md lists them): S moves first; the starter's
action does not apply, a black starter lets any card follow; a draw of one card ends the
turn (the drawn card is not played at once); SKIP and REVERSE give the player another turn;
a +2/+4 sends the opponent to draw, then the player who played it moves again; a wild names
any of the variant's colours and may always be played; the deck is reshuffled from the
pile as soon as it is empty; with nothing left to draw the turn passes, and two passes in a
row end the match, the smaller hand winning.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from games.fairness.shuffle import commitment
from games.uno.cards import is_black, matches
from games.uno.commands import Command, Deal, Draw, Move, PlayCard, Reshuffle, StartMatch
from games.uno.errors import UnoRuleViolation
from games.uno.events import (
    CardPlayed,
    CardsDrawn,
    DeckReshuffled,
    HandDealt,
    MatchEnded,
    MatchStarted,
    StarterTurned,
    TurnPassed,
    UnoEvent,
)
from games.uno.shuffles import deal_order
from games.uno.state import UnoState, evolve
from games.uno.variants import SEATS, VARIANTS


def decide(state: UnoState | None, command: Command) -> list[UnoEvent]:
    if isinstance(command, StartMatch):
        if state is not None:
            raise UnoRuleViolation("wrong_phase", "the match has already started")
        if command.variant not in VARIANTS:
            raise UnoRuleViolation("unknown_variant", f"no uno variant {command.variant!r}")
        if set(command.players) != set(SEATS):
            raise UnoRuleViolation("bad_players", "players must name the seats S and N")
        return [MatchStarted(match_id=command.match_id, variant=command.variant,
                             players=dict(command.players), fairness=command.fairness)]
    if state is None or state.over:
        raise UnoRuleViolation("wrong_phase", "no match in play")
    if isinstance(command, Deal):
        return _deal(state, command.secret)
    if isinstance(command, Reshuffle):
        if not state.needs_reshuffle():
            raise UnoRuleViolation("wrong_phase", "the deck is not empty (or nothing to reshuffle)")
        if not state.scheme.commits and command.secret is None:
            raise UnoRuleViolation("wrong_phase", "an old log's reshuffle needs its secret")
        secret = None if state.scheme.commits else command.secret
        return [DeckReshuffled(count=len(state.pile) - 1, secret=secret)]
    if not state.dealt:
        raise UnoRuleViolation("wrong_phase", "not dealt yet")
    if state.needs_reshuffle():
        raise UnoRuleViolation("wrong_phase", "the referee reshuffles first")
    if isinstance(command, PlayCard):
        return _play(state, command)
    if isinstance(command, Draw):
        return _draw(state, command.seat)
    raise UnoRuleViolation("illegal_move", f"not an uno command: {command!r}")


def _deal(state: UnoState, secret: str) -> list[UnoEvent]:
    if state.dealt or state.counts:
        raise UnoRuleViolation("wrong_phase", "already dealt")
    size = state.variant.deck.hand_size
    try:
        order = deal_order(state.scheme, state.variant.deck.cards(), secret)
        committed = commitment(secret) if state.scheme.commits else None
    except ValueError as error:
        raise UnoRuleViolation("illegal_move", f"bad deal seed: {error}") from None
    return [HandDealt(seat="S", cards=sorted(order[:size]), secret=secret,
                      commitment=committed),
            HandDealt(seat="N", cards=sorted(order[size:2 * size])),
            StarterTurned(card=order[2 * size])]


def _turn(state: UnoState, seat: str) -> None:
    if seat != state.turn:
        raise UnoRuleViolation("not_your_turn", f"it is {state.turn}'s turn")


def _play(state: UnoState, command: PlayCard) -> list[UnoEvent]:
    seat, card = command.seat, command.card
    _turn(state, seat)
    if state.owed:
        raise UnoRuleViolation("must_draw", f"{seat} must draw {state.owed} (a +2/+4)")
    hand = state.hands.get(seat) or ()
    if card not in hand:
        raise UnoRuleViolation("illegal_move", f"{card} is not in {seat}'s hand")
    if not matches(card, state.top, state.colour):
        raise UnoRuleViolation("illegal_move", f"{card} does not match {state.top}")
    if is_black(card) != (command.colour is not None):
        raise UnoRuleViolation("bad_colour", "a black card names a colour; others do not")
    if command.colour is not None and command.colour not in state.variant.deck.colours:
        raise UnoRuleViolation("bad_colour", f"no colour {command.colour!r} in this deck")
    played = CardPlayed(seat=seat, card=card, colour=command.colour)
    after = evolve(state, played)
    if after.counts[seat] == 0:
        return [played, _ended(after, seat, "out")]
    return [played]


def _draw(state: UnoState, seat: str) -> list[UnoEvent]:
    _turn(state, seat)
    penalty = state.owed > 0
    if not penalty and state.can_play(seat):
        raise UnoRuleViolation("must_play", f"{seat} holds a card that can be played")
    want = state.owed if penalty else 1
    count = min(want, state.deck_count)
    if count == 0:
        passed = TurnPassed(seat=seat, penalty=penalty)
        if not state.passed:
            return [passed]
        after = evolve(state, passed)
        small = sorted(SEATS, key=lambda s: after.counts[s])
        tie = after.counts[small[0]] == after.counts[small[1]]
        return [passed, _ended(after, None if tie else small[0], "blocked")]
    if state.deck is None:
        raise UnoRuleViolation("wrong_phase", "only the referee's state can draw")
    return [CardsDrawn(seat=seat, count=count, cards=sorted(state.deck[:count]),
                       penalty=penalty)]


def _ended(state: UnoState, winner: str | None, reason: Literal["out", "blocked"]
           ) -> MatchEnded:
    hands = {s: sorted(state.hands.get(s) or ()) for s in SEATS}
    revealed = state.seed if state.scheme.commits else None  # the match is over: the seed
    return MatchEnded(winner=winner, reason=reason, hands=hands, seed=revealed)


def legal_moves(state: UnoState, seat: str) -> list[Move]:
    """Every command `seat` may send now (wilds once per colour); empty when not its turn."""
    if state.over or not state.dealt or state.turn != seat or state.needs_reshuffle():
        return []
    if state.owed:
        return [Draw(seat)]
    hand = state.hands.get(seat) or ()
    moves: list[Move] = []
    for card in sorted(Counter(hand)):
        if not matches(card, state.top, state.colour):
            continue
        if is_black(card):
            moves.extend(PlayCard(seat, card, c) for c in state.variant.deck.colours)
        else:
            moves.append(PlayCard(seat, card))
    return moves or [Draw(seat)]
