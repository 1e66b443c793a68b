"""Exact inference per update vs the seed's references (rejection, enumeration, constrained).

Every position of --matches random matches (games.dominoes.selfplay), for each seat and for the
spectator, in both variants: the time of one update of the exact engine (apply the event,
then a full snapshot: propagation, counting with the shared cache, marginals, facts).
On a random subsample of live positions per group (--ref-positions) the same position is
also solved by the exact DP without its cache, by the seed's rejection sampler (§7.1, 10,000
samples), by enumeration (§8, within a node budget) and by the constrained sampler (§7.2):
their time ratio against the uncached DP and their max |error| against the exact marginals.
On the first --seed-positions of those (default 20: it is slow) the seed's §7.1 sampler as
the seed writes it (pure Python shuffle-and-cut, `rejection_seed`) is timed too.

`--variant V` for any other registered variant (another game's too), and `--two-player`
(block-2 and draw-2): only the per-update times, through the game interface (matches of the
game's random bots; apply + snapshot_dict, as the server's belief workers), beside
partnership-6's in the same run, with their ratios for the same view.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from clients.bench.dp_misses import BAND, REPEATS, MissLog, MissRecorder, report
from clients.table_options import add_table_options, chosen_options
from games.dominoes.audience import Audience, view
from games.dominoes.belief_partnership import Belief
from games.dominoes.selfplay import random_match_events
from games.dominoes.tiles import SEATS
from games.interface import SPECTATOR, Game, VariantInfo, match_seats, table_seats
from games.play import play_match
from games.registry import GAMES
from inference.classes import Position
from inference.counting import count_key, marginals, solve_key
from inference.references import (
    BudgetExceeded,
    SamplerGaveUp,
    constrained,
    enumerate_deals,
    rejection,
    rejection_seed,
)

VARIANTS = ("partnership-6", "partnership-9")
TWO_PLAYER = ("partnership-6", "block-2", "draw-2")
"""--two-player: the two-player variants beside the double-six reference."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matches", type=int, default=1000, help="random matches per variant")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--target", type=int, default=100, help="points to win a match")
    parser.add_argument("--samples", type=int, default=10_000, help="rejection/constrained")
    parser.add_argument("--ref-positions", type=int, default=100,
                        help="positions per group solved by the references (random subsample)")
    parser.add_argument("--seed-positions", type=int, default=20,
                        help="positions per group also solved by the literal (pure Python) "
                        "§7.1 sampler: the first of the reference positions")
    parser.add_argument("--seed-attempts", type=int, default=200_000,
                        help="the literal §7.1 sampler gives up after this many partitions")
    parser.add_argument("--enum-budget", type=int, default=200_000,
                        help="enumeration gives up after this many nodes")
    parser.add_argument("--variant", action="append",
                        help="only this variant (repeatable; default both partnership ones). "
                        "Any other registered variant (block-2, draw-2, another game's): "
                        "per-update times only, beside partnership-6")
    parser.add_argument("--two-player", action="store_true",
                        help="per-update times only: partnership-6, block-2 and draw-2")
    parser.add_argument("--misses", action="store_true",
                        help="with the per-update times: the count's cache misses of each "
                        "variant's slowest spectator updates, solved again cold "
                        "(clients/bench/dp_misses.py)")
    add_table_options(parser)  # for the other game's variants, e.g. --variant clue --players 5


@runtime_checkable
class GroupsPositions(Protocol):
    """A belief that names the kind of position it is in (Uno: "4+ draws", "after a
    reshuffle"), so its costly updates get rows of their own beside the whole view's."""

    def bench_group(self) -> str | None: ...


@dataclass
class Group:
    """Timings of one (variant, seat|spectator) group and its reservoir of positions."""

    updates: list[float] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)
    live: int = 0
    reservoir: list[Position] = field(default_factory=list)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _median(values: list[float], failed: int = 0) -> float:
    """Median with `failed` runs counted as longer than any finished one (inf if most did)."""
    ordered = sorted(values) + [math.inf] * failed
    if not ordered:
        return math.nan
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _max_error(exact: dict, estimate: dict) -> float:
    return max((abs(estimate[h][t] - p) for h, col in exact.items() for t, p in col.items()),
               default=0.0)


