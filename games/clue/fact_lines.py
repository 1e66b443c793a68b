"""The seed's facts in words a player reads once each: a line per card and a line per rule.

`deduce` records one `Fact` per holder and card, so a single card seen in a hand yields a fact
for every other holder ("hand disjointedness"). A player reads them grouped: per card, one line
saying where it is (or which hands it is not in, and the envelope's odds when open); per rule,
one line per reason with what it concludes ("P3 could not refute P1's suggestion of Scarlet,
Rope and Hall, so P3 holds none of them"). The facts themselves, and the exact belief, are
unchanged.
"""

from __future__ import annotations

from typing import Any

from games.clue.facts import DISJOINT, Fact, _join
from games.clue.knowledge import ENVELOPE, Knowledge


def _pct(p: float) -> str:
    return "<1%" if p < 0.005 else ">99%" if p > 0.995 else f"{round(100 * p)}%"


def _card_line(card: str, facts: list[Fact], seen: str | None, envelope_p: float | None) -> str:
    held = [f.holder for f in facts if f.holds]
    where = seen or (held[0] if held else None)
    if where == ENVELOPE:
        return f"{card}: in the envelope"
    if where is not None:
        return f"{card}: in {where}'s hand"
    parts = []
    seats = [f.holder for f in facts if not f.holds and f.holder != ENVELOPE]
    if seats:
        parts.append("not in " + _join([f"{s}'s" for s in seats], "or") + " hand")
    if any(f.holder == ENVELOPE for f in facts):
        parts.append("not in the envelope")
    elif envelope_p is not None and 0 < envelope_p < 1:
        parts.append(f"in the envelope with {_pct(envelope_p)}")
    return f"{card}: {'; '.join(parts)}"


def _conclusion(holder: str, cards: list[str], holds: bool) -> str:
    if len(cards) > 4:
        if holder == ENVELOPE:
            return f"{len(cards)} cards are {'in' if holds else 'not in'} the envelope"
        return f"{holder} {'holds' if holds else 'holds none of'} {len(cards)} other cards"
    if holder == ENVELOPE:
        verb = "is" if len(cards) == 1 else "are"
        return f"{_join(cards)} {verb} {'in' if holds else 'not in'} the envelope"
    if holds:
        return f"{holder} holds {_join(cards)}"
    return f"{holder} does not hold {cards[0]}" if len(cards) == 1 else \
        f"{holder} holds none of {_join(cards)}"


def fact_groups(knowledge: Knowledge, facts: list[Fact],
                envelope: dict[str, float] | None = None) -> dict[str, Any]:
    """{"cards": [{"card", "text"}], "rules": [text]}: a line per card the facts (or a card
    seen in another hand) place, in deck order, and a line per reason, in the order found.
    `envelope`: each card's probability of being in the envelope (the exact belief's)."""
    k = knowledge
    assert k.deck is not None
    mine = {c for c, h in k.seen.items() if h == k.observer}
    by_card: dict[str, list[Fact]] = {}
    for f in facts:
        by_card.setdefault(f.card, []).append(f)
    cards = []
    for card in k.deck.cards:
        if card in mine:
            continue
        seen = k.seen.get(card)
        if card in by_card or seen is not None:
            p = (envelope or {}).get(card)
            cards.append({"card": card, "text": _card_line(card, by_card.get(card, []), seen, p)})
    rules: list[str] = []
    for card, holder in k.seen.items():
        if holder != k.observer:
            why = k.seen_why[card]
            shown = why.endswith(f"showed it to {k.observer}")
            rules.append(f"{why.split()[0]} showed you {card}." if shown else f"{card}: {why}.")
    reasons: dict[str, dict[tuple[str, bool], list[str]]] = {}
    for f in facts:
        if f.rule != DISJOINT:
            reasons.setdefault(f.reason, {}).setdefault((f.holder, f.holds), []).append(f.card)
    for reason, found in reasons.items():
        said = "; ".join(f"{h} holds none of them" if not holds and h != ENVELOPE and len(cs) > 1
                         and all(c in reason for c in cs) else _conclusion(h, cs, holds)
                         for (h, holds), cs in found.items())
        rules.append(f"{reason[0].upper()}{reason[1:]}, so {said}.")
    return {"cards": cards, "rules": rules}
