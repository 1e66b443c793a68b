"""The belief is exact: equal, as fractions, to counting every deal of the small deck.

Every observer (each seat and the spectator) at every event of whole games on the small deck
(3 suspects, 3 weapons, 4 rooms, 3 players): P(holder has card) for each seat and the
envelope equals the share of the deals consistent with that observer's view (the brute force
in tests/games/clue/brute.py reads the events itself). The belief counts in one programme
over the cards (inference.frontier); the two older exact methods (inclusion–exclusion,
disjoint parts) are checked beside it, on the small deck and on a six-player spectator
position that took them seconds, and the labelled estimate past the work budget. Every
seed-rule fact is a probability of exactly 0 or 1.
"""

from __future__ import annotations

import random
from fractions import Fraction

from games.clue.belief import WORK_BUDGET, ClueBelief, position_of, solve
from games.clue.cards import MINI
from games.clue.facts import deduce
from games.clue.game import CLUE
from games.interface import REFEREE, SPECTATOR, table_seats
from games.play import play_match
from inference.inclusion_exclusion import count, count_by_parts
from tests.games.clue.brute import every_deal, fits, marginals

SEATS = CLUE.variants()["clue-mini"].seats


def _mini_games() -> list[list]:
    return [play_match(CLUE, "clue-mini", {s: CLUE.bots()[bot] for s in SEATS},
                       random.Random(seed)) for seed, bot in
            ((0, "random"), (1, "random"), (2, "infomax"), (3, "random"))]


def test_every_observers_belief_equals_the_brute_force_count_at_every_event() -> None:
    facts_checked = parts_checked = 0
    for events in _mini_games():
        worlds_all = list(every_deal(MINI, events[1].hand_sizes))
        for audience in (*SEATS, SPECTATOR):
            belief = ClueBelief(audience)
            worlds = worlds_all
            for event in events:
                view = CLUE.view(event, audience)
                belief.apply(view)
                worlds = [w for w in worlds if fits(w, view, audience)]
                if not belief.knowledge.dealt:
                    continue
                solved = belief.solved()
                assert solved is not None and solved.exact and solved.total == len(worlds)
                truth = marginals(worlds, MINI)
                for card in MINI.cards:
                    assert solved.probabilities[card] == truth[card], (audience, view.seq, card)
                position, constraints = position_of(belief.knowledge)
                if constraints:  # the other exact method gives the same numbers
                    parts = count_by_parts(position, constraints, 10_000)
                    signed = count(position, constraints)
                    assert parts.total == signed.total == len(worlds)
                    assert parts.rows == signed.rows
                    parts_checked += 1
                for fact in deduce(belief.knowledge):
                    p = truth[fact.card][fact.holder]
                    assert p == (1 if fact.holds else 0), fact
                    facts_checked += 1
    assert facts_checked > 1000 and parts_checked > 20


def test_past_the_budget_the_snapshot_is_a_labelled_estimate_within_its_error_bar() -> None:
    events = _mini_games()[1]
    belief = ClueBelief(SPECTATOR, budget=1)
    exact = ClueBelief(SPECTATOR)
    worlds = list(every_deal(MINI, events[1].hand_sizes))
    for event in events[:-2]:
        view = CLUE.view(event, SPECTATOR)
        belief.apply(view)
        exact.apply(view)
        worlds = [w for w in worlds if fits(w, view, SPECTATOR)]
    snapshot = belief.snapshot_dict()
    assert exact.solved().open_disjunctions >= 2  # type: ignore[union-attr]
    assert snapshot["status"] == "estimate" and snapshot["model"].startswith("estimate:")
    assert "±" in snapshot["model"] and 0 < snapshot["error_95"] < 0.2
    assert "over 1 transitions" in snapshot["model"] and "uniform" in snapshot["model"]
    truth = marginals(worlds, MINI)
    for holder, row in snapshot["marginals"].items():
        for card, p in row.items():
            assert abs(p - float(truth[card][holder])) <= snapshot["error_95"] + 0.02


