"""The game interface, proved with a toy game that lives only in tests, and with dominoes.

The toy game plugs in through `Registry.add` alone; the generic loop plays it, a real SQLite
store keeps it, a fold replays it, the log checker re-decides it (and refuses a forgery), and
its belief is exact against every deal consistent with what the observer saw.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from games.dominoes.game import DOMINOES
from games.interface import REFEREE, SPECTATOR, LogProblem, RuleViolation, UnknownGame
from games.play import play_match
from games.registry import GAMES, Registry
from storage.store import EventStore
from tests.games.toy.game import CARDS, HAND, TOY, VARIANT, Dealt, Played, deal


def _registry() -> Registry:
    return Registry([DOMINOES, TOY])


def _match(seed: int) -> list:
    bot = TOY.bots()["random"]
    return play_match(TOY, VARIANT, {"S": bot, "N": bot}, random.Random(seed))


def test_a_game_registers_with_one_line_and_variants_resolve_across_games() -> None:
    registry = _registry()
    assert registry.game_of_variant(VARIANT) is TOY
    assert registry.game_of_variant("partnership-9") is DOMINOES
    assert registry.variant(VARIANT).seats == ("S", "N")
    assert registry.game(None) is DOMINOES  # old logs name no game: dominoes
    with pytest.raises(UnknownGame):
        registry.variant("no-such-variant")
    with pytest.raises(ValueError, match="registered twice"):
        registry.add(TOY)
    assert "toy" not in {g.name for g in GAMES.games()}  # tests never touch the real registry


def test_variant_names_must_be_unique_across_games() -> None:
    class Clash:
        name = "clash"

        def variants(self):
            return DOMINOES.variants()

    with pytest.raises(ValueError, match="taken by another game"):
        Registry([DOMINOES, Clash()])  # type: ignore[list-item]


@pytest.mark.parametrize("seed", range(5))
def test_the_generic_loop_plays_a_whole_toy_match_that_the_checker_accepts(seed: int) -> None:
    events = _match(seed)
    TOY.check_log(events)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert events[-1].type == "match_ended"
    assert sum(events[-1].rounds.values()) == HAND


def test_the_checker_refuses_a_forged_card() -> None:
    events = _match(1)
    i = next(i for i, e in enumerate(events) if isinstance(e, Played))
    _hands, kitty = deal(events[1].secret)
    forged = events[i].model_copy(update={"card": kitty})
    with pytest.raises(LogProblem) as problem:
        TOY.check_log([*events[:i], forged, *events[i + 1:]])
    assert problem.value.seq == events[i].seq


def test_a_toy_match_is_stored_read_back_and_replayed_to_the_same_state(tmp_path: Path) -> None:
    events = _match(2)
    store = EventStore(tmp_path / "toy.sqlite3")
    try:
        store.append("match-toy", 0, [TOY.event_to_dict(e) for e in events])
        stored = [TOY.parse_event(s.payload) for s in store.read("match-toy")]
    finally:
        store.close()
    assert stored == events
    state = None
    for event in stored:
        state = TOY.evolve(state, event)
    TOY.check_log(stored)
    assert state is not None and state.over


@pytest.mark.parametrize("audience", ["S", "N", SPECTATOR])
def test_no_view_carries_a_card_its_audience_may_not_see(audience: str) -> None:
    events = _match(3)
    hands, _kitty = deal(events[1].secret)
    for event in events[:-1]:  # match_ended reveals the face-down card to all
        seen = TOY.view(event, audience)
        assert json.loads(json.dumps(TOY.event_to_dict(seen))).get("secret") is None
        if isinstance(seen, Dealt):
            assert seen.cards == (hands[seen.seat] if seen.seat == audience else None)
    assert TOY.view(events[1], REFEREE).secret is not None


def _brute_force(observer: str, seen: list) -> dict[str, dict[int, Fraction]]:
    """Every deal consistent with the observer's view, replayed through the toy rules."""
    own = {c for e in seen if isinstance(e, Dealt) and e.seat == observer for c in e.cards}
    played: dict[str, list[int]] = {}
    for e in seen:
        if isinstance(e, Played):
            played.setdefault(e.seat, []).append(e.card)
    others = [s for s in ("S", "N") if s != observer]
    hits: dict[str, dict[int, int]] = {h: dict.fromkeys(CARDS, 0) for h in [*others, "kitty"]}
    total = 0
    rest = [c for c in CARDS if c not in own]
    for perm in itertools.permutations(rest):
        deal_of = {}
        at = 0
        for s in others:
            deal_of[s] = set(perm[at:at + HAND])
            at += HAND
        deal_of["kitty"] = {perm[at]}
        if at + 1 != len(perm) or not all(set(played.get(s, [])) <= deal_of[s] for s in others):
            continue
        total += 1
        for h, cards in deal_of.items():
            for c in cards - {c for cs in played.values() for c in cs}:
                hits[h][c] += 1
    return {h: {c: Fraction(n, total) for c, n in row.items()} for h, row in hits.items()}


@pytest.mark.parametrize("observer", ["S", "N", SPECTATOR])
def test_the_toy_belief_is_exact_against_every_consistent_deal(observer: str) -> None:
    events = _match(4)
    seen = [TOY.view(e, observer) for e in events[:-1]]
    for upto in range(3, len(seen) + 1):
        belief = TOY.belief(observer, VARIANT)
        for event in seen[:upto]:
            belief.apply(event)
        shown = belief.snapshot_dict()["marginals"]
        truth = _brute_force(observer, seen[:upto])
        for holder, row in truth.items():
            for card, p in row.items():
                assert shown[holder].get(str(card), 0.0) == pytest.approx(float(p), abs=1e-12)


def test_dominoes_plays_through_the_same_interface() -> None:
    bot = DOMINOES.bots()["random"]
    events = play_match(DOMINOES, "partnership-6", dict.fromkeys("SWNE", bot),
                        random.Random(7), options={"target": 50})
    DOMINOES.check_log(events)
    assert events[-1].type == "match_ended"
    state = None
    for event in events[:8]:
        state = DOMINOES.evolve(state, event)
    seat = DOMINOES.to_act(state)[0]
    for command in DOMINOES.legal_moves(state, seat):
        assert DOMINOES.command_from_wire(seat, DOMINOES.command_to_wire(command)) == command
    with pytest.raises(RuleViolation) as refused:
        DOMINOES.command_from_wire("X", {"kind": "pass"})
    assert refused.value.code == "illegal_move"
