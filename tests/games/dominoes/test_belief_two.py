"""The two-player belief (block-2, draw-2) against the rules themselves, by brute force.

For one hand and one observer, every deal the observer cannot tell apart is replayed through
games.dominoes.rules: the hidden hands (as sets) and, at each hidden draw, every way the
boneyard could have fed it. A deal stays while the rules, given it and the logged moves,
produce exactly the events the observer saw (in its own view). The boneyard's order enters
through `rules.boneyard`, patched to read the order each branch sets (the real shuffle cannot
be inverted). A hidden draw of k is enumerated as the set of its first k - 1 tiles and its
last one: the rules stop at the first tile that fits, so the k - 1 others' (k - 1)! orders
are alike, and every deal below stands for the same number of shuffles. The brute force's
deals are then exactly the belief's assignments (hidden hands, each hidden draw with its last
tile apart, the pool), so counts are equal as ints and marginals to 1e-12.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction

import pytest

from archive.jsonl import dump_lines
from clients.cli import main
from games.dominoes import rules
from games.dominoes.audience import view
from games.dominoes.belief_two import PLAYED, TwoPlayerBelief, lead_order
from games.dominoes.commands import DrawTiles, PassTurn, PlayTile
from games.dominoes.errors import RuleViolation
from games.dominoes.events import Event, HandDealt, HandStarted, event_to_dict
from games.dominoes.game import DOMINOES
from games.dominoes.rules import decide, evolve, first_leader, lead_tile
from games.dominoes.seat_view import SeatView
from games.dominoes.selfplay import random_match_events
from games.dominoes.state import MatchState
from games.dominoes.strategy.sampling import sampler
from games.dominoes.tiles import Tile, parse_tile
from games.dominoes.variants import VARIANTS, Variant
from inference.classes import POOL
from inference.errors import InconsistentLog
from tests.inference.test_sampler import chi_square_p

MINI_DRAW = Variant("mini-draw", max_pip=3, hand_size=3, seats=("S", "N"), draws=True)
"""10 tiles, 3 each, 4 in the boneyard: small enough for the spectator from the deal on."""
MINI_BLOCK = Variant("mini-block", max_pip=3, hand_size=3, seats=("S", "N"))
"""4 tiles sleep: they can hide every tile of the ends, so "someone can follow" is pending."""
WIDE_DRAW = Variant("wide-draw", max_pip=4, hand_size=3, seats=("S", "N"), draws=True)
"""15 tiles, 9 in the boneyard: long draws and several batches (seats only)."""
MINIS = (MINI_DRAW, MINI_BLOCK, WIDE_DRAW)

_ORDERS: dict[str, tuple[dict[str, frozenset[Tile]], tuple[Tile, ...]]] = {}
"""Fake seed -> (hands, the undealt tiles in draw order) for the patched rules."""


@pytest.fixture(autouse=True)
def small_variants_and_fake_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    for variant in MINIS:
        monkeypatch.setitem(VARIANTS, variant.name, variant)
    real_deal, real_boneyard = rules.deal, rules.boneyard

    def deal(seed: str, variant: Variant):
        if seed in _ORDERS:
            hands, order = _ORDERS[seed]
            return {s: tuple(sorted(ts)) for s, ts in hands.items()}, tuple(sorted(order))
        return real_deal(seed, variant)

    def boneyard(seed: str, variant: Variant):
        return _ORDERS[seed][1] if seed in _ORDERS else real_boneyard(seed, variant)

    monkeypatch.setattr(rules, "deal", deal)
    monkeypatch.setattr(rules, "boneyard", boneyard)


def _seed(hands: dict[str, frozenset[Tile]], order: tuple[Tile, ...]) -> str:
    seed = f"{len(_ORDERS) + 1:064x}"
    _ORDERS[seed] = (hands, order)
    return seed


def _same(produced: Event, logged: Event, observer: str) -> bool:
    a = event_to_dict(view(produced, observer))
    b = event_to_dict(logged)
    for key in ("seq", "seed"):
        a.pop(key, None)
        b.pop(key, None)
    return a == b


# --------------------------------------------------------------------------- brute force
@dataclass
class Frontier:
    """The deals still standing after one event: how many, and who holds what now."""

    deals: int = 0
    held: Counter = field(default_factory=Counter)
    states: Counter = field(default_factory=Counter)


@dataclass
class Hand:
    variant: Variant
    before: MatchState
    match_started: Event
    events: list[Event]

    def own(self, observer: str) -> frozenset[Tile]:
        return next((frozenset(parse_tile(t) for t in e.tiles) for e in self.events
                     if isinstance(e, HandDealt) and e.seat == observer), frozenset())

    def brute_force(self, observer: str) -> dict[int, Frontier]:
        """Event index in the hand -> the deals consistent with the observer's view so far."""
        seen = [view(e, observer) for e in self.events]
        started = self.events[0]
        assert isinstance(started, HandStarted)
        at_start = evolve(self.before, started)
        hidden = [s for s in self.variant.seats if s != observer]
        own = self.own(observer)
        unseen = [t for t in self.variant.tiles if t not in own]
        size = self.variant.hand_size
        first_move = next(i for i, e in enumerate(seen)
                          if e.type not in ("hand_started", "hand_dealt"))
        out: dict[int, Frontier] = {}

        def record(i: int, state: MatchState, rest: frozenset[Tile]) -> None:
            frontier = out.setdefault(i, Frontier())
            frontier.deals += 1
            now = {s: frozenset(state.hand.hands[s] or ()) for s in hidden}
            now[POOL] = rest
            frontier.held.update((h, t) for h, ts in now.items() for t in ts)
            frontier.states[tuple(sorted(now.items()))] += 1

        def walk(state: MatchState, i: int, drawn: tuple[Tile, ...], rest: frozenset[Tile],
                 pending: list[Event]) -> None:
            if i > first_move:
                record(i - 1, state, rest)
            if i == len(seen) or seen[i].type == "match_ended":
                return
            logged = seen[i]
            if pending:
                if _same(pending[0], logged, observer):
                    walk(evolve(state, pending[0]), i + 1, drawn, rest, pending[1:])
                return
            if logged.type == "tile_played":
                options = [((), PlayTile(logged.seat, parse_tile(logged.tile), logged.end))]
            elif logged.type == "passed":
                options = [((), PassTurn(logged.seat))]
            elif logged.type == "tiles_drawn":
                options = [(run, DrawTiles(logged.seat))
                           for run in self._draws(logged, rest)]
            else:
                return  # hand_ended the rules did not produce
            hand = state.hand
            for run, command in options:
                s = state
                if run:
                    order = (*drawn, *run, *sorted(rest - set(run)))
                    s = replace(state, hand=replace(hand, seed=_seed(hand.hands, order)))
                try:
                    produced = decide(s, command)
                except RuleViolation:
                    continue
                if _same(produced[0], logged, observer):
                    walk(evolve(s, produced[0]), i + 1, (*drawn, *run), rest - set(run),
                         produced[1:])

        for chosen in itertools.combinations(unseen, size * len(hidden)):
            for split in _splits(chosen, hidden, size):
                hands = {**split, **({observer: own} if own else {})}
                if started.hand == 1 and first_leader(hands) != started.leader:
                    continue
                pool = frozenset(unseen) - set(chosen)
                state = at_start
                for seat in self.variant.seats:
                    state = evolve(state, HandDealt(hand=started.hand, seat=seat,
                                                    tiles=[str(t) for t in sorted(hands[seat])]))
                order = tuple(sorted(pool))
                state = replace(state, hand=replace(state.hand, seed=_seed(hands, order)))
                for i in range(first_move):
                    record(i, state, pool)
                walk(state, first_move, (), pool, [])
        return out

    def _draws(self, logged: Event, rest: frozenset[Tile]) -> Iterator[tuple[Tile, ...]]:
        """The runs the boneyard could have fed this draw: its tiles in order (own draw),
        else each set of the first k - 1 with each last tile."""
        if logged.tiles is not None:
            run = tuple(parse_tile(t) for t in logged.tiles)
            if set(run) <= rest:
                yield run
            return
        for first in itertools.combinations(sorted(rest), logged.count - 1):
            for last in sorted(rest - set(first)):
                yield (*first, last)


