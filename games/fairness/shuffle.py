"""The one shuffle every game deals with, and the commitment to its seed.

Stable forever: a stored log is proved by re-running it, so a change here would make old logs
fail. docs/fairness.md writes it out step by step for anyone to re-implement:

  byte stream   sha256(seed || 0 as u64 big-endian) || sha256(seed || 1) || ...
  draw(n)       the next 4 bytes as a big-endian u32 x; while x >= 2^32 - (2^32 mod n) take the
                next 4 (rejection: exactly uniform); return x mod n
  shuffle       Fisher-Yates over the items in their canonical order:
                for i = len-1 down to 1: swap positions i and draw(i + 1)
  commitment    sha256(seed), hex: what every audience sees before the deal
  derived seed  sha256(seed || label as UTF-8), hex: a later shuffle fixed by a committed seed

A seed is 32 bytes, written in logs as 64 lowercase hex digits. Dominoes has dealt with exactly this
since its first log, so its old logs (and Texas 42's) verify unchanged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import TypeVar

SEED_BYTES = 32
T = TypeVar("T")


def seed_bytes(seed_hex: str) -> bytes:
    """The seed's 32 bytes (ValueError for anything else: the rules report it typed)."""
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise ValueError("a deal seed is 64 hex digits") from None
    if len(seed) != SEED_BYTES:
        raise ValueError("a deal seed is 32 bytes (64 hex digits)")
    return seed


def commitment(seed_hex: str) -> str:
    """sha256 of the seed's bytes, hex: published before the deal, the seed after it."""
    return hashlib.sha256(seed_bytes(seed_hex)).hexdigest()


def derived_seed(seed_hex: str, label: str) -> str:
    """A seed for a later shuffle that a committed seed fixes in advance (Uno's reshuffles:
    label "reshuffle 1", "reshuffle 2", ...)."""
    return hashlib.sha256(seed_bytes(seed_hex) + label.encode("utf-8")).hexdigest()


def _words(seed: bytes) -> Iterator[int]:
    """Big-endian u32 values, 4 bytes at a time, from the seed's counter-mode byte stream."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for k in range(0, len(block), 4):
            yield int.from_bytes(block[k:k + 4], "big")
        counter += 1


def _draw(words: Iterator[int], n: int) -> int:
    """Uniform in 0..n-1: rejection keeps x mod n exactly uniform."""
    limit = 2**32 - (2**32 % n)
    x = next(words)
    while x >= limit:
        x = next(words)
    return x % n


def shuffled(seed_hex: str, items: Sequence[T]) -> list[T]:
    """`items` (in the game's canonical order) in the order the seed fixes."""
    words = _words(seed_bytes(seed_hex))
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = _draw(words, i + 1)
        order[i], order[j] = order[j], order[i]
    return order
