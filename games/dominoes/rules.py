"""The rules as a decider: decide(state, command) -> events, evolve(state, event) -> state.

Both are pure. The server, replays, bots' simulations and the tests all run this same code.
Rules: the common Latin-American/Spanish partnership game (docs/events.md has the summary)
and the two-player block and draw games (docs/games/dominoes-two.md); the variant says which.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from games.dominoes.commands import (
    Command,
    DealHand,
    DrawTiles,
    Move,
    PassTurn,
    PlayTile,
    StartMatch,
)
from games.dominoes.errors import BadEvent, IllegalMove, NotYourTurn, WrongPhase
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
from games.dominoes.fairness import boneyard, deal, seed_commitment
from games.dominoes.line import can_play, fits, place
from games.dominoes.state import DrawRecord, HandState, MatchState, PassRecord, Phase
from games.dominoes.tiles import Seat, Side, Tile, parse_tile
from games.dominoes.variants import Variant, get_variant

# ---------------------------------------------------------------------------------------------
# Queries


def legal_moves(state: MatchState, seat: Seat) -> list[Move]:
    """Every (tile, end) `seat` may play now; empty when it must pass or draw, or it is not
    its turn (`must_draw` tells those two apart)."""
    hand = state.hand
    if state.phase != "playing" or hand is None or hand.turn != seat:
        return []
    tiles = hand.hands.get(seat)
    if tiles is None:
        return []
    if not hand.line:
        forced = _forced_opening(state)
        if forced is not None:
            return [Move(forced, None)]
        return [Move(t, None) for t in sorted(tiles)]
    return [Move(t, end) for t in sorted(tiles) for end in fits(t, hand.left, hand.right)]


def must_draw(state: MatchState, seat: Seat) -> bool:
    """`seat` is to move, nothing it holds fits and the boneyard has tiles: it must draw."""
    hand = state.hand
    if state.phase != "playing" or hand is None or hand.turn != seat or hand.boneyard == 0:
        return False
    tiles = hand.hands.get(seat)
    return tiles is not None and not can_play(tiles, hand.left, hand.right)


def lead_rank(t: Tile) -> tuple[int, int, int]:
    """How t ranks for a match's first lead: every double above every other tile, the higher
    double first; then the most pips, then the higher end (3-6 before 4-5)."""
    return (1, t.high, t.high) if t.is_double else (0, t.pips, t.high)


def lead_tile(tiles: Iterable[Tile]) -> Tile | None:
    """The tile that leads a match's first hand: the top-ranked tile dealt (lead_rank)."""
    return max(tiles, key=lead_rank, default=None)


def first_leader(hands: Mapping[Seat, Iterable[Tile]]) -> Seat:
    """Who leads a match's first hand: the holder of `lead_tile` of every tile dealt."""
    holder = {t: seat for seat, tiles in hands.items() for t in tiles}
    best = lead_tile(holder)
    if best is None:
        raise ValueError("no tiles were dealt")
    return holder[best]


def _forced_opening(state: MatchState) -> Tile | None:
    """In a match's first hand the leader must open with the tile that made it leader."""
    hand = state.hand
    if hand is None or hand.number != 1:
        return None
    held = hand.hands.get(hand.leader)
    return lead_tile(held) if held else None


def side_pips(hand: HandState, variant: Variant, side: Side) -> int:
    """Pips left in the hands of `side`'s seats (a team's two, or the seat itself)."""
    total = 0
    for seat in variant.seats:
        tiles = hand.hands.get(seat)
        if variant.side_of(seat) == side and tiles:
            total += sum(t.pips for t in tiles)
    return total


# ---------------------------------------------------------------------------------------------
# decide


def decide(state: MatchState | None, command: Command) -> list[Event]:
    """The events `command` causes, or a RuleViolation saying why it is refused."""
    if isinstance(command, StartMatch):
        return _start_match(state, command)
    if state is None:
        raise WrongPhase("the match has not started")
    if state.phase == "finished":
        raise WrongPhase("the match is over")
    if isinstance(command, DealHand):
        return _deal_hand(state, command)
    if isinstance(command, PlayTile):
        return _play(state, command)
    if isinstance(command, PassTurn):
        return _pass(state, command)
    if isinstance(command, DrawTiles):
        return _draw(state, command)
    raise TypeError(f"not a command: {command!r}")


