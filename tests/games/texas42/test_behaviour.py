"""Texas 42's bid-aware belief (behaviour:bids): a model of bidding fitted from play, and the
exact belief's deals weighed by it, a labelled layer that never puts a tile where the exact
belief says it cannot be."""

from __future__ import annotations

import math
import random

from calibration.botmatches import bot_matches
from games.texas42.behaviour import BEHAVIOUR_BIDS, MODEL, behaviour_odds
from games.texas42.bidding_model import (
    Weights,
    choice_row,
    fit,
    mask_of,
    strength,
    strength_of_mask,
)
from games.texas42.dominoes import TILES
from games.texas42.events import parse_event
from games.texas42.game import TEXAS42


def _match(seed: int) -> list:  # type: ignore[type-arg]
    return next(bot_matches("texas-42", ["greedy"], 1, seed=seed, options={"target_marks": 2}))


def test_the_fast_strength_is_greedys_strength() -> None:
    rng = random.Random(4)
    for _ in range(5000):
        hand = rng.sample(TILES, rng.randint(0, 7))
        assert strength_of_mask(mask_of(hand)) == strength(hand), hand


def test_the_fit_recovers_the_weights_it_was_drawn_from() -> None:
    truth = Weights(-5.0, 1.0, -1.5)
    rng = random.Random(9)
    rows = []
    for _ in range(4000):
        s, level = rng.randint(0, 9), rng.choice([30, 31, 32, 34, 36])
        p = 1 / (1 + math.exp(-truth.logit(s, level)))
        rows.append(choice_row(s, level, rng.random() < p))
    fitted = fit("drawn", rows)
    for got, want, se in zip((fitted.weights.a, fitted.weights.b, fitted.weights.c),
                             (truth.a, truth.b, truth.c), fitted.stderr, strict=True):
        assert abs(got - want) < 4 * se, (got, want, se)


def test_fitting_stored_matches_reports_each_player_and_the_pool() -> None:
    matches = [(m, dict(m[0].players)) for m in (_match(1), _match(2))]
    fitted = BEHAVIOUR_BIDS.fit(matches)
    players = [f["player"] for f in fitted.summaries]
    assert players == ["pooled", "greedy"]
    assert fitted.summaries[0]["choices"] > 0 and fitted.summaries[0]["beta"] > 0, \
        fitted.summaries  # a stronger hand bids more often


def test_the_layer_is_labelled_and_stays_inside_the_exact_beliefs_support() -> None:
    match = _match(5)
    views = [TEXAS42.view(e, "E") for e in match]
    first_play = next(i for i, e in enumerate(match) if e.type == "played")
    late = max(i for i, e in enumerate(match[: first_play + 24]) if e.type == "played")
    for upto in (first_play, late):
        events = [parse_event(TEXAS42.event_to_dict(e)) for e in views[: upto + 1]]
        answer = behaviour_odds(events, "E", random.Random(1))
        belief = TEXAS42.belief("E", "texas-42")
        for e in events:
            belief.apply(e)
        exact = belief.snapshot_dict()["marginals"]
        assert answer["model"] == MODEL and "fitted" in answer["label"]
        assert answer["exact"] or answer["error_95"] is not None
        for holder, row in answer["marginals"].items():
            for tile, p in row.items():
                assert exact[holder][tile] > 0 or p == 0, (holder, tile)
        for tile in {t for row in exact.values() for t in row}:
            total = sum(answer["marginals"][h].get(tile, 0.0) for h in answer["marginals"])
            assert abs(total - 1) < 1e-5, (tile, total)  # each rounded to 6 places
    assert answer["exact"], "late in the hand every consistent deal is listed and weighed"


def test_the_same_view_and_seed_give_the_same_answer() -> None:
    match = _match(6)
    views = [parse_event(TEXAS42.event_to_dict(TEXAS42.view(e, "spectator"))) for e in match]
    upto = next(i for i, e in enumerate(match) if e.type == "trump_named")
    one = behaviour_odds(views[: upto + 1], "spectator", random.Random(3))
    two = behaviour_odds(views[: upto + 1], "spectator", random.Random(3))
    assert one == two and one["weighed"] == 4


def test_with_no_bid_to_weigh_the_layer_is_the_exact_belief() -> None:
    match = _match(7)
    dealt = max(i for i, e in enumerate(match) if e.type == "dealt" and i < 8)
    views = [parse_event(TEXAS42.event_to_dict(TEXAS42.view(e, "S"))) for e in match[: dealt + 1]]
    answer = behaviour_odds(views, "S", random.Random(2))
    belief = TEXAS42.belief("S", "texas-42")
    for e in views:
        belief.apply(e)
    assert answer["exact"] and answer["weighed"] == 0 and answer["error_95"] is None
    assert answer["marginals"] == {h: {t: round(p, 6) for t, p in row.items()}
                                   for h, row in belief.snapshot_dict()["marginals"].items()}
