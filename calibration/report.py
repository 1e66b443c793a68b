"""The calibration report over stored matches: every observer, every position, every model.

For each match (of the chosen variant), each observer (every seat and the spectator) folds
its own view of the log (`Game.view`) into the game's exact belief (`Game.belief`): the
`uniform` model. At every position where someone is to move (the revealer the game declares,
games.revealed) its marginals are scored against who really held each item then. Where the
match's game declares a behaviour model that covers its variant (games.behaviour), that model
is scored at the same positions, its parameters fitted first on the same matches; the two are
compared position by position, with an interval clustered by hand. One behaviour model is
scored per report (`Options.model`; default: the first one the matches' games declare).
Nothing here knows a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from archive.matches import load_match_log, match_ids
from calibration.scores import Scorecard, paired_difference, uncertain_items
from calibration.truth import moments
from games.behaviour import BehaviourModel, Fitted, Weigher
from games.interface import SPECTATOR, Game
from games.registry import GAMES, Registry
from games.revealed import Moment
from inference.weighted import Budget, Weighted
from storage.store import EventStore

UNIFORM = "uniform"


@dataclass
class Options:
    variant: str | None = None
    behaviour: bool = True
    samples: int = 64
    """Importance samples per position."""
    ess_target: float = 0.0
    """Draw more (`samples` at a time) while the ESS is below this ..."""
    max_samples: int = 0
    """... up to this many draws in all."""
    moves: int = 0
    """> 0: resample-move after the draws (inference.weighted.resample_move), this many
    Metropolis proposals per unseen tile for each deal."""
    shrink: float = 1.0
    """Sampled positions: the shown estimate mixes in the uniform belief with weight
    shrink / (shrink + ESS) (inference.weighted)."""
    exact_budget: int = 2000
    """Positions with at most this many consistent deals are listed and weighted exactly."""
    seed: int = 0
    max_matches: int | None = None
    model: str | None = None
    """The behaviour model to score (None: the first one the matches' games declare)."""
    strength: float | None = None
    """How far each player's fit leans on the pooled one (games.behaviour.fit_players: the
    pool worth this many of the player's choices; 0 its own, inf the pool's); None: chosen on
    held-out matches."""

    def budget(self) -> Budget:
        return Budget(self.samples, self.exact_budget, self.ess_target, self.max_samples,
                      self.moves, self.shrink)


@dataclass
class StoredMatch:
    match_id: str
    game: Game
    variant: str
    events: list[Any]
    players: dict[str, str]


@dataclass
class Report:
    variant: str | None
    matches: int = 0
    positions: int = 0
    cards: dict[str, Scorecard] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    behaviour: str | None = None
    """The behaviour model scored, if any."""
    fits: list[dict[str, Any]] = field(default_factory=list)
    shrinkage: dict[str, Any] | None = None
    """How the per-player fits were pulled toward the pool (the strength and why)."""
    behaviour_positions: int = 0
    exact_positions: int = 0
    ess: list[float] = field(default_factory=list)
    stderr_max: list[float] = field(default_factory=list)
    draws: int = 0
    """Importance draws in all (listed positions draw none)."""
    moved: int = 0
    """Sampled positions that were resampled and moved."""
    split: dict[tuple[str, str], Scorecard] = field(default_factory=dict)
    """(listed or sampled, model) -> both models on the positions the behaviour belief was
    listed exactly at, and on the sampled ones: where its calibration comes from."""

    def to_dict(self) -> dict[str, Any]:
        models = {name: {"label": self.labels.get(name, name), **card.to_dict()}
                  for name, card in self.cards.items()}
        out: dict[str, Any] = {"variant": self.variant, "matches": self.matches,
                               "positions": self.positions, "models": models}
        if self.behaviour is not None and self.behaviour in self.cards:
            ess = sorted(self.ess)
            models[self.behaviour]["fits"] = list(self.fits)
            if self.shrinkage is not None:
                models[self.behaviour]["shrinkage"] = self.shrinkage
            models[self.behaviour]["importance"] = {
                "positions": self.behaviour_positions,
                "exact_positions": self.exact_positions,
                "moved_positions": self.moved,
                "ess_median": ess[len(ess) // 2] if ess else None,
                # ESS, draws and errors are of the sampled positions (listed ones are exact)
                "ess_p10": ess[len(ess) // 10] if ess else None,
                "draws_mean": round(self.draws / max(1, len(ess)), 1),
                "stderr_max_median": sorted(self.stderr_max)[len(self.stderr_max) // 2]
                if self.stderr_max else None,
                "by_method": {how: {name: _brief(card) for (h, name), card in
                                    sorted(self.split.items()) if h == how}
                              for how in ("listed", "sampled")},
            }
            out["comparison"] = {
                "log_loss_behaviour_minus_uniform":
                    paired_difference(self.cards[UNIFORM], self.cards[self.behaviour],
                                      cluster=2),
            }
        return out


def _brief(card: Scorecard) -> dict[str, Any]:
    bins = [b.to_dict() for b in card.reliability if b.count]
    return {"positions": card.overall.positions, "items": card.overall.items,
            "log_loss": round(card.overall.log_loss / max(1, card.overall.items), 6),
            "bins_consistent": f"{sum(1 for b in bins if b['consistent'])}/{len(bins)}",
            "reliability": [[b["mean_predicted"], b["observed"], b["count"]] for b in bins]}


def stored_matches(store: EventStore, games: Registry = GAMES, variant: str | None = None,
                   limit: int | None = None) -> list[StoredMatch]:
    """Finished or not, every match of `variant` (every match when None), oldest id first."""
    out = []
    for match_id in sorted(match_ids(store)):
        log = load_match_log(store, match_id, games=games)
        first = log.game.event_to_dict(log.events[0])
        if variant is not None and first.get("variant") != variant:
            continue
        out.append(StoredMatch(match_id, log.game, str(first.get("variant")), log.events,
                               dict(first.get("players") or {})))
        if limit is not None and len(out) >= limit:
            break
    return out


def by_item(marginals: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """holder -> item -> p, turned into item -> holder -> p."""
    out: dict[str, dict[str, float]] = {}
    for holder, row in marginals.items():
        for item, p in row.items():
            out.setdefault(item, {})[holder] = float(p)
    return out


def behaviour_model(matches: Sequence[StoredMatch], name: str | None
                    ) -> BehaviourModel | None:
    """The behaviour model to score: `name` (or the first any match's game declares), if a
    match's game declares it and it covers that match."""
    for match in matches:
        for model_name, model in match.game.capabilities.behaviour.items():
            if (name is None or model_name == name) and model.covers(match.variant):
                return model
    return None


def fit(model: BehaviourModel, matches: Sequence[StoredMatch],
        strength: float | None = None) -> Fitted:
    """The model's parameters from every match it covers."""
    return model.fit([(m.events, m.players) for m in matches if _covered(model, m)], strength)


def _covered(model: BehaviourModel, match: StoredMatch) -> bool:
    return match.game.capabilities.behaviour.get(model.name) is not None \
        and model.covers(match.variant)


def calibrate(store: EventStore, options: Options, games: Registry = GAMES,
              progress: Callable[[int, int], None] | None = None,
              fit_on: EventStore | None = None) -> Report:
    """The report over `store`'s matches; the behaviour model fitted on `fit_on`'s matches
    (of the same variant) when given — an out-of-sample score — else on the scored ones."""
    matches = stored_matches(store, games, options.variant, options.max_matches)
    report = Report(options.variant, matches=len(matches))
    report.cards[UNIFORM] = Scorecard()
    model = behaviour_model(matches, options.model) if options.behaviour else None
    fitted: Fitted | None = None
    if model is not None:
        fitted = fit(model, matches if fit_on is None
                     else stored_matches(fit_on, games, options.variant), options.strength)
        report.fits = list(fitted.summaries)
        report.shrinkage = fitted.shrinkage
        report.behaviour = model.name
        report.cards[model.name] = Scorecard()
        report.labels[model.name] = model.label
    rng = random.Random(options.seed)
    for done, match in enumerate(matches, start=1):
        score_match(match, report, model, fitted, options, rng)
        if progress is not None:
            progress(done, len(matches))
    return report


SCORED = ("live", "exact", "estimate")
"""Snapshot statuses whose odds were shown (dominoes says "live", the other games "exact" or
a labelled "estimate"); not a deal still to come, a match over, or an inconsistent log."""


def _observers(match: StoredMatch) -> list[str]:
    return [*match.game.variants()[match.variant].seats, SPECTATOR]


def score_match(match: StoredMatch, report: Report, model: BehaviourModel | None,
                fitted: Fitted | None, options: Options, rng: random.Random) -> None:
    game = match.game
    at: dict[int, Moment] = {m.index: m for m in moments(game, match.events)}
    with_behaviour = model is not None and fitted is not None and _covered(model, match)
    for observer in _observers(match):
        belief = game.belief(observer, match.variant)
        weigher: Weigher | None = None
        if with_behaviour:
            assert model is not None and fitted is not None
            weigher = model.weigher(match.events, match.players, fitted, observer)
        for index, event in enumerate(match.events):
            seen = game.view(event, observer)
            belief.apply(seen)
            if weigher is not None:
                weigher.apply(seen)
            moment = at.get(index)
            if moment is None:
                continue
            snapshot = belief.snapshot_dict()
            if snapshot.get("status") not in SCORED:
                continue
            reader = game.capabilities.forecasts
            uniform = (reader(snapshot) if reader is not None
                       else by_item(snapshot.get("marginals") or {}))
            report.labels.setdefault(UNIFORM, str(snapshot.get("model") or UNIFORM))
            key = (match.match_id, str(moment.hand), observer, str(index))
            card = report.cards[UNIFORM]
            before = card.overall.positions
            card.add_position(key, moment.move, uniform, moment.holders)
            if card.overall.positions == before:
                continue  # nothing uncertain here
            report.positions += 1
            if weigher is not None:
                assert report.behaviour is not None
                weighted = weigher.weigh(index, snapshot, options.budget(), rng)
                _score_behaviour(report, report.behaviour, weighted, moment, key, uniform)


def _score_behaviour(report: Report, name: str, weighted: Weighted, moment: Moment,
                     key: tuple[str, ...], uniform: dict[str, dict[str, float]]) -> None:
    report.cards[name].add_position(key, moment.move, weighted.marginals, moment.holders,
                                    uncertain_items(uniform))
    how = "listed" if weighted.exact else "sampled"
    for model, forecasts in ((UNIFORM, uniform), (name, weighted.marginals)):
        report.split.setdefault((how, model), Scorecard()).add_position(
            key, moment.move, forecasts, moment.holders, uncertain_items(uniform))
    report.behaviour_positions += 1
    report.exact_positions += weighted.exact
    report.draws += 0 if weighted.exact else weighted.samples
    report.moved += weighted.moved
    if weighted.exact:
        return
    report.ess.append(weighted.ess)
    report.stderr_max.append(max((e for row in weighted.stderr.values() for e in row.values()),
                                 default=0.0))


def summary_lines(result: Mapping[str, Any]) -> list[str]:
    """The report for a person: one line per model, then the comparison."""
    lines = [f"{result['variant'] or 'every variant'}: {result['matches']} matches, "
             f"{result['positions']} positions (every observer, someone to move)"]
    for name, model in result["models"].items():
        lines.append(f"  {name:<18} log loss {model['log_loss']:.4f} nats  Brier "
                     f"{model['brier']:.4f}  over {model['items']} uncertain tile-positions")
        bins = [b for b in model["reliability"] if b["count"]]
        inside = sum(1 for b in bins if b["consistent"])
        lines.append(f"  {'':<18} reliability: {inside} of {len(bins)} bins hold their mean "
                     "prediction inside the Wilson 95% interval")
    behaviour = next((name for name, m in result["models"].items() if "fits" in m), None)
    importance = result["models"].get(behaviour, {}).get("importance")
    if importance and importance["ess_median"] is not None:
        lines.append(f"  {'':<18} {importance['exact_positions']} of {importance['positions']} "
                     f"positions listed exactly; the rest {importance['draws_mean']} draws on "
                     f"average, ESS median {importance['ess_median']:.1f}, "
                     f"10th percentile {importance['ess_p10']:.1f}")
    comparison = result.get("comparison", {}).get("log_loss_behaviour_minus_uniform")
    if comparison:
        low, high = comparison["ci95"]
        lines.append(f"  behaviour − uniform log loss: {comparison['difference']:+.4f} nats "
                     f"[{low:+.4f}, {high:+.4f}] over {comparison['hands']} hands "
                     f"({comparison['positions']} paired positions)")
    fits: Sequence[Mapping[str, Any]] = result["models"].get(behaviour, {}).get("fits", [])
    for f in fits:
        lines.append(f"  β[{f['player']}] = {f['beta']} ± {f['beta_stderr']} "
                     f"({f['choices']} choices{', at the bound' if f['at_bound'] else ''})")
    pull = result["models"].get(behaviour, {}).get("shrinkage")
    if pull:
        why = f": {pull['why']}" if "why" in pull else ""
        lines.append(f"  each player's fit pulled toward the pool with strength "
                     f"{pull['strength']} ({pull['how']}{why})")
    return lines
