"""The rules, pure: `decide(state, command) -> events`, whose move it is, and legal moves.

A turn: suggest any suspect, weapon and room (the board and movement are abstracted away:
any room may be named), then the others are asked clockwise; the first holding one of the
three must show one (their choice); then the suggester may accuse or end the turn. An
accusation may also open a turn. A correct accusation wins; a wrong one puts the accuser out
(they still refute) and passes the turn; when every seat is out the match ends unwon.
"""

from __future__ import annotations

from games.clue.cards import CardType, deal
from games.clue.commands import Accuse, Command, Deal, EndTurn, Move, Show, Start, Suggest
from games.clue.errors import ClueRuleViolation
from games.clue.events import (
    Accused,
    CardShown,
    ClueEvent,
    Dealt,
    MatchEnded,
    MatchStarted,
    Suggested,
    TurnPassed,
)
from games.clue.state import ClueState
from games.clue.variants import VARIANTS, seats_for
from games.fairness.shuffle import commitment


def _start(command: Start) -> list[ClueEvent]:
    variant = VARIANTS.get(command.variant)
    if variant is None:
        raise ClueRuleViolation("bad_option", f"unknown Clue variant {command.variant!r}")
    wanted = command.options.get("players")
    if wanted is not None and int(wanted) != len(command.players):
        raise ClueRuleViolation("bad_option", f"players={wanted} but {len(command.players)} seats")
    if variant.name != "clue" and len(command.players) != variant.players:
        raise ClueRuleViolation("bad_option", f"{variant.name} is for {variant.players} players")
    try:
        seats = seats_for(len(command.players))
    except ValueError as error:
        raise ClueRuleViolation("bad_option", str(error)) from None
    if set(command.players) != set(seats):
        raise ClueRuleViolation("bad_option", f"the seats are {', '.join(seats)}")
    return [MatchStarted(match_id=command.match_id, variant=variant.name,
                         players=dict(command.players), fairness=command.fairness)]


def _deal(state: ClueState, command: Deal) -> list[ClueEvent]:
    if state.phase != "deal":
        raise ClueRuleViolation("wrong_phase", "the cards are already dealt")
    try:
        result = deal(state.scheme, command.secret, state.deck, state.seats)
        committed = commitment(command.secret) if state.scheme.commits else None
    except ValueError as error:
        raise ClueRuleViolation("illegal_move", f"bad deal seed: {error}") from None
    return [Dealt(hand_sizes={s: len(h) for s, h in result.hands.items()},
                  hands={s: list(h) for s, h in result.hands.items()},
                  envelope=list(result.envelope), secret=command.secret,
                  commitment=committed)]


def _check_triple(state: ClueState, suspect: str, weapon: str, room: str) -> None:
    deck = state.deck
    triple: tuple[tuple[str, CardType], ...] = (
        (suspect, "suspect"), (weapon, "weapon"), (room, "room"))
    for card, kind in triple:
        if card not in deck.of_type(kind):
            raise ClueRuleViolation("bad_card", f"{card!r} is not a {kind} of this deck")


def _hand(state: ClueState, seat: str) -> frozenset[str]:
    hand = state.hands.get(seat)
    if hand is None:
        raise ClueRuleViolation("wrong_phase", "the rules need the referee's state (every hand)")
    return hand


def _suggest(state: ClueState, command: Suggest) -> list[ClueEvent]:
    if state.phase != "turn":
        raise ClueRuleViolation("wrong_phase", "a suggestion opens a turn")
    _check_triple(state, command.suspect, command.weapon, command.room)
    triple = {command.suspect, command.weapon, command.room}
    passed: list[str] = []
    refuter = None
    for seat in state.refute_order(command.seat):
        if _hand(state, seat) & triple:
            refuter = seat
            break
        passed.append(seat)
    return [Suggested(seat=command.seat, suspect=command.suspect, weapon=command.weapon,
                      room=command.room, passed=passed, refuter=refuter)]


