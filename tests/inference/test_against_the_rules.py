"""The belief against the rules themselves, by brute force, in small variants.

Every assignment of the observer's unseen tiles is replayed through games.dominoes.rules: it counts
when the rules, given those hands, produce exactly the events the observer saw — the logged
leader leads the first hand, every play is accepted and ends the hand exactly when the log
says so, every pass is legal, the hand ends showing exactly those hands. The exact engine
must give the same count and the same marginals. A brute force over `Position`s cannot catch
a rule the belief forgot to model ("the hand went on after that play, so it was not
blocked"); this one can.

It runs for every observer (each seat and the spectator) at every kind of event: hand_started,
hand_dealt, tile_played (own and others'), passed (own and others', right after a play and
after a pass) and hand_ended. One enumeration serves a whole hand: the assignments at the
first event where they are few enough, each replayed once up to the first event it
contradicts; a deal counts at every later event before that one.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from games.dominoes.audience import view
from games.dominoes.belief_partnership import OBSERVERS, Belief
from games.dominoes.commands import PassTurn, PlayTile
from games.dominoes.errors import RuleViolation
from games.dominoes.events import Event, HandDealt, HandStarted
from games.dominoes.rules import decide, evolve, first_leader
from games.dominoes.selfplay import random_match_events
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, Tile, parse_tile
from games.dominoes.variants import VARIANTS, Variant
from inference.classes import POOL
from inference.sampler import DealSampler

MINIS = (
    Variant("mini-5", max_pip=5, hand_size=3),  # 21 tiles, 9 face down: hides whole ends
    Variant("mini-3", max_pip=3, hand_size=2),  # 10 tiles, 2 face down: small at the deal
)
LEAD = Variant("mini-3x1", max_pip=3, hand_size=1)
"""10 tiles, 4 dealt, 6 face down: no double is dealt once in 14 deals, so the heaviest tile
leads the first hand (games.dominoes.rules.lead_tile)."""
DOUBLE_SIX = VARIANTS["partnership-6"]
"""No pool: whether a play blocks the hand is public. Checked late in hands only."""

REPLAYED = {"mini-5": 1400, "mini-3": 2600, "mini-3x1": 600, "partnership-6": 200}
"""Most assignments replayed through the rules for one (hand, observer), each up to the end of
the hand: a seat's view from its deal on in mini-3 (8!/2!^4 = 2520); later views in mini-5 and
double-six, whose hands are longer."""
UNREPLAYED = 120_000
"""Before the first tile there is nothing to replay but who leads, so more are enumerated:
the spectator's view of a mini-3 deal (10!/2!^5 = 113,400)."""

SEAT_KINDS = (
    "hand_dealt",
    "tile_played (own)",
    "tile_played (other)",
    "passed (own, after a play)",
    "passed (own, after a pass)",
    "passed (other, after a play)",
    "passed (other, after a pass)",
    "hand_ended",
)
SPECTATOR_KINDS = (
    "hand_started",
    "hand_dealt",
    "tile_played",
    "passed (after a play)",
    "passed (after a pass)",
    "hand_ended",
)
BEFORE_THE_FIRST_TILE = {"hand_started", "hand_dealt"}


def required(variant: Variant) -> dict[tuple[str, str], int]:
    """(observer, event kind) -> positions to check.

    Views before the first tile are too big to enumerate in mini-5 and double-six. A
    spectator's views are small only near the end of a hand there: in mini-5 passes happen
    while it still has 17,160 assignments or more, and in double-six it is not checked (mini-3
    has every kind for it).
    """
    out = {}
    for observer in OBSERVERS:
        if observer == "spectator" and variant is DOUBLE_SIX:
            continue
        kinds = SPECTATOR_KINDS if observer == "spectator" else SEAT_KINDS
        for kind in kinds:
            if variant.name != "mini-3" and kind in BEFORE_THE_FIRST_TILE:
                continue
            if variant.name == "mini-5" and observer == "spectator" and "passed" in kind:
                continue
            out[(observer, kind)] = 1
    return out


