"""Texas 42's advisor (games.advice): the bidding oracle while bidding, PIMC while playing.

Pure functions of the asking seat's own view (events as that seat saw them). Budgets are
work, never time: the oracle solves N = 150 completions and play advice N = 150 deals, each to
the end, with samplers seeded from the position (the seat, what it holds, the public plays),
so the same position gives the same figures at a table, in a replay and on any machine. The
server's wall clock (`seconds`) only decides when it gives up with `busy`; it never changes a
figure, and the server's per-request seed is not used.

- Bidding (and naming trump, for the seat that won the bid): seed 003's oracle
  (games.texas42.oracle) for that seat's seven dominoes: per trump x bid level P_dd(make)
  (double-dummy) and P_greedy(make) (greedy bidders against clairvoyant defenders) with Wilson
  intervals, the dd score's mean, quantiles, robustness gap and CVaR, the stability flag.
  Every number is labelled with its completion model and evaluator.
- Playing: each legal domino's value over deals drawn exactly from the seat's belief (voids
  included), each solved with every hand open: double-dummy per deal, like dominoes' advice.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterator, Sequence
from typing import Any

from games.advice import AdviceRefused
from games.interface import JSON
from games.texas42.belief import MODEL as BELIEF_MODEL
from games.texas42.belief import Texas42Belief
from games.texas42.dominoes import INDEX, SEATS, TOTAL_POINTS, team_of
from games.texas42.events import BidMade, Played, TrumpNamed, parse_event
from games.texas42.greedy import choose_play
from games.texas42.models import (
    BIDS_GREEDY,
    BIDS_GREEDY_LABEL,
    ModelUnlikely,
    conditioned_completions,
)
from games.texas42.oracle import (
    COMPLETION_MODEL,
    N_DEFAULT,
    cache_key,
    oracle_steps,
    position_seed,
    solver,
    wilson,
)
from games.texas42.rules import forced_to_bid, legal_tiles, to_act
from games.texas42.scoring import legal_bids, needed
from games.texas42.solver import hands_of
from games.texas42.state import State
from games.texas42.suits import trump_name
from inference.sampler import sample_deal

PLAY_LABEL = ("double-dummy estimate per deal: deals drawn uniformly from those consistent with "
              f"this seat's view ({BELIEF_MODEL}), each solved with all hands open (not a bound "
              "on real play either way)")
PLAY_EVALUATOR = "double-dummy solver per sampled deal (PIMC)"
BID_LABEL = ("seed 003's bidding oracle: P_dd from the double-dummy solver with trump fixed "
             "before aggregation, P_greedy from greedy bidders against clairvoyant defenders; "
             "completions uniform given this seat's hand, the bids ignored")
PLAY_N = 150
Z95 = 1.959963984540054


class Texas42Advisor:
    """games.advice.Advisor for Texas 42 (plain object: pickles by class)."""

    models = ("uniform", BIDS_GREEDY)
    """`bids:greedy` conditions the oracle's completions on the bids so far
    (games.texas42.models); play advice is the same under both (its belief ignores bids)."""
    seconds = 120.0
    """Only the server's give-up bound (it answers `busy` past it): the oracle's N = 150
    completions take several seconds of CPU (52 s of wall time in a niced worker on a
    machine at load 14), and the figures never depend on this."""
    replay_seconds = 120.0

    def check(self, state: State, seat: str) -> None:
        if state is None or state.phase not in ("bidding", "trump", "playing"):
            raise AdviceRefused("wrong_phase", "no hand is being bid or played")
        turn = to_act(state)
        if turn != seat:
            raise AdviceRefused("not_your_turn", f"advice is for the seat to move ({turn})")
        if state.phase == "playing" and state.nello:
            raise AdviceRefused("wrong_phase", "no play advice in a nello hand: the solver "
                                               "plays four-seat tricks only")

    def advise(self, view: Sequence[JSON], seat: str, seed: int, seconds: float,
               model: str = "uniform") -> JSON:
        return advise(view, seat, model=model)

    def position_key(self, view: Sequence[JSON], seat: str, model: str = "uniform"
                     ) -> str | None:
        return position_key(view, seat, model)

    def advise_steps(self, view: Sequence[JSON], seat: str, seed: int, seconds: float,
                     model: str = "uniform") -> Iterator[JSON]:
        """games.advice.advise_steps: the oracle's table every PROGRESS_EVERY completions."""
        return advice_steps(view, seat, model=model, every=PROGRESS_EVERY)

    def decision(self, event: Any) -> str | None:
        if isinstance(event, BidMade | TrumpNamed | Played):
            return event.seat
        return None

    def verdict(self, advice: JSON, event: Any) -> JSON:
        return verdict(advice, event)


ADVISOR = Texas42Advisor()


def fold(view: Sequence[JSON], seat: str) -> Texas42Belief:
    belief = Texas42Belief(seat)
    for data in view:
        belief.apply(parse_event(data))
    return belief


ADVICE_VERSION = 1
"""Changes whenever the same position would give another payload (part of `position_key`)."""


