"""Duplicate tournaments between two bot teams: mirrored deals, parallel matches, a report.

Pair p plays two matches with the same deal seeds (hand n of either match is dealt from
sha256("seed:p:n")): team A sits on the variant's first side in the first match and on the
second in the other — NS then EW in partnership, S then N for two players (a "team" is then
one bot) — so luck of the deal cancels out, as in duplicate bridge. Matches run in worker
processes.

Intervals (95%): the win rate's comes from the per-pair scores (0, ½ or 1 for team A) —
the two matches of a pair share their deals, so they are not independent; with fewer than
two pairs, or no spread between pairs, the Wilson interval over matches is given instead.
Points per hand: mean and normal interval over all hands played, hands taken as independent.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from games.dominoes.strategy.bots import make_bot
from games.dominoes.strategy.play import play_match
from games.dominoes.tiles import Seat, Side
from games.dominoes.variants import DEFAULT_VARIANT, get_variant
from games.intervals import Z95, win_rate_interval


@dataclass(frozen=True)
class MatchSpec:
    pair: int
    swapped: bool
    """False: team A sits on the first side (NS, or S); True: on the second (EW, or N)."""
    team_a: str
    team_b: str
    seed: int
    target: int = 100
    variant: str = DEFAULT_VARIANT
    options: dict[str, dict[str, object]] = field(default_factory=dict)
    """Per bot name, keyword options for make_bot (e.g. {'pimc': {'nodes': 60000}})."""

    @property
    def team_a_side(self) -> Side:
        return get_variant(self.variant).sides[1 if self.swapped else 0]

    @property
    def team_b_side(self) -> Side:
        return get_variant(self.variant).sides[0 if self.swapped else 1]

    def bot_at(self, seat: Seat) -> str:
        side = get_variant(self.variant).side_of(seat)
        return self.team_a if side == self.team_a_side else self.team_b


@dataclass(frozen=True)
class MatchOutcome:
    pair: int
    swapped: bool
    a_won: bool
    hands: int
    a_points: tuple[int, ...]
    """Points team A scored in each hand."""
    b_points: tuple[int, ...]
    a_ms: tuple[float, ...]
    b_ms: tuple[float, ...]
    hand_seeds: tuple[str, ...]


def hand_seed(seed: int, pair: int, hand: int) -> str:
    """The deal seed of hand `hand` in both matches of pair `pair`."""
    return hashlib.sha256(f"{seed}:{pair}:{hand}".encode()).hexdigest()


def run_match(spec: MatchSpec) -> MatchOutcome:
    """Play one match of a pair (in a worker process)."""
    bots = {
        s: make_bot(
            spec.bot_at(s),
            seed=f"{spec.seed}:{spec.pair}:{int(spec.swapped)}:{s}",
            **spec.options.get(spec.bot_at(s), {}),
        )
        for s in get_variant(spec.variant).seats
    }
    result = play_match(
        bots,
        lambda n: hand_seed(spec.seed, spec.pair, n),
        target=spec.target,
        variant=spec.variant,
        match_id=f"t{spec.seed}-{spec.pair}-{'b' if spec.swapped else 'a'}",
    )
    a_side, b_side = spec.team_a_side, spec.team_b_side
    rules = get_variant(spec.variant)
    a_seats = [s for s in rules.seats if rules.side_of(s) == a_side]
    b_seats = [s for s in rules.seats if rules.side_of(s) == b_side]
    return MatchOutcome(
        pair=spec.pair,
        swapped=spec.swapped,
        a_won=result.winner == a_side,
        hands=result.hands,
        a_points=tuple(p[a_side] for p in result.hand_points),
        b_points=tuple(p[b_side] for p in result.hand_points),
        a_ms=tuple(ms for s in a_seats for ms in result.decision_ms[s]),
        b_ms=tuple(ms for s in b_seats for ms in result.decision_ms[s]),
        hand_seeds=tuple(hand_seed(spec.seed, spec.pair, n) for n in range(1, result.hands + 1)),
    )


def specs(
    team_a: str,
    team_b: str,
    matches: int,
    seed: int,
    target: int = 100,
    options: dict[str, dict[str, object]] | None = None,
    variant: str = DEFAULT_VARIANT,
) -> list[MatchSpec]:
    """The mirrored schedule: `matches` must be even (pairs of matches)."""
    if matches < 2 or matches % 2:
        raise ValueError("matches must be a positive even number (mirrored pairs)")
    get_variant(variant)  # an unknown name fails here, not in a worker
    return [
        MatchSpec(p, swapped, team_a, team_b, seed, target, variant, options or {})
        for p in range(matches // 2)
        for swapped in (False, True)
    ]


def run(
    schedule: list[MatchSpec],
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[MatchOutcome]:
    """Play every match, in `workers` processes (1: in this process); results in order."""
    workers = workers or os.cpu_count() or 1
    done: list[MatchOutcome] = []
    if workers == 1:
        for spec in schedule:
            done.append(run_match(spec))
            if progress:
                progress(len(done), len(schedule))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_match, spec) for spec in schedule]
            for future in as_completed(futures):
                done.append(future.result())
                if progress:
                    progress(len(done), len(schedule))
    return sorted(done, key=lambda o: (o.pair, o.swapped))


def _mean_ci(xs: list[float]) -> tuple[float, tuple[float, float]]:
    n = len(xs)
    if n == 0:
        return 0.0, (0.0, 0.0)
    mean = sum(xs) / n
    if n < 2:
        return mean, (mean, mean)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return mean, (mean - half, mean + half)


def _pair_scores(outcomes: list[MatchOutcome], team_a: bool) -> list[float]:
    """Each mirrored pair's score for a team: 0, ½ or 1."""
    by_pair: dict[int, list[bool]] = {}
    for o in outcomes:
        by_pair.setdefault(o.pair, []).append(o.a_won == team_a)
    return [sum(w) / len(w) for w in by_pair.values()]