CONDITIONS = {
    "mini-5": {"can_follow": 6, "can_follow at an own pass": 2},
    "mini-3": {"can_follow": 6, "can_follow at an own pass": 1, "leads_highest": 4},
    "partnership-6": {},
}
"""Positions with each disjunction pending (inference.parts) that must be among those checked.
"at an own pass": right after the observer's own pass that follows a play."""


@pytest.fixture(params=MINIS, ids=[v.name for v in MINIS])
def mini(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Variant:
    monkeypatch.setitem(VARIANTS, request.param.name, request.param)
    return request.param


# --------------------------------------------------------------------------- the brute force
def _assignments(unseen: list[Tile], counts: dict[str, int]) -> Iterator[dict]:
    """Every way to hand the unseen tiles to the holders with these counts."""
    holders = list(counts)

    def rec(i: int, left: list[Tile]):
        if i == len(holders) - 1:
            yield {holders[i]: tuple(left)}
            return
        for chosen in itertools.combinations(left, counts[holders[i]]):
            rest = [t for t in left if t not in chosen]
            for tail in rec(i + 1, rest):
                yield {holders[i]: chosen, **tail}

    yield from rec(0, unseen)


def _multinomial(n: int, parts: list[int]) -> int:
    out = 1
    for k in parts:
        out *= math.comb(n, k) if 0 <= k <= n else 0
        n -= k
    return out


@dataclass
class Hand:
    """One hand of a referee log, as the rules replay it."""

    variant: Variant
    before: MatchState
    match_started: Event
    events: list[Event]
    _dealt: dict[tuple, MatchState] = field(default_factory=dict)

    def __post_init__(self) -> None:
        started = self.events[0]
        assert isinstance(started, HandStarted)
        self.started = started
        self.at_start = evolve(self.before, started)
        self.moves = [e for e in self.events
                      if e.type in ("tile_played", "passed", "hand_ended")]

    def dealt(self, hands: dict[str, frozenset[Tile]]) -> MatchState:
        """The state after hand_dealt for every seat (prefixes shared between deals)."""
        state, key = self.at_start, ()
        for seat in SEATS:
            key = (*key, hands[seat])
            cached = self._dealt.get(key)
            if cached is None:
                tiles = [str(t) for t in sorted(hands[seat])]
                cached = evolve(state, HandDealt(hand=self.started.hand, seat=seat, tiles=tiles))
                self._dealt[key] = cached
            state = cached
        return state

    def contradiction(self, hands: dict[str, frozenset[Tile]], pool: frozenset[Tile],
                      until: int) -> float:
        """The seq of the first event up to `until` that the rules, dealing `hands` (and
        leaving `pool` face down), would not have produced; inf when there is none."""
        if self.started.hand == 1 and first_leader(hands) != self.started.leader:
            return self.started.seq
        moves = [e for e in self.moves if e.seq <= until]
        if not moves:
            return math.inf
        state = self.dealt(hands)
        for i, event in enumerate(moves):
            if event.type == "hand_ended":
                held = state.hand.hands
                shown = {s: frozenset(parse_tile(t) for t in event.remaining[s]) for s in SEATS}
                face_down = frozenset(parse_tile(t) for t in event.pool)
                if shown != {s: held[s] for s in SEATS} or face_down != pool:
                    return event.seq
                return math.inf
            if event.type == "passed":
                command = PassTurn(event.seat)
            else:
                command = PlayTile(event.seat, parse_tile(event.tile), event.end)
            try:
                produced = decide(state, command)
            except RuleViolation:  # the rules refuse it: not this deal
                return event.seq
            following = moves[i + 1] if i + 1 < len(moves) else None
            # the observer saw whether the hand ended right after this move
            if following is not None and (following.type == "hand_ended") != (len(produced) > 1):
                return following.seq
            state = evolve(state, produced[0])
        return math.inf

    def played_by(self, seq: int) -> dict[str, set[Tile]]:
        played: dict[str, set[Tile]] = {s: set() for s in SEATS}
        for e in self.moves:
            if e.type == "tile_played" and e.seq <= seq:
                played[e.seat].add(parse_tile(e.tile))
        return played

    def own(self, observer: str) -> frozenset[Tile]:
        return next((frozenset(parse_tile(t) for t in e.tiles) for e in self.events
                     if e.type == "hand_dealt" and e.seat == observer), frozenset())

    def unseen(self, observer: str, seq: int) -> tuple[list[Tile], dict[str, int]]:
        """The observer's unseen tiles after event `seq`, and each unknown holder's count."""
        played = self.played_by(seq)
        counts = {s: self.variant.hand_size - len(played[s]) for s in SEATS if s != observer}
        counts[POOL] = self.variant.pool_size
        seen = self.own(observer) | set().union(*played.values())
        return [t for t in self.variant.tiles if t not in seen], counts

    def assignments(self, observer: str, seq: int) -> int:
        unseen, counts = self.unseen(observer, seq)
        return _multinomial(len(unseen), list(counts.values()))

    def brute_force(self, observer: str, start: int, checkpoints: list[int]) -> dict[int, tuple]:
        """(consistent deals, P(holder has tile), unseen tiles, unknown holders) after each
        checkpoint seq >= `start`, from one enumeration of the assignments at `start`, each
        replayed once."""
        unseen, counts = self.unseen(observer, start)
        played = self.played_by(start)
        own = self.own(observer)
        until = max(checkpoints)
        deals: Counter[float] = Counter()
        hits: dict[float, Counter[tuple[str, Tile]]] = {}
        for assignment in _assignments(unseen, counts):
            hands = {s: frozenset(assignment.get(s, ())) | played[s] for s in SEATS}
            if observer in SEATS:
                hands[observer] = own
            first = self.contradiction(hands, frozenset(assignment[POOL]), until)
            deals[first] += 1
            tally = hits.setdefault(first, Counter())
            tally.update((holder, t) for holder, tiles in assignment.items() for t in tiles)
        self._dealt.clear()
        out = {}
        for k in checkpoints:
            gone = set().union(*self.played_by(k).values())
            total = sum(n for first, n in deals.items() if first > k)
            held: Counter[tuple[str, Tile]] = Counter()
            for first, tally in hits.items():
                if first > k:
                    held.update(tally)
            out[k] = (total, {key: Fraction(n, total) for key, n in held.items()
                              if key[1] not in gone},
                      {t for t in unseen if t not in gone},
                      {h for h in counts if h != POOL or self.variant.has_pool})
        return out


def hands_of(variant: Variant, events: list[Event]) -> Iterator[Hand]:
    state = None
    for i, e in enumerate(events):
        if isinstance(e, HandStarted):
            assert isinstance(state, MatchState)
            rest = [x for x in events[i:] if getattr(x, "hand", None) == e.hand]
            yield Hand(variant, state, events[0], rest)
        state = evolve(state, e)


# --------------------------------------------------------------------------- the observers
def kind_of(event: Event, observer: str, last_move: str | None) -> str:
    """The kind of event, from the observer's side (SEAT_KINDS, SPECTATOR_KINDS)."""
    if event.type not in ("tile_played", "passed"):
        return event.type
    whose = "" if observer == "spectator" else ("own" if event.seat == observer else "other")
    if event.type == "tile_played":
        return f"tile_played ({whose})" if whose else "tile_played"
    after = "after a play" if last_move == "tile_played" else "after a pass"
    return f"passed ({whose}, {after})" if whose else f"passed ({after})"


@dataclass
class Seen:
    """The belief right after one event: what the test needs of it."""

    seq: int
    kind: str
    status: str
    condition: str | None
    assignments: int
    deals: int | None = None
    marginals: dict = field(default_factory=dict)


def beliefs(hand: Hand, observer: str, snapshots: set[int] = frozenset()) -> list[Seen]:
    """The observer's belief after every event of the hand where it is live or ended, with
    the exact snapshot at the seqs in `snapshots`."""
    belief = Belief(observer, hand.variant)
    belief.apply(view(hand.match_started, observer))  # the earlier hands change nothing
    seen: list[Seen] = []
    last_move = None
    for event in hand.events:
        belief.apply(view(event, observer))
        kind = kind_of(event, observer, last_move)
        if event.type in ("tile_played", "passed"):
            last_move = event.type
        if belief.status not in ("live", "ended"):
            continue
        condition = belief.condition.kind if belief.condition is not None else None
        s = Seen(event.seq, kind, belief.status, condition,
                 1 if belief.status == "ended" else hand.assignments(observer, event.seq))
        if event.seq in snapshots:
            snap = belief.snapshot()
            s.deals, s.marginals = snap.consistent_deals, snap.marginals
        seen.append(s)
    return seen


@dataclass
class Segment:
    """Positions of one (hand, observer) brute-forced from one enumeration at `start`."""

    hand: Hand
    observer: str
    start: int
    positions: list[Seen]
    cost: float
    """Rough work: assignments times moves replayed for each."""

    @property
    def tags(self) -> list:
        return [tag for s in self.positions for tag in _tags(self.observer, s)]

    def check(self) -> None:
        seqs = [s.seq for s in self.positions]
        truth = self.hand.brute_force(self.observer, self.start, seqs)
        for s in beliefs(self.hand, self.observer, set(seqs)):
            if s.seq in truth:
                _compare(s, truth[s.seq], self.observer)


def segments(hand: Hand, observer: str) -> list[Segment]:
    """From the first live event with at most REPLAYED assignments to the end of the hand
    (hand_ended included: the deals that end it so, showing those hands); and
    before that, the positions before the first tile with at most UNREPLAYED (there is
    nothing to replay there but who leads)."""
    seen = beliefs(hand, observer)
    first_move = hand.moves[0].seq
    out = []
    late = [s for s in seen
            if s.status == "live" and s.assignments <= REPLAYED[hand.variant.name]]
    if late:
        start = late[0]
        moves = len(hand.moves)
        out.append(Segment(hand, observer, start.seq, [s for s in seen if s.seq >= start.seq],
                           start.assignments * moves))
    early = [s for s in seen if s.seq < first_move and (not late or s.seq < late[0].seq)
             and s.assignments <= UNREPLAYED]
    if early:
        out.append(Segment(hand, observer, early[0].seq, early, early[0].assignments / 20))
    return out


def check_against_the_rules(variant: Variant, seed: int, matches: int, target: int) -> None:
    """Brute-force a few (hand, observer) pairs that cover every required kind of position.

    Every candidate is scanned (the belief folded, no counting by brute force); then the ones
    to replay are picked greedily, most needed positions per unit of work first.
    """
    rng = random.Random(seed)
    need = Counter({**required(variant), **CONDITIONS[variant.name]})
    candidates = [segment
                  for _ in range(matches)
                  for hand in hands_of(variant, random_match_events(rng, variant.name,
                                                                     target=target))
                  for observer in OBSERVERS
                  for segment in segments(hand, observer)]
    while +need:
        best = max(candidates, key=lambda c: _gain(c, need) / c.cost, default=None)
        if best is None or not _gain(best, need):
            pytest.fail(f"{variant.name}: no position of these kinds in {matches} matches: "
                        f"{dict(+need)}")
        best.check()
        need -= Counter(best.tags)
        candidates.remove(best)


def _gain(segment: Segment, need: Counter) -> int:
    """How many of the positions still needed the segment checks."""
    return sum(min(n, need[t]) for t, n in Counter(segment.tags).items())


def _tags(observer: str, s: Seen) -> list:
    tags: list = [(observer, s.kind)]
    if s.condition:
        tags.append(s.condition)
        if s.condition == "can_follow" and s.kind == "passed (own, after a play)":
            tags.append("can_follow at an own pass")
    return tags


def _compare(s: Seen, truth: tuple, observer: str) -> None:
    total, exact, unseen, holders = truth
    where = (observer, s.seq, s.kind)
    if s.status == "ended":  # everything is revealed: exactly the deal shown
        assert total == s.deals == 1, where
        return
    assert s.deals == total, (*where, s.condition)
    assert set(s.marginals) == holders, where
    for holder, column in s.marginals.items():
        assert {parse_tile(n) for n in column} == unseen, where
        for name, p in column.items():
            truth_p = exact.get((holder, parse_tile(name)), Fraction(0))
            assert abs(p - float(truth_p)) < 1e-12, (*where, holder, name)


# --------------------------------------------------------------------------- the tests
def test_exact_belief_equals_the_rules_deal_by_deal(mini: Variant) -> None:
    check_against_the_rules(mini, seed=2026, matches=60, target=40)


def test_double_six_late_positions_equal_the_rules() -> None:
    """No pool: every seat's late views, own and others' passes included."""
    check_against_the_rules(DOUBLE_SIX, seed=6, matches=8, target=60)


def test_the_first_lead_with_or_without_a_double_equals_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every observer through the first hand, whose lead is a double in some matches and,
    with no double dealt, the heaviest tile in others."""
    monkeypatch.setitem(VARIANTS, LEAD.name, LEAD)
    rng = random.Random(3)
    firsts: Counter[bool] = Counter()
    pending = 0
    while min(firsts[True], firsts[False]) < 2:
        hand = next(hands_of(LEAD, random_match_events(rng, LEAD.name, target=5)))
        double = parse_tile(hand.moves[0].tile).is_double
        if firsts[double] >= 2:
            continue
        firsts[double] += 1
        for observer in OBSERVERS:
            for segment in segments(hand, observer):
                segment.check()
                pending += sum(s.condition == "leads_highest" for s in segment.positions)
    assert pending >= 8


@pytest.mark.parametrize(("variant", "kind"), [(MINIS[1], "can_follow"),
                                               (MINIS[1], "leads_highest")])
def test_the_sampler_draws_the_parts_uniformly(
    variant: Variant, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chi-square of exact draws against the deal-by-deal counts, where a condition holds."""
    monkeypatch.setitem(VARIANTS, variant.name, variant)
    rng = random.Random(7)
    for _ in range(40):
        events = random_match_events(rng, variant.name, target=40)
        for hand in hands_of(variant, events):
            for observer in OBSERVERS:
                belief = Belief(observer, variant)
                belief.apply(view(hand.match_started, observer))
                for event in hand.events:
                    belief.apply(view(event, observer))
                    if belief.condition is None or belief.condition.kind != kind:
                        continue
                    if hand.assignments(observer, event.seq) > REPLAYED[variant.name]:
                        continue
                    total = hand.brute_force(observer, event.seq, [event.seq])[event.seq][0]
                    if not 5 <= total <= 1200:
                        continue
                    draw = DealSampler.of(belief)
                    draws = 40 * total
                    seen = Counter(
                        tuple(sorted((h, tuple(ts)) for h, ts in draw(rng).items() if h != POOL))
                        for _ in range(draws)
                    )
                    assert len(seen) == total  # every consistent deal drawn, nothing else
                    expected = draws / total
                    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
                    # df = total - 1; mean df, sd sqrt(2 df): 5 sd above the mean fails
                    assert chi2 < (total - 1) + 5 * (2 * (total - 1)) ** 0.5, chi2
                    return
    pytest.fail(f"no small position with a pending {kind} condition was found")