def _fold(groups: dict[tuple[str, str], Group], variant: str, events: list,
          rng: random.Random, keep: int) -> None:
    observers: tuple[Audience, ...] = (*SEATS, "spectator")
    for observer in observers:
        group = groups[(variant, "spectator" if observer == "spectator" else "seat")]
        belief = Belief(observer)
        cpu, wall = time.thread_time, time.perf_counter
        for event in events:
            seen = view(event, observer)
            start, start_wall = cpu(), wall()
            belief.apply(seen)
            belief.snapshot()
            group.updates.append(cpu() - start)
            group.walls.append(wall() - start_wall)
            if belief.status == "live" and belief.position().allowed:
                group.live += 1
                if len(group.reservoir) < keep:
                    group.reservoir.append(belief.position())
                else:
                    j = rng.randrange(group.live)
                    if j < keep:
                        group.reservoir[j] = belief.position()


def _references(group: Group, args: argparse.Namespace, rng: random.Random) -> dict:
    out: dict[str, list] = {k: [] for k in ("dp", "rej_t", "rej_e", "rej_fail", "enum_t",
                                            "enum_e", "enum_fail", "con_e", "con_fail",
                                            "seed_dp", "seed_t", "seed_e", "seed_x",
                                            "seed_fail")}
    clock = time.thread_time
    for i, position in enumerate(group.reservoir):
        key = position.key()
        start = clock()
        solve_key.__wrapped__(key)
        dp = clock() - start
        out["dp"].append(dp)
        exact = marginals(position)
        if i < args.seed_positions:
            out["seed_dp"].append(dp)
            start = clock()
            try:
                estimate = rejection_seed(position, rng, samples=args.samples,
                                          max_attempts=args.seed_attempts)
                out["seed_t"].append(clock() - start)
                out["seed_x"].append(out["seed_t"][-1] / dp)
                out["seed_e"].append(_max_error(exact, estimate.marginals))
            except SamplerGaveUp:
                out["seed_fail"].append(position)
        start = clock()
        try:
            estimate = rejection(position, rng, samples=args.samples, max_attempts=2_000_000)
            out["rej_t"].append(clock() - start)
            out["rej_e"].append(_max_error(exact, estimate.marginals))
        except SamplerGaveUp:
            out["rej_fail"].append(position)
        start = clock()
        try:
            estimate = enumerate_deals(position, budget=args.enum_budget)
            out["enum_t"].append(clock() - start)
            out["enum_e"].append(_max_error(exact, estimate.marginals))
        except BudgetExceeded:
            out["enum_fail"].append(position)
        try:
            estimate = constrained(position, rng, samples=args.samples, max_attempts=2_000_000)
            out["con_e"].append(_max_error(exact, estimate.marginals))
        except SamplerGaveUp:
            out["con_fail"].append(position)
    return out


def bot_match_events(game: Game, variant: str, rng: random.Random, target: int,
                     chosen: dict[str, Any] | None = None) -> list[Any]:
    """One match of the game's random bots (or its first bot), seeded, with the table
    options `chosen` (Clue's players)."""
    info = game.variants()[variant]
    bots = game.bots()
    bot = bots.get("random") or next(iter(bots.values()))
    options = dict(info.options)
    if "target" in options:
        options["target"] = target
    options.update(chosen or {})
    seats = table_seats(game, variant, options)
    return play_match(game, variant, dict.fromkeys(seats, bot), rng, options)


def _fold_times(game: Game, variant: str, events: list[Any],
                updates: dict[str, list[float]], misses: MissRecorder | None = None,
                missed: MissLog | None = None) -> None:
    """Apply + snapshot at every event, for every observer, through the game interface (what
    the server's belief workers do), in CPU time of the thread; a belief that names its kind
    of position (GroupsPositions) also files the update under "view, kind". With `misses`,
    the spectator's updates go to `missed` with the keys the count missed on."""
    seats = match_seats(game, events[0])
    clock = time.thread_time
    for observer in (*seats, SPECTATOR):
        belief = game.belief(observer, variant)
        kind = "spectator" if observer == SPECTATOR else "seat"
        times = updates[kind]
        grouped = belief if isinstance(belief, GroupsPositions) else None
        for event in events:
            seen = game.view(event, observer)
            if misses is not None and missed is not None and observer == SPECTATOR:
                spent, keys = misses.timed(functools.partial(_update, belief, seen), clock)
                missed.updates.append((spent, keys))
            else:
                start = clock()
                belief.apply(seen)
                belief.snapshot_dict()
                spent = clock() - start
            times.append(spent)
            named = grouped.bench_group() if grouped is not None else None
            if named:
                updates.setdefault(f"{kind}, {named}", []).append(spent)


