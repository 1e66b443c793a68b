"""Check a whole log against the rules by re-deciding every move.

Folding alone trusts the log; here each move is turned back into the command that would have
caused it, decided afresh, and the consequences (deal, hand end, scores) must match exactly.
That catches forged deals, illegal plays, wrong scores and a seed that does not fit its hash.

`check_log` needs the referee's log (every seed and hand). `check_public_log` takes any
audience's log — a seat's own export or a spectator's — because every finished hand reveals
its seed: the deal is recomputed from it, checked against the commitment and against what the
log shows, and then the finished hands are re-decided exactly like a referee's log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.dominoes.commands import Command, DealHand, DrawTiles, PassTurn, PlayTile, StartMatch
from games.dominoes.errors import BadEvent, RuleViolation
from games.dominoes.events import (
    Event,
    HandDealt,
    HandEnded,
    HandStarted,
    MatchStarted,
    Passed,
    TilePlayed,
    TilesDrawn,
    event_to_dict,
)
from games.dominoes.fairness import boneyard, deal, seed_commitment
from games.dominoes.rules import decide, evolve
from games.dominoes.state import MatchState
from games.dominoes.tiles import Seat, Tile, parse_tile
from games.dominoes.variants import UnknownVariantError, Variant, get_variant
from games.interface import LogProblem


def _command_for(event: Event) -> Command | None:
    """The command that causes `event`, or None when it is a consequence of another."""
    if isinstance(event, MatchStarted):
        return StartMatch(
            event.match_id, dict(event.players), event.variant, event.target, event.scoring
        )
    if isinstance(event, HandStarted):
        if event.seed is None:
            raise LogProblem(event.seq, "hand_started without its seed: not a referee's log")
        return DealHand(event.seed)
    if isinstance(event, TilePlayed):
        return PlayTile(event.seat, parse_tile(event.tile), event.end)
    if isinstance(event, Passed):
        return PassTurn(event.seat)
    if isinstance(event, TilesDrawn):
        return DrawTiles(event.seat)
    return None


def _comparable(event: Event) -> dict:
    data = event_to_dict(event)
    data.pop("seq", None)
    return data


def _difference(rules: dict, log: dict) -> str:
    """Which fields of an event differ from what the rules give: short enough to read."""
    if rules.get("type") != log.get("type"):
        return f"the rules give {rules}, the log has {log}"
    fields = sorted(k for k in rules.keys() | log.keys() if rules.get(k) != log.get(k))
    parts = [f"{k}: the rules give {rules.get(k)!r}, the log has {log.get(k)!r}" for k in fields]
    return f"{log['type']} differs from the rules in " + "; ".join(parts)


def check_log(events: Iterable[Event]) -> MatchState | None:
    """Fold a referee's log, proving each step legal; raise LogProblem at the first bad one."""
    state: MatchState | None = None
    expected: list[dict] = []
    last_seq = 0
    for event in events:
        if event.seq != last_seq + 1:
            raise LogProblem(event.seq, f"seq {event.seq} follows {last_seq}: not contiguous")
        last_seq = event.seq
        if not expected:
            command = _command_for(event)
            if command is None:
                raise LogProblem(event.seq, f"{event.type} here does not follow from any move")
            try:
                expected = [_comparable(e) for e in decide(state, command)]
            except (RuleViolation, UnknownVariantError) as error:
                raise LogProblem(event.seq, str(error)) from error
        if _comparable(event) != expected[0]:
            raise LogProblem(event.seq, _difference(expected[0], _comparable(event)))
        expected.pop(0)
        try:
            state = evolve(state, event)
        except BadEvent as error:
            raise LogProblem(event.seq, str(error)) from error
    if expected:
        raise LogProblem(last_seq + 1, f"the log stops before {expected[0]['type']}")
    return state


@dataclass(frozen=True)
class PublicLogCheck:
    """What `check_public_log` proved about a log, for a person to read."""

    state: MatchState | None
    hands_proved: int
    """Hands whose deal was recomputed from their seed and then re-decided move by move."""
    own_seats: tuple[Seat, ...]
    """Seats whose dealt tiles the log shows (a seat's export: that seat; spectator: none)."""
    open_hand: int | None
    """A hand still in play whose seed is not revealed yet: folded, but not provable."""
    proved_upto: int
    """Every event up to this seq was re-decided by the rules."""


