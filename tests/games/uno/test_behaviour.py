"""Uno's behaviour layer `behaviour:plays` (games.uno.behaviour, games.uno.choice_model): the
fit recovers a known preference, the arrangements give the hands really held, listing and
sampling agree with the exact belief when every play weighs the same, the weights are a
function of the position and the seed alone, and the exact layer is unchanged."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration.botmatches import bot_matches
from clients.cli import main
from games.interface import SPECTATOR
from games.uno.behaviour import (
    BEHAVIOUR_PLAYS,
    PRIOR,
    Arrangements,
    PlayWeigher,
    behaviour_odds,
    behaviour_weighted,
)
from games.uno.belief import UnoBelief
from games.uno.cards import is_black
from games.uno.choice_model import FEATURES, Decision, Weights, design, fit, legal
from games.uno.counting import DECK
from games.uno.events import CardsDrawn, DeckReshuffled, HandDealt
from games.uno.game import UNO
from games.uno.revealed import YES, uno_forecasts, uno_moments
from games.uno.variants import VARIANTS
from inference.weighted import Budget

MINI = "uno-2-mini"


def _matches(bots: list[str], count: int, seed: int) -> list[list[Any]]:
    return list(bot_matches(MINI, bots, count, seed))


class Flat(Weights):
    """Every play equally likely whatever the hand: the behaviour layer is then the uniform
    belief itself."""

    def log_p(self, hand: Any, decision: Decision) -> float:
        return 0.0


def test_the_fit_recovers_a_known_preference() -> None:
    """Synthetic choices from θ = (−2, 0.5, 1, 3) on random mini hands: the fit is within
    four standard errors of every weight and predicts the choices better than picking
    uniformly."""
    truth = np.array([-2.0, 0.5, 1.0, 3.0])
    rng = random.Random(5)
    deck = VARIANTS[MINI].deck
    cards = deck.cards()
    rows = []
    while len(rows) < 1500:
        hand = Counter(rng.sample(cards, rng.randint(2, 6)))
        top = rng.choice([c for c in cards if not is_black(c)])
        decision = Decision("N", 0, top, top[0], deck.colours, ("", None))
        moves = legal(hand, decision)
        if len(moves) < 2:
            continue
        x = design(hand, Decision("N", 0, top, top[0], deck.colours, moves[0]))
        assert x is not None
        scores = x[0] @ truth
        p = np.exp(scores - scores.max())
        j = rng.choices(range(len(moves)), weights=list(p / p.sum()))[0]
        rows.append((x[0], j))
    fitted = fit("synthetic", rows)
    for name, want, got, se in zip(FEATURES, truth, fitted.weights.theta, fitted.stderr,
                                   strict=True):
        assert abs(got - want) < 4 * se, (name, want, got, se)
        assert se < 0.6, (name, se)
    assert fitted.log_loss < fitted.log_loss_uniform - 0.05
    assert not fitted.at_bound


def _true_batches(events: list[Any], observer: str) -> list[list[str]]:
    """The referee's cards of every batch the observer's ledger keeps, in its order (deals of
    the unknown seats, then their draws), up to the first reshuffle."""
    out: list[list[str]] = []
    for event in events:
        if isinstance(event, DeckReshuffled):
            break
        if isinstance(event, HandDealt | CardsDrawn) and event.seat != observer:
            assert event.cards is not None
            out.append(list(event.cards))
    return out


def test_the_arrangements_give_the_hands_really_held() -> None:
    """At every position of greedy matches (a seat and the spectator, before any reshuffle),
    the referee's own arrangement (its batches' cards in the columns the ledger gives them)
    makes Arrangements rebuild exactly the hand each unknown seat held at each of its plays,
    and exactly what every place holds now."""
    checked = 0
    for events in _matches(["greedy"], 4, 3):
        for observer in ("S", SPECTATOR):
            weigher = PlayWeigher(MINI, observer, {"S": PRIOR, "N": PRIOR})
            referee: Any = None
            hands_at: dict[int, Counter[str]] = {}
            for index, event in enumerate(events):
                if isinstance(event, DeckReshuffled):
                    break
                before = referee
                referee = UNO.evolve(referee, event)
                if event.type == "card_played" and before is not None:
                    hands_at[event.seq] = Counter(before.hands[event.seat])
                weigher.apply(UNO.view(event, observer))
                if referee.over or not referee.dealt:
                    continue
                position = weigher.belief.ledger.position()
                batches = _true_batches(events[:index + 1], observer)
                rows = {k: [0] * len(position.columns) for k in position.kinds}
                for b, cards in enumerate(batches):
                    for card in cards:
                        rows[card][position.batches[b]] += 1
                deck_column = len(position.columns) - 1
                for card in referee.deck:
                    rows[card][deck_column] += 1
                arrangements = Arrangements(position, weigher.plays)
                for decision, drawn, played in arrangements.checks:
                    hand = Counter({k: sum(r[c] for c in drawn) - played[k]
                                    for k, r in rows.items()})
                    assert +hand == hands_at[decision.seq], (decision, observer)
                    assert weigher.weights[decision.seat].log_p(hand, decision) > -math.inf
                    checked += 1
                now = arrangements.holdings(rows)
                for seat in weigher.belief.ledger.unknown:
                    assert +now[seat] == Counter(referee.hands[seat])
                assert +now[DECK] == Counter(referee.deck)
    assert checked > 50


def _positions(events: list[Any], observer: str):  # type: ignore[no-untyped-def]
    """(weigher, snapshot, forecasts) at each scored position with odds shown."""
    weigher = PlayWeigher(MINI, observer, {"S": PRIOR, "N": PRIOR})
    at = {m.index for m in uno_moments(events)}
    for index, event in enumerate(events):
        weigher.apply(UNO.view(event, observer))
        if index not in at:
            continue
        snapshot = weigher.belief.snapshot_dict()
        forecasts = uno_forecasts(snapshot)
        if snapshot.get("status") == "exact" and forecasts:
            yield weigher, snapshot, forecasts


def test_flat_weights_give_back_the_exact_belief() -> None:
    """With every play weighing the same, the listed arrangements' marginals equal the exact
    belief's to 1e-12, and sampled ones lie within four of their standard errors of it."""
    flat = Flat(PRIOR.theta)
    listed = sampled = 0
    for events in _matches(["greedy"], 3, 8):
        for observer in ("N", SPECTATOR):
            for weigher, _, forecasts in _positions(events, observer):
                if not weigher.plays:
                    continue
                weights = {s: flat for s in weigher.weights}
                exact = behaviour_weighted(weigher.belief, forecasts, weigher.plays, weights,
                                           Budget(exact_budget=2000), random.Random(1))
                if exact.samples and exact.exact:
                    listed += 1
                    for item, row in forecasts.items():
                        assert exact.marginals[item][YES] == pytest.approx(row[YES], abs=1e-12)
                drawn = behaviour_weighted(weigher.belief, forecasts, weigher.plays, weights,
                                           Budget(samples=400, exact_budget=0, shrink=0.0),
                                           random.Random(2))
                assert not drawn.exact and drawn.samples == 400
                sampled += 1
                for item, row in forecasts.items():
                    se = drawn.stderr[item][YES]
                    assert abs(drawn.marginals[item][YES] - row[YES]) <= 4 * se + 1e-9, item
    assert listed > 10 and sampled > 10


