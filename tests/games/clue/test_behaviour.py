"""Clue's behaviour layer (`behaviour:shows`): the show model's fit, the weighted deals
against brute force, only what the observer saw weighed, seeded work budgets, and the exact
layer unchanged beside it."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clients.cli import main
from games.clue.behaviour import (
    BEHAVIOUR_SHOWS,
    PRIOR,
    ShowWeigher,
    behaviour_odds,
    behaviour_weighted,
    by_card,
    list_deals,
)
from games.clue.belief import ClueBelief
from games.clue.cards import MINI
from games.clue.events import CardShown, Dealt
from games.clue.game import CLUE
from games.clue.show_model import FEATURES, Show, Weights, design, fit, training_rows
from games.interface import REFEREE, SPECTATOR
from games.play import play_match
from inference.weighted import Budget
from tests.games.clue.brute import every_deal, fits

VARIANT = "clue-mini"
SEATS = CLUE.variants()[VARIANT].seats


def _games(bot: str, seeds: range) -> list[list[Any]]:
    return [play_match(CLUE, VARIANT, {s: CLUE.bots()[bot] for s in SEATS}, random.Random(seed))
            for seed in seeds]


def _synthetic(theta: tuple[float, ...], n: int, rng: random.Random) -> list[Any]:
    """Choices of a refuter showing by the logit with weights `theta`."""
    deck = MINI
    rows = []
    for i in range(n):
        triple = (rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms))
        held = rng.sample(triple, rng.choice((2, 3)))
        before = frozenset(c for c in held if rng.random() < 0.4)
        first = design(held, Show("P2", "P1", i, triple, held[0], before))
        assert first is not None
        scores = first[0] @ np.array(theta)
        p = np.exp(scores - scores.max())
        j = rng.choices(range(len(p)), weights=list(p))[0]
        rows.append((first[0], j))
    return rows


def test_the_fit_recovers_a_known_preference() -> None:
    """Choices drawn from a known θ (prefer a card already shown, a suspect over a room, a
    weapon less): the fit finds it within its standard errors; uniform picks fit near 0."""
    truth = (2.0, 0.7, -0.8)
    got = fit("synthetic", _synthetic(truth, 3000, random.Random(1)))
    assert got.choices == 3000 and not got.at_bound
    for name, t, est, se in zip(FEATURES, truth, got.weights.theta, got.stderr, strict=True):
        assert abs(est - t) < 4 * se, (name, est, t, se)
        assert se < 0.2
    assert got.log_loss < got.log_loss_uniform
    assert all(0 < n < 3000 for n in got.informative)
    assert got.to_dict()["informative"] == dict(zip(FEATURES, got.informative, strict=True))
    flat = fit("flat", _synthetic((0.0, 0.0, 0.0), 3000, random.Random(2)))
    assert all(abs(t) < 4 * s for t, s in zip(flat.weights.theta, flat.stderr, strict=True))
    assert abs(flat.log_loss - flat.log_loss_uniform) < 0.01


def test_training_rows_are_the_real_choices_of_a_referee_log() -> None:
    """Every row is a refuter that held two or three of the suggested cards, and the card it
    showed is one of them."""
    rows = 0
    for events in _games("random", range(6)):
        hands = next(e for e in events if isinstance(e, Dealt)).hands
        players = {s: "random" for s in SEATS}
        for player, (x, j) in training_rows(events, players):
            assert player == "random" and 2 <= len(x) <= 3 and 0 <= j < len(x)
            rows += 1
        assert all(h is not None for h in hands.values())
    assert rows > 0


def _brute_weighted(events: list[Any], observer: str, theta: Weights
                    ) -> dict[str, dict[str, Fraction | float]]:
    """Independent of the layer: every mini deal that fits the observer's view, weighed by
    P(card shown | the refuter's cards among the three) for the shows the observer saw."""
    seen = [CLUE.view(e, observer) for e in events]
    dealt = next(e for e in seen if isinstance(e, Dealt))
    worlds = [w for w in every_deal(MINI, dict(dealt.hand_sizes))
              if all(fits(w, e, observer) for e in seen)]
    triples: dict[str, tuple[str, str, str]] = {}
    shown: dict[tuple[str, str], set[str]] = {}
    shows: list[Show] = []
    for e in seen:
        if e.type == "suggested":
            triples[e.seat] = (e.suspect, e.weapon, e.room)
        if isinstance(e, CardShown) and e.card is not None:
            before = frozenset(shown.get((e.seat, e.to), set()))
            shown.setdefault((e.seat, e.to), set()).add(e.card)
            if e.to == observer:
                shows.append(Show(e.seat, e.to, e.seq, triples[e.to], e.card, before))
    weights = []
    for _, hands in worlds:
        weights.append(math.exp(sum(theta.log_p(hands[s.refuter] & set(s.triple), s)
                                    for s in shows)))
    total = sum(weights)
    out: dict[str, dict[str, Fraction | float]] = {}
    for (envelope, hands), w in zip(worlds, weights, strict=True):
        for card in envelope:
            out.setdefault(card, {}).setdefault("envelope", 0.0)
            out[card]["envelope"] = float(out[card]["envelope"]) + w / total
        for seat, hand in hands.items():
            for card in hand:
                out.setdefault(card, {}).setdefault(seat, 0.0)
                out[card][seat] = float(out[card][seat]) + w / total
    return out


@pytest.mark.parametrize("theta", [PRIOR, Weights((1.5, -0.5, 0.8))])
def test_listed_weights_equal_brute_force(theta: Weights) -> None:
    """On clue-mini every consistent deal is listed (as many as the exact belief counts) and
    the weighted odds of the suggester equal a brute-force weighing of every deal."""
    checked = 0
    for events in _games("random", range(4)):
        cut = max(i for i, e in enumerate(events) if isinstance(e, CardShown)) + 1
        part = events[:cut]
        for observer in SEATS:
            weigher = ShowWeigher(observer, {s: theta for s in SEATS})
            for e in part:
                weigher.apply(CLUE.view(e, observer))
            snapshot = weigher.belief.snapshot_dict()
            assert snapshot["status"] == "exact"
            listed = list_deals(weigher.belief.knowledge, 2000)
            assert listed is not None and len(listed) == snapshot["consistent_deals"]
            got = weigher.weigh(0, snapshot, Budget(samples=8), random.Random(0))
            assert got.exact and got.ess > 0
            brute = _brute_weighted(part, observer, theta)
            for card, row in got.marginals.items():
                for holder, p in row.items():
                    assert p == pytest.approx(float(brute.get(card, {}).get(holder, 0.0)),
                                              abs=1e-9)
            checked += bool(weigher.shows)
    assert checked > 0


def test_only_what_the_observer_saw_is_weighed() -> None:
    """A seat that was not shown the card, and the spectator, see no card in their view and
    weigh nothing (their layer is the exact belief); the suggester weighs its own shows only."""
    for events in _games("random", range(3)):
        for observer in (*SEATS, SPECTATOR):
            weigher = ShowWeigher(observer, {s: PRIOR for s in SEATS})
            for e in events:
                seen = CLUE.view(e, observer)
                if isinstance(e, CardShown) and observer not in (e.seat, e.to):
                    assert seen.card is None
                if isinstance(e, Dealt):
                    assert seen.envelope is None
                    assert all(h is None for s, h in seen.hands.items() if s != observer)
                weigher.apply(seen)
            assert all(s.suggester == observer != s.refuter for s in weigher.shows)
            if observer == SPECTATOR:
                assert not weigher.shows


def test_weights_are_a_function_of_the_position_and_the_seed() -> None:
    """Sampled (listing refused by a zero budget): the same view and seed give the same
    answer, another seed other draws; the work is counted in draws."""
    budget = Budget(samples=64, exact_budget=0, ess_target=1000.0, max_samples=192)
    seen = 0
    for events in _games("random", range(4)):
        for observer in SEATS:
            a = ShowWeigher(observer, {s: Weights((1.0, 0.0, 0.0)) for s in SEATS})
            b = ShowWeigher(observer, {s: Weights((1.0, 0.0, 0.0)) for s in SEATS})
            for e in events[:-1]:
                a.apply(CLUE.view(e, observer))
                b.apply(CLUE.view(e, observer))
            if not a.shows:
                continue
            snap = a.belief.snapshot_dict()
            one = a.weigh(0, snap, budget, random.Random(9))
            two = b.weigh(0, b.belief.snapshot_dict(), budget, random.Random(9))
            assert one == two and not one.exact and one.samples == 192
            other = a.weigh(0, snap, budget, random.Random(10))
            seen += other.marginals != one.marginals
    assert seen > 0


def test_no_show_seen_gives_back_the_exact_belief() -> None:
    belief = ClueBelief("P1")
    for e in _games("random", range(1))[0][:3]:
        belief.apply(CLUE.view(e, "P1"))
    snapshot = belief.snapshot_dict()
    got = behaviour_weighted(belief.knowledge, snapshot.get("consistent_deals"),
                             by_card(snapshot), [], {}, Budget(), random.Random(0))
    assert got.exact and got.marginals == by_card(snapshot)


def test_the_exact_layer_is_unchanged(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`calibrate` scores behaviour:shows beside the uniform belief: the uniform figures are
    those of --uniform-only, the two are paired, the fits reported; and a belief fed beside
    a weigher gives the snapshots a lone belief gives."""
    db = str(tmp_path / "clue.sqlite3")
    assert main(["calibrate", "--db", db, "--variant", VARIANT, "--play", "8", "--bots",
                 "random", "--seed", "2", "--uniform-only", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main(["calibrate", "--db", db, "--variant", VARIANT, "--samples", "32",
                 "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert both["models"]["uniform"] == alone["models"]["uniform"]
    behaviour = both["models"][BEHAVIOUR_SHOWS.name]
    assert behaviour["items"] == alone["models"]["uniform"]["items"]
    assert behaviour["impossible"] == 0
    assert behaviour["fits"][0]["player"] == "pooled" and behaviour["fits"][0]["choices"] > 0
    assert both["comparison"]["log_loss_behaviour_minus_uniform"]["positions"] > 20
    events = _games("random", range(1))[0]
    lone = ClueBelief("P1")
    weigher = ShowWeigher("P1", {s: PRIOR for s in SEATS})
    for e in events:
        seen = CLUE.view(e, "P1")
        lone.apply(seen)
        weigher.apply(seen)
        snapshot = weigher.belief.snapshot_dict()
        if snapshot.get("status") == "exact":
            weigher.weigh(0, snapshot, Budget(samples=16), random.Random(0))
        assert snapshot == lone.snapshot_dict()


def test_live_odds_are_belief_shaped_and_seeded() -> None:
    events = _games("random", range(2))[1]
    shown = [i for i, e in enumerate(events) if isinstance(e, CardShown) and e.to == "P1"]
    assert shown
    view = [CLUE.view(e, "P1") for e in events[:shown[0] + 1]]
    answer = behaviour_odds(view, "P1", random.Random(3))
    again = BEHAVIOUR_SHOWS.odds([CLUE.event_to_dict(e) for e in view], "P1", 3)
    assert answer["model"] == "behaviour:shows" and answer["label"] and answer["weighed"] == 1
    assert again["marginals"] == answer["marginals"] and answer["exact"]
    for holder, row in answer["marginals"].items():
        assert holder in (*SEATS, "envelope")
        assert all(0.0 <= p <= 1.0 for p in row.values())
    assert "error" in BEHAVIOUR_SHOWS.odds([], "P1", 3)
    assert REFEREE not in answer["marginals"]
    assert np.isfinite(sum(p for row in answer["marginals"].values() for p in row.values()))


def test_sampled_odds_lie_within_their_errors_of_the_listed_ones() -> None:
    """On clue-mini the sampled layer (listing refused) agrees with the exact listed one
    within five standard errors for every card and holder, at positions where it moves."""
    theta = Weights((0.0, 1.5, -1.0))
    sampled = Budget(samples=256, exact_budget=0, ess_target=1e9, max_samples=1024, shrink=0.0)
    checked = 0
    for events in _games("random", range(6)):
        for observer in SEATS:
            weigher = ShowWeigher(observer, {s: theta for s in SEATS})
            cut = max(i for i, e in enumerate(events) if isinstance(e, CardShown)) + 1
            for e in events[:cut]:
                weigher.apply(CLUE.view(e, observer))
            if not weigher.shows:
                continue
            snapshot = weigher.belief.snapshot_dict()
            exact = weigher.weigh(0, snapshot, Budget(), random.Random(0))
            got = weigher.weigh(0, snapshot, sampled, random.Random(4))
            assert exact.exact and not got.exact and got.samples == 1024
            for card, row in exact.marginals.items():
                for holder, p in row.items():
                    assert abs(got.marginals[card][holder] - p) \
                        <= 5 * got.stderr[card][holder] + 1e-9, (card, holder)
            checked += exact.marginals != by_card(snapshot)
    assert checked > 0
