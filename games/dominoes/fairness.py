"""Provably fair deals: a deterministic shuffle from a 256-bit seed, committed by its sha256.

The seed's hash is published before the first move and the seed itself when the hand ends,
so anyone holding the log can recompute the deal and see that it was fixed in advance.

Algorithm (documented in docs/events.md, stable forever — old logs must keep verifying):
  byte stream  = sha256(seed || 0u64be) || sha256(seed || 1u64be) || ...
  draw(n)      = next 4 bytes as a big-endian u32 x; retry while x >= 2^32 - (2^32 mod n);
                 return x mod n            (rejection sampling: exactly uniform)
  shuffle      = Fisher-Yates over the variant's tiles in canonical order:
                 for i = len-1 down to 1: j = draw(i + 1); swap(i, j)
  deal         = the variant's seats in turn order (S, W, N, E; two players: S, N) take
                 consecutive slices of hand_size; the rest is the pool.
  boneyard     = in a drawing variant the pool, in shuffle order, is the boneyard: the first
                 tile drawn in a hand is the first after the dealt slices, then the next, ...
                 (so the seed fixes every draw as well as the deal).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from games.dominoes.tiles import Seat, Tile
from games.dominoes.variants import Variant

SEED_BYTES = 32


def seed_commitment(seed_hex: str) -> str:
    """sha256 of the seed bytes, hex: what hand_started publishes."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def _byte_stream(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        yield from hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        counter += 1


def _uniform_draws(seed: bytes) -> Iterator[int]:
    """Endless big-endian u32 values from the seed's byte stream."""
    stream = _byte_stream(seed)
    while True:
        yield int.from_bytes(bytes(next(stream) for _ in range(4)), "big")


def shuffled(seed_hex: str, tiles: tuple[Tile, ...]) -> list[Tile]:
    """The tiles in the order fixed by the seed (see module docstring)."""
    seed = bytes.fromhex(seed_hex)
    if len(seed) != SEED_BYTES:
        raise ValueError("a deal seed is 32 bytes (64 hex digits)")
    order = list(tiles)
    draws = _uniform_draws(seed)
    for i in range(len(order) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        x = next(draws)
        while x >= limit:
            x = next(draws)
        j = x % n
        order[i], order[j] = order[j], order[i]
    return order


def deal(seed_hex: str, variant: Variant) -> tuple[dict[Seat, tuple[Tile, ...]], tuple[Tile, ...]]:
    """Each seat's hand and the face-down pool for this seed (both sorted)."""
    order = shuffled(seed_hex, variant.tiles)
    size = variant.hand_size
    seats = variant.seats
    hands = {seat: tuple(sorted(order[k * size : (k + 1) * size])) for k, seat in enumerate(seats)}
    return hands, tuple(sorted(order[len(seats) * size :]))


def boneyard(seed_hex: str, variant: Variant) -> tuple[Tile, ...]:
    """The undealt tiles in the order they are drawn (the pool of `deal`, unsorted)."""
    order = shuffled(seed_hex, variant.tiles)
    return tuple(order[len(variant.seats) * variant.hand_size :])
