"""The rules of Texas 42 as decide/evolve: pure, and the same for the table, replays and bots.

`decide(state, command)` returns the events a command causes (or raises Texas42Violation);
`evolve(state, event)` folds one event. A seat's view folds too (unknown hands are None).
"""

from __future__ import annotations

from dataclasses import replace

from games.fairness.shuffle import commitment as seed_commitment
from games.fairness.shuffle import shuffled
from games.texas42.commands import Bid, Command, DealHand, Move, NameTrump, PlayTile, StartMatch
from games.texas42.dominoes import (
    HAND_SIZE,
    SEATS,
    TILES,
    TRICKS,
    Tile,
    count_of,
    is_seat,
    next_seat,
    parse_tile,
    team_of,
)
from games.texas42.errors import illegal, not_your_turn, wrong_phase
from games.texas42.events import (
    BidMade,
    Dealt,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchStarted,
    Played,
    TrickWon,
    TrumpNamed,
)
from games.texas42.scoring import MARK_BIDS, PASS, award, award_nello, legal_bids, made
from games.texas42.state import Options, State
from games.texas42.suits import (
    FOLLOW_ME,
    NELLO,
    TRUMPS,
    follows,
    led_suit,
    parse_trump,
    trick_winner,
    trump_name,
)


def deal(seed: str) -> dict[str, tuple[Tile, ...]]:
    """The four hands a seed shuffles to: S, W, N, E take consecutive sevens (sorted)."""
    order = shuffled(seed, TILES)
    return {seat: tuple(sorted(order[k * HAND_SIZE:(k + 1) * HAND_SIZE]))
            for k, seat in enumerate(SEATS)}


# --- whose turn -------------------------------------------------------------------------------

def to_act(state: State | None) -> str | None:
    """The seat whose move the table awaits (None: the referee's turn, a batch half folded, or
    the match is over)."""
    if state is None:
        return None
    if state.phase == "bidding":
        if len(state.bids) >= 4:
            return None
        seat = next_seat(state.dealer)
        for _ in state.bids:
            seat = next_seat(seat)
        return seat
    if state.phase == "trump":
        return state.bidder
    if state.phase == "playing":
        if len(state.trick) == state.trick_size or len(state.tricks) == TRICKS:
            return None
        if state.nello and state.bidder in state.trick_winners:
            return None  # the bidder took a trick: the hand is over (hand_ended follows)
        if not state.trick:
            return state.leader
        seat = next_seat(state.trick[-1][0])
        return next_seat(seat) if seat == state.sitting_out else seat
    return None


def forced_to_bid(state: State, seat: str) -> bool:
    """The dealer, when every other seat passed and the table option says the dealer bids."""
    return (state.options.dealer_must_bid and seat == state.dealer and len(state.bids) == 3
            and state.high_bid == 0)


def legal_tiles(state: State, seat: str) -> list[Tile]:
    """The tiles `seat` may play now: the led suit if it holds any, else anything."""
    hand = sorted(state.hands.get(seat) or ())
    if not state.trick or state.trump is None:
        return hand
    suit = led_suit(state.trick[0][1], state.trump)
    following = [t for t in hand if follows(t, suit, state.trump)]
    return following or hand


def legal_commands(state: State, seat: str) -> list[Move]:
    if to_act(state) != seat:
        return []
    if state.phase == "bidding":
        return [Bid(seat, b) for b in legal_bids(state.high_bid, forced_to_bid(state, seat))]
    if state.phase == "trump":
        return [NameTrump(seat, t) for t in trump_choices(state)]
    return [PlayTile(seat, t) for t in legal_tiles(state, seat)]


def trump_choices(state: State) -> tuple[int, ...]:
    """What the bidder may name: any trump, and nello where the table offers it and the bid is
    in marks (42 or 84), as the published nello rules require."""
    if state.options.nello and state.high_bid in MARK_BIDS:
        return (*TRUMPS, NELLO)
    return TRUMPS


# --- decide -----------------------------------------------------------------------------------