def _start_match(state: MatchState | None, command: StartMatch) -> list[Event]:
    if state is not None:
        raise WrongPhase("the match has already started")
    get_variant(command.variant)
    return [
        MatchStarted(
            match_id=command.match_id,
            variant=command.variant,
            target=command.target,
            players=command.players,
            scoring=command.scoring,
            fairness=command.fairness,
        )
    ]


def _deal_hand(state: MatchState, command: DealHand) -> list[Event]:
    if state.phase != "between_hands":
        raise WrongPhase("a hand is already in progress")
    number = state.hands_played + 1
    variant = state.variant
    hands, _pool = deal(command.seed, variant)
    if number == 1:
        leader = first_leader(hands)
    else:
        assert state.hand is not None
        leader = variant.next_seat(state.hand.leader)
    events: list[Event] = [
        HandStarted(
            hand=number,
            leader=leader,
            seed_sha256=seed_commitment(command.seed),
            seed=command.seed,
        )
    ]
    events += [
        HandDealt(hand=number, seat=seat, tiles=[str(t) for t in hands[seat]])
        for seat in variant.seats
    ]
    return events


def _require_turn(state: MatchState, seat: Seat) -> HandState:
    hand = state.hand
    if state.phase != "playing" or hand is None:
        raise WrongPhase("no hand is in progress")
    if hand.turn != seat:
        raise NotYourTurn(f"it is {hand.turn}'s turn, not {seat}'s")
    return hand


def _play(state: MatchState, command: PlayTile) -> list[Event]:
    hand = _require_turn(state, command.seat)
    tiles = hand.hands[command.seat]
    if tiles is None:
        raise WrongPhase("the referee state does not know this hand")
    tile = command.tile
    if tile not in tiles:
        raise IllegalMove(f"{tile} is not in {command.seat}'s hand")
    end = command.end
    if not hand.line:
        forced = _forced_opening(state)
        if forced is not None and tile != forced:
            raise IllegalMove(f"the first hand opens with the highest double: play {forced}")
        end = None
    else:
        options = fits(tile, hand.left, hand.right)
        if not options:
            raise IllegalMove(f"{tile} fits neither end ({hand.left} and {hand.right})")
        if end is None:
            if len(options) > 1:
                raise IllegalMove(f"{tile} fits both ends: say left or right")
            end = options[0]
        elif end not in options:
            shown = hand.left if end == "left" else hand.right
            raise IllegalMove(f"{tile} does not fit the {end} end (it shows {shown})")
    played = TilePlayed(hand=hand.number, seat=command.seat, tile=str(tile), end=end)
    after = evolve(state, played)
    return [played, *_hand_end_if_over(after, command.seat)]


def _pass(state: MatchState, command: PassTurn) -> list[Event]:
    hand = _require_turn(state, command.seat)
    tiles = hand.hands[command.seat]
    if tiles is None:
        raise WrongPhase("the referee state does not know this hand")
    if can_play(tiles, hand.left, hand.right):
        raise IllegalMove("you must play when you can: a tile of yours fits")
    if hand.boneyard > 0:
        raise IllegalMove(f"draw first: the boneyard has {hand.boneyard} tiles left")
    return [Passed(hand=hand.number, seat=command.seat)]


def _draw(state: MatchState, command: DrawTiles) -> list[Event]:
    """Draw in the seed's order until a tile fits (the drawer must play it next: it is the
    only tile that fits) or the boneyard is empty (then the drawer passes, or the hand is
    blocked if the other player cannot play either)."""
    hand = _require_turn(state, command.seat)
    variant = state.variant
    if not variant.draws:
        raise IllegalMove(f"{variant.name} has no boneyard to draw from: pass if nothing fits")
    tiles = hand.hands[command.seat]
    if tiles is None or hand.seed is None:
        raise WrongPhase("the referee state does not know this hand")
    if can_play(tiles, hand.left, hand.right):
        raise IllegalMove("you may draw only when nothing fits: a tile of yours does")
    if hand.boneyard == 0:
        raise IllegalMove("the boneyard is empty: pass")
    drawn: list[Tile] = []
    for tile in boneyard(hand.seed, variant)[variant.pool_size - hand.boneyard :]:
        drawn.append(tile)
        if fits(tile, hand.left, hand.right):
            break
    event = TilesDrawn(
        hand=hand.number, seat=command.seat, tiles=[str(t) for t in drawn], count=len(drawn)
    )
    if fits(drawn[-1], hand.left, hand.right):
        return [event]
    ended = _hand_end_if_over(evolve(state, event), command.seat)
    return [event, *(ended or [Passed(hand=hand.number, seat=command.seat)])]


