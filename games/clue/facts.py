"""Seed 002's deduction rules, run to a fixed point, as facts in words.

The seed deduces with hand-written rules; the belief counts exactly. Each rule here records
what it concludes as a structured `Fact` (holder, card, holds or not) with the rule's name
and its reason, so tests can check every fact against the exact probabilities (a fact is a
marginal of exactly 1 or 0 there). The rules, in the seed's words and order:

- hand disjointedness: a card known in one hand is in no other hand and not in the envelope;
- card shown: a seat that refuted a suggestion holds one of its cards; when all but one are
  ruled out for that seat, it holds the last one;
- no card shown: a seat that could not refute holds none of the three; a card no seat can
  hold is in the envelope;
- knowing a murder card: the other cards of its type are held by someone, so one ruled out
  for all seats but one is in that seat's hand;
- all but one of a type: when every card of a type but one is known innocent, that one is
  in the envelope;
- number of cards ruled out: a hand whose known cards reach its size holds nothing else; a
  hand whose possible cards shrink to its size holds them all;
- suggestion-card constraints: the open refutations of a seat, less its ruled-out cards, form
  sets it holds one card of each; a largest family of disjoint ones (the maximum disjoint
  set) that accounts for every unknown card of the hand rules out every card outside it.

One rule the seed does not have, needed once accusations are public: a wrong accusation with
two of its cards known to be in the envelope clears the third.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.clue.cards import TYPES
from games.clue.knowledge import ENVELOPE, Knowledge

DISJOINT = "hand disjointedness"
SHOWN = "card shown"
NOT_SHOWN = "no card shown"
MURDER = "knowing a murder card"
ALL_BUT_ONE = "all but one of a type"
COUNTED = "number of cards ruled out"
SUGGESTION = "suggestion-card constraints"
ACCUSATION = "a wrong accusation"
SEEN = "seen"


@dataclass(frozen=True)
class Fact:
    """`holder` (a seat or the envelope) holds `card` (or, `holds` False, does not)."""

    holder: str
    card: str
    holds: bool
    rule: str
    reason: str

    @property
    def text(self) -> str:
        return f"{_claim(self.holder, [self.card], self.holds)} ({self.rule}: {self.reason})"


def _join(words: list[str], last: str = "and") -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _claim(holder: str, cards: list[str], holds: bool) -> str:
    if holder == ENVELOPE:
        verb = "is" if len(cards) == 1 else "are"
        return f"{_join(cards)} {verb} {'in' if holds else 'not in'} the envelope"
    if holds:
        return f"{holder} holds {_join(cards)}"
    if len(cards) == 1:
        return f"{holder} does not hold {cards[0]}"
    return f"{holder} holds none of {_join(cards)}"


class _Deduction:
    def __init__(self, k: Knowledge) -> None:
        assert k.deck is not None
        self.k = k
        self.deck = k.deck
        self.cards = k.deck.cards
        self.has: dict[str, set[str]] = {s: set() for s in k.seats}
        self.hasnot: dict[str, set[str]] = {s: set() for s in k.seats}
        self.murder: set[str] = set()
        self.innocent: set[str] = set()
        self.facts: list[Fact] = []
        self.changed = False

    def know(self, holder: str, card: str, holds: bool, rule: str, reason: str) -> None:
        if holder == ENVELOPE:
            known = self.murder if holds else self.innocent
        else:
            known = self.has[holder] if holds else self.hasnot[holder]
        if card in known:
            return
        known.add(card)
        self.changed = True
        if rule != SEEN and holder != self.k.observer:
            self.facts.append(Fact(holder, card, holds, rule, reason))

    def run(self) -> list[Fact]:
        k = self.k
        for card, holder in k.seen.items():
            self.know(holder, card, True, SEEN, k.seen_why[card])
        if k.observer in self.has:
            for card in self.cards:
                if card not in self.has[k.observer]:
                    self.know(k.observer, card, False, SEEN, "your own hand")
        for seat, triple, suggester, _ in k.passes:
            for card in triple:
                self.know(seat, card, False, NOT_SHOWN,
                          f"{seat} could not refute {suggester}'s suggestion of "
                          f"{_join(list(triple))}")
        self.changed = True
        while self.changed:
            self.changed = False
            self._disjoint()
            self._shown()
            self._nobody_holds()
            self._murder_card()
            self._all_but_one()
            self._counted()
            self._suggestions()
            self._accusations()
        return self.facts

    def _disjoint(self) -> None:
        for seat, cards in self.has.items():
            for card in list(cards):
                for other in self.k.seats:
                    if other != seat:
                        self.know(other, card, False, DISJOINT, f"{seat} holds {card}")
                self.know(ENVELOPE, card, False, DISJOINT, f"{seat} holds {card}")
        for card in list(self.murder):
            for seat in self.k.seats:
                self.know(seat, card, False, DISJOINT, f"{card} is in the envelope")

    def _shown(self) -> None:
        for r in self.k.refutations:
            if set(r.cards) & self.has[r.seat]:
                continue
            left = [c for c in r.cards if c not in self.hasnot[r.seat]]
            if len(left) == 1:
                out = [c for c in r.cards if c != left[0]]
                self.know(r.seat, left[0], True, SHOWN,
                          f"{r.seat} showed {r.suggester} one of {_join(list(r.cards), 'or')} "
                          f"and holds neither {_join(out, 'nor')}")

    def _nobody_holds(self) -> None:
        for card in self.cards:
            if all(card in self.hasnot[s] for s in self.k.seats):
                self.know(ENVELOPE, card, True, NOT_SHOWN, f"no seat can hold {card}")

    def _murder_card(self) -> None:
        for kind in TYPES:
            of_kind = self.deck.of_type(kind)
            for card in of_kind:
                if card in self.murder:
                    for other in of_kind:
                        if other != card:
                            self.know(ENVELOPE, other, False, MURDER,
                                      f"{card} is the envelope's {kind}")
        for card in self.innocent:
            if any(card in h for h in self.has.values()):
                continue
            possible = [s for s in self.k.seats if card not in self.hasnot[s]]
            if len(possible) == 1:
                self.know(possible[0], card, True, MURDER,
                          f"{card} is not in the envelope and every other seat is ruled out")

    def _all_but_one(self) -> None:
        for kind in TYPES:
            left = [c for c in self.deck.of_type(kind) if c not in self.innocent]
            if len(left) == 1:
                self.know(ENVELOPE, left[0], True, ALL_BUT_ONE, f"every other {kind} is innocent")

    def _counted(self) -> None:
        sizes = self.k.hand_sizes
        for seat in self.k.seats:
            size = sizes.get(seat)
            if size is None:
                continue
            if len(self.has[seat]) == size:
                for card in self.cards:
                    if card not in self.has[seat]:
                        self.know(seat, card, False, COUNTED,
                                  f"{seat}'s {size} cards are all known")
            possible = [c for c in self.cards if c not in self.hasnot[seat]]
            if len(possible) == size:
                for card in possible:
                    self.know(seat, card, True, COUNTED,
                              f"only {size} cards are left that {seat} can hold")

    def _suggestions(self) -> None:
        sizes = self.k.hand_sizes
        for seat in self.k.seats:
            if seat not in sizes:
                continue
            family: list[frozenset[str]] = []
            for r in self.k.refutations:
                if r.seat != seat or set(r.cards) & self.has[seat]:
                    continue
                left = frozenset(c for c in r.cards if c not in self.hasnot[seat])
                if len(left) > 1 and left not in family:
                    family.append(left)
            unknown = sizes[seat] - len(self.has[seat])
            if not family or unknown <= 0:
                continue
            best = max_disjoint(family)
            if len(best) == unknown:
                keep = set().union(*best) | self.has[seat]
                sets = [_join(sorted(s), "or") for s in best]
                for card in self.cards:
                    if card not in keep:
                        self.know(seat, card, False, SUGGESTION,
                                  f"{seat}'s unknown card is {sets[0]}" if unknown == 1 else
                                  f"{seat}'s {unknown} unknown cards are one of "
                                  f"{', one of '.join(sets)}")

    def _accusations(self) -> None:
        for seat, triple in self.k.wrong_accusations:
            known = [c for c in triple if c in self.murder]
            if len(known) == 2:
                (last,) = [c for c in triple if c not in self.murder]
                self.know(ENVELOPE, last, False, ACCUSATION,
                          f"{seat} wrongly accused {_join(list(triple))}")


def max_disjoint(family: list[frozenset[str]]) -> list[frozenset[str]]:
    """A largest family of pairwise disjoint sets (exact search; families here are small)."""
    best: list[frozenset[str]] = []
    _grow(sorted(family, key=len), 0, [], frozenset(), best)
    return best


def _grow(ordered: list[frozenset[str]], i: int, chosen: list[frozenset[str]],
          used: frozenset[str], best: list[frozenset[str]]) -> None:
    """max_disjoint's search from `ordered[i]` on, `best` kept in place (module level, not a
    closure: a closure that calls itself is a reference cycle, server/collector.py)."""
    if len(chosen) > len(best):
        best[:] = chosen
    if len(chosen) + (len(ordered) - i) <= len(best):
        return
    for j in range(i, len(ordered)):
        if not ordered[j] & used:
            chosen.append(ordered[j])
            _grow(ordered, j + 1, chosen, used | ordered[j], best)
            chosen.pop()


def deduce(knowledge: Knowledge) -> list[Fact]:
    """Every fact the seed's rules reach from what the observer has seen (none before the
    deal)."""
    if knowledge.deck is None or not knowledge.dealt:
        return []
    return _Deduction(knowledge).run()