def _splits(chosen: tuple[Tile, ...], seats: list[str], size: int
            ) -> Iterator[dict[str, frozenset[Tile]]]:
    if len(seats) == 1:
        yield {seats[0]: frozenset(chosen)}
        return
    for first in itertools.combinations(chosen, size):
        for rest in _splits(tuple(t for t in chosen if t not in first), seats[1:], size):
            yield {seats[0]: frozenset(first), **rest}


def hands_of(variant: Variant, events: list[Event]) -> Iterator[Hand]:
    state = None
    for i, e in enumerate(events):
        if isinstance(e, HandStarted):
            rest = [x for x in events[i:] if getattr(x, "hand", None) == e.hand]
            yield Hand(variant, state, events[0], rest)
        state = evolve(state, e)


# --------------------------------------------------------------------------- the observer
def kind_of(event: Event, observer: str, belief: TwoPlayerBelief) -> str:
    whose = "" if observer == "spectator" else (" (own)" if getattr(event, "seat", None)
                                                == observer else " (other)")
    if event.type == "tiles_drawn":
        emptied = belief.left == 0
        return f"tiles_drawn{whose}{' emptying' if emptied else ''}"
    if event.type in ("tile_played", "passed"):
        return f"{event.type}{whose}"
    return event.type


def check_hand(hand: Hand, observer: str, kinds: Counter
               ) -> Iterator[tuple[TwoPlayerBelief, Frontier]]:
    """Compare the belief with the brute force after every event of the hand, noting the
    kinds of event; yields each live position (the belief moves on after the next)."""
    truth = hand.brute_force(observer)
    belief = TwoPlayerBelief(observer, hand.variant)
    belief.apply(view(hand.match_started, observer))
    for i, event in enumerate(hand.events):
        belief.apply(view(event, observer))
        if belief.status not in ("live", "ended"):
            continue
        kind = kind_of(event, observer, belief)
        frontier = truth[i]
        where = (hand.variant.name, observer, event.seq, kind)
        if belief.status == "ended":  # every tile shown (the history may stay unknown)
            assert len(frontier.states) == 1 and belief.snapshot().consistent_deals == 1, where
            kinds[(observer != "spectator", kind)] += 1
            continue
        assert belief.count() == frontier.deals, where
        marginals = belief.marginals()
        unseen = {t for (_, t) in frontier.held}
        for holder, column in marginals.items():
            assert set(column) == unseen, where
            for t, p in column.items():
                exact = Fraction(frontier.held[(holder, t)], frontier.deals)
                assert abs(p - float(exact)) < 1e-12, (*where, holder, t)
        snap = belief.snapshot()
        for fact in snap.fact_items:  # facts agree with marginals of 0 and 1
            if fact.kind == "void":
                assert all(marginals[fact.holders[0]][t] == 0 for t in unseen
                           if set(fact.values) & {t.low, t.high}), (*where, fact.text)
            if fact.kind == "holds":
                assert all(marginals[fact.holders[0]][t] == 1 for t in fact.tiles), where
        kinds[(observer != "spectator", kind)] += 1
        if belief.pending is not None:
            kinds[("pending", belief.pending.kind)] += 1
        yield belief, frontier


