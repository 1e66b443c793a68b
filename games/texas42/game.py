"""Texas 42 behind the game interface: the adapter the generic layers call.

It only translates between the interface's vocabulary (seats, wire payloads, options,
referee steps) and the pure modules beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.interface import (
    JSON,
    Audience,
    Bot,
    Capabilities,
    Game,
    Seat,
    TableOption,
    VariantInfo,
    uniform_belief,
)
from games.texas42.advisor import ADVISOR
from games.texas42.audience import view
from games.texas42.behaviour import BEHAVIOUR_BIDS
from games.texas42.belief import MODEL, Texas42Belief
from games.texas42.bots import GreedyBot, RandomBot
from games.texas42.check import check_log
from games.texas42.commands import Bid, Command, DealHand, Move, NameTrump, PlayTile, StartMatch
from games.texas42.dealing import Texas42Dealing
from games.texas42.dominoes import SEATS, TileError, parse_tile
from games.texas42.errors import illegal
from games.texas42.events import Event, event_to_dict, parse_event
from games.texas42.pimc import PimcBot
from games.texas42.revealed import texas42_moments
from games.texas42.rules import decide, evolve, legal_commands, to_act
from games.texas42.state import State
from games.texas42.suits import parse_trump, trump_name

VARIANT = "texas-42"
DEFAULT_MARKS = 7
OPTIONS = (
    TableOption.integer("target_marks", "Marks to win the match", DEFAULT_MARKS, 1, 21),
    TableOption.switch("dealer_must_bid", "The dealer must bid when everyone else passed"),
    TableOption.switch("nello", "Nello: a mark bidder may play alone to lose every trick"),
)
"""texas-42's table options (create_table `options`): the match's marks (7 by default), and
two rules, both off by default."""
DEALER_BIDS = "texas-42-dealer-bids"


def targets(options: Mapping[str, Any]) -> tuple[int, int]:
    """(target_marks, target_points) from the options: `target_points` > 0 (not a table
    option: the tools' points matches) plays to that many points, else to `target_marks`
    marks (7 unless set). No other game's option is read (another game's `target` is not
    Texas 42's)."""
    if int(options.get("target_points", 0) or 0) > 0:
        return 0, int(options["target_points"])
    return int(options.get("target_marks", DEFAULT_MARKS)), 0


class Texas42:
    name = "texas42"

    @property
    def capabilities(self) -> Capabilities:
        """What Texas 42 offers beyond its rules (games.interface.Capabilities)."""
        return CAPABILITIES

    def variants(self) -> Mapping[str, VariantInfo]:
        return CAPABILITIES.variants

    def _variants(self) -> dict[str, VariantInfo]:
        options = {"target_points": 0}
        return {
            VARIANT: VariantInfo(VARIANT, self.name, SEATS, "Texas 42",
                                 "Partnership bidding and tricks, double-six", options,
                                 declared=OPTIONS),
            # old logs and tables name this variant: it reads and plays as texas-42 with the
            # dealer_must_bid option on
            DEALER_BIDS: VariantInfo(DEALER_BIDS, self.name, SEATS,
                                     "Texas 42, the dealer must bid",
                                     "texas-42 with the dealer_must_bid option on",
                                     {**options, "dealer_must_bid": True, "nello": False},
                                     alias_of=VARIANT),
        }

    # --- the log
    def parse_event(self, data: JSON | str | bytes) -> Event:
        return parse_event(data)

    def event_to_dict(self, event: Event) -> JSON:
        return event_to_dict(event)

    def view(self, event: Event, audience: Audience) -> Event:
        return view(event, audience)

    # --- the rules
    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> StartMatch:
        marks, points = targets(options)
        must = bool(options.get("dealer_must_bid", variant == DEALER_BIDS))
        return StartMatch(match_id, variant, dict(players), marks, points, must,
                          nello=bool(options.get("nello", False)))

    def decide(self, state: State | None, command: Command) -> list[Event]:
        return decide(state, command)

    def evolve(self, state: State | None, event: Event) -> State:
        return evolve(state, event)

    def referee_step(self, state: State, secret: str) -> DealHand | None:
        return DealHand(secret) if state.phase == "between_hands" else None

    def to_act(self, state: State) -> tuple[Seat, ...]:
        seat = to_act(state)
        return () if seat is None else (seat,)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def winners(self, state: State) -> tuple[Seat, ...]:
        if state.phase != "over" or state.winner is None:
            return ()
        return tuple(s for s in SEATS if (s in "NS") == (state.winner == "NS"))

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        return legal_commands(state, seat)

    def command_from_wire(self, seat: Seat, payload: JSON) -> Move:
        kind = payload.get("kind")
        if kind == "pass":
            return Bid(seat, 0)
        if kind == "bid":
            bid = payload.get("bid")
            if not isinstance(bid, int) or isinstance(bid, bool):
                raise illegal('a bid is {"kind": "bid", "bid": 30..41, 42 or 84}')
            return Bid(seat, bid)
        if kind == "trump":
            try:
                return NameTrump(seat, parse_trump(payload.get("trump")))
            except ValueError as error:
                raise illegal(str(error)) from None
        if kind == "play":
            try:
                return PlayTile(seat, parse_tile(str(payload.get("tile"))))
            except TileError as error:
                raise illegal(str(error)) from None
        raise illegal(f"unknown move kind {kind!r} (expected 'bid', 'pass', 'trump' or 'play')")

    def command_to_wire(self, command: Command) -> JSON:
        if isinstance(command, Bid):
            return {"kind": "pass"} if command.bid == 0 else {"kind": "bid", "bid": command.bid}
        if isinstance(command, NameTrump):
            return {"kind": "trump", "trump": trump_name(command.trump)}
        if isinstance(command, PlayTile):
            return {"kind": "play", "tile": str(command.tile)}
        raise TypeError(f"not a player's command: {command!r}")

    # --- knowledge
    def belief(self, observer: Audience, variant: str) -> Texas42Belief:
        return Texas42Belief(observer)

    def check_log(self, events: Sequence[Event]) -> None:
        check_log(events)

    def bots(self) -> Mapping[str, Bot[Event, Command]]:
        return CAPABILITIES.bots


CAPABILITIES = Capabilities(
    renderer="texas42",
    variants=Texas42()._variants(),
    bots={"random": RandomBot(), "greedy": GreedyBot(), "pimc": PimcBot()},
    stand_in="greedy",
    advisor=ADVISOR,  # the bidding oracle while bidding, PIMC while playing (games.advice)
    beliefs=(uniform_belief(MODEL),),
    behaviour={BEHAVIOUR_BIDS.name: BEHAVIOUR_BIDS},  # the bid-aware layer (games.behaviour)
    reveal=texas42_moments,  # who held what, for calibrate
    fair_dealing=Texas42Dealing(),  # each hand's seed: committed in hand_started, revealed in
                                    # hand_ended (a redeal's too)
)
TEXAS42: Game[State, Command, Event] = Texas42()
