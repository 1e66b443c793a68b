"""Texas 42's advice as it grows (games.advice.advise_steps): the partial oracle tables come
over the first k of the answer's completions, and the last step is exactly `advise`'s answer."""

from __future__ import annotations

from typing import Any

from games.advice import advise_steps
from games.texas42.advisor import ADVISOR, PARTIAL_CELL_LABELS, advice_steps, advise
from games.texas42.dominoes import SEATS, parse_tile
from games.texas42.game import TEXAS42
from games.texas42.oracle import oracle_steps
from tests.games.texas42.helpers import match


def view_before(events: list[Any], seq: int, seat: str) -> list[dict[str, Any]]:
    return [TEXAS42.event_to_dict(TEXAS42.view(e, seat)) for e in events[: seq - 1]]


def test_the_oracle_grows_in_steps_and_ends_with_the_answer() -> None:
    events = match(5, dict.fromkeys(SEATS, "greedy"), target_marks=1)
    bid = next(e for e in events if e.type == "bid")
    view = view_before(events, bid.seq, bid.seat)
    steps = list(advice_steps(view, bid.seat, oracle_n=9, every=4))
    assert [s["oracle"]["N"] for s in steps] == [4, 8, 9]
    assert [s.get("partial", False) for s in steps] == [True, True, False]
    assert steps[-1] == advise(view, bid.seat, oracle_n=9)  # streaming changes no figure
    # each partial table is the oracle's own stream at k, its cells without their labels
    dealt = next(e for e in events if e.type == "dealt" and e.seat == bid.seat)
    hand = sorted(parse_tile(t) for t in dealt.tiles)
    tables = list(oracle_steps(hand, bid.seat, n=9, every=4))
    assert [t["N"] for t in tables] == [4, 8, 9]
    for step, table in zip(steps, tables, strict=True):
        assert step["oracle"]["score_means"] == table["score_means"]
        for trump, row in table["cells"].items():
            for level, full in row.items():
                shown = step["oracle"]["cells"][trump][level]
                if step.get("partial"):
                    assert shown == {k: v for k, v in full.items()
                                     if k not in PARTIAL_CELL_LABELS}
                else:
                    assert shown == full
    # the intervals at k = 4 are wider on average than the answer's at 9
    def width(oracle: dict[str, Any]) -> float:
        cells = [c for row in oracle["cells"].values() for c in row.values()]
        return sum(c["P_dd_CI"][1] - c["P_dd_CI"][0] for c in cells) / len(cells)
    assert width(steps[0]["oracle"]) > width(steps[-1]["oracle"])


def test_in_play_the_steps_are_the_one_answer() -> None:
    events = match(5, dict.fromkeys(SEATS, "greedy"), target_marks=1)
    play = [e for e in events if e.type == "played"][20]
    view = view_before(events, play.seq, play.seat)
    steps = list(advise_steps(ADVISOR, view, play.seat, 0, 1.0))
    assert len(steps) == 1 and steps[0]["kind"] == "play"
    assert steps[0] == advise(view, play.seat)
