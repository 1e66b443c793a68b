"""The solver against plain minimax through the real rules, with and without its table."""

from __future__ import annotations

import random

import pytest

from games.dominoes.commands import Move
from games.dominoes.rules import legal_moves
from games.dominoes.strategy.position import from_state
from games.dominoes.strategy.solver import OutOfNodes, Solver, solve, solve_moves_within
from tests.games.dominoes.positions import position
from tests.games.dominoes.strategy.reference import minimax, random_endgame


@pytest.mark.parametrize("scoring", ["losers", "all"])
def test_solver_agrees_with_plain_minimax_on_random_endgames(scoring: str) -> None:
    rng = random.Random(f"endgames-{scoring}")
    for _ in range(120):
        state = random_endgame(rng, per_hand=3, scoring=scoring, uneven=True)
        assert solve(from_state(state)).value == minimax(state)


def test_solver_agrees_with_plain_minimax_on_even_four_tile_hands() -> None:
    rng = random.Random("even-4")
    for _ in range(4):
        state = random_endgame(rng, per_hand=4)
        assert solve(from_state(state)).value == minimax(state)


def test_the_table_never_changes_a_value() -> None:
    rng = random.Random("table")
    for _ in range(60):
        pos = from_state(random_endgame(rng, per_hand=4, uneven=True))
        with_table = solve(pos)
        without = solve(pos, use_table=False)
        assert with_table.value == without.value
        assert with_table.exact and without.exact


def test_move_values_match_the_solved_children() -> None:
    rng = random.Random("moves")
    for _ in range(40):
        state = random_endgame(rng, per_hand=3, uneven=True)
        assert state.hand is not None
        moves = legal_moves(state, state.hand.turn)
        if not moves:
            continue
        pos = from_state(state)
        values = Solver(6).move_values(pos, moves)
        sign = 1 if pos.turn % 2 == 0 else -1
        assert max(values) == sign * solve(pos).value


def test_a_known_endgame() -> None:
    # South holds 6-6 only and the right end shows 6: South dominoes and wins West+East pips.
    state = position(
        {"S": ["6-6"], "W": ["0-1", "1-2"], "N": ["2-3"], "E": ["4-5"]},
        turn="S",
        line=[(3, 6)],
    )
    assert solve(from_state(state)).value == 1 + 3 + 9
    values = Solver(6).move_values(
        from_state(state), [Move(from_state(state).codec.tiles[-1], "right")]
    )
    assert values == [13]


def test_blocked_hand_goes_to_the_lower_team() -> None:
    # South plays 5-5 on the 5: nothing else fits 5 or 2, NS holds 1 pip, EW 18.
    state = position(
        {"S": ["5-5", "0-1"], "W": ["3-3"], "N": ["0-0"], "E": ["6-6"]},
        turn="S",
        line=[(2, 5)],
    )
    assert solve(from_state(state)).value == 18
    assert solve(from_state(state), use_table=False).value == 18


def test_depth_budget_and_node_budget() -> None:
    rng = random.Random("budget")
    state = random_endgame(rng, per_hand=5)
    assert state.hand is not None
    pos = from_state(state)
    moves = legal_moves(state, state.hand.turn)
    shallow = solve(pos, depth=2)
    assert not shallow.exact
    assert solve(pos, depth=40).exact
    values, exact, _ = solve_moves_within(pos, moves, nodes=10**9, exact_tiles=0)
    assert exact and len(values) == len(moves)
    assert values == Solver(6).move_values(pos, moves)


def test_a_node_limit_stops_a_search_at_a_count_not_a_time() -> None:
    """The limit is nodes searched: a search stops one node past it, the same count each
    time, and a budget that covers the search changes nothing."""
    rng = random.Random("node-limit")
    state = random_endgame(rng, per_hand=5)
    assert state.hand is not None
    pos = from_state(state)
    full = Solver(6)
    value = full.solve(pos).value
    assert full.nodes > 50
    for _ in range(2):
        cut = Solver(6, limit=50)
        with pytest.raises(OutOfNodes):
            cut.solve(pos)
        assert cut.nodes == 51
    assert Solver(6, limit=full.nodes).solve(pos).value == value
