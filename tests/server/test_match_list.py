"""The replay list reads a match in play at one point of its log: the score it shows belongs
to the events it counts, even when a move lands while the list is being built."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from archive.matches import list_matches
from storage import EventStore

STARTED = {"type": "match_started", "variant": "partnership-6", "players": {}}
HAND_ONE = {"type": "hand_ended", "scores": {"EW": 0, "NS": 15}}
A_MOVE = {"type": "tile_played"}
HAND_TWO = {"type": "hand_ended", "scores": {"EW": 0, "NS": 43}}


class MovesLandWhileListing(EventStore):
    """A store whose match gains a move and a hand's end just after its streams are listed,
    as a table playing on would."""

    def streams(self, *args: Any, **kwargs: Any) -> Any:
        listed = super().streams(*args, **kwargs)
        self.append("m1", 3, [A_MOVE, A_MOVE, HAND_TWO, A_MOVE])
        return listed


def test_a_match_in_play_lists_the_score_of_the_events_it_counts(tmp_path: Path) -> None:
    with MovesLandWhileListing(str(tmp_path / "s.sqlite3")) as store:
        store.append("m1", 0, [STARTED, HAND_ONE, A_MOVE])
        [row] = list_matches(store)
    assert row["events"] == 3
    assert row["scores"] == HAND_ONE["scores"]
