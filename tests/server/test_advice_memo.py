"""The advice memo holds at most MAX_KEPT answers and MAX_KEPT_BYTES of them, the least
recently used going first: a Texas 42 bid's answer is 133 KB, a dominoes move's 0.6 KB."""

from __future__ import annotations

import json

from server.advice_memo import AdviceMemo


def answer(chars: int) -> dict[str, str]:
    """An answer whose compact JSON is `chars` bytes long."""
    payload = {"t": ""}
    payload["t"] = "x" * (chars - len(json.dumps(payload, separators=(",", ":"))))
    return payload


def key(n: int) -> tuple[str, int, str, str]:
    return ("m", n, "S", "uniform")


def test_the_least_recently_used_go_first_once_the_bytes_are_spent() -> None:
    memo = AdviceMemo(max_kept=100, max_bytes=1000)
    for n in range(4):
        memo.keep(key(n), answer(300))
    assert len(memo) == 3 and memo.bytes == 900 and memo.get(key(0)) is None
    assert memo.get(key(1)) == answer(300)  # now the most recently used
    memo.keep(key(4), answer(300))
    assert memo.get(key(2)) is None and memo.get(key(1)) is not None
    assert memo.bytes == 900


def test_one_answer_larger_than_the_bound_is_not_kept_and_replaces_nothing_else() -> None:
    memo = AdviceMemo(max_kept=100, max_bytes=1000)
    memo.keep(key(0), answer(400))
    memo.keep(key(1), answer(1001))
    assert memo.get(key(1)) is None and memo.get(key(0)) == answer(400)
    assert memo.bytes == 400
    memo.keep(key(0), answer(1500))  # kept again, too large: the old answer goes too
    assert memo.get(key(0)) is None and memo.bytes == 0 and len(memo) == 0


def test_the_count_bound_still_holds_and_a_key_kept_twice_counts_once() -> None:
    memo = AdviceMemo(max_kept=2, max_bytes=10_000)
    memo.keep(key(0), answer(100))
    memo.keep(key(0), answer(200))
    assert len(memo) == 1 and memo.bytes == 200
    memo.keep(key(1), answer(100))
    memo.keep(key(2), answer(100))
    assert len(memo) == 2 and memo.get(key(0)) is None and memo.bytes == 200
