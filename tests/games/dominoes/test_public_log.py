"""Any audience's dominoes log proved fair (games.fairness.proof) from the seeds revealed at
each hand's end."""

from __future__ import annotations

import random

import pytest

from games.dominoes.audience import AUDIENCES, view
from games.dominoes.events import Event, HandDealt, HandEnded, HandStarted
from games.dominoes.game import DOMINOES
from games.dominoes.rules import fold
from games.dominoes.selfplay import random_match_events
from games.dominoes.validate import LogProblem, check_log
from games.fairness.proof import prove
from tests.games.dominoes.positions import a_pass_while_able


@pytest.fixture(scope="module", params=["partnership-6", "partnership-9"])
def match(request: pytest.FixtureRequest) -> list[Event]:
    return random_match_events(random.Random(21), request.param)


@pytest.mark.parametrize("audience", AUDIENCES)
def test_every_audience_proves_every_hand(match, audience) -> None:
    seen = [view(e, audience) for e in match]
    if audience != "referee":
        with pytest.raises(LogProblem, match="without its seed"):
            check_log(seen)  # the referee-only check cannot take this log
    proof = prove(DOMINOES, seen)
    assert proof.state == fold(match)  # the rebuilt log folds to the referee's own state
    assert proof.deals == proof.state.hands_played >= 1 and proof.audience == audience
    assert proof.open_at is None and proof.upto == len(match) and proof.over


def test_a_hand_in_play_is_folded_but_not_proved(match) -> None:
    second = next(e for e in match if isinstance(e, HandStarted) and e.hand == 2)
    cut = [view(e, "E") for e in match if e.seq <= second.seq + 8]
    proof = prove(DOMINOES, cut)
    assert (proof.deals, proof.open_at, proof.upto) == (1, second.seq, second.seq - 1)
    assert proof.state.phase == "between_hands" and not proof.over


def test_an_illegal_move_in_a_finished_hand_of_a_seat_log_is_named(match) -> None:
    """Once the seed is revealed the seat's log is re-decided: a pass while able is caught."""
    at, refused = a_pass_while_able(match)
    forged = [*match[:at], refused, *match[at + 1 :]]
    with pytest.raises(LogProblem) as raised:
        prove(DOMINOES, [view(e, "spectator") for e in forged])
    assert raised.value.seq == refused.seq and "must play" in raised.value.reason


def test_a_changed_pool_is_named() -> None:
    match = random_match_events(random.Random(5), "partnership-9", target=30)
    ended = next(e for e in match if isinstance(e, HandEnded))
    dealt = next(e for e in match if isinstance(e, HandDealt) and e.seat == "S")
    stranger = dealt.tiles[0]  # a dealt tile claimed to have stayed face down
    tampered = ended.model_copy(update={"pool": sorted([stranger, *ended.pool[1:]])})
    forged = [tampered if e is ended else view(e, "N") for e in match]
    with pytest.raises(LogProblem) as raised:
        prove(DOMINOES, forged)
    assert raised.value.seq == ended.seq
    assert "hand_ended differs in pool: the rules give" in raised.value.reason
