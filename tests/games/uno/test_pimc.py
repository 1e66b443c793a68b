"""The pimc bot: deals sampled from the exact belief fit the seat's view, and it plays whole
matches the log checker accepts."""

from __future__ import annotations

import random
from collections import Counter

from games.play import play_match
from games.uno.belief import UnoBelief
from games.uno.game import UNO
from games.uno.pimc import PimcBot, sample_world
from games.uno.state import evolve
from tests.games.uno.helpers import match


def test_sampled_deals_fit_the_view_and_the_belief() -> None:
    events = match(41)
    rng = random.Random(5)
    belief, state = UnoBelief("S", "uno-2-mini"), None
    for event in events[:-1]:
        seen = UNO.view(event, "S")
        belief.apply(seen)
        state = evolve(state, seen)
        if not belief.ledger.ready:
            continue
        possible = belief.snapshot_dict()["marginals"]["N"]
        for _ in range(3):
            world = sample_world(belief, state, rng)
            assert len(world.hands["N"]) == state.counts["N"]
            assert len(world.deck) == state.deck_count
            everything = Counter(world.deck) + Counter(world.pile) \
                + Counter(world.hands["S"]) + Counter(world.hands["N"])
            assert everything == state.variant.deck.counts()
            assert all(possible.get(kind, 0) > 0 for kind in world.hands["N"])


def test_pimc_plays_whole_matches_against_greedy() -> None:
    bots = UNO.bots()
    assert isinstance(bots["pimc"], PimcBot)
    for seed in range(2):
        events = play_match(UNO, "uno-2-mini", {"S": bots["pimc"], "N": bots["greedy"]},
                            random.Random(seed))
        UNO.check_log(events)
        assert events[-1].type == "match_ended"
