"""Bots that bid, name trump and play from their own seat's view only."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.texas42.commands import Bid, Move, NameTrump, PlayTile
from games.texas42.errors import wrong_phase
from games.texas42.events import Event
from games.texas42.greedy import choose_bid, choose_nello_play, choose_play, choose_trump
from games.texas42.rules import evolve, forced_to_bid, legal_commands, legal_tiles
from games.texas42.state import State


def fold(view: Sequence[Event]) -> State:
    state: State | None = None
    for event in view:
        state = evolve(state, event)
    if state is None:
        raise wrong_phase("no match to play in")
    return state


class RandomBot:
    """Any legal command, uniformly (bids included: it bids wildly)."""

    def choose(self, view: Sequence[Event], seat: str, rng: random.Random) -> Move:
        commands = legal_commands(fold(view), seat)
        if not commands:
            raise wrong_phase(f"nothing for {seat} to do now")
        return rng.choice(commands)


class GreedyBot:
    """The fixed greedy policy of games.texas42.greedy (deterministic)."""

    def choose(self, view: Sequence[Event], seat: str, rng: random.Random) -> Move:
        state = fold(view)
        return greedy_command(state, seat)


def greedy_command(state: State, seat: str) -> Move:
    hand = sorted(state.hands.get(seat) or ())
    if state.phase == "bidding":
        return Bid(seat, choose_bid(hand, state.high_bid, forced_to_bid(state, seat)))
    if state.phase == "trump":
        return NameTrump(seat, choose_trump(hand))
    if state.phase == "playing" and state.nello and state.bidder is not None:
        return PlayTile(seat, choose_nello_play(seat, state.bidder, legal_tiles(state, seat),
                                                state.trick))
    if state.phase == "playing" and state.trump is not None:
        return PlayTile(seat, choose_play(seat, legal_tiles(state, seat), state.trick,
                                          state.trump))
    raise wrong_phase(f"nothing for {seat} to do now")
