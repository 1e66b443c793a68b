"""Texas 42's advisor (games.advice): the bidding oracle while bidding, PIMC while playing.

Pure functions of the asking seat's own view (events as that seat saw them) and a seed; the
caller's wall-clock budget is the only clock, read between solved deals.

- Bidding (and naming trump, for the seat that won the bid): seed 003's oracle
  (games.texas42.oracle) for that seat's seven dominoes: per trump x bid level P_upper(make)
  with its Wilson interval, mean and quantiles, the robustness gap, P_lower from the greedy
  policy, the fusion gap and the stability flag; sequential sampling until the recommended
  trump's intervals are narrow enough or the budget ends. Every number is labelled with its
  completion model and evaluator.
- Playing: each legal domino's value over deals drawn exactly from the seat's belief (voids
  included), each solved with every hand open: optimistic, like dominoes' advice.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.advice import AdviceRefused
from games.interface import JSON
from games.texas42.belief import MODEL as BELIEF_MODEL
from games.texas42.belief import Texas42Belief
from games.texas42.dominoes import INDEX, SEATS, TOTAL_POINTS, team_of
from games.texas42.events import BidMade, Played, TrumpNamed, parse_event
from games.texas42.greedy import choose_play
from games.texas42.oracle import bidding_oracle, wilson
from games.texas42.rules import forced_to_bid, legal_tiles, to_act
from games.texas42.scoring import legal_bids, needed
from games.texas42.solver import OutOfNodes, Solver, mask_of
from games.texas42.state import State
from games.texas42.suits import trump_name
from inference.sampler import sample_deal

PLAY_LABEL = ("optimistic perfect-information estimate: deals drawn uniformly from those "
              f"consistent with this seat's view ({BELIEF_MODEL}), each solved with all hands "
              "open")
PLAY_EVALUATOR = "perfect-information solver per sampled deal (PIMC; optimistic)"
BID_LABEL = ("seed 003's bidding oracle: P_upper from the perfect-information solver with trump "
             "fixed before aggregation (optimistic), P_lower from the greedy policy "
             "(pessimistic); completions uniform given this seat's hand, the bids ignored")
NODES_PER_SECOND = 400_000
"""A cautious solver speed (the bench's is ~1.5 M/s on an idle core): a deal's search is
cut off at this many plays per second left, so a slow deal cannot overrun the budget."""
Z95 = 1.959963984540054


class Texas42Advisor:
    """games.advice.Advisor for Texas 42 (plain object: pickles by class)."""

    seconds = 5.0
    """Live tables: the oracle solves every trump per completion (about 1-4 s of CPU), so it
    needs more than dominoes' 0.8 s to say anything; its answer names its N and why it
    stopped. A completion the budget cannot finish is left out (the first is always solved)."""
    replay_seconds = 2.0
    """Replays: a hand's verdicts (a bid, the trump, seven plays) are computed one after
    another, one at a time per server, so each gets less."""

    def check(self, state: State, seat: str) -> None:
        if state is None or state.phase not in ("bidding", "trump", "playing"):
            raise AdviceRefused("wrong_phase", "no hand is being bid or played")
        turn = to_act(state)
        if turn != seat:
            raise AdviceRefused("not_your_turn", f"advice is for the seat to move ({turn})")
        if state.phase == "playing" and state.nello:
            raise AdviceRefused("wrong_phase", "no play advice in a nello hand: the solver "
                                               "plays four-seat tricks only")

    def advise(self, view: Sequence[JSON], seat: str, seed: int, seconds: float) -> JSON:
        deadline = time.monotonic() + seconds
        return advise(view, seat, random.Random(seed), lambda: time.monotonic() < deadline,
                      lambda: max(0.0, deadline - time.monotonic()))

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


def advise(view: Sequence[JSON], seat: str, rng: random.Random, go_on: Callable[[], bool],
           left: Callable[[], float] = lambda: math.inf) -> JSON:
    """The advice for `seat` now (see the module docstring). `go_on()` says whether there is
    time for another deal; `left()` is the seconds left (a bound on one deal's search)."""
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
        return play_advice(belief, seat, rng, go_on, left)
    hand = sorted(state.hands.get(seat) or ())
    oracle = bidding_oracle(hand, seat, rng, batch=1, n_min=20, n_max=200, target_width=0.2,
                            budget=go_on, nodes_left=lambda: _nodes(left()))
    out: JSON = {"kind": "bid" if state.phase == "bidding" else "trump", "seat": seat,
                 "label": BID_LABEL, "oracle": oracle}
    if state.phase == "bidding":
        out["high_bid"] = state.high_bid
        out["legal_bids"] = legal_bids(state.high_bid, forced_to_bid(state, seat))
    if state.options.nello:
        out["note"] = "nello is not evaluated: the oracle solves four-seat tricks only"
    return out


def play_advice(belief: Texas42Belief, seat: str, rng: random.Random,
                go_on: Callable[[], bool], left: Callable[[], float]) -> JSON:
    """Each legal domino: the seat's team's mean points at the hand's end and the share of
    deals in which the bidders make their bid, over the deals solved: the first always, the
    rest while the budget lasts."""
    state, position = belief.state, belief.position()
    assert state is not None and position is not None and state.trump is not None
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
    solved = 0
    while solved == 0 or go_on():
        drawn = sample_deal(position, rng)
        hands = tuple(mask_of(own) if s == seat else mask_of(drawn[s]) for s in SEATS)
        # the first deal is always solved (as the oracle's first completion): an answer
        # ranks every legal domino however loaded the machine; later deals fit the budget
        solver = Solver(state.trump, limit=None if solved == 0 else _nodes(left()))
        try:
            values = solver.move_values(hands, leader, trick)  # type: ignore[arg-type]
        except OutOfNodes:
            break
        solved += 1
        for tile, ns in values.items():
            points = {"NS": taken["NS"] + ns, "EW": taken["EW"] + to_share - ns}
            totals[tile].append(points[team])
            makes[tile] += points[bidders] >= needed(bid)
        if len(legal) == 1:
            break
    moves = []
    for tile in legal:
        scores = totals[INDEX[tile]]
        n = len(scores)
        if n == 0:
            continue
        mean = sum(scores) / n
        sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else math.inf
        half = Z95 * sd / math.sqrt(n)
        moves.append({"tile": str(tile), "team_points": round(mean, 3),
                      "ci": [_finite(mean - half), _finite(mean + half)],
                      "p_bid_made": round(makes[INDEX[tile]] / n, 4),
                      "p_bid_made_CI": [round(x, 4) for x in wilson(makes[INDEX[tile]], n)],
                      "samples": n})
    moves.sort(key=lambda m: -m["team_points"])
    greedy = choose_play(seat, legal, state.trick, state.trump)
    return {"kind": "play", "seat": seat, "label": PLAY_LABEL, "evaluator": PLAY_EVALUATOR,
            "completion_model": BELIEF_MODEL, "team": team, "bidder": bidder, "bid": bid,
            "trump": trump_name(state.trump), "deals": solved, "moves": moves,
            "greedy": str(greedy),
            "note": "team_points: your team's points at the end of the hand, mean over the "
                    "deals; p_bid_made: share of deals in which the bidders make their bid"}


def _nodes(seconds: float) -> int | None:
    """The plays a search may take in `seconds` (None: no limit)."""
    return None if math.isinf(seconds) else max(1, int(seconds * NODES_PER_SECOND))


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