def _update(belief: Any, seen: Any) -> None:
    belief.apply(seen)
    belief.snapshot_dict()


def _declared_options(args: argparse.Namespace, info: VariantInfo) -> dict[str, Any]:
    """The command line's table options for `info`, `--target` and `--players` only where it
    declares them: `--target` defaults to 100 for dominoes, and one run may bench `clue
    --players 6` beside draw-2."""
    given = argparse.Namespace(**vars(args))
    for name in ("target", "players"):
        if info.option(name) is None:
            setattr(given, name, None)
    return chosen_options(given, info)


def run_per_update(args: argparse.Namespace, variants: list[str]) -> int:
    """Per-update times of any registered variants' beliefs beside partnership-6's, in one run
    (matches interleaved, so the machine's load falls on all of them alike)."""
    rng = random.Random(args.seed)
    names = ["partnership-6", *(v for v in variants if v != "partnership-6")]
    times: dict[str, dict[str, list[float]]] = {v: {"seat": [], "spectator": []}
                                                for v in names}
    chosen = {v: {} if v == "partnership-6" else _declared_options(args, GAMES.variant(v))
              for v in names}  # the reference row plays its defaults
    missed = {v: MissLog() for v in names}
    with contextlib.ExitStack() as stack:
        recorder = stack.enter_context(MissRecorder().installed()) if args.misses else None
        for _ in range(args.matches):
            for variant in names:
                game = GAMES.game_of_variant(variant)
                _fold_times(game, variant,
                            bot_match_events(game, variant, rng, args.target, chosen[variant]),
                            times[variant], recorder, missed[variant])
    ms = 1e3
    width = max(10, *(len(k) + 2 for groups in times.values() for k in groups))
    head = (f"{'variant':<14}{'view':<{width}}{'updates':>9}{'p50 ms':>10}{'p99 ms':>10}"
            f"{'x p6 p50':>10}{'x p6 p99':>10}")
    lines = [head, "-" * len(head)]
    for variant, groups in times.items():
        for kind, values in groups.items():
            ref = times["partnership-6"][kind.split(",")[0]]
            p50, p99 = _pct(values, 0.5), _pct(values, 0.99)
            lines.append(f"{variant:<14}{kind:<{width}}{len(values):>9}{p50 * ms:>10.3f}"
                         f"{p99 * ms:>10.3f}{p50 / _pct(ref, 0.5):>10.2f}"
                         f"{p99 / _pct(ref, 0.99):>10.2f}")
    options = "; ".join(f"{v} " + ", ".join(f"{k}={x}" for k, x in c.items())
                        for v, c in chosen.items() if c)
    print(f"inference bench (per update): {args.matches} matches per variant of the games' "
          f"random bots, seed {args.seed}, target {args.target} where the game has one"
          + (f"; table options: {options}" if options else ""))
    print("\n".join(lines))
    print("updates: apply + snapshot_dict at every event, every seat and the spectator, "
          "through the game interface (as the server's belief workers), CPU time of the "
          "thread; x p6: the ratio to partnership-6's figure for the same view (the same "
          "run, so the same load on the machine). A view \"seat, K\" or \"spectator, K\": the same "
          "view's updates at positions its belief names as kind K (Uno: 4+ draws, after a "
          "reshuffle), also counted in the view's own row.")
    if args.misses:
        print(f"\nthe spectator's updates from the {BAND[0]:.1%} to the {BAND[1]:.1%} "
              "percentile: the keys the count missed on, solved again with its caches cold "
              f"(best of {REPEATS}, variants interleaved; CPU time; ref: partnership-6)")
        print("\n".join(report(missed, "partnership-6")))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.two_player:
        return run_per_update(args, list(TWO_PLAYER))
    unknown = [v for v in args.variant or () if v not in GAMES.variants()]
    if unknown:
        raise SystemExit(f"unknown variant(s) {unknown} (known: {', '.join(GAMES.variants())})")
    if args.variant and not set(args.variant) <= set(VARIANTS):
        return run_per_update(args, args.variant)
    rng = random.Random(args.seed)
    variants = args.variant or list(VARIANTS)
    groups = {(v, o): Group() for v in variants for o in ("seat", "spectator")}
    started = time.perf_counter()
    for variant in variants:
        for _ in range(args.matches):
            events = random_match_events(rng, variant, target=args.target)
            _fold(groups, variant, events, rng, args.ref_positions)
    fold_seconds = time.perf_counter() - started
    cache = count_key.cache_info()
    ms = 1e3
    head = (f"{'variant':<14}{'view':<10}{'updates':>9}{'p50 ms':>8}{'p99 ms':>8}{'wall99':>8}"
            f" | {'refs':>4}{'DP ms':>7} | {'rej ms':>8}{'x DP':>7}{'max err':>8}{'fail':>5}"
            f" | {'enum':>7}{'x DP':>8}{'max err':>8} | {'constr err':>10}"
            f" | {'seed':>4}{'DP ms':>7}{'seed ms':>9}{'x DP':>7}{'med x':>7}{'max err':>8}"
            f"{'fail':>5}")
    lines = [head, "-" * len(head)]
    for (variant, kind), group in groups.items():
        ref = _references(group, args, rng)
        dp = statistics.median(ref["dp"]) if ref["dp"] else float("nan")
        rej = _median(ref["rej_t"], len(ref["rej_fail"]))
        seed_fail = len(ref["seed_fail"])
        seed_dp = _median(ref["seed_dp"])
        seed = _median(ref["seed_t"], seed_fail)
        seed_x = _median(ref["seed_x"], seed_fail)
        enum = statistics.median(ref["enum_t"]) if ref["enum_t"] else float("nan")
        done = f"{len(ref['enum_t'])}/{len(group.reservoir)}"
        lines.append(
            f"{variant:<14}{kind:<10}{len(group.updates):>9}"
            f"{_pct(group.updates, 0.5) * ms:>8.3f}{_pct(group.updates, 0.99) * ms:>8.3f}"
            f"{_pct(group.walls, 0.99) * ms:>8.3f}"
            f" | {len(group.reservoir):>4}{dp * ms:>7.3f}"
            f" | {rej * ms:>8.1f}{rej / dp:>7.0f}{max(ref['rej_e'], default=0):>8.4f}"
            f"{len(ref['rej_fail']):>5}"
            f" | {done:>7}{enum / dp:>8.1f}{max(ref['enum_e'], default=float('nan')):>8.1e}"
            f" | {max(ref['con_e'], default=0):>10.4f}"
            f" | {len(ref['seed_dp']):>4}{seed_dp * ms:>7.3f}{seed * ms:>9.1f}"
            f"{seed / seed_dp:>7.0f}{seed_x:>7.0f}{max(ref['seed_e'], default=0):>8.4f}"
            f"{seed_fail:>5}"
        )
    print(f"inference bench: {args.matches} matches per variant, seed {args.seed}, "
          f"{args.samples} samples, enumeration budget {args.enum_budget} nodes; "
          f"folding took {fold_seconds:.0f} s; DP cache hits {cache.hits}, misses "
          f"{cache.misses}")
    print("\n".join(lines))
    print("updates: apply + snapshot (cached DP) at every position; p50/p99 in CPU time of the "
          "thread (robust to other load on the machine), wall99 = wall-clock p99. refs: random "
          "live positions per group; DP ms = uncached DP median there; x DP = median CPU time / "
          "DP median; fail = rejection gave up after 2,000,000 draws; enum = finished/tried; "
          f"constr err = worst |error| of the constrained sampler ({args.samples:,} samples); "
          "max err nan: no position finished. seed: the first "
          f"{args.seed_positions} reference positions per group, also run through the seed's "
          "§7.1 sampler as written (pure Python shuffle-and-cut, --method rejection-seed), "
          f"giving up after {args.seed_attempts:,} partitions; DP ms = uncached DP median on "
          "those; x DP = median time / DP median; med x = median per-position ratio. Medians "
          "of the samplers count a position where they gave up as slower than every other.")
    return 0