SEAT_KINDS = ["hand_dealt", "tile_played (own)", "tile_played (other)",
              "tiles_drawn (own)", "tiles_drawn (other)", "tiles_drawn (own) emptying",
              "tiles_drawn (other) emptying", "passed (own)", "passed (other)", "hand_ended"]
SPECTATOR_KINDS = ["hand_started", "hand_dealt", "tile_played", "tiles_drawn",
                   "tiles_drawn emptying", "passed", "hand_ended"]


def test_exact_against_the_rules_for_every_observer_and_kind_of_event() -> None:
    """Seats in all three small variants, every hand of three rounds of matches; the
    spectator in the two with 10 tiles, in first hands (the lead prunes its deals) and in a
    later hand only while it brings a kind not seen yet (4,200 deals to replay). Every kind
    of event (own and other's plays, draws that stop on a fit and draws that empty the
    boneyard, passes) and both disjunctions pending."""
    need = Counter({(True, k): 1 for k in SEAT_KINDS})
    need.update({(False, k): 1 for k in SPECTATOR_KINDS})
    need.update({("pending", "leads_first"): 3, ("pending", "can_follow"): 3})
    kinds: Counter = Counter()
    rng = random.Random(2026)
    for round_ in range(40):
        for variant in MINIS:
            events = random_match_events(rng, variant.name, target=25)
            for hand in hands_of(variant, events):
                observers = list(variant.seats)
                if variant is not WIDE_DRAW and (hand.events[0].hand == 1 or any(
                        need[(False, k)] > kinds[(False, k)] for k in spectator_kinds(hand))):
                    observers.append("spectator")
                for observer in observers:
                    for _ in check_hand(hand, observer, kinds):
                        pass
        if round_ >= 2 and not +(need - kinds):
            break
    assert not +(need - kinds), f"never reached: {dict(+(need - kinds))}"