def _hand_end_if_over(state: MatchState, last_player: Seat) -> list[Event]:
    """hand_ended (and match_ended) if `last_player`'s move went out or blocked the game."""
    hand = state.hand
    assert hand is not None
    variant = state.variant
    winner: Side | None
    if not hand.hands[last_player]:
        winner = variant.side_of(last_player)
        reason = "domino"
    elif hand.boneyard == 0 and not any(
        can_play(hand.hands[s] or frozenset(), hand.left, hand.right) for s in variant.seats
    ):
        reason = "blocked"
        totals = {side: side_pips(hand, variant, side) for side in variant.sides}
        lowest = [side for side in variant.sides if totals[side] == min(totals.values())]
        winner = lowest[0] if len(lowest) == 1 else None
    else:
        return []
    points = _hand_points(state, hand, winner)
    scores = dict(state.scores)
    if winner is not None:
        scores[winner] += points
    ended: list[Event] = [
        HandEnded(
            hand=hand.number,
            reason=reason,
            winner=winner,
            points=points,
            remaining={s: [str(t) for t in sorted(hand.hands[s] or ())] for s in variant.seats},
            pool=[str(t) for t in _face_down(hand, variant)],
            seed=hand.seed or "0" * 64,
            scores=scores,
        )
    ]
    leader = max(scores, key=lambda side: scores[side])
    if scores[leader] >= state.target:
        ended.append(MatchEnded(scores=scores, winner=leader))
    return ended


def _face_down(hand: HandState, variant: Variant) -> tuple[Tile, ...]:
    """The tiles nobody held at the end: the sleeping pool, or the boneyard left undrawn."""
    if not hand.seed:
        return ()
    if variant.draws:
        order = boneyard(hand.seed, variant)
        return tuple(sorted(order[len(order) - hand.boneyard :]))
    return deal(hand.seed, variant)[1]


def _hand_points(state: MatchState, hand: HandState, winner: Side | None) -> int:
    """The losing sides' pips ('losers'), or every hand's ('all'); nothing on a tie."""
    if winner is None:
        return 0
    variant = state.variant
    counted = [s for s in variant.sides if state.scoring == "all" or s != winner]
    return sum(side_pips(hand, variant, side) for side in counted)


# ---------------------------------------------------------------------------------------------
# evolve


def evolve(state: MatchState | None, event: Event) -> MatchState:
    """The state after `event`. Total for any event a decider could have produced."""
    if isinstance(event, MatchStarted):
        if state is not None:
            raise BadEvent("match_started twice")
        variant = get_variant(event.variant)
        return MatchState(
            match_id=event.match_id,
            variant=variant,
            target=event.target,
            players=dict(event.players),
            scoring=event.scoring,
            scores=dict.fromkeys(variant.sides, 0),
            last_seq=event.seq,
        )
    if state is None:
        raise BadEvent(f"{event.type} before match_started")
    new = _evolve_match(state, event)
    return replace(new, last_seq=event.seq or state.last_seq + 1)


