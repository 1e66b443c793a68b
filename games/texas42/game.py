"""Texas 42 behind the game interface: the adapter the generic layers call.

It only translates between the interface's vocabulary (seats, wire payloads, options,
referee steps) and the pure modules beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.interface import JSON, Audience, Bot, Seat, TableOption, VariantInfo
from games.texas42.advisor import ADVISOR, Texas42Advisor
from games.texas42.audience import view
from games.texas42.belief import Texas42Belief
from games.texas42.bots import GreedyBot, RandomBot
from games.texas42.check import check_log
from games.texas42.commands import Bid, DealHand, NameTrump, PlayTile, StartMatch
from games.texas42.dominoes import SEATS, TileError, parse_tile
from games.texas42.errors import illegal
from games.texas42.events import event_to_dict, parse_event
from games.texas42.pimc import PimcBot
from games.texas42.rules import decide, evolve, legal_commands, to_act
from games.texas42.state import State
from games.texas42.suits import parse_trump, trump_name

VARIANT = "texas-42"
OPTIONS = (
    TableOption.switch("dealer_must_bid", "The dealer must bid when everyone else passed"),
    TableOption.switch("nello", "Nello: a mark bidder may play alone to lose every trick"),
)
"""texas-42's table options (create_table `options`), both off by default."""
DEALER_BIDS = "texas-42-dealer-bids"
DEFAULT_MARKS = 7
TOOLS_DEFAULT_TARGET = 100
"""What create_table, selfplay and tournament send when no target is given (dominoes' 100):
a 42 table then plays to 7 marks."""


def targets(options: Mapping[str, Any]) -> tuple[int, int]:
    """(target_marks, target_points) from table options.

    `target_marks` / `target_points` are taken as given; the generic `target` means marks up
    to 21, points from 22 (e.g. 250), and the tools' default 100 means the usual 7 marks."""
    if "target_points" in options and int(options["target_points"]) > 0:
        return 0, int(options["target_points"])
    if "target_marks" in options:
        return int(options["target_marks"]), 0
    target = int(options.get("target", TOOLS_DEFAULT_TARGET))
    if target == TOOLS_DEFAULT_TARGET or target < 1:
        return DEFAULT_MARKS, 0
    return (target, 0) if target <= 21 else (0, target)


class Texas42:
    name = "texas42"
    renderer = "texas42"

    def variants(self) -> Mapping[str, VariantInfo]:
        options = {"target_marks": DEFAULT_MARKS, "target_points": 0}
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
    def parse_event(self, data: JSON | str | bytes) -> Any:
        return parse_event(data)

    def event_to_dict(self, event: Any) -> JSON:
        return event_to_dict(event)

    def view(self, event: Any, audience: Audience) -> Any:
        return view(event, audience)

    # --- the rules
    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> StartMatch:
        marks, points = targets(options)
        must = bool(options.get("dealer_must_bid", variant == DEALER_BIDS))
        return StartMatch(match_id, variant, dict(players), marks, points, must,
                          nello=bool(options.get("nello", False)))

    def decide(self, state: Any | None, command: Any) -> list[Any]:
        return decide(state, command)

    def evolve(self, state: Any | None, event: Any) -> State:
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

    def legal_moves(self, state: State, seat: Seat) -> list[Any]:
        return legal_commands(state, seat)

    def command_from_wire(self, seat: Seat, payload: JSON) -> Any:
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

    def command_to_wire(self, command: Any) -> JSON:
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

    def check_log(self, events: Sequence[Any]) -> None:
        check_log(events)

    def bots(self) -> Mapping[str, Bot]:
        return {"random": RandomBot(), "greedy": GreedyBot(), "pimc": PimcBot()}

    def advisor(self) -> Texas42Advisor:
        """The bidding oracle while bidding, PIMC while playing (games.advice)."""
        return ADVISOR


TEXAS42 = Texas42()