def spectator_kinds(hand: Hand) -> set[str]:
    """The kinds of event a spectator sees in this hand (from the log alone)."""
    left = hand.variant.pool_size
    out = set()
    for event in hand.events:
        if event.type == "tiles_drawn":
            left -= event.count
            out.add("tiles_drawn emptying" if left == 0 else "tiles_drawn")
        else:
            out.add(event.type)
    return out


def test_the_sampler_is_uniform_where_played_tiles_have_several_origins() -> None:
    """A draw-2 position whose sampler splits on where played tiles came from: the states
    (N's hand, the boneyard) drawn 6,000 times against the brute force's law."""
    rng = random.Random(7)
    for _ in range(60):
        events = random_match_events(rng, WIDE_DRAW.name, target=25)
        for hand in hands_of(WIDE_DRAW, events):
            for belief, frontier in check_hand(hand, "S", Counter()):
                parts = belief.condition.parts(belief.position())
                if len(parts) > 2 and 8 <= len(frontier.states) <= 200:
                    _chi_square(belief, frontier)
                    return
    pytest.fail("no position with played tiles of several origins")


def _chi_square(belief: TwoPlayerBelief, frontier: Frontier) -> None:
    draws = 6000
    rng = random.Random(11)
    seen: Counter = Counter()
    for _ in range(draws):
        deal = belief.sample(rng)
        seen[tuple(sorted((h, frozenset(ts)) for h, ts in deal.items()))] += 1
    assert set(seen) <= set(frontier.states)
    statistic = sum((seen[s] - draws * n / frontier.deals) ** 2 / (draws * n / frontier.deals)
                    for s, n in frontier.states.items())
    assert chi_square_p(statistic, len(frontier.states) - 1) > 1e-4


@pytest.mark.parametrize("variant", ["block-2", "draw-2"])
def test_long_matches_never_contradict_the_revealed_hands(variant: str) -> None:
    """Whole random matches, every observer: no InconsistentLog (hand_ended's reveal is
    checked against the belief), the true holder of every unseen tile is possible, the
    marginals add up per tile and per holder."""
    rng = random.Random(f"long-{variant}")
    for _ in range(6):
        events = random_match_events(rng, variant, target=100)
        for observer in ("S", "N", "spectator"):
            belief = TwoPlayerBelief(observer, variant)
            state = None
            for event in events:
                state = evolve(state, event)
                belief.apply(view(event, observer))
                if belief.status != "live" or state.phase != "playing":
                    continue
                truth = {t: s for s in state.variant.seats for t in state.hand.hands[s]}
                marginals = belief.marginals()
                counts = belief.remaining_counts()
                for holder, column in marginals.items():
                    assert abs(sum(column.values()) - counts[holder]) < 1e-9
                for t in marginals[POOL]:
                    held_by = truth.get(t, POOL)
                    assert marginals[held_by][t] > 0, (event.seq, observer, t)
                    assert abs(sum(marginals[h][t] for h in marginals) - 1) < 1e-9
            assert belief.status in ("ended", "idle")


