"""The solver against plain exhaustive minimax on endings with at most three tricks left.

The reference knows nothing of alpha-beta or tables: it tries every legal play of every seat
(following suit by the rules' own `legal_tiles`) and scores tricks with `trick_winner`.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.texas42.dominoes import INDEX, SEATS, TILES, count_of
from games.texas42.rules import legal_tiles
from games.texas42.solver import Solver, mask_of, solve_deal
from games.texas42.suits import TRUMPS, trick_winner
from tests.games.texas42.helpers import playing


def minimax(hands: dict[str, list], trump: int, leader: str,
            trick: tuple = ()) -> int:
    """NS points from here by trying everything (the state's rules decide what may follow)."""
    if len(trick) == 4:
        winner = trick_winner(trick, trump)
        gained = 1 + sum(count_of(t) for _, t in trick)
        ns = gained if winner in ("N", "S") else 0
        if not any(hands.values()):
            return ns
        return ns + minimax(hands, trump, winner, ())
    seat = SEATS[(SEATS.index(leader) + len(trick)) % 4]
    state = replace(playing({s: " ".join(str(t) for t in hands[s]) or "0-0" for s in SEATS},
                            trump, leader), trick=trick,
                    hands={s: frozenset(hands[s]) for s in SEATS})
    values = []
    for tile in legal_tiles(state, seat):
        rest = {**hands, seat: [t for t in hands[seat] if t != tile]}
        values.append(minimax(rest, trump, leader, (*trick, (seat, tile))))
    return max(values) if seat in ("N", "S") else min(values)


def ending(rng: random.Random, tricks: int) -> tuple[dict[str, list], int, str]:
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = {s: sorted(tiles[k * tricks:(k + 1) * tricks]) for k, s in enumerate(SEATS)}
    return hands, rng.choice(TRUMPS), rng.choice(SEATS)


@pytest.mark.parametrize("tricks", [1, 2, 3])
def test_the_solver_equals_exhaustive_minimax_on_endings(tricks: int) -> None:
    rng = random.Random(42 + tricks)
    for _ in range({1: 40, 2: 30, 3: 12}[tricks]):
        hands, trump, leader = ending(rng, tricks)
        assert solve_deal(hands, trump, leader) == minimax(hands, trump, leader)


def test_move_values_mid_trick_equal_minimax() -> None:
    rng = random.Random(7)
    for _ in range(10):
        hands, trump, leader = ending(rng, 3)
        lead = hands[leader][0]
        trick = ((leader, lead),)
        rest = {**hands, leader: hands[leader][1:]}
        second = SEATS[(SEATS.index(leader) + 1) % 4]
        solver = Solver(trump)
        masks = tuple(mask_of(rest[s]) for s in SEATS)
        values = solver.move_values(masks, SEATS.index(leader), ((SEATS.index(leader),
                                                                  INDEX[lead]),))
        for tile_index, value in values.items():
            tile = TILES[tile_index]
            after = {**rest, second: [t for t in rest[second] if t != tile]}
            assert value == minimax(after, trump, leader, (*trick, (second, tile)))


def test_a_whole_deal_shares_42_points() -> None:
    rng = random.Random(3)
    hands, trump, leader = ending(rng, 7)
    ns = solve_deal(hands, trump, leader)
    assert 0 <= ns <= 42
    # the same deal with the teams' hands swapped round: EW now hold NS's tiles
    swapped = {"S": hands["W"], "W": hands["N"], "N": hands["E"], "E": hands["S"]}
    lead_after = SEATS[(SEATS.index(leader) - 1) % 4]
    assert solve_deal(swapped, trump, lead_after) == 42 - ns


@pytest.mark.parametrize("tricks", [2, 3])
def test_null_window_searches_from_any_guess_equal_minimax(tricks: int) -> None:
    """MTD(f) (the oracle's search) from a guess too low, right or too high, with true bounds,
    equals exhaustive minimax; so do the sure-trick bounds and the follow orders under it."""
    rng = random.Random(11 + tricks)
    for _ in range(25):
        hands, trump, leader = ending(rng, tricks)
        exact = minimax(hands, trump, leader, ())
        masks = tuple(mask_of(hands[s]) for s in SEATS)
        for guess in (0, exact, 42, rng.randrange(43)):
            assert Solver(trump).mtdf(masks, SEATS.index(leader), guess) == exact
        assert Solver(trump).mtdf(masks, SEATS.index(leader), 0, low=exact - 1) == exact
        assert Solver(trump).mtdf(masks, SEATS.index(leader), 42, high=exact + 1) == exact


def test_mtdf_from_the_greedy_bound_equals_the_full_window_on_whole_deals() -> None:
    from games.texas42.oracle import completions, greedy_score

    rng = random.Random(3)
    hand = sorted(rng.sample(TILES, 7))
    for deal in completions(hand, "S", 2, rng):
        masks = tuple(mask_of(deal[s]) for s in SEATS)
        for trump in TRUMPS:
            lower = greedy_score(deal, trump, "S")
            full = Solver(trump).value(masks, 0)
            assert lower <= full
            assert Solver(trump).mtdf(masks, 0, lower, low=lower) == full


def test_two_trick_endings_by_their_own_loop_equal_minimax() -> None:
    """The last two tricks are solved by a dedicated loop (Solver._two_tricks): every trump,
    every leader, many endings, against exhaustive minimax."""
    rng = random.Random(2)
    for _ in range(300):
        hands, trump, leader = ending(rng, 2)
        masks = tuple(mask_of(hands[s]) for s in SEATS)
        assert Solver(trump)._two_tricks(masks, SEATS.index(leader)) == minimax(
            hands, trump, leader, ())


def greedy_minimax(hands: dict[str, list], trump: int, leader: str, team: int,
                   trick: tuple = ()) -> int:
    """NS points from here when the seats of `team` (0: S and N, 1: W and E) play the greedy
    policy at every turn, leads included, and the others play perfectly (exhaustively)."""
    from games.texas42.greedy import choose_play

    if len(trick) == 4:
        winner = trick_winner(trick, trump)
        gained = 1 + sum(count_of(t) for _, t in trick)
        ns = gained if winner in ("N", "S") else 0
        if not any(hands.values()):
            return ns
        return ns + greedy_minimax(hands, trump, winner, team, ())
    seat = SEATS[(SEATS.index(leader) + len(trick)) % 4]
    state = replace(playing({s: " ".join(str(t) for t in hands[s]) or "0-0" for s in SEATS},
                            trump, leader), trick=trick,
                    hands={s: frozenset(hands[s]) for s in SEATS})
    legal = sorted(legal_tiles(state, seat))
    if SEATS.index(seat) % 2 == team:
        legal = [choose_play(seat, legal, trick, trump)]
    values = []
    for tile in legal:
        rest = {**hands, seat: [t for t in hands[seat] if t != tile]}
        values.append(greedy_minimax(rest, trump, leader, team, (*trick, (seat, tile))))
    return max(values) if seat in ("N", "S") else min(values)


def test_a_fixed_policy_plays_every_turn_of_its_team_leads_included() -> None:
    """The oracle's lower bracket: the greedy team leads by its policy at every trick, not
    only the first (the search once chose that team's later leads perfectly)."""
    from games.texas42.oracle import greedy_policy

    rng = random.Random(17)
    for _ in range(40):
        hands, trump, leader = ending(rng, 3)
        team = rng.randrange(2)
        masks = tuple(mask_of(hands[s]) for s in SEATS)
        solver = Solver(trump, fixed=greedy_policy(trump), fixed_team=team)
        assert solver.value(masks, SEATS.index(leader)) == greedy_minimax(  # type: ignore[arg-type]
            hands, trump, leader, team)