def position_key(view: Sequence[JSON], seat: str, model: str = "uniform",
                 oracle_n: int = N_DEFAULT, play_n: int = PLAY_N) -> str | None:
    """The name of the advice `advise(view, seat, ...)` returns (games.advice.position_key):
    every figure is drawn from samplers seeded by the position, so the payload is a function
    of what this names. At a bid or the trump it starts with the oracle's own `cache_key`
    (games.texas42.oracle: the seat, its hand, the completion model with the bids it is
    conditioned on, N), then a digest of the rest of the payload's inputs (the phase, the high
    bid, whether the seat must bid, the table's options); in play, the play sampler's seed
    (`play_seed`: the seat's dominoes, the contract and every play). None where `advise`
    refuses."""
    state = fold(view, seat).state
    if state is None or state.phase not in ("bidding", "trump", "playing"):
        return None
    if to_act(state) != seat:
        return None
    if state.phase == "playing":
        if state.nello:
            return None
        return f"t42play{ADVICE_VERSION}-{play_seed(state, seat, play_n):016x}-{model}"
    hand = sorted(state.hands.get(seat) or ())
    label = COMPLETION_MODEL
    if model == BIDS_GREEDY:
        label = bids_label(state.bids)
    rest = [ADVICE_VERSION, model, state.phase, seat, state.dealer, state.high_bid,
            forced_to_bid(state, seat) if state.phase == "bidding" else None,
            state.options.nello, state.options.dealer_must_bid]
    digest = hashlib.sha256(repr(rest).encode()).hexdigest()[:16]
    return f"{cache_key(hand, seat, label, oracle_n)}-{digest}"


def bids_label(bids: Sequence[tuple[str, int]]) -> str:
    """The completion model `bids:greedy` names for these bids so far (part of the seed)."""
    return f"{BIDS_GREEDY_LABEL}; bids: " + (", ".join(
        f"{s} {b or 'pass'}" for s, b in bids) or "none yet")


PROGRESS_EVERY = 25
"""Completions between two partial oracle tables (`advice_steps`): 5 before the answer at
N = 150."""
PARTIAL_CELL_LABELS = ("completion_model", "evaluator", "lower_evaluator")
"""Left out of a partial table's cells (the table itself carries them): half its size."""


def advise(view: Sequence[JSON], seat: str, oracle_n: int = N_DEFAULT,
           play_n: int = PLAY_N, model: str = "uniform") -> JSON:
    """The advice for `seat` now (see the module docstring) under the completion `model`."""
    *_, last = advice_steps(view, seat, oracle_n, play_n, model)
    return last


def advice_steps(view: Sequence[JSON], seat: str, oracle_n: int = N_DEFAULT,
                 play_n: int = PLAY_N, model: str = "uniform",
                 every: int | None = None) -> Iterator[JSON]:
    """`advise`'s answer as it grows: at a bid or the trump, the payload with the oracle's
    partial table after every `every` completions (games.texas42.oracle.oracle_steps: over
    the first k of the answer's completions, so the intervals narrow toward the answer;
    `partial` true, the cells without their labels), then the answer itself (the same
    completions, the same figures as `advise`); in play, the answer only. `every` None: the
    answer only."""
    belief = fold(view, seat)
    state = belief.state
    if state is None or state.phase not in ("bidding", "trump", "playing"):
        raise AdviceRefused("wrong_phase", "no hand is being bid or played")
    if to_act(state) != seat:
        raise AdviceRefused("not_your_turn", "advice is for the seat to move")
    if state.phase == "playing":
        if state.nello:
            raise AdviceRefused("wrong_phase", "no play advice in a nello hand: the solver "
                                               "plays four-seat tricks only")
        yield {**play_advice(belief, seat, play_n), "model": model}
        return
    hand = sorted(state.hands.get(seat) or ())
    out: JSON = {"kind": "bid" if state.phase == "bidding" else "trump", "seat": seat,
                 "label": BID_LABEL, "model": model}
    if state.phase == "bidding":
        out["high_bid"] = state.high_bid
        out["legal_bids"] = legal_bids(state.high_bid, forced_to_bid(state, seat))
    if state.options.nello:
        out["note"] = "nello is not evaluated: the oracle solves four-seat tricks only"
    if model == BIDS_GREEDY:
        bids = [(s, b) for s, b in state.bids]
        label = bids_label(bids)
        try:
            deals = conditioned_completions(
                hand, seat, [(s, b) for s, b in bids if s != seat], oracle_n,
                random.Random(position_seed(hand, seat, label, oracle_n)), state.dealer,
                state.options.dealer_must_bid)
        except ModelUnlikely as unlikely:
            out.pop("high_bid", None)
            out.pop("legal_bids", None)
            out.update(oracle=None, note=f"{unlikely}: no table under {BIDS_GREEDY}")
            yield out
            return
        steps = oracle_steps(hand, seat, n=oracle_n, every=every or oracle_n, deals=deals,
                             model=label)
    else:
        steps = oracle_steps(hand, seat, n=oracle_n, every=every or oracle_n)
    for table in steps:
        if table["N"] < oracle_n:
            yield {**out, "oracle": partial(table), "partial": True}
        else:
            yield {**out, "oracle": table}