def _pair_sd(outcomes: list[MatchOutcome], team_a: bool = True) -> float:
    """Spread of a team's per-pair scores (what `tournament --combine` pools runs with)."""
    scores = _pair_scores(outcomes, team_a)
    if len(scores) < 2:
        return 0.0
    mean = sum(scores) / len(scores)
    return math.sqrt(sum((x - mean) ** 2 for x in scores) / (len(scores) - 1))


def _percentile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    ordered = sorted(xs)
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def report(
    outcomes: list[MatchOutcome], team_a: str, team_b: str, variant: str = DEFAULT_VARIANT
) -> dict:
    """The tournament's figures, JSON-ready (the shape `tournament --json` prints)."""
    n = len(outcomes)

    def side(is_a: bool) -> dict:
        wins = sum(o.a_won == is_a for o in outcomes)
        points = [p for o in outcomes for p in (o.a_points if is_a else o.b_points)]
        ms = [t for o in outcomes for t in (o.a_ms if is_a else o.b_ms)]
        ppm, ppm_ci = _mean_ci([float(p) for p in points])
        pair_sd = _pair_sd(outcomes, is_a)
        lo, hi = win_rate_interval(wins, n, len({o.pair for o in outcomes}), pair_sd)
        p50, p95 = _percentile(ms, 0.5), _percentile(ms, 0.95)
        return {
            "bot": team_a if is_a else team_b,
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "pair_sd": round(pair_sd, 6),
            "points_per_hand": round(ppm, 3),
            "points_per_hand_ci95": [round(ppm_ci[0], 3), round(ppm_ci[1], 3)],
            "decisions": len(ms),
            "decision_ms_p50": None if p50 is None else round(p50, 2),
            "decision_ms_p95": None if p95 is None else round(p95, 2),
        }

    return {
        "variant": variant,
        "matches": n,
        "pairs": len({o.pair for o in outcomes}),
        "hands": sum(o.hands for o in outcomes),
        "a": side(True),
        "b": side(False),
    }
