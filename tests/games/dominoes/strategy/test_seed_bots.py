"""Seed 001's players (`playout`, `minimax`): the playing-out checked against exact values
where every play is forced, the same position giving the same move, legal moves at every
turn of random matches of every kind of dominoes, the minimax's node budget, and a short
tournament through the CLI (structure, not win rates; no timings)."""

from __future__ import annotations

import json
import random

import pytest

from clients.cli import main
from games.dominoes.commands import Command, DrawTiles, PassTurn, PlayTile
from games.dominoes.events import HandEnded
from games.dominoes.rules import decide, evolve, legal_moves, must_draw
from games.dominoes.seat_view import SeatView
from games.dominoes.selfplay import heaviest_policy, random_match_events
from games.dominoes.state import MatchState
from games.dominoes.strategy.bots import BOTS, TABLE_BOTS, make_bot
from games.dominoes.strategy.playout import random_finish
from games.dominoes.strategy.position import from_state
from games.dominoes.strategy.scenarios import blocked_leaf, decision_rng, minimax_values
from games.dominoes.strategy.solver import Solver, solve
from games.dominoes.strategy.table_bots import table_bots
from tests.games.dominoes.strategy.reference import random_endgame, random_two_player_endgame

FAST = {"playout": {"samples": 6}, "minimax": {"samples": 4, "nodes": 4_000}}
SEED_BOTS = ("playout", "minimax")


def _turns(variant: str, matches: int, seed: str):
    """(referee state, the seat-to-move's own view) at every decision with two or more moves
    of random heaviest-first matches."""
    rng = random.Random(seed)
    for _ in range(matches):
        events = random_match_events(rng, variant, target=30, policy=heaviest_policy)
        state: MatchState | None = None
        for k, event in enumerate(events):
            state = evolve(state, event)
            seat = state.to_move
            if seat is not None and len(legal_moves(state, seat)) > 1:
                yield state, SeatView.from_events(events[: k + 1], seat)


def _forced(state: MatchState) -> bool:
    """Every hand holds one tile: each seat's play, if any, is forced up to the end."""
    assert state.hand is not None
    return all(len(h or ()) == 1 for h in state.hand.hands.values())


@pytest.mark.parametrize("variant", ["block-2", "draw-2", "partnership"])
def test_a_forced_playout_ends_with_the_exact_value(variant: str) -> None:
    """With one tile a hand (and in draw-2 the boneyard's order known) no play is a choice
    but which end, so a random finish must score what the solver says: the rules of the
    playing-out (passes, draws, dominoes, blocks, the scoring) are the solver's."""
    rng = random.Random(f"forced-{variant}")
    checked = 0
    for k in range(300):
        scoring = "all" if k % 2 else "losers"
        if variant == "partnership":
            state = random_endgame(rng, 1, scoring)
        else:
            state = random_two_player_endgame(rng, variant, 1, to_draw=k % 3 if
                                              variant == "draw-2" else 0, scoring=scoring)
        pos = from_state(state)
        if pos.boneyard:  # a drawn tile may add a choice: keep hands of one tile throughout
            continue
        assert _forced(state)
        assert random_finish(pos, rng) == solve(pos).value, (variant, k)
        checked += 1
    assert checked >= 100


def _outcomes(state: MatchState) -> set[int]:
    """Every final value (points to the first side minus the second) some line of legal
    plays reaches, through the referee's own rules (decide/evolve)."""
    assert state.hand is not None
    first, seat = state.variant.sides[0], state.hand.turn
    moves = legal_moves(state, seat)
    commands: list[Command] = ([PlayTile(seat, m.tile, m.end) for m in moves] if moves else
                               [DrawTiles(seat) if must_draw(state, seat) else PassTurn(seat)])
    out: set[int] = set()
    for command in commands:
        after, ended = state, None
        for event in decide(state, command):
            after = evolve(after, event)
            if isinstance(event, HandEnded):
                ended = event
        if ended is None:
            out |= _outcomes(after)
        else:
            out.add(0 if ended.winner is None else
                    ended.points if ended.winner == first else -ended.points)
    return out


@pytest.mark.parametrize("variant", ["block-2", "draw-2", "partnership"])
def test_a_playout_ends_where_some_line_of_legal_play_ends(variant: str) -> None:
    """Draws included: each random finish is one of the values the referee's rules reach."""
    rng = random.Random(f"lines-{variant}")
    for k in range(60):
        scoring = "all" if k % 2 else "losers"
        if variant == "partnership":
            state = random_endgame(rng, 2, scoring)
        else:
            state = random_two_player_endgame(rng, variant, 2, scoring=scoring,
                                              to_draw=k % 4 if variant == "draw-2" else 0)
        reachable = _outcomes(state)
        pos = from_state(state)
        for _ in range(5):
            assert random_finish(pos, rng) in reachable, (variant, k)


