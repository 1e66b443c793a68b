"""The compiled solver (games.texas42.kernel) against the pure-Python reference
(games.texas42.solver): the same values on random deals, endings, tricks in progress, windows,
node limits and the greedy policy's fixed team; its greedy policy equals games.texas42.greedy.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.texas42.dominoes import SEATS, TILES
from games.texas42.greedy import choose_play
from games.texas42.kernel import FastSolver, greedy_tile
from games.texas42.oracle import greedy_policy
from games.texas42.solver import OutOfNodes, Solver, bits, mask_of
from games.texas42.suits import TRUMPS


def deal(rng: random.Random, tricks: int) -> tuple[tuple[int, int, int, int], int, int]:
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = tuple(mask_of(tiles[k * tricks:(k + 1) * tricks]) for k in range(4))
    return hands, rng.choice(TRUMPS), rng.randrange(4)  # type: ignore[return-value]


def in_progress(rng: random.Random, hands: tuple[int, ...], trump: int, leader: int
                ) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """A random legal start of the first trick (1 to 3 plays)."""
    reference = Solver(trump)
    trick: tuple[tuple[int, int], ...] = ()
    held = list(hands)
    for k in range(rng.randrange(1, 4)):
        seat = (leader + k) % 4
        tile = rng.choice(bits(reference.legal(held[seat], trick)))
        held[seat] ^= 1 << tile
        trick = (*trick, (seat, tile))
    return tuple(held), trick


def test_greedy_tile_is_the_greedy_policy() -> None:
    rng = random.Random(4)
    checked = 0
    for _ in range(400):
        hands, trump, leader = deal(rng, rng.randrange(1, 8))
        held, trick = in_progress(rng, hands, trump, leader) if rng.random() < 0.7 else (
            hands, ())
        seat = (leader + len(trick)) % 4
        if not held[seat]:
            continue
        moves = Solver(trump).legal(held[seat], trick)
        played = np.zeros(4, np.int64)
        for k, (_, tile) in enumerate(trick):
            played[k] = tile
        expected = greedy_policy(trump)(seat, moves, trick)
        legal = [TILES[i] for i in bits(moves)]
        assert TILES[expected] == choose_play(SEATS[seat], legal, tuple(
            (SEATS[s], TILES[i]) for s, i in trick), trump)
        assert greedy_tile(seat, moves, played, 0, len(trick), leader, trump) == expected
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("tricks", [2, 3, 4, 5])
def test_values_equal_the_reference_on_random_endings(tricks: int) -> None:
    rng = random.Random(100 + tricks)
    for _ in range({2: 120, 3: 80, 4: 50, 5: 20}[tricks]):
        hands, trump, leader = deal(rng, tricks)
        assert FastSolver(trump).value(hands, leader) == Solver(trump).value(hands, leader)


def test_values_equal_the_reference_on_whole_deals() -> None:
    rng = random.Random(7)
    for _ in range(8):
        hands, trump, leader = deal(rng, 7)
        assert FastSolver(trump).value(hands, leader) == Solver(trump).value(hands, leader)


def test_tricks_in_progress_and_move_values_equal_the_reference() -> None:
    rng = random.Random(8)
    for _ in range(40):
        hands, trump, leader = deal(rng, rng.choice((3, 4)))
        held, trick = in_progress(rng, hands, trump, leader)
        fast, reference = FastSolver(trump), Solver(trump)
        assert fast.value(held, leader, trick) == reference.value(held, leader, trick)
        assert fast.move_values(held, leader, trick) == reference.move_values(
            held, leader, trick)


def test_null_windows_and_mtdf_from_any_guess_equal_the_reference() -> None:
    rng = random.Random(9)
    for _ in range(30):
        hands, trump, leader = deal(rng, 4)
        exact = Solver(trump).value(hands, leader)
        fast = FastSolver(trump)
        for guess in (0, exact, 42, rng.randrange(43)):
            assert fast.mtdf(hands, leader, guess) == exact
        for threshold in (exact - 3, exact, exact + 1, exact + 4):
            reached = fast.bounded(hands, leader, (), threshold - 1, threshold) >= threshold
            assert reached == (exact >= threshold)


def test_the_greedy_team_equals_the_reference_fixed_policy() -> None:
    rng = random.Random(10)
    for tricks, count in ((3, 40), (5, 20), (7, 6)):
        for _ in range(count):
            hands, trump, leader = deal(rng, tricks)
            team = rng.randrange(2)
            reference = Solver(trump, fixed=greedy_policy(trump), fixed_team=team)
            assert FastSolver(trump, fixed_team=team).value(hands, leader) == \
                reference.value(hands, leader)


def test_a_node_limit_stops_the_search_and_says_so() -> None:
    hands, trump, leader = deal(random.Random(11), 7)
    solver = FastSolver(trump, limit=50)
    with pytest.raises(OutOfNodes):
        solver.value(hands, leader)
    assert solver.nodes > 50
    full = FastSolver(trump)
    value = full.value(hands, leader)
    assert FastSolver(trump, limit=full.nodes).value(hands, leader) == value


def test_a_search_visits_the_same_nodes_whatever_ran_before_it() -> None:
    """Node limits decide answers, so a position's node count must not depend on the
    solvers that ran before it in the process (their stale table entries)."""
    rng = random.Random(12)
    hands, trump, leader = deal(rng, 7)
    first = FastSolver(trump)
    first.value(hands, leader)
    for _ in range(5):
        other, other_trump, other_leader = deal(rng, 7)
        FastSolver(other_trump).value(other, other_leader)
    again = FastSolver(trump)
    again.value(hands, leader)
    assert again.nodes == first.nodes


def test_registering_the_game_does_not_load_the_compiler() -> None:
    """numba's import and the kernel's cache load cost seconds: a process that registers the
    games (a server, its workers, every test) pays them only when it first solves a deal."""
    import subprocess
    import sys

    code = ("import sys, games.registry, games.texas42.advisor, games.texas42.pimc; "
            "print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
