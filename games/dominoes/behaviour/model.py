"""A player model for dominoes: how likely a seat was to make the play it made, given its hand.

The model `behaviour:greedy`: a seat holding hand H picks legal move j with probability P(j | H,
    public history) = exp(β·s_j) / Σ_k exp(β·s_k) where s are the greedy bot's scores
    (games.dominoes.greedy.score_moves) of the moves legal with H, and β ≥ 0 (the inverse
    temperature) is fitted per player by maximum likelihood
    (games.dominoes.behaviour.temperature). β = 0 is a player choosing uniformly among its legal
    moves (the random bot, exactly); large β is the greedy bot. Passes and draws are forced by
    the hand, so they weigh 1 in every deal consistent with them (the uniform belief already
    counts that).

Every factor depends on one seat's hand only, so the likelihood of a whole deal is a product
over seats of a function of that seat's hand: `HandLikelihood` computes, for a hypothetical
current hand of a seat, the log-likelihood of all its plays so far in the hand, caching per
(decision, hand at that decision), which every observer of the hand shares.

Draw-2: the tiles a seat drew are in no other observer's view, so its hand at a play made
before its latest draw is not a function of the current deal. Those plays are left out of the
likelihood (they weigh 1, as in the uniform belief); the plays made since each seat's latest
draw are weighed (`HandLikelihood.draws`). It is the posterior given part of the evidence:
still a proper model, labelled the same, weaker than one that tracked every draw.

`observed_decisions` builds a hand's decisions from one observer's own view (a seat's or the
spectator's) with nothing else: what the pimc-behaviour bot and the live odds request use, so
neither can see a hidden tile. The public part of a decision (PublicScore) needs no hand.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from games import behaviour
from games.dominoes.events import HandStarted, TilePlayed, TilesDrawn
from games.dominoes.greedy import known_voids, score_moves
from games.dominoes.rules import evolve, lead_tile, legal_moves
from games.dominoes.seat_view import SeatView
from games.dominoes.tiles import Seat, Tile, as_seat, parse_tile, partner_of

MODEL = "behaviour:greedy"
LABEL = ("behaviour:greedy: each seat plays legal move j with probability ∝ exp(β·greedy "
         "score of j), β fitted per player by maximum likelihood on the stored matches; "
         "deals weighted by the likelihood of every play seen (importance-weighted exact "
         "uniform samples)")


NotModelled = behaviour.NotModelled
"""A game, variant or position the behaviour model does not cover."""


def softmax_log_prob(scores: Sequence[float], chosen: Sequence[int], beta: float) -> float:
    """ln Σ_{j in chosen} exp(β s_j) − ln Σ_k exp(β s_k), computed stably: each sum
    relative to its own largest term, so a chosen move scored far below the best (β = 30
    and a gap of 25 points in double-nine: exp(−750) is 0.0 in floats) is very unlikely,
    not a math domain error."""
    top = max(scores)
    total = sum(math.exp(beta * (s - top)) for s in scores)
    best = max(scores[j] for j in chosen)
    hit = sum(math.exp(beta * (scores[j] - best)) for j in chosen)
    return beta * (best - top) + math.log(hit) - math.log(total)


def chosen_indices(moves: Sequence[Any], tile: Tile, end: str | None) -> list[int]:
    """The legal moves the logged play is: the tile at its end (any end when none is named)."""
    return [j for j, m in enumerate(moves) if m.tile == tile and (end is None or m.end == end)]


@dataclass(frozen=True)
class Decision:
    """One play of the hand, as its seat saw the table just before it."""

    ordinal: int
    """Its place among the hand's plays (0, 1, ...)."""
    index: int
    """Its index in the match's events."""
    seat: Seat
    player: str
    tile: Tile
    end: str | None
    view: SeatView
    """The seat's own view just before the play (its own hand included)."""

    def scored(self, hand: frozenset[Tile]) -> tuple[list[float], list[int]]:
        """Greedy's scores of the moves legal with `hand` here, and which of them was made."""
        state = self.view.state
        assert state is not None and state.hand is not None
        if not state.hand.line and state.hand.number == 1:
            # a match's first tile is forced (the lead tile of the leader's hand): no choice
            if lead_tile(hand) != self.tile:
                raise ValueError(f"{self.tile} is not the lead tile of {sorted(hand)}")
            return [0.0], [0]
        return self.public.scored(hand, self.tile, self.end)

    @cached_property
    def public(self) -> PublicScore:
        return PublicScore.of(self.view)

    def scored_by_greedy(self, hand: frozenset[Tile]) -> tuple[list[float], list[int]]:
        """`scored` through games.dominoes.greedy itself, on a copy of the view holding `hand`."""
        state = self.view.state
        assert state is not None and state.hand is not None
        view = copy.copy(self.view)
        view.state = replace(state, hand=replace(state.hand, hands={**state.hand.hands,
                                                                      self.seat: hand}))
        moves = legal_moves(view.state, self.seat)
        chosen = chosen_indices(moves, self.tile, self.end)
        if not chosen:
            raise ValueError(f"{self.tile} is not a legal play from {sorted(hand)}")
        return score_moves(view, moves), chosen


