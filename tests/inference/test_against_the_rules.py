"""The belief against the rules themselves, by brute force, in a small variant with a pool.

Every assignment of the observer's unseen tiles is replayed through games.dominoes.rules: it counts
when the rules, given those hands, produce exactly the events the observer saw — the logged
leader holds the highest double dealt, every play is accepted and ends the hand exactly when
the log says so, every pass is legal. The exact engine must give the same count and the same
marginals. A brute force over `Position`s cannot catch a rule the belief forgot to model
("the hand went on after that play, so it was not blocked"); this one can.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from games.dominoes.audience import view
from games.dominoes.commands import PassTurn, PlayTile
from games.dominoes.errors import RuleViolation
from games.dominoes.events import Event, HandDealt, HandStarted
from games.dominoes.rules import decide, evolve
from games.dominoes.selfplay import random_match_events
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, Tile, parse_tile
from games.dominoes.variants import VARIANTS, Variant
from inference.belief import Belief
from inference.classes import POOL
from inference.sampler import DealSampler

MINIS = (
    Variant("mini-5", max_pip=5, hand_size=3),  # 21 tiles, 9 face down: hides whole ends
    Variant("mini-3", max_pip=3, hand_size=2),  # 10 tiles, 2 face down: small at the deal
)
MAX_DEALS = {"mini-5": 2000, "mini-3": 2600}
"""Positions with more unconstrained assignments than this are not brute-forced (mini-3:
just enough for a seat's view between the deal and the first play)."""
QUOTA = {
    "mini-5": {"plain": 12, "can_follow": 8},
    "mini-3": {"plain": 12, "can_follow": 8, "leads_highest": 6},
}
"""Positions checked per variant, by the disjunction pending there (in mini-5 the views
before the first play are too large to brute-force)."""


@pytest.fixture(params=MINIS, ids=[v.name for v in MINIS])
def mini(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Variant:
    monkeypatch.setitem(VARIANTS, request.param.name, request.param)
    return request.param


def _assignments(unseen: list[Tile], counts: dict[str, int]):
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


def _consistent(before: MatchState, hand_events: list[Event], hands: dict[str, set[Tile]],
                seen_to: int) -> bool:
    """Whether the rules, dealing `hands`, produce the hand's events up to seq `seen_to`."""
    started = hand_events[0]
    assert isinstance(started, HandStarted)
    if started.hand == 1:
        top = max(t for tiles in hands.values() for t in tiles if t.is_double)
        if top not in hands[started.leader]:
            return False
    state = evolve(before, started)
    for seat in SEATS:
        state = evolve(state, HandDealt(hand=started.hand, seat=seat,
                                        tiles=[str(t) for t in sorted(hands[seat])]))
    moves = [e for e in hand_events[1:] if e.type in ("tile_played", "passed", "hand_ended")]
    for i, event in enumerate(moves):
        if event.seq > seen_to or event.type == "hand_ended":
            break
        if event.type == "passed":
            command = PassTurn(event.seat)
        else:
            command = PlayTile(event.seat, parse_tile(event.tile), event.end)
        try:
            produced = decide(state, command)
        except RuleViolation:  # the rules refuse it: not this deal
            return False
        following = moves[i + 1] if i + 1 < len(moves) else None
        # the observer saw whether the hand ended right after this play
        seen_end = following is not None and following.seq <= seen_to
        if seen_end and (following.type == "hand_ended") != (len(produced) > 1):
            return False
        state = evolve(state, produced[0].model_copy(update={"seq": event.seq}))
    return True


def brute_force(
    variant: Variant, events: list[Event], seq: int, observer: str
) -> tuple[int, dict]:
    """(consistent deals, P(holder has tile)) after event `seq`, deal by deal."""
    start = max(i for i, e in enumerate(events) if e.type == "hand_started" and e.seq <= seq)
    before = None
    for e in events[:start]:
        before = evolve(before, e)
    assert isinstance(before, MatchState)
    hand_events = [e for e in events[start:]
                   if getattr(e, "hand", None) == events[start].hand]
    played: dict[str, set[Tile]] = {s: set() for s in SEATS}
    for e in hand_events:
        if e.type == "tile_played" and e.seq <= seq:
            played[e.seat].add(parse_tile(e.tile))
    dealt = {e.seat: {parse_tile(t) for t in e.tiles} for e in hand_events
             if e.type == "hand_dealt"}
    own = dealt.get(observer, set())
    counts = {s: variant.hand_size - len(played[s]) for s in SEATS if s != observer}
    counts[POOL] = variant.pool_size
    seen = own | set().union(*played.values())
    unseen = [t for t in variant.tiles if t not in seen]
    total = 0
    hits: Counter[tuple[str, Tile]] = Counter()
    for assignment in _assignments(unseen, counts):
        hands = {s: set(assignment.get(s, ())) | played[s] for s in SEATS}
        if observer in SEATS:
            hands[observer] = set(own)
        if not _consistent(before, hand_events, hands, seq):
            continue
        total += 1
        for holder, tiles in assignment.items():
            for t in tiles:
                hits[(holder, t)] += 1
    return total, {key: Fraction(n, total) for key, n in hits.items()}


def _positions(variant: Variant, rng: random.Random, matches: int):
    """(referee log, seq, observer, belief) at live positions small enough to brute-force."""
    for _ in range(matches):
        events = random_match_events(rng, variant.name, target=40)
        for observer in ("S", "spectator"):
            belief = Belief(observer)
            for e in events:
                belief.apply(view(e, observer))
                if belief.status != "live":
                    continue
                position = belief.position()
                free = len(position.allowed)
                deals = 1
                for n in position.counts:
                    deals *= _choose(free, n)
                    free -= n
                if deals <= MAX_DEALS[variant.name]:
                    yield events, e.seq, observer, belief


def _choose(n: int, k: int) -> int:
    from math import comb

    return comb(n, k) if 0 <= k <= n else 0


def test_exact_belief_equals_the_rules_deal_by_deal(mini: Variant) -> None:
    rng = random.Random(2026)
    checked = Counter[str]()
    quota = QUOTA[mini.name]
    for events, seq, observer, belief in _positions(mini, rng, matches=40):
        kind = belief.condition.kind if belief.condition else "plain"
        if checked[kind] >= quota.get(kind, 0):
            if checked == quota:
                break
            continue
        total, exact = brute_force(mini, events, seq, observer)
        snap = belief.snapshot()
        assert snap.consistent_deals == total, (observer, seq)
        for holder, column in snap.marginals.items():
            for name, p in column.items():
                truth = exact.get((holder, parse_tile(name)), Fraction(0))
                assert abs(p - float(truth)) < 1e-12, (observer, seq, holder, name)
        checked[kind] += 1
    # the positions that need the disjunctions were there, not only plain ones
    assert checked == quota, checked


@pytest.mark.parametrize(("variant", "kind"), [(MINIS[1], "can_follow"),
                                               (MINIS[1], "leads_highest")])
def test_the_sampler_draws_the_parts_uniformly(
    variant: Variant, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chi-square of exact draws against the deal-by-deal counts, where a condition holds."""
    monkeypatch.setitem(VARIANTS, variant.name, variant)
    rng = random.Random(7)
    for events, seq, observer, belief in _positions(variant, rng, matches=40):
        if belief.condition is None or belief.condition.kind != kind:
            continue
        total, _ = brute_force(variant, events, seq, observer)
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
