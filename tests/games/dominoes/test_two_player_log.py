"""The log checker on two-player logs: whole matches re-decided, forged draws refused, and the
match_started `game` field (old logs without it still read as dominoes)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from archive.jsonl import LogFormatError, dump_lines, parse_log_lines
from games.dominoes.audience import audiences, view
from games.dominoes.events import (
    HandEnded,
    HandStarted,
    MatchStarted,
    Passed,
    TilePlayed,
    TilesDrawn,
    parse_event,
)
from games.dominoes.game import DOMINOES
from games.dominoes.rules import fold
from games.dominoes.selfplay import random_match_events
from games.dominoes.validate import LogProblem, check_log
from games.dominoes.variants import get_variant
from games.fairness.proof import prove

seeds = st.integers(min_value=0, max_value=2**32)


@pytest.fixture(scope="module")
def draw_match():
    """A draw-2 match with a draw of several tiles and a draw that ran the boneyard dry."""
    for seed in range(200):
        events = random_match_events(random.Random(seed), "draw-2")
        draws = [e for e in events if isinstance(e, TilesDrawn)]
        if any(d.count >= 2 for d in draws) and any(
            isinstance(events[e.seq], Passed) for e in draws  # events[seq] follows seq
        ):
            return events
    raise AssertionError("no match in 200 with a long draw and a draw that ended in a pass")


def _replace(events, old, new):
    return [new if e is old else e for e in events]


@pytest.mark.parametrize("variant", ["block-2", "draw-2"])
@given(seed=seeds)
@settings(max_examples=15, deadline=None)
def test_random_matches_are_re_decided_and_proved_from_every_audience(variant, seed) -> None:
    events = random_match_events(random.Random(seed), variant)
    state = check_log(events)
    assert state == fold(events) and state.phase == "finished"
    assert parse_log_lines(dump_lines(DOMINOES, events).splitlines()).events == events
    for audience in audiences(get_variant(variant)):
        proof = prove(DOMINOES, [view(e, audience) for e in events])
        assert proof.state == state and proof.deals == state.hands_played
        assert proof.audience == audience


def test_forged_drawn_tiles_in_a_referees_log_are_refused(draw_match) -> None:
    drawn = next(e for e in draw_match if isinstance(e, TilesDrawn) and e.count >= 2)
    swapped = drawn.model_copy(update={"tiles": [*drawn.tiles[1:], drawn.tiles[0]]})
    with pytest.raises(LogProblem) as raised:
        check_log(_replace(draw_match, drawn, swapped))
    assert raised.value.seq == drawn.seq and "tiles" in raised.value.reason


def test_a_forged_draw_count_is_refused_in_any_audiences_log(draw_match) -> None:
    drawn = next(e for e in draw_match if isinstance(e, TilesDrawn) and e.count >= 2)
    short = drawn.model_copy(update={"tiles": drawn.tiles[:-1], "count": drawn.count - 1})
    forged = _replace(draw_match, drawn, short)
    with pytest.raises(LogProblem) as raised:
        check_log(forged)
    assert raised.value.seq == drawn.seq and "count" in raised.value.reason
    spectator = [view(e, "spectator") for e in forged]
    with pytest.raises(LogProblem) as raised:
        prove(DOMINOES, spectator)
    assert raised.value.seq == drawn.seq


def test_a_seats_own_log_proves_its_draws_from_the_revealed_seed(draw_match) -> None:
    drawn = next(e for e in draw_match if isinstance(e, TilesDrawn) and e.count >= 2)
    seat_log = [view(e, drawn.seat) for e in draw_match]
    assert prove(DOMINOES, seat_log).deals >= drawn.hand
    ended = next(e for e in draw_match if isinstance(e, HandEnded) and e.hand == drawn.hand)
    stranger = ended.pool[0] if ended.pool else next(
        t for t in ended.remaining["N" if drawn.seat == "S" else "S"])
    claimed = drawn.model_copy(update={"tiles": [*drawn.tiles[:-1], stranger]})
    forged = [claimed if e.seq == drawn.seq else e for e in seat_log]
    with pytest.raises(LogProblem) as raised:
        prove(DOMINOES, forged)
    assert raised.value.seq == drawn.seq
    assert "tiles_drawn differs in tiles: the rules give" in raised.value.reason


def test_a_draw_while_able_to_play_and_a_pass_before_drawing_are_refused(draw_match) -> None:
    # a pass in place of a draw: the boneyard still had tiles
    drawn = next(e for e in draw_match if isinstance(e, TilesDrawn))
    passed = Passed(seq=drawn.seq, hand=drawn.hand, seat=drawn.seat)
    with pytest.raises(LogProblem) as raised:
        check_log(_replace(draw_match, drawn, passed))
    assert raised.value.seq == drawn.seq and "draw first" in raised.value.reason
    # a draw in place of a play made by a seat that could play (and had not just drawn)
    played = next(e for e in draw_match if isinstance(e, TilePlayed) and e.end is not None
                  and not isinstance(draw_match[e.seq - 2], TilesDrawn))
    draw = TilesDrawn(seq=played.seq, hand=played.hand, seat=played.seat, tiles=None, count=1)
    with pytest.raises(LogProblem) as raised:
        prove(DOMINOES, [view(e, "spectator") for e in _replace(draw_match, played, draw)])
    assert raised.value.seq == played.seq and "nothing fits" in raised.value.reason


def test_a_draw_in_block_2_is_refused() -> None:
    events = random_match_events(random.Random(4), "block-2")
    passed = next((e for e in events if isinstance(e, Passed)), None)
    assert passed is not None, "seed 4 has a pass in its first match"
    draw = TilesDrawn(seq=passed.seq, hand=passed.hand, seat=passed.seat, tiles=["0-0"], count=1)
    with pytest.raises(LogProblem) as raised:
        check_log(_replace(events, passed, draw))
    assert raised.value.seq == passed.seq and "no boneyard" in raised.value.reason


def test_a_drawn_count_that_disagrees_with_its_tiles_is_not_an_event() -> None:
    with pytest.raises(ValueError, match="count is 2 but 1 tiles"):
        parse_event({"seq": 9, "type": "tiles_drawn", "hand": 1, "seat": "S",
                     "tiles": ["1-2"], "count": 2})


# ---------------------------------------------------------------------------------------------
# match_started.game


def test_a_new_log_names_its_game_and_an_old_one_without_it_reads_as_dominoes() -> None:
    events = random_match_events(random.Random(8), "partnership-6", target=30)
    text = dump_lines(DOMINOES, events)
    first = json.loads(text.splitlines()[0])
    assert first["game"] == "dominoes"
    del first["game"]
    old = json.dumps(first, separators=(",", ":")) + "\n" + text.split("\n", 1)[1]
    assert '"game"' not in old.splitlines()[0]
    parsed = parse_log_lines(old.splitlines()).events
    assert isinstance(parsed[0], MatchStarted) and parsed[0].game == "dominoes"
    assert parsed == events and check_log(parsed) == fold(events)


def test_a_log_of_another_game_is_not_a_dominoes_log() -> None:
    """An unknown game is refused at its first line, and so is a registered game's log that
    names a variant of another game (uno has no draw-2)."""
    start = {"seq": 1, "type": "match_started", "match_id": "m", "variant": "draw-2",
             "players": {"S": "a", "N": "b"}}
    with pytest.raises(LogFormatError, match="line 1: unknown game 'chess'"):
        parse_log_lines([json.dumps({**start, "game": "chess"})])
    with pytest.raises(LogFormatError, match="line 1: unknown variant 'draw-2' for uno"):
        parse_log_lines([json.dumps({**start, "game": "uno"})])


def test_the_players_must_name_the_variants_seats() -> None:
    two = {"seq": 1, "type": "match_started", "match_id": "m", "variant": "draw-2",
           "players": {"S": "a", "N": "b"}}
    assert parse_event(two).players == {"S": "a", "N": "b"}
    with pytest.raises(ValueError, match="all four seats"):
        parse_event({**two, "variant": "partnership-6"})
    with pytest.raises(ValueError, match="seats S, N of draw-2"):
        parse_event({**two, "players": {"S": "a", "W": "b"}})


def test_a_hand_started_naming_a_seat_the_variant_lacks_is_refused() -> None:
    events = random_match_events(random.Random(2), "block-2", target=20)
    started = next(e for e in events if isinstance(e, HandStarted))
    moved = started.model_copy(update={"leader": "W"})
    with pytest.raises(LogProblem) as raised:
        check_log(_replace(events, started, moved))
    assert raised.value.seq == started.seq