def _evolve_match(state: MatchState, event: Event) -> MatchState:
    hand = state.hand
    variant = state.variant
    if isinstance(event, HandStarted):
        if state.phase != "between_hands" or event.hand != state.hands_played + 1:
            raise BadEvent(f"hand_started for hand {event.hand} out of order")
        if event.leader not in variant.seats:
            raise BadEvent(f"{event.leader} has no seat in {variant.name}")
        size = variant.hand_size
        new_hand = HandState(
            number=event.hand,
            leader=event.leader,
            seed_sha256=event.seed_sha256,
            seed=event.seed,
            hands=dict.fromkeys(variant.seats),
            counts=dict.fromkeys(variant.seats, size),
            turn=event.leader,
            boneyard=variant.pool_size if variant.draws else 0,
        )
        return replace(state, hand=new_hand, phase="dealing")
    if hand is None or getattr(event, "hand", hand.number) != hand.number:
        raise BadEvent(f"{event.type} does not belong to the current hand")
    if isinstance(event, HandDealt):
        if state.phase != "dealing":
            raise BadEvent("hand_dealt outside the deal")
        if event.seat not in variant.seats:
            raise BadEvent(f"{event.seat} has no seat in {variant.name}")
        tiles = None if event.tiles is None else frozenset(parse_tile(t) for t in event.tiles)
        hands = {**hand.hands, event.seat: tiles}
        dealt = hand.dealt + 1
        phase: Phase = "playing" if dealt == len(variant.seats) else "dealing"
        return replace(state, hand=replace(hand, hands=hands, dealt=dealt), phase=phase)
    if isinstance(event, TilePlayed):
        return replace(state, hand=_evolve_play(state, hand, event))
    if isinstance(event, TilesDrawn):
        return replace(state, hand=_evolve_draw(state, hand, event))
    if isinstance(event, Passed):
        if state.phase != "playing" or hand.turn != event.seat or hand.left is None:
            raise BadEvent(f"{event.seat} cannot pass now")
        record = PassRecord(event.seat, hand.left, hand.left if hand.right is None else hand.right)
        new_hand = replace(hand, turn=variant.next_seat(event.seat), passes=(*hand.passes, record))
        return replace(state, hand=new_hand)
    if isinstance(event, HandEnded):
        revealed: dict[Seat, frozenset[Tile] | None] = {
            s: frozenset(parse_tile(t) for t in event.remaining.get(s, [])) for s in variant.seats
        }
        new_hand = replace(hand, hands=revealed, seed=event.seed)
        return replace(
            state,
            hand=new_hand,
            scores=dict(event.scores),
            phase="between_hands",
            hands_played=hand.number,
        )
    if isinstance(event, MatchEnded):
        return replace(state, phase="finished", winner=event.winner, scores=dict(event.scores))
    raise BadEvent(f"unexpected event {event.type}")


def _evolve_play(state: MatchState, hand: HandState, event: TilePlayed) -> HandState:
    if state.phase != "playing" or hand.turn != event.seat:
        raise BadEvent(f"{event.seat} played out of turn")
    tile = parse_tile(event.tile)
    if (event.end is None) != (not hand.line):
        raise BadEvent("only the first tile of a hand has no end, and it must have none")
    if hand.line and event.end not in fits(tile, hand.left, hand.right):
        raise BadEvent(f"{tile} does not fit the {event.end} end")
    held = hand.hands[event.seat]
    if held is not None and tile not in held:
        raise BadEvent(f"{event.seat} does not hold {tile}")
    hands = dict(hand.hands)
    if held is not None:
        hands[event.seat] = held - {tile}
    counts = {**hand.counts, event.seat: hand.counts[event.seat] - 1}
    return replace(
        hand,
        hands=hands,
        counts=counts,
        line=place(hand.line, tile, event.end),
        turn=state.variant.next_seat(event.seat),
    )


def _evolve_draw(state: MatchState, hand: HandState, event: TilesDrawn) -> HandState:
    """The drawer's hand grows by `count` (its tiles known only where the event shows them);
    the turn stays with it: it plays the drawn tile next, or a passed event follows."""
    if state.phase != "playing" or hand.turn != event.seat or hand.left is None:
        raise BadEvent(f"{event.seat} cannot draw now")
    if hand.right is None or event.count > hand.boneyard:
        raise BadEvent(f"{event.count} drawn but the boneyard holds {hand.boneyard}")
    held = hand.hands[event.seat]
    hands = dict(hand.hands)
    if held is not None and event.tiles is not None:
        drawn = frozenset(parse_tile(t) for t in event.tiles)
        if len(drawn) != event.count or drawn & held:
            raise BadEvent(f"{event.seat} draws a tile twice or one it already holds")
        hands[event.seat] = held | drawn
    else:
        hands[event.seat] = None  # a hand with tiles this audience does not see
    record = DrawRecord(event.seat, hand.left, hand.right, event.count)
    return replace(
        hand,
        hands=hands,
        counts={**hand.counts, event.seat: hand.counts[event.seat] + event.count},
        boneyard=hand.boneyard - event.count,
        draws=(*hand.draws, record),
    )


def fold(events: Iterable[Event], state: MatchState | None = None) -> MatchState | None:
    """Replay: the state after every event, starting from `state` (None: before the match)."""
    for event in events:
        state = evolve(state, event)
    return state
