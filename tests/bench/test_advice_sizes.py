"""`bench advice-sizes` measures real answers and reports them against the memo's bound.
Nothing is timed."""

from __future__ import annotations

import json

from clients.bench.advice_sizes import Sizes, measure, python_bytes, report
from server.advice_memo import MAX_KEPT, MAX_KEPT_BYTES


def test_an_answer_is_measured_as_kept() -> None:
    sizes = measure("partnership-6", 2, seed=3)
    assert len(sizes.json_bytes) == len(sizes.python_bytes) == 2
    assert all(100 < n < 100_000 for n in sizes.json_bytes), sizes
    assert all(p > 0 for p in sizes.python_bytes), sizes


def test_python_bytes_grow_with_the_answer() -> None:
    small = python_bytes(json.dumps({"moves": [{"tile": "1-2", "p": 0.5}]}))
    large = python_bytes(json.dumps({"moves": [{"tile": f"{k}", "p": k / 7} for k in range(500)]}))
    assert 0 < small < large


def test_the_report_says_how_many_the_bound_keeps() -> None:
    lines = report([Sizes("texas-42", [131_072, 133_000], [220_000, 224_000]),
                    Sizes("partnership-6", [640, 650], [2_000, 2_100])])
    texas, dominoes = lines[1].split(), lines[2].split()
    assert texas[0] == "texas-42" and int(texas[-1]) == int(MAX_KEPT_BYTES // 132_036)
    assert dominoes[0] == "partnership-6" and int(dominoes[-1]) == MAX_KEPT