@dataclass(frozen=True)
class PublicScore:
    """games.dominoes.greedy.score_moves split in two: what the seat's hand does not change (its
    voids, the partner's shown values and end, the tiles played, the open ends) computed once
    per play, and the arithmetic over a hypothetical hand done per hand. The same numbers as
    score_moves on a line in play (tests/calibration check it on every play of real matches);
    it exists because the behaviour belief scores thousands of hypothetical hands per play."""

    left: int
    right: int
    """The open ends; both −1 before the first tile (every tile opens, showing both values)."""
    partnership: bool
    voids_next: frozenset[int]
    voids_prev: frozenset[int]
    voids_partner: frozenset[int]
    partner_shown: frozenset[int]
    partner_end: str | None
    unseen_not_played: tuple[int, ...]
    """Per value, the tiles showing it that are not on the table (the seat's own included)."""

    @classmethod
    def of(cls, view: SeatView) -> PublicScore:
        state = view.state
        assert state is not None and state.hand is not None
        hand, variant, seat = state.hand, state.variant, as_seat(view.seat)
        opp_next = variant.next_seat(seat)
        partner = partner_of(seat) if variant.partnership else None
        opp_prev = partner_of(opp_next) if variant.partnership else None
        voids = known_voids(view, hand, variant.seats)
        played = hand.played
        unseen = [0] * (variant.max_pip + 1)
        for t in variant.tiles:
            if t not in played:
                unseen[t.low] += 1
                if t.high != t.low:
                    unseen[t.high] += 1
        shown: set[int] = set()
        partner_end: str | None = None
        if partner is not None:
            plays = view.plays()
            for play in plays:
                if play.seat == partner:
                    t = parse_tile(play.tile)
                    shown.update((t.low, t.high))
            covered: set[str | None] = set()
            for play in reversed(plays):
                if play.seat == seat:
                    break
                if play.seat == partner:
                    if play.end is not None and play.end not in covered:
                        partner_end = play.end
                    break
                covered.add(play.end)
        left = -1 if hand.left is None else hand.left
        right = -1 if hand.right is None else hand.right
        return cls(left, right, partner is not None, frozenset(voids[opp_next]),
                   frozenset(voids[opp_prev]) if opp_prev else frozenset(),
                   frozenset(voids[partner]) if partner else frozenset(), frozenset(shown),
                   partner_end, tuple(unseen))

    def scored(self, hand: frozenset[Tile], tile: Tile, end: str | None
               ) -> tuple[list[float], list[int]]:
        left, right = self.left, self.right
        unseen = list(self.unseen_not_played)
        held = [0] * len(unseen)  # per value, the tiles of `hand` showing it
        for t in hand:
            held[t.low] += 1
            if t.high != t.low:
                held[t.high] += 1
        for v, n in enumerate(held):
            unseen[v] -= n
        scores: list[float] = []
        chosen: list[int] = []
        opening = left < 0
        for t in sorted(hand):
            if opening:
                ats: list[str | None] = [None]
            else:
                ats = []
                if left == t.low or left == t.high:
                    ats.append("left")
                if right == t.low or right == t.high:
                    ats.append("right")
            for at in ats:
                if t == tile and (end is None or at == end):
                    chosen.append(len(scores))
                if opening:
                    ends = (t.low, t.high)
                elif at == "left":
                    ends = (t.other(left), right)
                else:
                    ends = (left, t.other(right))
                s = 6.0 if t.low == t.high else 0.0
                s += 0.3 * (t.low + t.high)
                for v in ends:
                    if v in self.voids_next:
                        s += 4
                    if self.partnership:
                        if v in self.voids_prev:
                            s += 3
                        if v in self.voids_partner:
                            s -= 3
                        elif v in self.partner_shown:
                            s += 1.5
                    s += held[v] - (1 if v == t.low or v == t.high else 0)  # the rest of the hand
                    s += 0.5 * (7 - unseen[v])
                if self.partner_end is not None and at == self.partner_end and t.low != t.high:
                    s -= 2
                scores.append(s)
        if not chosen:
            raise ValueError(f"{tile} is not a legal play from {sorted(hand)}")
        return scores, chosen