@dataclass
class _Deal:
    """One hand's deal as recomputed from its seed, and the tiles seen drawn and played."""

    number: int
    variant: Variant
    hands: dict[Seat, tuple[Tile, ...]]
    pool: tuple[Tile, ...]
    order: tuple[Tile, ...]
    """The undealt tiles in the order the seed has them drawn (draw-2)."""
    played: dict[Seat, set[Tile]]
    drawn: dict[Seat, list[Tile]]
    next_draw: int = 0

    def holder(self, tile: Tile) -> str:
        for seat, tiles in self.hands.items():
            if tile in tiles:
                return seat
        for seat, tiles in self.drawn.items():
            if tile in tiles:
                return f"{seat} (drawn)"
        return "the boneyard" if self.variant.draws else "the pool"

    def held(self, seat: Seat) -> set[Tile]:
        """Every tile `seat` has had this hand: dealt or drawn."""
        return set(self.hands[seat]) | set(self.drawn[seat])

    def face_down(self) -> tuple[Tile, ...]:
        """The undealt tiles not drawn yet, sorted: what hand_ended must show as the pool."""
        return tuple(sorted(self.order[self.next_draw :])) if self.variant.draws else self.pool


def _names(tiles: Iterable[Tile]) -> list[str]:
    return [str(t) for t in sorted(tiles)]


def _fairness(event: Event, current: _Deal) -> str | None:
    """Why `event` contradicts the deal its hand's seed gives, or None if it does not."""
    if isinstance(event, HandDealt) and event.tiles is not None:
        shown = sorted(parse_tile(t) for t in event.tiles)
        if shown != list(current.hands[event.seat]):
            return (f"hand {current.number}: {event.seat}'s dealt tiles {_names(shown)} are "
                    f"not the deal from the revealed seed, which gives "
                    f"{_names(current.hands[event.seat])}")
    elif isinstance(event, TilesDrawn):
        return _draw_fairness(event, current)
    elif isinstance(event, TilePlayed):
        tile = parse_tile(event.tile)
        if tile not in current.held(event.seat):
            return (f"hand {current.number}: {event.seat} plays {tile}, but the revealed seed "
                    f"dealt it to {current.holder(tile)}")
        current.played[event.seat].add(tile)
    elif isinstance(event, HandEnded):
        for seat in current.variant.seats:
            kept = _names(current.held(seat) - current.played[seat])
            shown_left = _names(parse_tile(t) for t in event.remaining.get(seat, []))
            if shown_left != kept:
                drew = (f", drew {_names(current.drawn[seat])}"
                        if current.drawn[seat] else "")
                return (f"hand {current.number}: {seat} shows {shown_left} left, but the "
                        f"revealed seed dealt it {_names(current.hands[seat])}{drew} and it "
                        f"played {_names(current.played[seat])}")
        pool = _names(parse_tile(t) for t in event.pool)
        if pool != _names(current.face_down()):
            return (f"hand {current.number}: the pool shown is {pool}, the revealed seed "
                    f"leaves {_names(current.face_down())}")
    return None


def _draw_fairness(event: TilesDrawn, current: _Deal) -> str | None:
    """A draw takes the next tiles of the seed's boneyard order: shown tiles must be those."""
    start = current.next_draw
    due = list(current.order[start : start + event.count])
    if len(due) < event.count:
        return (f"hand {current.number}: {event.seat} draws {event.count} tiles, but the "
                f"boneyard holds {len(current.order) - start}")
    if event.tiles is not None and [parse_tile(t) for t in event.tiles] != due:
        return (f"hand {current.number}: {event.seat} shows {event.tiles} drawn, but the "
                f"revealed seed has the boneyard give {[str(t) for t in due]}")
    current.drawn[event.seat].extend(due)
    current.next_draw += event.count
    return None


