"""The solver on two-player positions (block-2, draw-2) against plain minimax through the
real rules, draws included: the referee draws in the seed's order, the solver in the order
its Position carries."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.dominoes.fairness import boneyard
from games.dominoes.rules import legal_moves
from games.dominoes.strategy.position import UnknownHandError, from_hands, from_state
from games.dominoes.strategy.solver import Solver, solve, solve_moves_within
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import get_variant
from tests.games.dominoes.positions import position
from tests.games.dominoes.strategy.reference import minimax, random_two_player_endgame


@pytest.mark.parametrize("scoring", ["losers", "all"])
def test_block_2_agrees_with_plain_minimax(scoring: str) -> None:
    rng = random.Random(f"block-2-{scoring}")
    for _ in range(150):
        state = random_two_player_endgame(rng, "block-2", per_hand=5, scoring=scoring,
                                          uneven=True)
        assert solve(from_state(state)).value == minimax(state)


@pytest.mark.parametrize("scoring", ["losers", "all"])
def test_draw_2_agrees_with_plain_minimax(scoring: str) -> None:
    rng = random.Random(f"draw-2-{scoring}")
    drew = 0
    for k in range(120):
        to_draw = k % 6
        state = random_two_player_endgame(rng, "draw-2", per_hand=3, to_draw=to_draw,
                                          scoring=scoring, uneven=True)
        assert state.hand is not None
        drew += to_draw > 0 and not legal_moves(state, state.hand.turn)
        assert solve(from_state(state)).value == minimax(state)
    assert drew > 10  # the root itself must draw in enough of them


def test_the_table_never_changes_a_value() -> None:
    rng = random.Random("table-two")
    for k in range(60):
        variant = "draw-2" if k % 2 else "block-2"
        state = random_two_player_endgame(rng, variant, per_hand=5, to_draw=4 * (k % 2),
                                          uneven=True)
        pos = from_state(state)
        assert solve(pos).value == solve(pos, use_table=False).value


def test_move_values_match_the_solved_children() -> None:
    rng = random.Random("moves-two")
    checked = 0
    for k in range(60):
        variant = "draw-2" if k % 2 else "block-2"
        state = random_two_player_endgame(rng, variant, per_hand=4, to_draw=3 * (k % 2),
                                          uneven=True)
        assert state.hand is not None
        moves = legal_moves(state, state.hand.turn)
        if not moves:
            continue
        pos = from_state(state)
        sign = 1 if pos.turn == 0 else -1
        assert max(Solver(6).move_values(pos, moves)) == sign * solve(pos).value
        checked += 1
    assert checked > 30


def test_a_draw_until_a_fit_then_the_forced_play() -> None:
    # S holds 0-1 facing 5|6 and the boneyard is 2-3 then 4-5: S draws 2-3 (no fit), then
    # 4-5, which it must play (ends 4|6). N, holding 6-6 and 3-3, plays 6-6; the boneyard is
    # empty and neither 0-1, 2-3 nor 3-3 fits 4|6: blocked, 6 pips each, no points.
    seed = _seed_whose_last_draws_are(["2-3", "4-5"])
    state = position({"S": ["0-1"], "N": ["6-6", "3-3"]}, turn="S", line=[(5, 6)],
                     variant="draw-2", boneyard=2, seed=seed)
    pos = from_state(state)
    assert pos.plays_left == 5
    assert solve(pos).value == minimax(state) == 0
    # with 4-4 for 3-3, N plays both doubles while S is stuck, and scores S's 6 pips
    state = position({"S": ["0-1"], "N": ["6-6", "4-4"]}, turn="S", line=[(5, 6)],
                     variant="draw-2", boneyard=2, seed=seed)
    assert solve(from_state(state)).value == minimax(state) == -6


def test_a_draw_that_empties_the_boneyard_blocks_the_hand() -> None:
    # S faces 5|6 with 0-1 and draws the last tile, 2-3 (no fit); N (0-0, 1-2) has nothing
    # for 5|6 either: blocked, S 6 pips against N's 3, so N scores S's 6.
    seed = _seed_whose_last_draws_are(["2-3"])
    state = position({"S": ["0-1"], "N": ["0-0", "1-2"]}, turn="S", line=[(5, 6)],
                     variant="draw-2", boneyard=1, seed=seed)
    assert solve(from_state(state)).value == minimax(state) == -6


def test_one_solver_cleans_its_table_for_another_boneyard() -> None:
    rng = random.Random("reuse")
    solver = Solver(6)
    for _ in range(20):
        state = random_two_player_endgame(rng, "draw-2", per_hand=4, to_draw=5)
        pos = from_state(state)
        assert solver.solve(pos).value == solve(pos).value


def test_node_budget_and_exactness_count_the_tiles_to_draw() -> None:
    rng = random.Random("budget-two")
    state = random_two_player_endgame(rng, "draw-2", per_hand=5, to_draw=6)
    assert state.hand is not None
    pos = from_state(state)
    assert pos.tiles_left == 10 and pos.plays_left == 16
    assert not solve(pos, depth=12).exact
    moves = legal_moves(state, state.hand.turn) or []
    if moves:
        values, exact, _ = solve_moves_within(pos, moves, nodes=10**9, exact_tiles=0)
        assert exact and values == Solver(6).move_values(pos, moves)


def test_a_draw_2_position_needs_the_boneyard_order() -> None:
    state = position({"S": ["0-1"], "N": ["6-6"]}, turn="S", line=[(5, 6)],
                     variant="draw-2", boneyard=2)
    assert state.hand is not None
    with pytest.raises(UnknownHandError):
        from_state(replace(state, hand=replace(state.hand, seed=None)))
    with pytest.raises(ValueError):  # two tiles to draw, none given
        from_hands(state, {"S": [parse_tile("0-1")], "N": [parse_tile("6-6")]})


def _seed_whose_last_draws_are(tiles: list[str]) -> str:
    """A deal seed whose draw-2 boneyard ends with `tiles`, in this order."""
    want = tuple(parse_tile(t) for t in tiles)
    rules = get_variant("draw-2")
    rng = random.Random("seed-search")
    while True:
        seed = f"{rng.getrandbits(256):064x}"
        if boneyard(seed, rules)[-len(want):] == want:
            return seed
