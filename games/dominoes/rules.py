"""The rules as a decider: decide(state, command) -> events, evolve(state, event) -> state.

Both are pure. The server, replays, bots' simulations and the tests all run this same code.
Rules: the common Latin-American/Spanish partnership game (docs/events.md has the summary).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from games.dominoes.commands import Command, DealHand, Move, PassTurn, PlayTile, StartMatch
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
)
from games.dominoes.fairness import deal, seed_commitment
from games.dominoes.line import can_play, fits, place
from games.dominoes.state import HandState, MatchState, PassRecord
from games.dominoes.tiles import SEATS, Seat, Team, Tile, next_seat, other_team, parse_tile, team_of
from games.dominoes.variants import get_variant

# ---------------------------------------------------------------------------------------------
# Queries


def legal_moves(state: MatchState, seat: Seat) -> list[Move]:
    """Every (tile, end) `seat` may play now; empty when it must pass or it is not its turn."""
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


def _forced_opening(state: MatchState) -> Tile | None:
    """In a match's first hand the leader must open with the highest double dealt."""
    hand = state.hand
    if hand is None or hand.number != 1:
        return None
    held = hand.hands.get(hand.leader)
    return _highest_double(held) if held else None


def _highest_double(tiles: Iterable[Tile]) -> Tile | None:
    doubles = [t for t in tiles if t.is_double]
    return max(doubles) if doubles else None


def team_pips(hand: HandState, team: Team) -> int:
    total = 0
    for seat in SEATS:
        tiles = hand.hands.get(seat)
        if team_of(seat) == team and tiles:
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
        )
    ]


def _deal_hand(state: MatchState, command: DealHand) -> list[Event]:
    if state.phase != "between_hands":
        raise WrongPhase("a hand is already in progress")
    number = state.hands_played + 1
    hands, _pool = deal(command.seed, state.variant)
    if number == 1:
        leader = _first_leader(hands)
    else:
        assert state.hand is not None
        leader = next_seat(state.hand.leader)
    events: list[Event] = [
        HandStarted(
            hand=number,
            leader=leader,
            seed_sha256=seed_commitment(command.seed),
            seed=command.seed,
        )
    ]
    events += [
        HandDealt(hand=number, seat=seat, tiles=[str(t) for t in hands[seat]]) for seat in SEATS
    ]
    return events


def _first_leader(hands: dict[Seat, tuple[Tile, ...]]) -> Seat:
    best = max((t, seat) for seat, tiles in hands.items() for t in tiles if t.is_double)
    return best[1]


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
    return [Passed(hand=hand.number, seat=command.seat)]


def _hand_end_if_over(state: MatchState, last_player: Seat) -> list[Event]:
    hand = state.hand
    assert hand is not None
    if not hand.hands[last_player]:
        winner: Team | None = team_of(last_player)
        reason = "domino"
    elif not any(can_play(hand.hands[s] or frozenset(), hand.left, hand.right) for s in SEATS):
        reason = "blocked"
        ns, ew = team_pips(hand, "NS"), team_pips(hand, "EW")
        winner = None if ns == ew else ("NS" if ns < ew else "EW")
    else:
        return []
    points = _hand_points(state, hand, winner)
    scores = dict(state.scores)
    if winner is not None:
        scores[winner] += points
    _, pool = deal(hand.seed or "", state.variant) if hand.seed else ({}, ())
    ended: list[Event] = [
        HandEnded(
            hand=hand.number,
            reason=reason,
            winner=winner,
            points=points,
            remaining={s: [str(t) for t in sorted(hand.hands[s] or ())] for s in SEATS},
            pool=[str(t) for t in pool],
            seed=hand.seed or "0" * 64,
            scores=scores,
        )
    ]
    leader = max(scores, key=lambda team: scores[team])
    if scores[leader] >= state.target:
        ended.append(MatchEnded(scores=scores, winner=leader))
    return ended


def _hand_points(state: MatchState, hand: HandState, winner: Team | None) -> int:
    if winner is None:
        return 0
    if state.scoring == "all":
        return team_pips(hand, "NS") + team_pips(hand, "EW")
    return team_pips(hand, other_team(winner))


# ---------------------------------------------------------------------------------------------
# evolve


def evolve(state: MatchState | None, event: Event) -> MatchState:
    """The state after `event`. Total for any event a decider could have produced."""
    if isinstance(event, MatchStarted):
        if state is not None:
            raise BadEvent("match_started twice")
        return MatchState(
            match_id=event.match_id,
            variant=get_variant(event.variant),
            target=event.target,
            players=dict(event.players),
            scoring=event.scoring,
            last_seq=event.seq,
        )
    if state is None:
        raise BadEvent(f"{event.type} before match_started")
    new = _evolve_match(state, event)
    return replace(new, last_seq=event.seq or state.last_seq + 1)


def _evolve_match(state: MatchState, event: Event) -> MatchState:
    hand = state.hand
    if isinstance(event, HandStarted):
        if state.phase != "between_hands" or event.hand != state.hands_played + 1:
            raise BadEvent(f"hand_started for hand {event.hand} out of order")
        size = state.variant.hand_size
        new_hand = HandState(
            number=event.hand,
            leader=event.leader,
            seed_sha256=event.seed_sha256,
            seed=event.seed,
            hands={s: None for s in SEATS},
            counts={s: size for s in SEATS},
            turn=event.leader,
        )
        return replace(state, hand=new_hand, phase="dealing")
    if hand is None or getattr(event, "hand", hand.number) != hand.number:
        raise BadEvent(f"{event.type} does not belong to the current hand")
    if isinstance(event, HandDealt):
        if state.phase != "dealing":
            raise BadEvent("hand_dealt outside the deal")
        tiles = None if event.tiles is None else frozenset(parse_tile(t) for t in event.tiles)
        hands = {**hand.hands, event.seat: tiles}
        dealt = hand.dealt + 1
        phase = "playing" if dealt == 4 else "dealing"
        return replace(state, hand=replace(hand, hands=hands, dealt=dealt), phase=phase)
    if isinstance(event, TilePlayed):
        return replace(state, hand=_evolve_play(state, hand, event))
    if isinstance(event, Passed):
        if state.phase != "playing" or hand.turn != event.seat or hand.left is None:
            raise BadEvent(f"{event.seat} cannot pass now")
        record = PassRecord(event.seat, hand.left, hand.left if hand.right is None else hand.right)
        new_hand = replace(hand, turn=next_seat(event.seat), passes=(*hand.passes, record))
        return replace(state, hand=new_hand)
    if isinstance(event, HandEnded):
        revealed = {s: frozenset(parse_tile(t) for t in event.remaining.get(s, [])) for s in SEATS}
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
        turn=next_seat(event.seat),
    )


def fold(events: Iterable[Event], state: MatchState | None = None) -> MatchState | None:
    """Replay: the state after every event, starting from `state` (None: before the match)."""
    for event in events:
        state = evolve(state, event)
    return state
