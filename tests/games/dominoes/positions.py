"""Hand-built positions for rule examples (the referee's full state)."""

from __future__ import annotations

from games.dominoes.events import Event, Passed, TilePlayed
from games.dominoes.rules import evolve, legal_moves
from games.dominoes.state import HandState, MatchState
from games.dominoes.tiles import Seat, parse_tile
from games.dominoes.variants import get_variant


def position(
    hands: dict[Seat, list[str]],
    turn: Seat,
    line: list[tuple[int, int]] | None = None,
    hand_number: int = 2,
    leader: Seat = "S",
    scores: dict[str, int] | None = None,
    target: int = 100,
    scoring: str = "losers",
    variant: str = "partnership-6",
    boneyard: int = 0,
    seed: str = "1" * 64,
) -> MatchState:
    """`boneyard`: tiles left to draw (draw-2), taken from the end of `seed`'s draw order."""
    rules = get_variant(variant)
    seats = rules.seats
    tiles = {s: frozenset(parse_tile(t) for t in hands.get(s, [])) for s in seats}
    hand = HandState(
        number=hand_number,
        leader=leader,
        seed_sha256="0" * 64,
        seed=seed,
        hands=dict(tiles),
        counts={s: len(tiles[s]) for s in seats},
        turn=turn,
        line=tuple(line or ()),
        dealt=len(seats),
        boneyard=boneyard,
    )
    return MatchState(
        match_id="m-test",
        variant=rules,
        target=target,
        players={s: s for s in seats},
        scoring=scoring,  # type: ignore[arg-type]
        scores=dict(scores or dict.fromkeys(rules.sides, 0)),  # type: ignore[arg-type]
        hand=hand,
        phase="playing",
        hands_played=hand_number - 1,
    )


def a_pass_while_able(events: list[Event]) -> tuple[int, Passed]:
    """Where a match's first play after an opening tile was made by a seat that could play:
    its index, and a pass by that seat to forge in its place (a move the rules refuse)."""
    state, i = None, 0
    while True:
        state = evolve(state, events[i])
        turn = state.to_move
        if turn is not None and state.hand is not None and state.hand.line \
                and legal_moves(state, turn):
            break
        i += 1
    played = events[i + 1]
    assert isinstance(played, TilePlayed)
    return i + 1, Passed(seq=played.seq, hand=played.hand, seat=played.seat)