def test_weights_are_a_function_of_the_position_and_the_seed() -> None:
    """Two weighers fed the same view with the same seed give identical answers (listed and
    sampled), a different seed other draws; the work is counted in draws."""
    events = _matches(["greedy"], 1, 4)[0]
    budget = Budget(samples=64, exact_budget=0, ess_target=1000.0, max_samples=192)
    seen = 0
    for (a, _, fa), (b, _, _) in zip(_positions(events, "S"), _positions(events, "S"),
                                     strict=True):
        if not a.plays:
            continue
        one = behaviour_weighted(a.belief, fa, a.plays, a.weights, budget, random.Random(9))
        two = behaviour_weighted(b.belief, fa, b.plays, b.weights, budget, random.Random(9))
        assert one == two
        assert one.samples in (0, 192)  # 0: no play of the opponent weighed yet
        other = behaviour_weighted(a.belief, fa, a.plays, a.weights, budget,
                                   random.Random(10))
        seen += one.samples > 0 and other.marginals != one.marginals
    assert seen > 0


def test_the_exact_layer_is_unchanged(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`calibrate` scores behaviour:plays beside the uniform belief: the uniform figures are
    those of --uniform-only, the behaviour model is paired with them and reports its fits;
    and a belief fed beside a weigher gives the snapshots a lone belief gives."""
    db = str(tmp_path / "uno.sqlite3")
    assert main(["calibrate", "--db", db, "--variant", MINI, "--play", "6", "--bots",
                 "greedy", "--seed", "2", "--uniform-only", "--json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main(["calibrate", "--db", db, "--variant", MINI, "--samples", "32",
                 "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert both["models"]["uniform"] == alone["models"]["uniform"]
    behaviour = both["models"][BEHAVIOUR_PLAYS.name]
    assert behaviour["items"] == alone["models"]["uniform"]["items"]
    assert behaviour["impossible"] == 0
    assert behaviour["fits"][0]["player"] == "pooled" and behaviour["fits"][0]["choices"] > 5
    assert both["comparison"]["log_loss_behaviour_minus_uniform"]["positions"] > 20
    # --fit-db: fitted on another store's matches (out of sample), scored on these
    other = str(tmp_path / "other.sqlite3")
    assert main(["calibrate", "--db", other, "--variant", MINI, "--play", "3", "--bots",
                 "random", "--seed", "5", "--samples", "32", "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    own = scored["models"][BEHAVIOUR_PLAYS.name]["fits"]
    assert main(["calibrate", "--db", other, "--variant", MINI, "--fit-db", db,
                 "--samples", "32", "--json"]) == 0
    crossed = json.loads(capsys.readouterr().out)
    assert crossed["models"][BEHAVIOUR_PLAYS.name]["fits"] == behaviour["fits"] != own
    assert crossed["models"]["uniform"] == scored["models"]["uniform"]
    assert crossed["fitted_on"] == db
    events = _matches(["greedy"], 1, 6)[0]
    lone = UnoBelief("N", MINI)
    weigher = PlayWeigher(MINI, "N", {"S": PRIOR})
    for event in events:
        seen = UNO.view(event, "N")
        lone.apply(seen)
        weigher.apply(seen)
        if weigher.belief.ledger.ready:
            snapshot = weigher.belief.snapshot_dict()
            weigher.weigh(0, snapshot, Budget(samples=16), random.Random(0))
            assert snapshot == lone.snapshot_dict()


def test_live_odds_cover_what_the_belief_leaves_open() -> None:
    """The `odds` answer for a seat: probabilities only where the exact belief has them,
    labelled with the model, and the same answer for the same seed."""
    events = _matches(["greedy"], 1, 12)[0]
    plays = [i for i, e in enumerate(events) if e.type == "card_played" and e.seat == "N"]
    view = [UNO.view(e, "S") for e in events[:plays[-2] + 1]]
    answer = behaviour_odds(view, "S", random.Random(3))
    again = BEHAVIOUR_PLAYS.odds([UNO.event_to_dict(e) for e in view], "S", 3)
    assert answer["model"] == "behaviour:plays" and answer["label"] and answer["weighed"] >= 1
    assert again["marginals"] == answer["marginals"]
    belief = UnoBelief("S", MINI)
    for event in view:
        belief.apply(event)
    exact = belief.snapshot_dict()["marginals"]
    for place, row in answer["marginals"].items():
        for item, p in row.items():
            assert 0 < p <= 1 and exact[place].get(item, 0) > 0, (place, item)