def decide(state: State | None, command: Command) -> list[Event]:
    if isinstance(command, StartMatch):
        return _start(state, command)
    if state is None or state.phase == "over":
        raise wrong_phase("no match in play")
    if isinstance(command, DealHand):
        if state.phase != "between_hands":
            raise wrong_phase("a hand is in play")
        return _deal(state, command.seed)
    if not is_seat(getattr(command, "seat", None)):
        raise illegal(f"no seat {getattr(command, 'seat', None)!r} at 42 (S, W, N, E)")
    if isinstance(command, Bid):
        return _bid(state, command)
    if isinstance(command, NameTrump):
        return _name_trump(state, command)
    if isinstance(command, PlayTile):
        return _play(state, command)
    raise illegal(f"not a command of 42: {command!r}")


def _start(state: State | None, command: StartMatch) -> list[Event]:
    if state is not None:
        raise wrong_phase("the match has already started")
    if sorted(command.players) != sorted(SEATS):
        raise illegal("42 seats exactly S, W, N and E")
    if command.target_points <= 0 and command.target_marks <= 0:
        raise illegal("a match needs a target: marks or points")
    if not is_seat(command.first_dealer):
        raise illegal(f"no seat {command.first_dealer!r} to deal")
    return [MatchStarted(match_id=command.match_id, variant=command.variant,
                         players=dict(command.players), target_marks=command.target_marks,
                         target_points=command.target_points,
                         dealer_must_bid=command.dealer_must_bid,
                         first_dealer=command.first_dealer, nello=command.nello,
                         fairness=command.fairness)]


def _deal(state: State, seed: str) -> list[Event]:
    try:
        hands = deal(seed)
    except ValueError as error:
        raise illegal(f"bad deal seed: {error}") from None
    number = state.hand + 1
    return [HandStarted(hand=number, dealer=state.dealer, commitment=seed_commitment(seed),
                        seed=seed),
            *[Dealt(hand=number, seat=s, tiles=[str(t) for t in hands[s]]) for s in SEATS]]


def _expect_turn(state: State, seat: str, phase: str, doing: str) -> None:
    if state.phase != phase:
        raise wrong_phase(f"not the time to {doing} (the hand is {state.phase})")
    turn = to_act(state)
    if turn != seat:
        raise not_your_turn(f"it is {turn}'s turn, not {seat}'s")


def _bid(state: State, command: Bid) -> list[Event]:
    _expect_turn(state, command.seat, "bidding", "bid")
    allowed = legal_bids(state.high_bid, forced_to_bid(state, command.seat))
    if command.bid not in allowed:
        if command.bid == PASS:
            raise illegal("the dealer must bid when everyone else passed")
        raise illegal(f"bid {command.bid} is not allowed now (30..41, 42 or 84, above "
                      f"{state.high_bid or 'nothing'})")
    bid = BidMade(seat=command.seat, bid=command.bid)
    after = evolve(state, bid)
    if len(after.bids) < 4 or after.high_bid > 0:
        return [bid]
    return [bid, HandEnded(hand=state.hand, seed=state.seed or "", outcome="redeal",
                           totals=dict(state.totals))]


def _name_trump(state: State, command: NameTrump) -> list[Event]:
    _expect_turn(state, command.seat, "trump", "name trump")
    if command.trump not in trump_choices(state):
        if command.trump == NELLO:
            raise illegal("nello is not offered here (the table option is off, or the bid is "
                          "not in marks: 42 or 84)")
        raise illegal(f"not a trump: {command.trump!r}")
    return [TrumpNamed(seat=command.seat, trump=trump_name(command.trump))]


def _play(state: State, command: PlayTile) -> list[Event]:
    _expect_turn(state, command.seat, "playing", "play")
    hand = state.hands.get(command.seat)
    if hand is None or command.tile not in hand:
        raise illegal(f"{command.tile} is not in {command.seat}'s hand")
    if command.tile not in legal_tiles(state, command.seat):
        raise illegal(f"{command.tile} does not follow the led suit, and {command.seat} can")
    played = Played(seat=command.seat, tile=str(command.tile))
    after = evolve(state, played)
    if len(after.trick) < after.trick_size:
        return [played]
    assert after.trump is not None
    winner = trick_winner(after.trick, after.trump)
    won = TrickWon(trick=len(after.tricks) + 1, seat=winner,
                   points=1 + sum(count_of(t) for _, t in after.trick))
    after = evolve(after, won)
    caught = after.nello and winner == after.bidder  # nello: the hand is over at once
    if len(after.tricks) < TRICKS and not caught:
        return [played, won]
    return [played, won, *_end_hand(after)]


