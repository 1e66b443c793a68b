"""Propagation's fixed points are cached by a position's shape: a second position of the
same shape (other tiles, the same masks and sizes) must come out as if computed afresh."""

from __future__ import annotations

import pytest

from games.dominoes.tiles import tile
from inference.classes import Position
from inference.errors import Infeasible
from inference.propagation import clear_cache, propagate

HOLDERS = ("W", "N", "E")


def _position(tiles: list, masks: list[int], counts: tuple[int, ...]) -> Position:
    return Position(HOLDERS, dict(zip(tiles, masks, strict=True)), counts)


def test_a_shape_seen_before_tightens_the_new_position_s_own_tiles() -> None:
    clear_cache()
    # W holds one tile and only W may have the first: the second is N's, the third E's
    masks, counts = [0b001, 0b011, 0b111], (1, 1, 1)
    first = propagate(_position([tile(0, 1), tile(0, 2), tile(3, 3)], masks, counts))
    second = propagate(_position([tile(6, 6), tile(1, 2), tile(2, 5)], masks, counts))
    assert first.tight == second.tight
    assert second.position.allowed == {tile(6, 6): 0b001, tile(1, 2): 0b010, tile(2, 5): 0b100}
    clear_cache()
    fresh = propagate(_position([tile(6, 6), tile(1, 2), tile(2, 5)], masks, counts))
    assert fresh == second


def test_an_infeasible_shape_raises_every_time() -> None:
    """Exceptions are not cached: the second position of the shape is refused too, naming
    its own holders."""
    position = _position([tile(0, 1), tile(0, 2)], [0b001, 0b001], (1, 1, 0))
    for _ in range(2):
        with pytest.raises(Infeasible, match="only be with W"):
            propagate(position)


def test_an_untouched_position_comes_back_as_it_is() -> None:
    position = _position([tile(0, 1), tile(0, 2), tile(0, 3)], [0b111] * 3, (1, 1, 1))
    assert propagate(position).position is position
