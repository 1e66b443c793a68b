"""The orders Uno's cards are dealt and reshuffled in, by the scheme the match names.

sha256-fisher-yates (every match since it was named): the deck's kinds sorted (by code point:
"W" < "W+4" < "b0" < ...) and shuffled by games.fairness.shuffle with the match's seed; S
takes the first hand, N the next, then the starter, then the deck in order. The k-th reshuffle
(k = 1, 2, ...) sorts the pile under the top card and shuffles it with the seed derived from
the match's seed by the label "reshuffle k": the one seed committed at the deal fixes every
reshuffle too, so the referee chooses nothing once play has begun.

cpython-random (logs that name no scheme): `random.Random(secret).shuffle` of the same sorted
lists, each reshuffle with a fresh secret of its own. CPython does not promise that shuffle
stays the same and no seed was ever committed: kept only so old referee logs re-decide.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.fairness.scheme import Scheme
from games.fairness.shuffle import derived_seed, shuffled

LEGACY = Scheme("cpython-random", commits=False)


def deal_order(scheme: Scheme, cards: Iterable[str], seed: str) -> tuple[str, ...]:
    """The whole deck in the order `seed` deals it (hands, starter, then the deck)."""
    if scheme.commits:
        return tuple(shuffled(seed, sorted(cards)))
    return _cpython(cards, seed)


def reshuffle_order(scheme: Scheme, under: Iterable[str], match_seed: str | None,
                    number: int, secret: str | None) -> tuple[str, ...] | None:
    """The new deck of reshuffle `number` (1, 2, ...); None when this state cannot know it
    (an audience without the seed or the secret)."""
    if scheme.commits:
        if match_seed is None:
            return None
        return tuple(shuffled(derived_seed(match_seed, f"reshuffle {number}"), sorted(under)))
    return None if secret is None else _cpython(under, secret)


def _cpython(cards: Iterable[str], secret: str) -> tuple[str, ...]:
    order = sorted(cards)
    random.Random(secret).shuffle(order)
    return tuple(order)
