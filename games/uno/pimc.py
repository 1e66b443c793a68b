"""A perfect-information Monte Carlo bot over the exact sampler.

Each decision draws DEALS deals from the seat's belief (the opponent's hand and the deck's
contents drawn exactly; the deck's order uniformly), plays every legal move out to the end
with greedy play on both sides in each deal, the same playout seed for every move of a deal
(common random numbers), and keeps greedy's choice unless another move wins at least MARGIN
of the deals more. Bounded: DEALS x moves x one greedy playout of at most PLAYOUT_MOVES moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from games.uno.belief import UnoBelief
from games.uno.blocks import BlockProgramme
from games.uno.bots import fold, greedy_score
from games.uno.commands import Command, Move, PlayCard, Reshuffle
from games.uno.counting import DECK, Programme, _run, state_bound
from games.uno.estimate import Weighted, draw, relaxed
from games.uno.events import UnoEvent
from games.uno.rules import decide, legal_moves
from games.uno.state import UnoState, evolve
from games.uno.variants import other

DEALS = 32
MARGIN = 0.1
"""Leave greedy's choice only for a move ahead by this share of the deals (4 of 32)."""
PLAYOUT_MOVES = 200
SAMPLE_TRIES = 30
"""Rejection proposals per deal before falling back to the relaxed count."""
SOURCES = {
    "exact": "exact draws from the count of every consistent deal",
    "blocks": "exact draws from the block count of every consistent deal",
    "weighted": "resampled by weight from importance-weighted walks through the history "
                "(an estimate of the belief)",
    "rejection": "exact draws by rejection from a relaxed count",
    "relaxed": "draws from a relaxed count that drops some 'nothing to play' checks (wider "
               "than the belief, still holding the truth)",
}
"""Where Sampler's worlds come from, in words."""


class Sampler:
    """Draws referee states consistent with a seat's view from its belief, the counting
    built once per decision: exactly, by counting.Programme or blocks.BlockProgramme within
    their budgets (UnoBelief.blocks: the belief's orders and work budgets); else from the
    belief's importance-weighted walks (built once, on the first deal; each deal one of
    them drawn by its weight: sampling-importance-resampling, consistent with every check
    of the history); else by the estimate's rejection sampler (exact draws); only when that
    keeps nothing in a few tries, from the relaxed count (wider, still holding the truth)."""

    def __init__(self, belief: UnoBelief, state: UnoState) -> None:
        ledger = belief.ledger
        self.belief, self.state = belief, state
        self.opponent = ledger.unknown[0]
        self.position = ledger.position()
        self.blocks: BlockProgramme | None = None
        self.programme: Programme | None = None
        self.weighted: Weighted | None = None
        self.tried_weights = False
        self.relaxed = False
        self.sources: Counter[str] = Counter()
        """How many worlds came from each source (SOURCES), for labels."""
        if state_bound(self.position) > belief.budget:
            self.blocks = belief.blocks(self.position)
        if self.blocks is None and state_bound(self.position) <= belief.budget:
            self.programme = Programme(self.position, exact=belief.integers)

    def world(self, rng: random.Random) -> UnoState:
        hand: Counter[str] | None = None
        if self.blocks is not None:
            hands, deck_kinds = self.blocks.sample(rng)
            hand = hands.get(self.opponent, Counter())
            self.sources["blocks"] += 1
        elif self.programme is None:
            if not self.tried_weights:
                self.tried_weights = True
                self.weighted = self.belief.weighted(rng)
            if self.weighted is not None and self.weighted.draws:
                hands, deck_kinds = rng.choices(self.weighted.draws,
                                                weights=self.weighted.normalised())[0]
                hand = hands.get(self.opponent, Counter())
                self.sources["weighted"] += 1
            else:
                kept = draw(self.belief.ledger, self.belief.budget, rng, tries=SAMPLE_TRIES,
                            keep=1).kept
                if kept:
                    hand, deck_kinds = kept[0][0].get(self.opponent, Counter()), kept[0][1]
                    self.sources["rejection"] += 1
                else:
                    self.position, _ = relaxed(self.belief.ledger, self.belief.budget)
                    self.programme = Programme(self.position, exact=self.belief.integers)
                    self.relaxed = True
        if hand is None:
            assert self.programme is not None
            self.sources["relaxed" if self.relaxed else "exact"] += 1
            rows = self.programme.sample_rows(rng)
            hand, deck_kinds = Counter(), Counter()
            for kind, row in zip(self.position.kinds, rows, strict=True):
                hand[kind] = _run(self.position.timelines[self.opponent], kind, row) or 0
                deck_kinds[kind] = sum(n for c, n in enumerate(row)
                                       if self.position.columns[c].owner == DECK)
        deck = list(deck_kinds.elements())
        rng.shuffle(deck)
        hands_now = {**self.state.hands, self.opponent: tuple(sorted(hand.elements()))}
        # a seed of the world's own fixes its reshuffles, as the match's seed fixes the real ones
        return replace(self.state, hands=hands_now, deck=tuple(deck),
                       seed=f"{rng.getrandbits(256):064x}")


