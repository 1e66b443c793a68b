"""Dominoes' own tournament as it declares it (games.interface.Tournament): two teams of this
package's bots over mirrored deals, points per hand, decisions timed, in worker processes
(games.dominoes.strategy.tournament), and the pooling of runs (tournament_pool)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.dominoes.strategy.bots import (
    BOTS,
    MINIMAX_DEPTH,
    MINIMAX_NODES,
    PIMC_NODES,
    PIMC_SAMPLES,
    PLAYOUT_SAMPLES,
)
from games.dominoes.strategy.tournament import report, run, specs
from games.dominoes.strategy.tournament_pool import PoolError, pool

JSON = dict[str, Any]
PIMC_LIKE = ("pimc", "pimc-behaviour", "pimc-flat")
"""pimc on the behaviour posterior (and its flat ablation) take pimc's budgets."""
SCENARIO_BOTS = ("playout", "minimax")
"""Seed 001's players: `samples` scenarios a decision; minimax also `nodes` (and its depth)."""


def _count(n: int, one: str, many: str | None = None) -> str:
    """`n` things in words: "1 hand", "2 hands" ("1 match", "3 matches" with `many`)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


class DominoesTournament:
    """`tournament` for dominoes: any of its bots, omniscient and pimc-flat included."""

    bots: tuple[str, ...] = tuple(BOTS)

    def play(self, variant: str, team_a: str, team_b: str, matches: int, seed: int,
             options: Mapping[str, Any], budgets: Mapping[str, float], workers: int,
             progress: Callable[[int, int], None] | None) -> JSON:
        per_bot: dict[str, dict[str, object]] = {
            name: {} for name in (*PIMC_LIKE, "omniscient", *SCENARIO_BOTS)}
        if "nodes" in budgets:
            for name in (*PIMC_LIKE, "omniscient", "minimax"):
                per_bot[name]["nodes"] = int(budgets["nodes"])
        if "samples" in budgets:
            for name in (*PIMC_LIKE, *SCENARIO_BOTS):
                per_bot[name]["samples"] = int(budgets["samples"])
        schedule = specs(team_a, team_b, matches, seed, int(options.get("target", 100)),
                         per_bot, variant)
        outcomes = run(schedule, workers=min(workers, len(schedule)), progress=progress)
        figures = report(outcomes, team_a, team_b, variant)
        figures["budgets"] = budgets_of((team_a, team_b), per_bot)
        return figures

    def describe(self, figures: JSON, seed: int, options: Mapping[str, Any]) -> str:
        lines = [
            f"{figures['variant']}: {_count(figures['matches'], 'match', 'matches')} "
            f"({_count(figures['pairs'], 'mirrored pair')}, {_count(figures['hands'], 'hand')}), "
            f"target {options.get('target', 100)}, seed {seed}"
        ]
        for name, budget in (figures.get("budgets") or {}).items():
            work = ", ".join(f"{v:,} {'deals' if k == 'samples' else k}"
                             for k, v in budget.items())
            lines.append(f"{name}: {work} per decision (work budgets: counted, never timed)")
        for key in ("a", "b"):
            side = figures[key]
            lo, hi = side["ci95"]
            plo, phi = side["points_per_hand_ci95"]
            p50, p95 = side["decision_ms_p50"], side["decision_ms_p95"]
            timing = ("no decisions" if p50 is None
                      else f"decision p50 {p50:.2f} ms, p95 {p95:.2f} ms")
            lines.append(
                f"team {key.upper()} {side['bot']:<10} wins {side['wins']:>4} "
                f"({100 * side['win_rate']:.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)  "
                f"points/hand {side['points_per_hand']:.2f} [{plo:.2f}, {phi:.2f}]  {timing}"
            )
        return "\n".join(lines)

    def pool(self, reports: Sequence[JSON]) -> JSON:
        try:
            return pool(reports)
        except PoolError as error:
            raise ValueError(str(error)) from error


def budgets_of(bots: Sequence[str], per_bot: Mapping[str, Mapping[str, object]]
               ) -> dict[str, dict[str, int]]:
    """The work budgets the thinking bots among `bots` played under (defaults filled in): what
    makes a report reproducible, recorded in it."""
    out: dict[str, dict[str, int]] = {}
    for name in dict.fromkeys(bots):
        given = per_bot.get(name, {})
        if name in PIMC_LIKE:
            out[name] = {"samples": int(str(given.get("samples", PIMC_SAMPLES))),
                         "nodes": int(str(given.get("nodes", PIMC_NODES)))}
        elif name == "omniscient":
            out[name] = {"nodes": int(str(given.get("nodes", PIMC_NODES)))}
        elif name == "playout":
            out[name] = {"samples": int(str(given.get("samples", PLAYOUT_SAMPLES)))}
        elif name == "minimax":
            out[name] = {"samples": int(str(given.get("samples", PLAYOUT_SAMPLES))),
                         "depth": int(str(given.get("depth", MINIMAX_DEPTH))),
                         "nodes": int(str(given.get("nodes", MINIMAX_NODES)))}
    return out


TOURNAMENT = DominoesTournament()
