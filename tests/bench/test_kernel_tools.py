"""The Cython port of the kernel's last two tricks (clients/bench/kernel_tools/two_left.pyx)
gives the values of numba's `_two_left` and `_last_trick`, ending by ending. Cython is in the
dev extra: if it is missing these tests fail (they never skip). Nothing is timed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clients.bench.kernel_tools import (
    Build,
    build_cython,
    endings,
    numba_last_trick_all,
    numba_two_left_all,
    reference_all,
)


@pytest.fixture(scope="module")
def cython(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build_cython(Path(tmp_path_factory.mktemp("cython")))


def test_two_left_is_numba_s_ending_by_ending(cython: Build) -> None:
    rows = endings(4000, seed=29)
    ours, theirs = np.full(len(rows), -9, np.int64), np.full(len(rows), -9, np.int64)
    cython.module.two_left_all(rows, ours)
    numba_two_left_all(rows, theirs)
    assert ours.tolist() == theirs.tolist()
    assert set(ours.tolist()) <= set(range(43)) and len(set(ours.tolist())) > 10
    reference = np.zeros(500, np.int64)
    reference_all(rows[:500], reference)
    assert ours[:500].tolist() == reference.tolist()


def test_last_trick_is_numba_s(cython: Build) -> None:
    rows = endings(2000, seed=42, per_seat=1)
    ours, theirs = np.full(len(rows), -9, np.int64), np.full(len(rows), -9, np.int64)
    cython.module.last_trick_all(rows, ours)
    numba_last_trick_all(rows, theirs)
    assert ours.tolist() == theirs.tolist()
    assert 0 in ours and max(ours) > 1


def test_the_port_refuses_changed_tables(cython: Build) -> None:
    lead = np.zeros((9, 27), np.int64)
    with pytest.raises(ValueError, match="changed shape"):
        cython.module.init(lead, np.zeros((9, 8), np.int64), np.zeros((9, 8, 28), np.int64),
                           np.zeros(28, np.int64), np.zeros(32, np.int64))
