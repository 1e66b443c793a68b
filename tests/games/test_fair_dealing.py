"""Fair dealing in every registered game (games.fairness): a random match names its scheme,
every audience's own log is proved from the seeds revealed in it, and no view carries a
deal's seed before the event that reveals it, while every view has its commitment first."""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import pytest

from games.fairness.dealing import dealing_of
from games.fairness.proof import prove
from games.interface import REFEREE, SPECTATOR, Game, match_seats
from games.play import play_match
from games.registry import GAMES

VARIANTS = [name for name, info in GAMES.variants().items() if info.alias_of is None]
HEX64 = re.compile(r"[0-9a-f]{64}")


@pytest.fixture(scope="module", params=VARIANTS)
def played(request: pytest.FixtureRequest) -> tuple[Game, list[Any]]:
    game = GAMES.game_of_variant(request.param)
    seats = GAMES.variant(request.param).seats
    bot = game.bots()["random"]
    events = play_match(game, request.param, dict.fromkeys(seats, bot), random.Random(7))
    return game, events


def _audiences(game: Game, events: list[Any]) -> list[str]:
    return [*match_seats(game, events[0]), SPECTATOR]


def _seeds(game: Game, events: list[Any]) -> dict[str, int]:
    """Every seed in the referee's log, and the seq of the first event that holds it."""
    seeds: dict[str, int] = {}
    for event in events:
        data = game.event_to_dict(event)
        for name in ("seed", "secret"):
            value = data.get(name)
            if isinstance(value, str) and HEX64.fullmatch(value):
                seeds.setdefault(value, event.seq)
    return seeds


def test_every_game_deals_fairly_and_names_its_scheme(played) -> None:
    game, events = played
    assert dealing_of(game) is not None
    assert game.event_to_dict(events[0])["fairness"] == "sha256-fisher-yates"
    assert _seeds(game, events)


def test_every_audiences_own_log_is_proved_from_its_committed_seeds(played) -> None:
    game, events = played
    deals = None
    for audience in [*_audiences(game, events), REFEREE]:
        proof = prove(game, [game.view(e, audience) for e in events])
        assert proof.audience == audience and proof.over and proof.open_at is None
        assert proof.upto == len(events) and proof.deals >= 1 and proof.uncommitted == 0
        assert deals in (None, proof.deals)  # every audience proves the same deals
        deals = proof.deals
    assert proof.state == _fold(game, events)  # the referee's log rebuilt is the real one


def _fold(game: Game, events: list[Any]) -> Any:
    state = None
    for event in events:
        state = game.evolve(state, event)
    return state


def test_no_view_carries_a_seed_before_its_reveal_and_each_has_its_commitment_first(
        played) -> None:
    game, events = played
    seeds = _seeds(game, events)
    for audience in _audiences(game, events):
        commitments_seen: dict[str, int] = {}
        revealed: set[str] = set()
        for event in events:
            seen = game.event_to_dict(game.view(event, audience))
            text = json.dumps(seen)
            for seed, dealt_at in seeds.items():
                commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
                if commitment in text:
                    commitments_seen.setdefault(seed, event.seq)
                if seed in text:
                    # only the event that reveals it, once the deal it decided is over
                    assert seen.get("seed") == seed and event.seq > dealt_at, \
                        (audience, seen["type"], event.seq)
                    assert seen["type"] in ("hand_ended", "match_ended")
                    revealed.add(seed)
        assert revealed == set(seeds), audience  # every seed is revealed in the end
        # the commitment reached this audience with the deal's first event, before any move
        assert commitments_seen == seeds, audience
