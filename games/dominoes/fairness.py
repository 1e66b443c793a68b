"""Dominoes' deal from a seed: the shared shuffle (games.fairness.shuffle) over the variant's
tiles, dealt in slices.

  deal      the variant's tiles in canonical order (0-0, 0-1, ..., 0-max, 1-1, ...) shuffled;
            the seats in turn order (S, W, N, E; two players: S, N) take consecutive slices of
            the hand size; the rest is the pool.
  boneyard  in a drawing variant the pool, in shuffle order, is the boneyard: the first tile
            drawn in a hand is the first after the dealt slices, then the next, ... (so the
            seed fixes every draw as well as the deal).

The hand's `hand_started` publishes sha256(seed) and its `hand_ended` reveals the seed: every
dominoes log ever written was dealt this way, so an old log names no scheme and still proves.
"""

from __future__ import annotations

from games.dominoes.tiles import Seat, Tile
from games.dominoes.variants import Variant
from games.fairness.shuffle import commitment, shuffled

seed_commitment = commitment
"""sha256 of the seed bytes, hex: what hand_started publishes."""


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