def _end_hand(state: State) -> list[Event]:
    bidder, bid = state.bidder, state.high_bid
    assert bidder is not None and state.trump is not None
    if state.nello:
        success = all(winner != bidder for winner in state.trick_winners)
        scored = award_nello(bidder, bid, success, state.options.in_points)
    else:
        success = made(bid, state.points[team_of(bidder)])
        scored = award(bidder, bid, state.points, state.options.in_points)
    totals = {team: state.totals[team] + scored[team] for team in state.totals}
    ended = HandEnded(hand=state.hand, seed=state.seed or "",
                      outcome="made" if success else "set", bidder=bidder, bid=bid,
                      trump=trump_name(NELLO if state.nello else state.trump),
                      points=dict(state.points), award=scored, totals=totals)
    target = state.options.target_points or state.options.target_marks
    reached = [team for team in ("NS", "EW") if totals[team] >= target]
    if not reached:
        return [ended]
    # both teams can pass the target in a points game: the higher total wins, a tie the bidders
    winner = max(reached, key=lambda t: (totals[t], t == team_of(bidder)))
    return [ended, MatchEnded(winner=winner, totals=totals)]


# --- evolve -----------------------------------------------------------------------------------

def evolve(state: State | None, event: Event) -> State:
    if isinstance(event, MatchStarted):
        options = Options(event.target_marks, event.target_points, event.dealer_must_bid,
                          event.first_dealer, event.nello)
        return State(match_id=event.match_id, variant=event.variant,
                     players=dict(event.players), options=options,
                     dealer=event.first_dealer)
    if state is None:
        raise ValueError(f"{event.type} before match_started")
    if isinstance(event, HandStarted):
        return replace(state, phase="dealing", hand=event.hand, dealer=event.dealer,
                       commitment=event.commitment, seed=event.seed, hands={}, counts={},
                       bids=(), trump=None, nello=False, trick=(), tricks=(), leader="",
                       points={"NS": 0, "EW": 0}, trick_winners=())
    if isinstance(event, Dealt):
        hands = {**state.hands, event.seat: None if event.tiles is None
                 else frozenset(parse_tile(t) for t in event.tiles)}
        counts = {**state.counts, event.seat: HAND_SIZE}
        return replace(state, hands=hands, counts=counts,
                       phase="bidding" if len(counts) == len(SEATS) else "dealing")
    if isinstance(event, BidMade):
        after = replace(state, bids=(*state.bids, (event.seat, event.bid)))
        if len(after.bids) == 4 and after.high_bid > 0:
            return replace(after, phase="trump")
        return after
    if isinstance(event, TrumpNamed):
        named = parse_trump(event.trump)
        if named == NELLO:  # played as follow-me, the bidder's partner out
            return replace(state, phase="playing", trump=FOLLOW_ME, nello=True,
                           leader=event.seat)
        return replace(state, phase="playing", trump=named, leader=event.seat)
    if isinstance(event, Played):
        tile = parse_tile(event.tile)
        own = state.hands.get(event.seat)
        hands = {**state.hands, event.seat: None if own is None else own - {tile}}
        counts = {**state.counts, event.seat: state.counts[event.seat] - 1}
        return replace(state, hands=hands, counts=counts, trick=(*state.trick,
                                                                 (event.seat, tile)))
    if isinstance(event, TrickWon):
        team = team_of(event.seat)
        points = {**state.points, team: state.points[team] + event.points}
        return replace(state, tricks=(*state.tricks, state.trick), trick=(),
                       leader=event.seat, points=points,
                       trick_winners=(*state.trick_winners, event.seat))
    if isinstance(event, HandEnded):
        return replace(state, phase="between_hands", totals=dict(event.totals) or state.totals,
                       dealer=next_seat(state.dealer), seed=event.seed)
    if isinstance(event, MatchEnded):
        return replace(state, phase="over", winner=event.winner, totals=dict(event.totals))
    raise ValueError(f"not an event of 42: {event!r}")
