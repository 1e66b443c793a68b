"""Re-decide a whole referee log of 42: every event must be what the rules decide.

Each run of events is matched to the command that causes it (a deal from `hand_started`'s
seed, a bid, a trump, a play); the rules decide that command in the state folded so far and
the log must hold exactly those events, in order.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.redecide import redecide
from games.texas42.commands import Bid, Command, DealHand, NameTrump, PlayTile, StartMatch
from games.texas42.dominoes import parse_tile
from games.texas42.events import BidMade, Event, HandStarted, MatchStarted, Played, TrumpNamed
from games.texas42.rules import decide, evolve
from games.texas42.state import State
from games.texas42.suits import parse_trump


def command_for(event: Event) -> Command | None:
    """The command that causes `event` when it opens a run, else None."""
    if isinstance(event, MatchStarted):
        return StartMatch(event.match_id, event.variant, dict(event.players),
                          event.target_marks, event.target_points, event.dealer_must_bid,
                          event.first_dealer, event.nello, event.fairness)
    if isinstance(event, HandStarted) and event.seed is not None:
        return DealHand(event.seed)
    if isinstance(event, BidMade):
        return Bid(event.seat, event.bid)
    if isinstance(event, TrumpNamed):
        return NameTrump(event.seat, parse_trump(event.trump))
    if isinstance(event, Played):
        return PlayTile(event.seat, parse_tile(event.tile))
    return None


def check_log(events: Sequence[Event]) -> State | None:
    """The final state; LogProblem at the first event the rules would not have produced."""
    return redecide(events, command_for, decide, evolve)
