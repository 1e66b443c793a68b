"""The behaviour model from one observer's own view (what the odds request and the
pimc-behaviour bot use): the same decisions as the referee-built ones, the same weights,
nothing read that the observer may not see, and draw-2's plays before a draw left out."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from calibration.botmatches import bot_matches
from games.dominoes.audience import view as redact
from games.dominoes.behaviour import model as bhv
from games.dominoes.behaviour.odds import behaviour_odds
from games.dominoes.events import TilePlayed, TilesDrawn
from games.dominoes.seat_view import SeatView


@pytest.fixture(scope="module")
def matches() -> dict[str, list[Any]]:
    return {variant: next(bot_matches(variant, ["greedy"], 1, seed=11, options={"target": 30}))
            for variant in ("partnership-6", "block-2", "draw-2")}


def _observers(events: list[Any]) -> list[str]:
    return [*events[0].players, "spectator"]


def _referee_hands(events: list[Any], upto: int) -> dict[str, frozenset]:
    state = bhv.referee_state(events[:upto])
    return {s: frozenset(h or ()) for s, h in state.hand.hands.items()}


@pytest.mark.parametrize("variant", ["partnership-6", "block-2", "draw-2"])
def test_observed_decisions_score_as_the_movers_own(matches: dict[str, list[Any]],
                                                    variant: str) -> None:
    """At every play of every hand, for every observer: the decisions built from its own
    view have the public part (PublicScore) of the mover's own view, and give the true deal
    the weight the referee-built likelihood gives it."""
    events = matches[variant]
    players = dict(events[0].players)
    compared = 0
    for start, stop in bhv.hands_of(events):
        full = {d.index: d for d in bhv.hand_decisions(events, start, stop, players)}
        referee = bhv.HandLikelihood(list(full.values()), {"greedy": 2.0},
                                     draws=bhv.hand_draws(events, start, stop))
        plays = [i for i in range(start, stop) if isinstance(events[i], TilePlayed)]
        for observer in _observers(events):
            upto = plays[-1] + 1 if plays else start + 1
            seen = SeatView.from_events(events[:upto], observer)
            decisions, draws = bhv.observed_decisions(seen)
            assert [d.index for d in decisions] == [
                i for i in plays if events[i].seat != observer]
            assert [i for i, _ in draws] == [
                i for i in range(start, upto) if isinstance(events[i], TilesDrawn)]
            for d in decisions:
                mover = full[d.index]
                assert d.seat == mover.seat and d.tile == mover.tile
                assert d.public == mover.public, (variant, observer, d.index)
                compared += 1
            mine = bhv.HandLikelihood(decisions, {"greedy": 2.0}, draws=draws)
            hands = _referee_hands(events, upto)
            deal = {s: sorted(h) for s, h in hands.items() if s != observer}
            assert math.isclose(mine.log_weight(deal, upto, observer),
                                referee.log_weight(deal, upto, observer), abs_tol=1e-9)
    assert compared > 20


def test_draw2_leaves_out_the_plays_before_a_draw(matches: dict[str, list[Any]]) -> None:
    events = matches["draw-2"]
    players = dict(events[0].players)
    for start, stop in bhv.hands_of(events):
        decisions = bhv.hand_decisions(events, start, stop, players)
        draws = bhv.hand_draws(events, start, stop)
        late = [(i, s) for i, s in draws if any(d.seat == s and d.index < i for d in decisions)]
        if not late:
            continue
        _, seat = late[0]
        upto = stop - 1
        hands = _referee_hands(events, upto)
        deal = {s: sorted(h) for s, h in hands.items()}
        observer = next(s for s in players if s != seat)
        with_draws = bhv.HandLikelihood(decisions, {"greedy": 2.0}, draws=draws)
        # by hand: only the seat's plays after its latest draw, its hand then = now + since
        latest = max(i for i, s in draws if s == seat and i < upto)
        kept = [d for d in decisions if d.seat == seat and latest < d.index < upto]
        expected, since = 0.0, set()
        for d in reversed(kept):
            since.add(d.tile)
            expected += with_draws.log_prob(d, hands[seat] | since)
        assert math.isclose(with_draws.log_weight({seat: deal[seat]}, upto, observer),
                            expected, abs_tol=1e-9)
        return
    raise AssertionError("no draw after a play in this match (change the seed)")


@pytest.mark.parametrize("variant", ["partnership-6", "block-2", "draw-2"])
def test_behaviour_odds_reads_only_the_observers_view(matches: dict[str, list[Any]],
                                                      variant: str) -> None:
    """Given the referee's unredacted log, the answer is the one from the observer's own
    events (it redacts for the observer itself): same seed, same numbers. And it is a
    distribution over the observer's unseen tiles."""
    events = matches[variant]
    start, stop = bhv.hands_of(events)[0]
    plays = [i for i in range(start, stop) if isinstance(events[i], TilePlayed)]
    upto = plays[len(plays) // 2] + 1
    for observer in _observers(events):
        own = [redact(e, observer) for e in events[:upto]]
        a = behaviour_odds(own, observer, random.Random(5))
        b = behaviour_odds(events[:upto], observer, random.Random(5))
        assert a == b
        assert a["model"] == "behaviour:greedy" and a["observer"] == observer
        mine = _referee_hands(events, upto).get(observer, frozenset())
        tiles = {t for column in a["marginals"].values() for t in column}
        assert not tiles & {str(t) for t in mine}
        for tile in tiles:
            total = sum(column.get(tile, 0.0) for column in a["marginals"].values())
            assert abs(total - 1) < 1e-4
        assert (a["error_95"] is None) == a["exact"]


def test_behaviour_odds_needs_a_hand_in_play(matches: dict[str, list[Any]]) -> None:
    events = matches["block-2"]
    with pytest.raises(bhv.NotModelled):
        behaviour_odds(events[:1], "S", random.Random(0))  # match_started only
    with pytest.raises(bhv.NotModelled):
        behaviour_odds([], "S", random.Random(0))