def _show(state: ClueState, command: Show) -> list[ClueEvent]:
    pending = state.pending
    if state.phase != "refute" or pending is None:
        raise ClueRuleViolation("wrong_phase", "no suggestion is waiting for a card")
    if command.card not in pending.cards:
        raise ClueRuleViolation("bad_card", f"{command.card!r} was not suggested")
    if command.card not in _hand(state, command.seat):
        raise ClueRuleViolation("bad_card", f"{command.card!r} is not in your hand")
    return [CardShown(seat=command.seat, to=pending.seat, card=command.card)]


def _accuse(state: ClueState, command: Accuse) -> list[ClueEvent]:
    if state.phase not in ("turn", "after"):
        raise ClueRuleViolation("wrong_phase", "accuse on your turn")
    _check_triple(state, command.suspect, command.weapon, command.room)
    if state.envelope is None:
        raise ClueRuleViolation("wrong_phase", "the rules need the referee's state (envelope)")
    envelope = list(state.envelope)
    correct = [command.suspect, command.weapon, command.room] == envelope
    accused = Accused(seat=command.seat, suspect=command.suspect, weapon=command.weapon,
                      room=command.room, correct=correct, envelope=envelope)
    revealed = state.secret if state.scheme.commits else None  # the match is over: the seed
    if correct:
        return [accused, MatchEnded(winner=command.seat, envelope=envelope, seed=revealed)]
    if state.next_active(command.seat, state.out | {command.seat}) is None:
        return [accused, MatchEnded(winner=None, envelope=envelope, seed=revealed)]
    return [accused]


def _end_turn(state: ClueState, command: EndTurn) -> list[ClueEvent]:
    if state.phase != "after":
        raise ClueRuleViolation("wrong_phase", "end the turn after your suggestion")
    nxt = state.next_active(command.seat)
    assert nxt is not None  # the seat ending its turn is itself still in
    return [TurnPassed(seat=command.seat, to=nxt)]


def to_act(state: ClueState) -> tuple[str, ...]:
    if state.phase in ("deal", "over"):
        return ()
    if state.phase == "refute":
        assert state.pending is not None and state.pending.refuter is not None
        return (state.pending.refuter,)
    return (state.turn,)


def decide(state: ClueState | None, command: Command) -> list[ClueEvent]:
    if isinstance(command, Start):
        if state is not None:
            raise ClueRuleViolation("wrong_phase", "the match has already started")
        return _start(command)
    if state is None or state.phase == "over":
        raise ClueRuleViolation("wrong_phase", "no match in play")
    if isinstance(command, Deal):
        return _deal(state, command)
    if not isinstance(command, Suggest | Show | Accuse | EndTurn):
        raise ClueRuleViolation("illegal_move", f"not a Clue command: {command!r}")
    if state.phase == "deal":
        raise ClueRuleViolation("wrong_phase", "the cards are not dealt yet")
    if command.seat not in to_act(state):
        raise ClueRuleViolation("not_your_turn", f"waiting for {', '.join(to_act(state))}")
    if isinstance(command, Suggest):
        return _suggest(state, command)
    if isinstance(command, Show):
        return _show(state, command)
    if isinstance(command, Accuse):
        return _accuse(state, command)
    return _end_turn(state, command)


def legal_moves(state: ClueState, seat: str) -> list[Move]:
    """Every command `seat` may send (suggestions and accusations: every triple)."""
    if seat not in to_act(state):
        return []
    if state.phase == "refute":
        assert state.pending is not None
        hand = state.hands.get(seat) or frozenset()
        return [Show(seat, c) for c in state.pending.cards if c in hand]
    deck = state.deck
    triples = [(s, w, r) for s in deck.suspects for w in deck.weapons for r in deck.rooms]
    moves: list[Move] = [Accuse(seat, *t) for t in triples]
    if state.phase == "turn":
        return [*(Suggest(seat, *t) for t in triples), *moves]
    return [EndTurn(seat), *moves]
