"""A match told move by move for a terminal: the line, the open ends, passes and scores."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from games.dominoes.events import (
    Event,
    HandDealt,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    TilePlayed,
)
from games.dominoes.rules import evolve
from games.dominoes.state import MatchState


def _line_text(state: MatchState) -> str:
    hand = state.hand
    return "".join(f"[{a}|{b}]" for a, b in hand.line) if hand else ""


def narrate(events: Iterable[Event]) -> Iterator[str]:
    """One or more lines of text per event."""
    state: MatchState | None = None
    for event in events:
        state = evolve(state, event)
        yield from _describe(state, event)


def _describe(state: MatchState, event: Event) -> Iterator[str]:
    if isinstance(event, MatchStarted):
        p = event.players
        yield (f"Match {event.match_id}: {event.variant} to {event.target} "
               f"({event.scoring} scoring)")
        yield f"  NS: S {p['S']} & N {p['N']}   EW: W {p['W']} & E {p['E']}"
    elif isinstance(event, HandStarted):
        yield f"\nHand {event.hand} — {event.leader} leads (deal sha256 {event.seed_sha256[:16]}…)"
    elif isinstance(event, HandDealt):
        tiles = " ".join(event.tiles) if event.tiles is not None else "(hidden)"
        yield f"  {event.seat} holds {tiles}"
    elif isinstance(event, TilePlayed):
        hand = state.hand
        where = f" on the {event.end}" if event.end else ""
        yield (f"{event.seq:>5}  {event.seat} plays {event.tile}{where:<13}"
               f" ends {hand.left}·{hand.right}   {_line_text(state)}")
    elif isinstance(event, Passed):
        hand = state.hand
        last = hand.passes[-1]
        yield f"{event.seq:>5}  {event.seat} passes (nothing on {last.left} or {last.right})"
    elif isinstance(event, HandEnded):
        how = "went out" if event.reason == "domino" else "the game is blocked"
        result = f"{event.winner} win {event.points}" if event.winner else "a tie, no points"
        left = "  ".join(f"{s}: {' '.join(t) or '—'}" for s, t in event.remaining.items())
        yield f"  Hand {event.hand}: {how}; {result}.  Left: {left}"
        yield f"  Score: NS {event.scores['NS']} – EW {event.scores['EW']}"
    elif isinstance(event, MatchEnded):
        yield (f"\nMatch over: {event.winner} win, NS {event.scores['NS']} – "
               f"EW {event.scores['EW']}")
