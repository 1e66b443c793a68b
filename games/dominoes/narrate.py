"""A dominoes match told move by move for a terminal (`replay`): the line, the open ends,
passes, draws and scores. Dominoes declares it as its narrator (`Capabilities.narrate`); it
raises for a log that cannot be replayed (BadEvent), so a broken log is an error, not a story.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from games.dominoes.events import (
    Event,
    HandDealt,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Passed,
    TilePlayed,
    TilesDrawn,
)
from games.dominoes.rules import evolve
from games.dominoes.state import MatchState
from games.dominoes.tiles import SEATS, Side


def _line_text(state: MatchState) -> str:
    hand = state.hand
    return "".join(f"[{a}|{b}]" for a, b in hand.line) if hand else ""


def narrate(events: Iterable[Event]) -> Iterator[str]:
    """One or more lines of text per dominoes event (raises BadEvent for a broken log)."""
    state: MatchState | None = None
    for event in events:
        state = evolve(state, event)
        yield from _describe(state, event)


def _scores(scores: Mapping[Side, int]) -> str:
    """'NS 12 – EW 40' in partnership, 'S 12 – N 40' for two players (sides as scored)."""
    if set(scores) == {"NS", "EW"}:
        return f"NS {scores['NS']} – EW {scores['EW']}"
    return " – ".join(f"{side} {points}" for side, points in scores.items())


def _describe(state: MatchState, event: Event) -> Iterator[str]:
    if isinstance(event, MatchStarted):
        p = event.players
        yield (f"Match {event.match_id}: {event.variant} to {event.target} "
               f"({event.scoring} scoring)")
        if set(p) == set(SEATS):
            yield f"  NS: S {p['S']} & N {p['N']}   EW: W {p['W']} & E {p['E']}"
        else:
            yield "  " + "   ".join(f"{seat} {name}" for seat, name in p.items())
    elif isinstance(event, HandStarted):
        yield f"\nHand {event.hand} — {event.leader} leads (deal sha256 {event.seed_sha256[:16]}…)"
    elif isinstance(event, HandDealt):
        tiles = " ".join(event.tiles) if event.tiles is not None else "(hidden)"
        yield f"  {event.seat} holds {tiles}"
    elif isinstance(event, TilePlayed):
        hand = state.hand
        assert hand is not None  # evolve took the play: a hand is in play
        where = f" on the {event.end}" if event.end else ""
        yield (f"{event.seq:>5}  {event.seat} plays {event.tile}{where:<13}"
               f" ends {hand.left}·{hand.right}   {_line_text(state)}")
    elif isinstance(event, TilesDrawn):
        tiles = " ".join(event.tiles) if event.tiles is not None else "(hidden)"
        plural = "" if event.count == 1 else "s"
        yield f"{event.seq:>5}  {event.seat} draws {event.count} tile{plural}: {tiles}"
    elif isinstance(event, Passed):
        hand = state.hand
        assert hand is not None  # evolve took the pass: a hand is in play
        last = hand.passes[-1]
        yield f"{event.seq:>5}  {event.seat} passes (nothing on {last.left} or {last.right})"
    elif isinstance(event, HandEnded):
        how = "went out" if event.reason == "domino" else "the game is blocked"
        result = f"{event.winner} win {event.points}" if event.winner else "a tie, no points"
        left = "  ".join(f"{s}: {' '.join(t) or '—'}" for s, t in event.remaining.items())
        yield f"  Hand {event.hand}: {how}; {result}.  Left: {left}"
        yield f"  Score: {_scores(event.scores)}"
    elif isinstance(event, MatchEnded):
        yield f"\nMatch over: {event.winner} win, {_scores(event.scores)}"