def sample_world(belief: UnoBelief, state: UnoState, rng: random.Random) -> UnoState:
    """One referee state drawn from the seat's belief (see Sampler)."""
    return Sampler(belief, state).world(rng)


def playout(state: UnoState, first: Command, rng: random.Random) -> UnoState:
    """Play `first`, then greedy moves for both seats, to the end (or the move cap)."""
    command = first
    for _ in range(PLAYOUT_MOVES):
        for event in decide(state, command):
            state = evolve(state, event)
        if state.over:
            break
        if state.needs_reshuffle():
            command = Reshuffle(f"{rng.getrandbits(256):064x}")
            continue
        seat = state.turn
        assert seat is not None
        moves = legal_moves(state, seat)
        plays = [m for m in moves if isinstance(m, PlayCard)]
        hand = state.hands.get(seat) or ()
        command = max(plays, key=lambda m: greedy_score(m, hand)) if plays else moves[0]
    return state


def value(state: UnoState, seat: str) -> float:
    if state.over:
        return 1.0 if state.winner == seat else 0.0
    mine, theirs = state.counts[seat], state.counts[other(seat)]
    return 0.5 if mine == theirs else (0.75 if mine < theirs else 0.25)


def move_values(sampler: Sampler, seat: str, moves: Sequence[Command], deals: int,
                rng: random.Random) -> list[list[float]]:
    """Per move, its value for `seat` (1 won, 0 lost; a playout cut at PLAYOUT_MOVES scores
    by the hands' sizes: value()) on each of `deals` worlds from `sampler`, every move
    played out on the same worlds with the same playout seed (common random numbers)."""
    values: list[list[float]] = [[] for _ in moves]
    for _ in range(deals):
        world = sampler.world(rng)
        seed = rng.getrandbits(64)
        for i, move in enumerate(moves):
            values[i].append(value(playout(world, move, random.Random(seed)), seat))
    return values


class PimcBot:
    """Greedy unless the playouts say otherwise: every legal move is played out on the same
    deals (common random numbers: one seed per deal for every move), and the bot leaves
    greedy's choice only for a move that wins at least `margin` of the deals more."""

    def __init__(self, deals: int = DEALS, margin: float = MARGIN) -> None:
        self.deals = deals
        self.margin = margin

    def choose(self, view: Sequence[UnoEvent], seat: str, rng: random.Random) -> Move:
        state = fold(view)
        moves = legal_moves(state, seat)
        if len(moves) <= 1:
            return moves[0]
        belief = UnoBelief(seat, state.variant.name)
        for event in view:
            belief.apply(event)
        values = move_values(Sampler(belief, state), seat, moves, self.deals, rng)
        totals = [sum(row) for row in values]
        hand = state.hands.get(seat) or ()
        plays = [(i, m) for i, m in enumerate(moves) if isinstance(m, PlayCard)]
        top = max(greedy_score(m, hand) for _, m in plays)
        greedy = [i for i, m in plays if greedy_score(m, hand) == top]
        default = max(totals[i] for i in greedy)
        best = max(totals)
        if best - default >= self.margin * self.deals:
            return rng.choice([m for m, t in zip(moves, totals, strict=True) if t == best])
        return rng.choice([moves[i] for i in greedy if totals[i] == default])
