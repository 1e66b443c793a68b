"""The behaviour-aware belief against brute force on a position small enough to enumerate.

A block-2 match of greedy bots; S's view late in a later hand (no leader rule). Brute force
lists every split of the tiles S cannot see between N's hand and the sleeping pool, keeps the
splits under which the rules re-decide every event of the hand as logged (strategy-free), and
weights each by Π softmax(β · greedy scores) of N's plays, each scored by games.dominoes.greedy on
N's own view rebuilt from a log dealt that hypothetical hand. That is compared with the
importance sampler's listing (exact) and with its draws (within the reported errors).
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

from calibration.botmatches import bot_matches
from games.dominoes.behaviour import model as bhv
from games.dominoes.behaviour.temperature import Choice, choices, fit_beta
from games.dominoes.belief_two import TwoPlayerBelief
from games.dominoes.commands import PassTurn, PlayTile
from games.dominoes.events import HandDealt, Passed, TilePlayed
from games.dominoes.game import DOMINOES
from games.dominoes.greedy import score_moves
from games.dominoes.revealed import tile_name
from games.dominoes.rules import decide, evolve
from games.dominoes.seat_view import SeatView
from games.dominoes.tiles import Tile, parse_tile
from games.interface import RuleViolation
from inference.sampler import DealSampler
from inference.weighted import assignments, behaviour_belief, resample_move, weigh

BETA = 0.8


@pytest.fixture(scope="module")
def match() -> list[Any]:
    return next(bot_matches("block-2", ["greedy"], 1, seed=7, options={"target": 40}))


def _late_position(events: list[Any]) -> tuple[int, int, int]:
    """(hand start, hand stop, event index): S's view in hand >= 2 once N holds 3 tiles,
    after N made at least two plays."""
    for start, stop in bhv.hands_of(events)[1:]:
        plays = 0
        state = None
        for event in events[:start]:
            state = evolve(state, event)
        for index in range(start, stop):
            state = evolve(state, events[index])
            if isinstance(events[index], TilePlayed) and events[index].seat == "N":
                plays += 1
            hand = state.hand
            if (state.phase == "playing" and hand is not None and plays >= 2
                    and len(hand.hands["N"] or ()) == 3):
                return start, stop, index
    raise AssertionError("no late position in this match (change the seed)")


def _rules_accept(events: list[Any], start: int, upto: int, north: frozenset[Tile]) -> bool:
    """Whether, with N dealt `north` (and S its real hand), the rules re-decide events
    start..upto exactly as logged."""
    state = None
    for event in events[:start]:
        state = evolve(state, event)
    for event in events[start:upto + 1]:
        if isinstance(event, HandDealt) and event.seat == "N":
            event = event.model_copy(update={"tiles": [tile_name(t) for t in sorted(north)]})
        elif isinstance(event, TilePlayed | Passed):
            command = (PlayTile(event.seat, parse_tile(event.tile), event.end)
                       if isinstance(event, TilePlayed) else PassTurn(event.seat))
            try:
                produced = decide(state, command)[0]
            except (ValueError, RuleViolation):
                return False
            if produced.model_copy(update={"seq": event.seq}) != event:
                return False
        state = evolve(state, event)
    return True


def _brute_weight(events: list[Any], start: int, upto: int, north: frozenset[Tile]) -> float:
    """Π over N's plays of softmax(β · greedy scores)[the play], N's view rebuilt from a log
    that dealt it `north`."""
    weight = 1.0
    dealt = [e.model_copy(update={"tiles": [tile_name(t) for t in sorted(north)]})
             if start <= k and isinstance(e, HandDealt) and e.seat == "N" else e
             for k, e in enumerate(events)]
    for index in range(start, upto + 1):
        event = dealt[index]
        if not (isinstance(event, TilePlayed) and event.seat == "N"):
            continue
        view = SeatView.from_events(dealt[:index], "N")
        moves = view.legal_moves()
        scores = score_moves(view, moves)
        top = max(scores)
        exps = [math.exp(BETA * (s - top)) for s in scores]
        hit = sum(x for m, x in zip(moves, exps, strict=True)
                  if m.tile == parse_tile(event.tile) and m.end == event.end)
        weight *= hit / sum(exps)
    return weight


def test_exact_listing_and_importance_sampling_match_brute_force(match: list[Any]) -> None:
    start, stop, index = _late_position(match)
    players = {"S": "greedy", "N": "greedy"}
    observer = "S"
    belief = DOMINOES.belief(observer, "block-2")
    raw = TwoPlayerBelief(observer, "block-2")
    for event in match[:index + 1]:
        seen = DOMINOES.view(event, observer)
        belief.apply(seen)
        raw.apply(seen)
    snapshot = belief.snapshot_dict()
    uniform: dict[str, dict[str, float]] = {}
    for holder, row in snapshot["marginals"].items():
        for item, p in row.items():
            uniform.setdefault(item, {})[holder] = p
    # brute force: every split of the unseen tiles, kept when the rules accept the log
    state = None
    for event in match[:index + 1]:
        state = evolve(state, event)
    played_by_n = {parse_tile(e.tile) for e in match[start:index + 1]
                   if isinstance(e, TilePlayed) and e.seat == "N"}
    unseen = sorted(parse_tile(t) for t in uniform)
    north_now = len(state.hand.hands["N"])
    plain: dict[tuple[str, str], float] = {}
    weighted: dict[tuple[str, str], float] = {}
    total_plain = total_weighted = 0.0
    kept = 0
    for north in itertools.combinations(unseen, north_now):
        dealt = frozenset(north) | played_by_n
        if not _rules_accept(match, start, index, dealt):
            continue
        kept += 1
        w = _brute_weight(match, start, index, dealt)
        total_plain += 1
        total_weighted += w
        for t in unseen:
            key = (tile_name(t), "N" if t in north else "pool")
            plain[key] = plain.get(key, 0.0) + 1
            weighted[key] = weighted.get(key, 0.0) + w
    assert kept == snapshot["consistent_deals"] > 20  # the brute force is the uniform belief's
    for (item, holder), count in plain.items():
        assert uniform[item][holder] == pytest.approx(count / total_plain, abs=1e-12)
    exact = {k: v / total_weighted for k, v in weighted.items()}
    assert max(abs(exact[k] - plain[k] / total_plain) for k in exact) > 0.01  # β matters here

    decisions = bhv.hand_decisions(match, start, stop, players)
    likelihood = bhv.HandLikelihood(decisions, {}, BETA)
    sampler = DealSampler.of(raw)
    listed = behaviour_belief(uniform, kept, snapshot["remaining"], parse_tile, tile_name,
                              sampler, lambda d: likelihood.log_weight(d, index + 1, observer),
                              random.Random(1), samples=64, exact_budget=10_000)
    assert listed.exact and listed.ess > 1
    for (item, holder), p in exact.items():
        assert listed.marginals[item][holder] == pytest.approx(p, abs=1e-9)

    rng = random.Random(3)
    deals = [sampler(rng) for _ in range(3000)]
    sampled = weigh(deals, [likelihood.log_weight(d, index + 1, observer) for d in deals],
                    tile_name, None, exact=False)
    z = [(sampled.marginals[i][h] - p) / sampled.stderr[i][h]
         for (i, h), p in exact.items() if sampled.stderr[i][h] > 0]
    assert z and max(abs(x) for x in z) < 4  # every error inside four reported bars
    assert sum(x * x for x in z) / len(z) < 3  # and the bars not far too narrow on average
    assert sampled.ess < len(deals)

    # resample-move: valid here (the assignments within the supports are the consistent
    # deals), and its moved deals close to the exact weighted marginals
    support = {parse_tile(i): tuple(h for h, p in row.items() if p > 0)
               for i, row in uniform.items()}
    counts = {h: snapshot["remaining"][h] for h in ("N", "pool")}
    assert assignments(support, counts) == kept
    few = deals[:600]
    moved = resample_move(few, [likelihood.log_weight(d, index + 1, observer) for d in few],
                          support, lambda d: likelihood.log_weight(d, index + 1, observer),
                          random.Random(4), moves=6)
    shown = weigh(moved, [0.0] * len(moved), tile_name, None, exact=False)
    assert max(abs(shown.marginals[i][h] - p) for (i, h), p in exact.items()) < 0.08


def test_fast_greedy_scores_equal_strategy_greedy(match: list[Any]) -> None:
    """PublicScore reproduces score_moves for hypothetical hands at every play of the match."""
    rng = random.Random(5)
    checked = 0
    for start, stop in bhv.hands_of(match):
        for d in bhv.hand_decisions(match, start, stop, {"S": "g", "N": "g"}):
            state = d.view.state
            if not state.hand.line and state.hand.number == 1:
                continue
            own = state.hand.hands[d.seat]
            others = [t for t in state.variant.tiles if t not in own and t not in state.hand.played]
            keep = [t for t in own if t != d.tile]
            for k in range(min(len(keep), 3) + 1):
                hand = frozenset(rng.sample(keep, len(keep) - k)) | frozenset(
                    rng.sample(others, k)) | {d.tile}
                assert d.scored(hand) == d.scored_by_greedy(hand)
                checked += 1
    assert checked > 20


def test_temperature_fit_recovers_a_known_beta() -> None:
    rng = random.Random(11)
    data = []
    for _ in range(3000):
        scores = tuple(rng.uniform(0, 6) for _ in range(rng.randint(2, 5)))
        exps = [math.exp(1.5 * s) for s in scores]
        pick = rng.choices(range(len(scores)), weights=exps)[0]
        data.append(Choice("p", scores, (pick,)))
    fit = fit_beta(data)
    assert fit.stderr is not None and abs(fit.beta - 1.5) < 3 * fit.stderr
    assert fit.log_likelihood > fit.uniform_log_likelihood


def test_greedy_bots_fit_at_the_bound(match: list[Any]) -> None:
    data = choices(bhv.hand_decisions(match, 0, len(match), {"S": "greedy", "N": "greedy"}))
    assert data
    fit = fit_beta(data)
    assert fit.at_bound and fit.log_likelihood > fit.uniform_log_likelihood