def test_a_draw_that_stops_on_a_fit_says_what_the_drawer_lacks() -> None:
    """N faced a|b, drew two or more and played the last: N now holds nothing showing a or
    b, and the fact says which draw showed it."""
    rng = random.Random(3)
    for _ in range(30):
        events = random_match_events(rng, "draw-2", target=40)
        belief = TwoPlayerBelief("S", "draw-2")
        for k, event in enumerate(events):
            belief.apply(view(event, "S"))
            if event.type == "tiles_drawn" and event.seat == "N" and event.count > 1 \
                    and events[k + 1].type == "tile_played" and belief.left:
                a, b = belief.ends
                belief.apply(view(events[k + 1], "S"))
                if belief.status != "live":
                    continue
                texts = belief.snapshot().facts
                assert any(f.startswith(f"N drew {event.count} before a tile fitted: has no")
                           for f in texts), texts
                marginals = belief.marginals()["N"]
                assert all(p == 0 for t, p in marginals.items() if t.has(a) or t.has(b))
                return
    pytest.fail("no draw of two or more that stopped on a fit")


def test_an_impossible_draw_is_refused_and_leaves_the_belief_as_it_was() -> None:
    events = random_match_events(random.Random(4), "draw-2", target=40)
    belief = TwoPlayerBelief("S", "draw-2")
    for event in events:
        if event.type == "tiles_drawn" and event.seat == "N":
            before = belief.snapshot().to_json_dict()
            forged = event.model_copy(update={"tiles": None, "count": belief.left + 1})
            with pytest.raises(InconsistentLog):
                belief.apply(forged)
            assert belief.snapshot().to_json_dict() == before
            return
        belief.apply(view(event, "S"))
    pytest.fail("N never drew")


def test_lead_order_agrees_with_the_rules() -> None:
    rng = random.Random(5)
    tiles = list(VARIANTS["draw-2"].tiles)
    for _ in range(300):
        dealt = rng.sample(tiles, rng.randrange(1, 15))
        assert lead_order(dealt)[0] == lead_tile(dealt)


def test_pimc_draws_whole_deals_from_it() -> None:
    """games.dominoes.strategy.sampling.sampler reads the two-player belief through
    DealSampler.of: every draw gives N its current count and the boneyard its tiles, never a
    played one."""
    events = random_match_events(random.Random(6), "draw-2", target=40)
    seat_view = SeatView("S")
    rng = random.Random(1)
    checked = 0
    for event in events:
        seat_view.apply(event)
        state = seat_view.state
        if state.to_move != "S" or state.hand is None or not state.hand.line:
            continue
        deal = sampler(seat_view)(rng)
        played = state.hand.played
        assert len(deal.hands["N"]) == state.hand.counts["N"]
        assert len(deal.to_draw) == state.hand.boneyard
        assert not (set(deal.hands["N"]) | set(deal.to_draw)) & played
        assert sorted(deal.hands["S"]) == sorted(state.hand.hands["S"])
        checked += 1
    assert checked > 10
    assert PLAYED not in seat_view.belief().holders


def test_infer_json_on_a_stored_draw_log_is_the_beliefs_snapshot(tmp_path, capsys) -> None:
    events = random_match_events(random.Random(12), "draw-2", target=30)
    path = tmp_path / "draw.jsonl"
    path.write_text(dump_lines(DOMINOES, events))
    at = next(e.seq for e in events if e.type == "tiles_drawn") + 1
    for seat in ("N", "spectator"):
        assert main(["infer", str(path), "--seat", seat, "--at", str(at), "--json"]) == 0
        printed = json.loads(capsys.readouterr().out)
        belief = TwoPlayerBelief(seat, "draw-2")
        served = DOMINOES.belief(seat, "draw-2")
        for event in events[:at]:
            belief.apply(view(event, seat))
            served.apply(view(event, seat))
        expected = json.loads(json.dumps(belief.snapshot().to_json_dict()))
        assert printed == expected
        assert printed["status"] == "live" and printed["consistent_deals"] > 1
        assert set(printed["marginals"]) == {*(s for s in "SN" if s != seat), POOL}
        assert {k: v for k, v in served.snapshot_dict().items() if k != "model"} == expected
        assert math.isclose(printed["entropy_bits"], math.log2(printed["consistent_deals"]))
