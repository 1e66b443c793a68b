"""The belief is exact: checked against every assignment of the unseen dominoes, late in hands.

The brute force knows nothing of voids: it deals the unseen dominoes every possible way,
puts back what each seat has played this hand, and replays the hand's moves through the rules
(`decide`); a deal is consistent when every move stays legal. Its counts must equal the
class-count DP's exactly.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest

from games.interface import SPECTATOR
from games.texas42.belief import MODEL, Texas42Belief
from games.texas42.dominoes import SEATS, parse_tile
from games.texas42.events import Played, TrumpNamed
from games.texas42.game import TEXAS42
from games.texas42.rules import evolve, legal_tiles
from games.texas42.suits import TRUMP_SUIT, follows, led_suit, suit_words, trump_name
from inference.counting import exact_marginals, tile_counts
from tests.games.texas42.helpers import match


def brute_force(events, cut: int, observer: str):
    """(consistent deals, {holder: {tile: Fraction}}) by enumeration, for the referee log cut
    after event index `cut` (inside a hand in play)."""
    state = None
    trump_at = 0
    for i, event in enumerate(events[:cut + 1]):
        if isinstance(event, TrumpNamed):
            trump_at = i
        state = evolve(state, event)
    base = None
    for event in events[:trump_at + 1]:
        base = evolve(base, event)
    plays = [e for e in events[trump_at + 1:cut + 1] if isinstance(e, Played)]
    before = []  # each play with the referee's state just before it
    folded = base
    for event in events[trump_at + 1:cut + 1]:
        if isinstance(event, Played):
            before.append((folded, event.seat, parse_tile(event.tile)))
        folded = evolve(folded, event)
    holders = [s for s in SEATS if s != observer]
    own = state.hands[observer] if observer in SEATS else frozenset()
    unseen = sorted({t for s in holders for t in state.hands[s]})
    counts = [state.counts[h] for h in holders]
    played_by = {s: {parse_tile(p.tile) for p in plays if p.seat == s} for s in SEATS}
    seen: dict[str, dict] = {h: dict.fromkeys(unseen, 0) for h in holders}
    total = 0
    for hands in assignments(unseen, holders, counts):
        deal = {s: set(hands.get(s, own) | played_by[s]) for s in SEATS}
        if not all_legal(deal, before):
            continue
        total += 1
        for h in holders:
            for t in hands[h]:
                seen[h][t] += 1
    return total, {h: {t: Fraction(n, total) for t, n in row.items()} for h, row in seen.items()}


def all_legal(deal, before) -> bool:
    """Whether every play was legal (rules.legal_tiles) had the hands been `deal`."""
    hands = {s: set(h) for s, h in deal.items()}
    for state, seat, tile in before:
        if tile not in legal_tiles(replace(state, hands={seat: frozenset(hands[seat])}), seat):
            return False
        hands[seat].discard(tile)
    return True


def assignments(items, holders, counts):
    """Every way to give `counts[i]` of `items` to `holders[i]` (each deal once)."""
    if not holders:
        yield {}
        return
    for chosen in itertools.combinations(items, counts[0]):
        rest = [x for x in items if x not in chosen]
        for others in assignments(rest, holders[1:], counts[1:]):
            yield {holders[0]: set(chosen), **others}


def late_cuts(events, tricks: int):
    """Indices of the last event of the `tricks`-th trick of each hand played that far."""
    done = 0
    for i, event in enumerate(events):
        if event.type == "hand_started":
            done = 0
        if event.type == "trick_won":
            done += 1
            if done == tricks:
                yield i


@pytest.mark.parametrize("seed", [11, 12])
def test_every_seats_belief_equals_brute_force_after_four_tricks(seed: int) -> None:
    events = match(seed)
    cuts = list(late_cuts(events, 4))[:2]
    assert cuts
    for cut in cuts:
        for observer in (*SEATS, SPECTATOR):
            if observer == SPECTATOR:
                continue  # the spectator's 12 unseen are checked after five tricks
            check(events, cut, observer)


@pytest.mark.parametrize("seed", [13])
def test_the_spectators_belief_equals_brute_force_after_five_tricks(seed: int) -> None:
    events = match(seed)
    for cut in list(late_cuts(events, 5))[:2]:
        check(events, cut, SPECTATOR)


def check(events, cut: int, observer: str) -> None:
    belief = Texas42Belief(observer)
    for event in events[:cut + 1]:
        belief.apply(TEXAS42.view(event, observer))
    position = belief.position()
    assert position is not None
    total, probs = brute_force(events, cut, observer)
    dp_total, _ = tile_counts(position)
    assert dp_total == total > 0
    exact = exact_marginals(position)
    for holder, row in probs.items():
        for tile, p in row.items():
            num, den = exact[holder][tile]
            assert Fraction(num, den) == p, (observer, holder, tile)
    snapshot = belief.snapshot_dict()
    assert snapshot["model"] == MODEL == "uniform over deals consistent with the plays"
    assert snapshot["consistent_deals"] == total



def test_a_void_is_a_fact_in_words_and_removes_the_seat_from_that_suit() -> None:
    events = match(21)
    state = None
    belief = Texas42Belief("S")
    shown = 0
    for event in events:
        if isinstance(event, Played) and state.trick and event.seat != "S":
            suit = led_suit(state.trick[0][1], state.trump)
            if not follows(parse_tile(event.tile), suit, state.trump):
                belief.apply(TEXAS42.view(event, "S"))
                state = evolve(state, event)
                facts = belief.snapshot_dict()["facts"]
                words = (f"{event.seat} is out of trumps ({trump_name(state.trump)})"
                         if suit == TRUMP_SUIT else f"{event.seat} has no {suit_words(suit)}")
                assert any(f.startswith(words) for f in facts), (words, facts)
                position = belief.position()
                if position is not None:
                    k = position.holders.index(event.seat)
                    for tile, mask in position.allowed.items():
                        if follows(tile, suit, state.trump):
                            assert not mask >> k & 1
                shown += 1
                continue
        belief.apply(TEXAS42.view(event, "S"))
        state = evolve(state, event)
    assert shown >= 3
