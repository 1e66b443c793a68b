"""The bots at the two-player games (block-2, draw-2): legal at every decision of many random
positions, drawing when they must, whole matches to the end; and how a sampled deal is
completed (draw-2: the boneyard's order shuffled, every order alike)."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from games.dominoes.commands import DrawTiles, PassTurn, PlayTile
from games.dominoes.rules import decide, evolve, legal_moves, must_draw
from games.dominoes.seat_view import SeatView
from games.dominoes.selfplay import heaviest_policy, random_match_events
from games.dominoes.state import MatchState
from games.dominoes.strategy.bots import make_bot
from games.dominoes.strategy.play import play_match
from games.dominoes.strategy.sampling import SampleError, complete_deal
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import get_variant
from inference.classes import POOL

VARIANTS = ("block-2", "draw-2")
NO_BELIEF_NEEDED = ("random", "greedy", "omniscient")
"""The bots that decide without a belief (pimc samples from one: test_pimc_two.py)."""
FAST = {"omniscient": {"nodes": 10_000}}


def _seed(n: int) -> str:
    return hashlib.sha256(f"bots-two:{n}".encode()).hexdigest()


def _positions(rng: random.Random, variant: str, matches: int):
    """(events so far, referee state, views) at every turn of random (heaviest-first)
    matches; views[seat, audience]: the seat's own and the referee's, folded as they come."""
    seats = get_variant(variant).seats
    for _ in range(matches):
        events = random_match_events(rng, variant, target=60, policy=heaviest_policy)
        views = {(s, a): SeatView(s, a) for s in seats for a in (s, "referee")}
        state: MatchState | None = None
        for k, event in enumerate(events):
            state = evolve(state, event)
            for view in views.values():
                view.apply(event)
            if state.to_move is not None:
                yield events[: k + 1], state, views


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("pair", [("random", "greedy"), ("greedy", "omniscient")])
def test_bots_play_whole_two_player_matches(variant: str, pair: tuple[str, str]) -> None:
    a, b = pair
    bots = {"S": make_bot(a, seed=1, **FAST.get(a, {})),
            "N": make_bot(b, seed=2, **FAST.get(b, {}))}
    result = play_match(bots, _seed, target=40, variant=variant)  # raises on an illegal move
    assert set(result.scores) == {"S", "N"} and result.winner in ("S", "N")
    assert max(result.scores.values()) >= 40
    assert result.hands == len(result.hand_points)
    assert all(set(p) == {"S", "N"} for p in result.hand_points)
    assert sum(p["S"] for p in result.hand_points) == result.scores["S"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_bot_acts_legally_at_every_turn(variant: str) -> None:
    """At every turn of random matches, each bot's act (through the seat's own redacted
    view; omniscient's, the referee's, at every third turn) is a command the referee
    accepts: a play it offers, else a draw when the seat must draw, else a pass."""
    rng = random.Random(f"act-{variant}")
    bots = {name: make_bot(name, seed=3, **FAST.get(name, {})) for name in NO_BELIEF_NEEDED}
    kinds: Counter[str] = Counter()
    for turn, (_events, state, views) in enumerate(_positions(rng, variant, 4)):
        seat = state.to_move
        assert seat is not None
        moves = legal_moves(state, seat)
        for bot in bots.values():
            if bot.sees_all and turn % 3:
                continue
            command = bot.act(views[seat, "referee" if bot.sees_all else seat])
            if moves:
                assert isinstance(command, PlayTile)
                assert any(m.tile == command.tile and m.end == command.end for m in moves)
            elif must_draw(state, seat):
                assert command == DrawTiles(seat)
            else:
                assert command == PassTurn(seat)
            decide(state, command)  # the referee accepts it
            kinds[type(command).__name__] += 1
        other = get_variant(variant).next_seat(seat)
        assert bots["greedy"].act(views[other, other]) is None
    assert kinds["PlayTile"] > 300 and kinds["PassTurn"] > 0
    if variant == "draw-2":
        assert kinds["DrawTiles"] > 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_choose_move_from_events_is_legal(variant: str) -> None:
    rng = random.Random(f"choose-{variant}")
    bots = [make_bot(name, seed=4, **FAST.get(name, {})) for name in NO_BELIEF_NEEDED]
    checked = 0
    for events, state, _views in _positions(rng, variant, 2):
        seat = state.to_move
        assert seat is not None
        moves = legal_moves(state, seat)
        if moves and rng.random() < 0.3:
            for bot in bots:
                assert bot.choose_move(events, seat) in moves
            checked += 1
    assert checked > 20


def test_a_sampled_deal_is_completed_with_the_seats_own_hand() -> None:
    own = [parse_tile("0-0"), parse_tile("1-2")]
    unseen = {"N": [parse_tile("3-4")], POOL: [parse_tile("5-5"), parse_tile("6-6")]}
    block = complete_deal(unseen, "S", own, get_variant("block-2"), 0, random.Random(1))
    assert block.hands == {"S": own, "N": [parse_tile("3-4")]} and block.to_draw == ()
    draw = complete_deal(unseen, "S", own, get_variant("draw-2"), 2, random.Random(1))
    assert draw.hands == block.hands
    assert sorted(draw.to_draw) == unseen[POOL]
    with pytest.raises(SampleError):
        complete_deal(unseen, "S", own, get_variant("draw-2"), 3, random.Random(1))


def test_every_boneyard_order_is_equally_likely() -> None:
    """Four tiles to draw: 24 orders, 12 000 completions, ~500 each. A bias towards the
    belief's listing order (say, one tile kept in front) would move some count by far more
    than the 5 standard deviations (±110) allowed here."""
    pool = [parse_tile(t) for t in ("0-1", "2-3", "4-5", "6-6")]
    unseen = {"N": [parse_tile("1-1")], POOL: pool}
    rng = random.Random("orders")
    counts = Counter(
        complete_deal(unseen, "S", [], get_variant("draw-2"), 4, rng).to_draw
        for _ in range(12_000)
    )
    assert len(counts) == 24
    assert all(abs(n - 500) < 110 for n in counts.values()), counts


