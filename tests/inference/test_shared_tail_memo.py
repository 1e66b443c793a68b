"""The closed-form tail's memo of N is shared by positions with one tail shape: the counts
stay those of a fresh memo, and the memos stay bounded."""

from __future__ import annotations

import random

from inference import counting
from inference.classes import Position


def _position(rng: random.Random) -> Position:
    """Twelve items over three holders with random allowed sets (each item at least one)."""
    holders = ("A", "B", "C")
    allowed = {i: rng.randrange(1, 8) for i in range(12)}
    counts = [0, 0, 0]
    for mask in allowed.values():  # a feasible deal: each item to its lowest allowed holder
        counts[(mask & -mask).bit_length() - 1] += 1
    return Position(holders, allowed, tuple(counts))


def test_a_shared_memo_gives_the_counts_of_a_fresh_one() -> None:
    rng = random.Random(7)
    positions = [_position(rng) for _ in range(60)]
    warm = [counting.solve_key.__wrapped__(p.key()) for p in positions]  # memos shared
    for position, solved in zip(positions, warm, strict=True):
        counting._MEMOS.clear()
        fresh = counting.solve_key.__wrapped__(position.key())
        assert (fresh.total, fresh.numerators) == (solved.total, solved.numerators)


def test_the_memos_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(counting, "MEMOS_KEPT", 3)
    monkeypatch.setattr(counting, "MEMO_ENTRIES", 2)
    counting._MEMOS.clear()
    for shape in range(3):
        counting._shared_memo(("shape", shape))
    assert len(counting._MEMOS) == 3
    counting._shared_memo(("shape", 99))  # a fourth shape: the table starts again
    assert list(counting._MEMOS) == [("shape", 99)]
    memo = counting._shared_memo(("shape", 99))
    memo.update({((1,), (i,)): i for i in range(5)})
    assert counting._shared_memo(("shape", 99)) == {}  # over MEMO_ENTRIES: emptied
    counting._MEMOS.clear()
