"""server/collector.py: the collector's thresholds raised and what exists frozen."""

from __future__ import annotations

import gc

from server.collector import OLDER, YOUNG, tune_collector


def test_tuning_freezes_what_exists_and_raises_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        kept = [[n] for n in range(1000)]  # containers alive before the server is up
        assert tune_collector() == before
        assert gc.get_threshold() == (YOUNG, OLDER, OLDER)
        assert gc.get_freeze_count() >= len(kept)
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1  # cycles are still collected (an explicit pass here)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