def partial(table: JSON) -> JSON:
    """A partial oracle table as streamed: its cells without the labels the table carries."""
    cells = {trump: {level: {k: v for k, v in c.items() if k not in PARTIAL_CELL_LABELS}
                     for level, c in row.items()} for trump, row in table["cells"].items()}
    return {**table, "cells": cells}


def play_seed(state: State, seat: str, n: int) -> int:
    """The deal sampler's seed: the position (the seat, its dominoes, the contract, every
    play of the hand in order), never the clock or the request."""
    plays = [f"{s}:{t}" for trick in state.tricks for s, t in trick]
    plays += [f"{s}:{t}" for s, t in state.trick]
    own = " ".join(str(t) for t in sorted(state.hands.get(seat) or ()))
    text = (f"texas42-play:{seat}:{own}:{state.bidder}:{state.high_bid}:{state.trump}:"
            f"{state.leader}:{','.join(plays)}:{n}")
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def play_advice(belief: Texas42Belief, seat: str, n: int = PLAY_N) -> JSON:
    """Each legal domino: the seat's team's mean points at the hand's end and the share of
    deals in which the bidders make their bid, over n deals drawn from the seat's belief."""
    state, position = belief.state, belief.position()
    assert state is not None and position is not None and state.trump is not None
    rng = random.Random(play_seed(state, seat, n))
    legal = legal_tiles(state, seat)
    own = state.hands.get(seat) or frozenset()
    bidder, bid = state.bidder, state.high_bid
    assert bidder is not None
    team, bidders = team_of(seat), team_of(bidder)
    taken = dict(state.points)
    to_share = TOTAL_POINTS - taken["NS"] - taken["EW"]
    leader = SEATS.index(state.trick[0][0]) if state.trick else SEATS.index(state.leader)
    trick = tuple((SEATS.index(s), INDEX[t]) for s, t in state.trick)
    totals: dict[int, list[int]] = {INDEX[t]: [] for t in legal}
    makes: dict[int, int] = dict.fromkeys(totals, 0)
    deals = 1 if len(legal) == 1 else n
    for _ in range(deals):
        drawn = sample_deal(position, rng)
        hands = hands_of([own if s == seat else drawn[s] for s in SEATS])
        values = solver(state.trump).move_values(hands, leader, trick)
        for index, ns in values.items():
            points = {"NS": taken["NS"] + ns, "EW": taken["EW"] + to_share - ns}
            totals[index].append(points[team])
            makes[index] += points[bidders] >= needed(bid)
    moves: list[JSON] = []
    for tile in legal:
        scores = totals[INDEX[tile]]
        count = len(scores)
        mean = sum(scores) / count
        sd = (math.sqrt(sum((s - mean) ** 2 for s in scores) / (count - 1)) if count > 1
              else math.inf)
        half = Z95 * sd / math.sqrt(count)
        moves.append({"tile": str(tile), "team_points": round(mean, 3),
                      "ci": [_finite(mean - half), _finite(mean + half)],
                      "p_bid_made": round(makes[INDEX[tile]] / count, 4),
                      "p_bid_made_CI": [round(x, 4) for x in wilson(makes[INDEX[tile]], count)],
                      "samples": count})
    moves.sort(key=lambda m: -m["team_points"])
    greedy = choose_play(seat, legal, state.trick, state.trump)
    return {"kind": "play", "seat": seat, "label": PLAY_LABEL, "evaluator": PLAY_EVALUATOR,
            "completion_model": BELIEF_MODEL, "team": team, "bidder": bidder, "bid": bid,
            "trump": trump_name(state.trump), "deals": deals, "moves": moves,
            "greedy": str(greedy),
            "note": "team_points: your team's points at the end of the hand, mean over the "
                    "deals; p_bid_made: share of deals in which the bidders make their bid"}


def _finite(x: float) -> float | None:
    return round(x, 3) if math.isfinite(x) else None


def verdict(advice: JSON, event: Any) -> JSON:
    """Where the move `event` made stands in `advice` (games.advice.Advisor.verdict)."""
    if isinstance(event, Played):
        moves = advice.get("moves", [])
        rank = next((i + 1 for i, m in enumerate(moves) if m["tile"] == event.tile), None)
        return {"played": {"kind": "play", "tile": event.tile}, "rank": rank}
    oracle = advice.get("oracle") or {}
    cells = oracle.get("cells", {})
    if isinstance(event, TrumpNamed):
        means = oracle.get("score_means", {})
        order = sorted(means, key=lambda t: -means[t])
        rank = order.index(event.trump) + 1 if event.trump in order else None
        return {"played": {"kind": "trump", "trump": event.trump}, "rank": rank}
    if isinstance(event, BidMade):
        trump = oracle.get("trump")
        played: JSON = ({"kind": "pass"} if event.bid == 0
                        else {"kind": "bid", "bid": event.bid})
        cell = cells.get(trump, {}).get(str(event.bid)) if event.bid else None
        return {"played": played, "rank": None, "trump": trump, "cell": cell}
    return {"played": None, "rank": None}