def test_the_blocked_leaf_scores_like_a_block() -> None:
    assert blocked_leaf(3, 5, 10, 20, False) == 20
    assert blocked_leaf(3, 5, 20, 10, False) == -20
    assert blocked_leaf(3, 5, 20, 10, True) == -30
    assert blocked_leaf(1, 1, 7, 7, False) == 0


def test_minimax_deep_enough_is_exact() -> None:
    """The leaf only scores hands cut off by the depth: searched to the end, seed 001's
    minimax and the solver agree on every move."""
    rng = random.Random("deep")
    for _ in range(30):
        state = random_two_player_endgame(rng, "block-2", 3)
        pos = from_state(state)
        assert state.hand is not None
        moves = legal_moves(state, state.hand.turn)
        if not moves:
            continue
        deep = Solver(pos.max_pip, leaf=blocked_leaf).move_values(pos, moves, depth=20)
        assert deep == Solver(pos.max_pip).move_values(pos, moves)


@pytest.mark.parametrize("name", SEED_BOTS)
def test_the_same_position_gives_the_same_move(name: str) -> None:
    """Whatever the bot's seed, the caller's random source or what it decided before, one
    position gives one move (the decision's seed is the position's)."""
    turns = list(_turns("block-2", 2, f"same-{name}"))[:12]
    assert len(turns) >= 6
    fresh = [make_bot(name, seed=k, **FAST[name]).choose(view, legal_moves(state, view.seat),
                                                         random.Random(k))
             for k, (state, view) in enumerate(turns)]
    busy = make_bot(name, seed="other", **FAST[name])
    for k, (state, view) in reversed(list(enumerate(turns))):
        move = busy.choose(view, legal_moves(state, view.seat), random.Random(100 + k))
        assert move == fresh[k]
    # a different salt is a different player: its random source differs
    state, view = turns[0]
    assert (decision_rng(view, name, (6,), salt=1).random()
            != decision_rng(view, name, (6,), salt=0).random())


@pytest.mark.parametrize("variant", ["block-2", "draw-2", "partnership-6"])
@pytest.mark.parametrize("name", SEED_BOTS)
def test_only_legal_moves_at_every_turn(variant: str, name: str) -> None:
    bot = make_bot(name, seed=1, **FAST[name])
    seen = 0
    for state, view in _turns(variant, 1, f"legal-{variant}-{name}"):
        moves = legal_moves(state, view.seat)
        assert bot.choose(view, moves, random.Random(0)) in moves
        seen += 1
        if seen >= 25:
            break
    assert seen >= 10


def test_minimax_keeps_to_its_node_budget() -> None:
    """Each scenario may use what is left; one that runs out is dropped, so the nodes a
    decision counts stay within the budget (one node past it: the solver stops on the node
    after its limit; plus the small fallback search when even the first scenario ran out)."""
    for state, view in list(_turns("draw-2", 1, "budget"))[:8]:
        moves = legal_moves(state, view.seat)
        for nodes in (500, 20_000):
            values = minimax_values(view, moves, random.Random(1), 50, 10, nodes)
            assert values.scenarios >= 1
            assert values.scenarios == 1 or values.work <= nodes + 1
            assert len(values.means) == len(moves)


def test_registered_for_tournaments_and_tables() -> None:
    assert set(SEED_BOTS) <= set(BOTS) and set(SEED_BOTS) <= set(TABLE_BOTS)
    bots = table_bots()
    assert bots["playout"].with_budgets(nodes=10, samples=7).options == {"samples": 7}
    assert bots["minimax"].with_budgets(nodes=10, samples=7).options == {"samples": 7,
                                                                         "nodes": 10}


def test_a_short_tournament_of_seed_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--team-a", "minimax", "--team-b", "playout", "--variant",
                 "block-2", "--matches", "2", "--seed", "5", "--target", "1", "--workers", "1",
                 "--samples", "5", "--nodes", "5000", "--json"])
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["matches"] == 2 and figures["a"]["wins"] + figures["b"]["wins"] == 2
    assert figures["budgets"] == {"minimax": {"samples": 5, "depth": 10, "nodes": 5000},
                                  "playout": {"samples": 5}}
