"""The advisor on the behaviour posterior (`advise(..., model="behaviour:greedy")`, issue 20).

It ranks moves by pimc over deals drawn from the weighted pool the pimc-behaviour bot plays
from, says so (model, label, ESS), and reads nothing but the asking seat's own view.
"""

from __future__ import annotations

import random

import pytest

from calibration.botmatches import bot_matches
from games.advice import UNIFORM, advise_under, models_of
from games.dominoes.events import HandDealt, Passed, TilePlayed, event_to_dict
from games.dominoes.seat_view import SeatView
from games.dominoes.strategy.advice import DominoesAdvisor
from games.dominoes.strategy.advisor import (
    BEHAVIOUR,
    BEHAVIOUR_LABEL,
    LABEL,
    MODELS,
    UnknownModel,
    advise,
    advise_with,
)
from games.dominoes.strategy.pimc_behaviour import weighted_pool
from games.texas42.advisor import ADVISOR as TEXAS42_ADVISOR
from games.texas42.models import BIDS_GREEDY

BUDGET = 300.0
NODES = 10**9
"""Never reached: every deal below is solved exactly (at most 21 plays left), so the answer
depends on the seed only, however loaded the machine."""


def _position(seat: str = "S") -> tuple[list, int]:
    """A partnership-6 match of greedy players and an index where `seat` is to play with a
    choice, at most 21 tiles in hands (exact solves), no pass yet in the hand, and the
    plays seen weigh the deals unequally."""
    for seed in range(1, 40):
        events = next(bot_matches("partnership-6", ["greedy"], 1, seed=seed, options={"target": 1}))
        for k, event in enumerate(events):
            if isinstance(event, Passed):
                break
            if not isinstance(event, TilePlayed):
                continue
            view = SeatView.from_events(events[: k + 1], seat)
            state = view.state
            if (state is None or state.hand is None or state.hand.turn != seat
                    or len(view.legal_moves()) < 2
                    or sum(state.hand.counts.values()) > 21):
                continue
            pool = weighted_pool(view, random.Random(0), 128)
            if pool.ess < 0.9 * len(pool.deals):
                return events, k + 1
    raise AssertionError("no such position (change the seeds)")


def _swapped(events: list, upto: int, seat: str) -> list:
    """The same log with one unplayed tile of two other seats swapped in their deals."""
    played = {e.tile for e in events[:upto] if isinstance(e, TilePlayed)}
    dealt = {e.seat: k for k, e in enumerate(events[:upto]) if isinstance(e, HandDealt)}
    a, b = [s for s in dealt if s != seat][:2]
    ta = next(t for t in events[dealt[a]].tiles if t not in played)
    tb = next(t for t in events[dealt[b]].tiles if t not in played)
    out = list(events[:upto])
    for s, old, new in ((a, ta, tb), (b, tb, ta)):
        e = out[dealt[s]]
        out[dealt[s]] = e.model_copy(update={"tiles": [new if t == old else t
                                                       for t in e.tiles]})
    assert out != list(events[:upto])
    return out


def test_behaviour_advice_ranks_every_move_and_says_its_model_and_ess() -> None:
    events, upto = _position()
    seen = events[:upto]
    uniform = advise_with(seen, "S", samples=8, rng=random.Random(1), nodes=NODES)
    behaviour = advise_with(seen, "S", samples=8, rng=random.Random(1), nodes=NODES,
                            model=BEHAVIOUR)
    assert uniform.model == UNIFORM and uniform.label.startswith(LABEL) and uniform.ess == 8
    assert "at most 8 deals" in uniform.label and "never timed" in uniform.label
    assert behaviour.model == BEHAVIOUR and behaviour.label.startswith(BEHAVIOUR_LABEL)
    assert {(a.tile, a.end) for a in behaviour.moves} == {(a.tile, a.end) for a in uniform.moves}
    values = [a.expected_points for a in behaviour.moves]
    assert values == sorted(values, reverse=True)
    # the pool is the pimc-behaviour bot's, drawn first from the same generator
    pool = weighted_pool(SeatView.from_events(seen, "S"), random.Random(1), 128)
    assert behaviour.pool == len(pool.deals) and behaviour.exact_pool == pool.exact
    assert behaviour.ess == pytest.approx(pool.ess) and 1 <= behaviour.ess < len(pool.deals)
    for a in behaviour.moves:
        assert a.label == BEHAVIOUR_LABEL and a.samples == 8 and a.exact_share == 1.0
        assert a.ci[0] <= a.expected_points <= a.ci[1]
    payload = DominoesAdvisor().advise([event_to_dict(e) for e in seen], "S", 1, BUDGET,
                                       model=BEHAVIOUR)
    assert payload["kind"] == "moves" and payload["model"] == BEHAVIOUR
    assert payload["label"].startswith(BEHAVIOUR_LABEL) and payload["ess"] > 0
    assert all(row["label"] == BEHAVIOUR_LABEL for row in payload["moves"])


def test_behaviour_advice_is_computed_from_the_seats_own_view_only() -> None:
    """Two referee logs that differ only in tiles S cannot see give S identical advice (the
    advisor is handed the unredacted logs here: it redacts them itself)."""
    events, upto = _position()
    other = _swapped(events, upto, "S")
    advisor = DominoesAdvisor()
    first = advisor.advise([event_to_dict(e) for e in events[:upto]], "S", 7, BUDGET,
                           model=BEHAVIOUR)
    second = advisor.advise([event_to_dict(e) for e in other], "S", 7, BUDGET,
                            model=BEHAVIOUR)
    assert first == second
    assert first["moves"] and first["model"] == BEHAVIOUR


def test_an_unknown_model_is_a_typed_error() -> None:
    events, upto = _position()
    with pytest.raises(UnknownModel):
        advise(events[:upto], "S", samples=2, model="behaviour:pimc")
    assert models_of(DominoesAdvisor()) == MODELS == (UNIFORM, BEHAVIOUR)
    assert models_of(TEXAS42_ADVISOR) == (UNIFORM, BIDS_GREEDY)  # its own completion model
    with pytest.raises(ValueError, match="not offered"):
        advise_under(TEXAS42_ADVISOR, [], "S", 1, 0.1, model=BEHAVIOUR)
    with pytest.raises(ValueError, match="not offered"):
        advise_under(DominoesAdvisor(), [], "S", 1, 0.1, model="uniform:x")