def test_a_snapshot_names_the_envelope_odds_and_the_facts() -> None:
    events = _mini_games()[0]
    belief = CLUE.belief("P1", "clue-mini")
    for event in events[:6]:
        belief.apply(CLUE.view(event, "P1"))
    snapshot = belief.snapshot_dict()
    assert snapshot["status"] == "exact" and snapshot["consistent_deals"] > 0
    for kind, row in snapshot["envelope"].items():
        assert abs(sum(row.values()) - 1) < 1e-9, kind
    for card in snapshot["hand"]:
        assert snapshot["marginals"]["P1"][card] == 1.0
    assert all(isinstance(f, str) for f in snapshot["facts"])


def test_over_long_random_play_the_true_holder_is_never_at_probability_zero() -> None:
    """Full deck, four and six players: at every event, for every observer, the card's true
    holder (from the referee's deal) has a positive probability, and every fact is true."""
    checked = 0
    for variant, seed, audiences in (("clue", 11, None), ("clue-6", 12, ("P2", "P5"))):
        seats = CLUE.variants()[variant].seats
        events = play_match(CLUE, variant, {s: CLUE.bots()["random"] for s in seats},
                            random.Random(seed))
        dealt = CLUE.view(events[1], REFEREE)
        truth = {c: s for s, hand in dealt.hands.items() for c in hand}
        truth.update({c: "envelope" for c in dealt.envelope})
        for audience in audiences or (*seats, SPECTATOR):
            belief = ClueBelief(audience)
            for event in events:
                belief.apply(CLUE.view(event, audience))
                solved = belief.solved()
                if solved is None:
                    continue
                for card, holder in truth.items():
                    assert solved.probabilities[card][holder] > 0, (audience, event.seq, card)
                for fact in deduce(belief.knowledge):
                    assert (truth[fact.card] == fact.holder) == fact.holds, fact
                checked += 1
    assert checked > 200


def test_exact_arithmetic_sums_to_one_for_every_card() -> None:
    events = _mini_games()[2]
    belief = ClueBelief(SPECTATOR)
    for event in events[:8]:
        belief.apply(CLUE.view(event, SPECTATOR))
    solved = solve(belief.knowledge)
    for card, row in solved.probabilities.items():
        assert sum(row.values()) == Fraction(1), card


def test_a_hard_six_player_spectator_position_is_exact_and_equals_inclusion_exclusion() -> None:
    """Six players, random bots, the spectator after seq 36: seven disjunctions left open after
    simplification, 128 inclusion–exclusion terms over nine holders (seconds of CPU for the
    older code, 20 s on a loaded machine at the same match's seq 21). The one-pass count is
    exact within its work budget and equal, deal for deal and card for card, to the
    inclusion–exclusion the belief used before."""
    options = {**CLUE.variants()["clue"].options, "players": 6}
    seats = table_seats(CLUE, "clue", options)
    events = play_match(CLUE, "clue", dict.fromkeys(seats, CLUE.bots()["random"]),
                        random.Random("prof:0"), options)
    belief = ClueBelief(SPECTATOR)
    for event in events:
        if event.seq > 36:
            break
        belief.apply(CLUE.view(event, SPECTATOR))
    solved = belief.solved()
    assert solved is not None and solved.exact and 0 < solved.terms <= WORK_BUDGET
    assert solved.open_disjunctions >= 6
    position, constraints = position_of(belief.knowledge)
    before = count(position, constraints, budget=4096)
    assert before.total == solved.total
    holders = position.holders
    for card, row in before.rows.items():
        for h, n in enumerate(row):
            holder = holders[h] if h < len(seats) else "envelope"
            if holder != "envelope":
                assert solved.probabilities[card][holder] == Fraction(n, before.total), card
        envelope = sum(row[len(seats):])
        assert solved.probabilities[card]["envelope"] == Fraction(envelope, before.total)