def hand_decisions(events: Sequence[Any], start: int, stop: int,
                   players: Mapping[str, str]) -> list[Decision]:
    """Every play in events[start:stop] (one hand: from its hand_started), with each seat's
    view just before it (folded from the referee log through the seat's own redaction)."""
    seats = list(players)
    views = {s: SeatView(s) for s in seats}
    for event in events[:start]:
        for v in views.values():
            v.apply(event)
    decisions: list[Decision] = []
    for index in range(start, stop):
        event = events[index]
        if isinstance(event, TilePlayed):
            before = copy.copy(views[event.seat])
            before.events = list(before.events)
            decisions.append(Decision(len(decisions), index, event.seat, players[event.seat],
                                      parse_tile(event.tile), event.end, before))
        for v in views.values():
            v.apply(event)
    return decisions


@dataclass
class HandLikelihood:
    """The log-likelihood of a seat's plays in one hand as a function of its hand, cached."""

    decisions: list[Decision]
    betas: Mapping[str, float]
    """Player name -> β (a name not listed: the `default` β)."""
    default: float = 0.0
    draws: Sequence[tuple[int, str]] = ()
    """(event index, seat) of each draw in the hand (draw-2): a seat's plays before its
    latest draw are left out of the likelihood (module docstring)."""
    _cache: dict[tuple[int, frozenset[Tile]], float] = field(default_factory=dict)
    evaluations: int = 0

    def beta(self, player: str) -> float:
        return self.betas.get(player, self.default)

    def log_prob(self, decision: Decision, hand: frozenset[Tile]) -> float:
        """ln P(the logged play | the seat held `hand` just before it)."""
        key = (decision.ordinal, hand)
        known = self._cache.get(key)
        if known is None:
            self.evaluations += 1
            scores, chosen = decision.scored(hand)
            known = self._cache[key] = softmax_log_prob(scores, chosen,
                                                        self.beta(decision.player))
        return known

    def log_weight(self, deal: Mapping[str, Sequence[Tile]], upto: int,
                   observer: str) -> float:
        """ln Π P(play | hand) over the plays before event index `upto` by the seats `deal`
        names (the observer's own plays weigh the same in every deal: left out). `deal`:
        each such seat's hand now; its hand at an earlier play adds the tiles it has played
        since."""
        total = 0.0
        later: dict[str, set[Tile]] = {}
        drew: dict[str, int] = {}  # seat -> index of its latest draw before `upto`
        for index, seat in self.draws:
            if index < upto:
                drew[seat] = max(drew.get(seat, -1), index)
        for decision in reversed(self.decisions):
            if decision.index >= upto or decision.seat == observer:
                continue
            if decision.index < drew.get(decision.seat, -1):
                continue  # its hand then held tiles drawn since, which nobody saw
            held = deal.get(decision.seat)
            if held is None:
                continue
            since = later.setdefault(decision.seat, set())
            since.add(decision.tile)
            total += self.log_prob(decision, frozenset(held) | since)
        return total


def hand_draws(events: Sequence[Any], start: int, stop: int) -> list[tuple[int, str]]:
    """(event index, seat) of every draw in events[start:stop] (draw-2; none elsewhere)."""
    return [(i, events[i].seat) for i in range(start, stop) if isinstance(events[i], TilesDrawn)]


def observed_decisions(view: SeatView, players: Mapping[str, str] | None = None
                       ) -> tuple[list[Decision], list[tuple[int, str]]]:
    """The current hand's plays and draws as `view`'s own observer saw them (indices into
    `view.events`). Each decision's view is the observer's own fold up to the play, named
    for the mover (PublicScore reads only public facts from it; the mover's hand there is
    whatever the observer knows of it, which `scored` never reads). `players`: seat ->
    player name (default: the match_started's)."""
    events = view.events
    start = len(events) - len(view.hand_events())
    if players is None:
        first = events[0] if events else None
        players = dict(getattr(first, "players", None) or {})
    fold = SeatView(view.seat, view.audience)
    for event in events[:start]:
        fold.apply(event)
    decisions: list[Decision] = []
    for index in range(start, len(events)):
        event = events[index]
        if isinstance(event, TilePlayed) and event.seat != view.seat:
            before = copy.copy(fold)
            before.events = list(fold.events)
            before.seat = event.seat
            before._belief = None
            decisions.append(Decision(len(decisions), index, event.seat,
                                      players.get(event.seat, event.seat),
                                      parse_tile(event.tile), event.end, before))
        fold.apply(event)
    return decisions, hand_draws(events, start, len(events))


def hands_of(events: Sequence[Any]) -> list[tuple[int, int]]:
    """(start, stop) event indices of each hand: from its hand_started to the next one."""
    starts = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
    return list(zip(starts, [*starts[1:], len(events)], strict=True))


def actual_hand(view: SeatView) -> frozenset[Tile]:
    """The seat's own hand in its view (known to it)."""
    state = view.state
    assert state is not None and state.hand is not None
    return frozenset(state.hand.hands[as_seat(view.seat)] or ())


def referee_state(events: Sequence[Any]) -> Any:
    state = None
    for event in events:
        state = evolve(state, event)
    return state
