"""The match state and `evolve`: a pure fold of events, for the referee and for any view.

The referee's state knows the deck's order (from the match's seed); a seat's view knows
only its own hand, and every count; a spectator knows no hand. `None` marks what an audience
cannot know.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from games.fairness.scheme import Scheme, scheme_named
from games.uno.cards import matches, penalty_of, skips
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
from games.uno.shuffles import LEGACY, deal_order, reshuffle_order
from games.uno.variants import SEATS, VARIANTS, UnoVariant, other


@dataclass(frozen=True)
class UnoState:
    match_id: str
    variant: UnoVariant
    players: dict[str, str]
    hands: dict[str, tuple[str, ...] | None] = field(default_factory=dict)
    """Sorted kinds per seat; None where this audience cannot see the hand."""
    counts: dict[str, int] = field(default_factory=dict)
    deck: tuple[str, ...] | None = None
    """The deck in drawing order (referee only); None when unknown."""
    deck_count: int = 0
    pile: tuple[str, ...] = ()
    """Every face-up card, the top last."""
    colour: str | None = None
    """The colour in force (None: a black starter, any card goes)."""
    turn: str | None = None
    owed: int = 0
    """Cards the seat to move must draw as a penalty (+2/+4)."""
    passed: bool = False
    """The last move was a pass (two in a row: blocked)."""
    over: bool = False
    winner: str | None = None
    scheme: Scheme = LEGACY
    """How the match deals (`match_started.fairness`; none named: CPython's old shuffle)."""
    seed: str | None = None
    """The match's seed (referee only, until match_ended reveals it)."""
    reshuffles: int = 0

    @property
    def dealt(self) -> bool:
        return bool(self.pile)

    @property
    def top(self) -> str:
        return self.pile[-1]

    def can_play(self, seat: str) -> bool | None:
        """Whether `seat` holds a card it may play now (None: this view cannot tell)."""
        hand = self.hands.get(seat)
        if hand is None:
            return None
        return any(matches(k, self.top, self.colour) for k in hand)

    def needs_reshuffle(self) -> bool:
        return self.dealt and not self.over and self.deck_count == 0 and len(self.pile) > 1


def _hand(cards: list[str] | None) -> tuple[str, ...] | None:
    return None if cards is None else tuple(sorted(cards))


def _remove(hand: tuple[str, ...] | None, cards: list[str]) -> tuple[str, ...] | None:
    if hand is None:
        return None
    left = Counter(hand)
    left.subtract(cards)
    return tuple(sorted(left.elements()))


def evolve(state: UnoState | None, event: UnoEvent) -> UnoState:
    if isinstance(event, MatchStarted):
        return UnoState(match_id=event.match_id, variant=VARIANTS[event.variant],
                        players={seat: name for seat, name in event.players.items()},
                        scheme=scheme_named(event.fairness, LEGACY))
    if state is None:
        raise ValueError(f"{event.type} before match_started")
    if isinstance(event, HandDealt):
        return _dealt(state, event)
    if isinstance(event, StarterTurned):
        return replace(state, pile=(event.card,), deck_count=state.deck_count - 1,
                       deck=None if state.deck is None else state.deck[1:],
                       colour=None if event.card in ("W", "W+4") else event.card[0],
                       turn=SEATS[0])
    if isinstance(event, CardPlayed):
        return _played(state, event)
    if isinstance(event, CardsDrawn):
        return _drawn(state, event)
    if isinstance(event, DeckReshuffled):
        under = state.pile[:-1]
        number = state.reshuffles + 1
        deck = reshuffle_order(state.scheme, under, state.seed, number, event.secret)
        return replace(state, deck=deck, deck_count=len(under), pile=state.pile[-1:],
                       reshuffles=number)
    if isinstance(event, TurnPassed):
        return replace(state, turn=other(event.seat), owed=0, passed=True)
    if isinstance(event, MatchEnded):
        return replace(state, over=True, winner=event.winner, turn=None,
                       hands={s: tuple(sorted(c)) for s, c in event.hands.items()},
                       seed=event.seed or state.seed)
    raise ValueError(f"not an uno event: {event!r}")


def _dealt(state: UnoState, event: HandDealt) -> UnoState:
    size = state.variant.deck.hand_size
    deck, seed = state.deck, state.seed
    if event.secret is not None:  # the referee's copy: the whole order
        deck = deal_order(state.scheme, state.variant.deck.cards(), event.secret)[2 * size:]
        seed = event.secret
    counts = {**state.counts, event.seat: size}
    return replace(state, hands={**state.hands, event.seat: _hand(event.cards)},
                   counts=counts, deck=deck, seed=seed,
                   deck_count=state.variant.deck.size() - 2 * size)


def _played(state: UnoState, event: CardPlayed) -> UnoState:
    seat, card = event.seat, event.card
    opponent = other(seat)
    owed = penalty_of(card)
    return replace(
        state,
        hands={**state.hands, seat: _remove(state.hands.get(seat), [card])},
        counts={**state.counts, seat: state.counts[seat] - 1},
        pile=(*state.pile, card),
        colour=event.colour if event.colour is not None else card[0],
        turn=opponent if owed or not skips(card) else seat,
        owed=owed, passed=False)


def _drawn(state: UnoState, event: CardsDrawn) -> UnoState:
    seat = event.seat
    hand = state.hands.get(seat)
    hand = None if hand is None or event.cards is None else tuple(sorted((*hand, *event.cards)))
    owed = state.owed - event.count if event.penalty else 0
    turn = seat if event.penalty and owed > 0 else other(seat)
    return replace(
        state,
        hands={**state.hands, seat: hand},
        counts={**state.counts, seat: state.counts[seat] + event.count},
        deck=None if state.deck is None else state.deck[event.count:],
        deck_count=state.deck_count - event.count,
        owed=owed, turn=turn, passed=False)