def _with_deal(
    events: list[Event], variant: Variant
) -> tuple[list[Event], LogProblem | None, int | None, set[Seat]]:
    """The log with each seed and hidden hand filled in from the seed its hand revealed.

    Returns (the rebuilt events before the first unprovable hand or the first problem, that
    problem or None, the index where an unrevealed hand starts or None, the seats seen dealt).
    """
    revealed = {e.hand: e for e in events if isinstance(e, HandEnded)}
    rebuilt: list[Event] = []
    own: set[Seat] = set()
    current: _Deal | None = None
    for index, event in enumerate(events):
        if isinstance(event, HandStarted):
            ended = revealed.get(event.hand)
            seed = event.seed or (ended.seed if ended else None)
            if seed is None:
                return rebuilt, None, index, own
            if seed_commitment(seed) != event.seed_sha256:
                source = (f"the seed revealed at seq {ended.seq}" if ended and not event.seed
                          else "this event's seed")
                return rebuilt, LogProblem(
                    event.seq,
                    f"hand {event.hand}: seed_sha256 {event.seed_sha256[:16]}… is not sha256 "
                    f"of {source}: the deal was not committed to this seed",
                ), None, own
            hands, pool = deal(seed, variant)
            seats = variant.seats
            current = _Deal(event.hand, variant, hands, pool, boneyard(seed, variant),
                            {s: set() for s in seats}, {s: [] for s in seats})
            event = event.model_copy(update={"seed": seed})
        elif current is not None and getattr(event, "hand", None) == current.number:
            problem = _fairness(event, current)
            if problem is not None:
                return rebuilt, LogProblem(event.seq, problem), None, own
            if isinstance(event, HandDealt):
                if event.tiles is None:
                    event = event.model_copy(
                        update={"tiles": [str(t) for t in current.hands[event.seat]]})
                else:
                    own.add(event.seat)
            elif isinstance(event, TilesDrawn) and event.tiles is None:
                taken = current.order[current.next_draw - event.count : current.next_draw]
                event = event.model_copy(update={"tiles": [str(t) for t in taken]})
        rebuilt.append(event)
    return rebuilt, None, None, own


def check_public_log(events: Iterable[Event]) -> PublicLogCheck:
    """Prove any audience's log fair and legal as far as its revealed seeds allow.

    For each hand whose seed is known (revealed by hand_ended, or in a referee's log): the
    seed must hash to hand_started's commitment, and the deal from it must give the dealt
    tiles the log shows, every tile each seat played, the tiles left in hand_ended and the
    pool. The log is then rebuilt as the referee wrote it and re-decided by `check_log`
    (leader, forced plays, passes, scores). A hand still in play without its seed can only be
    folded. Raises LogProblem naming the first bad event.
    """
    events = list(events)
    first = events[0] if events else None
    if not isinstance(first, MatchStarted):
        raise LogProblem(first.seq if first else 1, "a match log starts with match_started")
    try:
        variant = get_variant(first.variant)
    except UnknownVariantError as error:
        raise LogProblem(first.seq, str(error)) from error
    rebuilt, unfair, open_at, own = _with_deal(events, variant)
    try:
        state = check_log(rebuilt)
    except LogProblem as rules:
        if unfair is None or rules.seq < unfair.seq:
            raise
        raise unfair from None
    if unfair is not None:
        raise unfair
    own_seats = tuple(s for s in variant.seats if s in own)
    proved_upto = rebuilt[-1].seq if rebuilt else 0
    if open_at is None:
        return PublicLogCheck(state, _hands_in(state), own_seats, None, proved_upto)
    proved, last_seq = (state.hands_played if state else 0), proved_upto
    for event in events[open_at:]:
        if event.seq != last_seq + 1:
            raise LogProblem(event.seq, f"seq {event.seq} follows {last_seq}: not contiguous")
        last_seq = event.seq
        try:
            state = evolve(state, event)
        except BadEvent as error:
            raise LogProblem(event.seq, str(error)) from error
    open_hand: int = events[open_at].hand  # type: ignore[union-attr]
    return PublicLogCheck(state, proved, own_seats, open_hand, proved_upto)


def _hands_in(state: MatchState | None) -> int:
    """Hands dealt so far, the one in play included."""
    if state is None:
        return 0
    return state.hands_played + (1 if state.phase in ("dealing", "playing") else 0)
