"""The greedy bot's rules (seed 001's heuristics plus partnership ones), as a move score.

Each legal move gets a score from what the seat can see; the highest wins (ties at random).
For a move leaving open ends (x, y) — both counted, so a double end counts twice:
  +6      the tile is a double (doubles fit fewer ends: get rid of them early)
  +4      per end the next opponent is known to lack (it must pass, or draw, again)
  +3      per end the other opponent is known to lack                  (partnership only)
  −3      per end the partner is known to lack (do not shut it out)    (partnership only)
  +1.5    per end the partner showed (either value of a tile it played) (partnership only)
  −2      covering the end the partner just made (unless a double or no other choice)
                                                                       (partnership only)
  +1      per tile of the end's value the seat still holds after the play (it can follow)
  +0.5·(7 − unseen)  per end, unseen = tiles of that value the seat cannot see: the rarer,
          the less likely the opponents hold it
  +0.3·pips  shed weight (pips left in hand count against the side if the hand is lost)
For two players (block-2, draw-2) the other seat is the only opponent and there is no
partner: the rules marked "partnership only" do not apply.

"Known to lack": the seat passed on that end, or drew on it (draw-2: it held nothing for the
ends, its drawn tiles but the last showed neither, and the last was played at once). A draw
that keeps tiles nobody else saw (all but a fitting last one) may have brought back values
the drawer lacked, so it replaces what its earlier passes and draws said with the ends it
drew on. Rules and weights are documented in docs/strategy.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.dominoes.commands import Move
from games.dominoes.events import Passed, TilePlayed, TilesDrawn
from games.dominoes.line import fits
from games.dominoes.seat_view import SeatView
from games.dominoes.state import HandState
from games.dominoes.tiles import Seat, as_seat, parse_tile, partner_of


def _ends_after(left: int | None, right: int | None, move: Move) -> tuple[int, int]:
    t = move.tile
    if left is None or right is None:
        return t.low, t.high
    end = move.end or fits(t, left, right)[0]
    if end == "left":
        return t.other(left), right
    return left, t.other(right)


def known_voids(view: SeatView, hand: HandState, seats: Sequence[Seat]) -> dict[Seat, set[int]]:
    """The values each seat is known to lack now, from its passes and draws (module doc)."""
    voids: dict[Seat, set[int]] = {s: set() for s in seats}
    passes, draws = iter(hand.passes), iter(hand.draws)
    events = view.hand_events()
    for k, event in enumerate(events):  # the records, in the order they happened
        if isinstance(event, Passed):
            record = next(passes)
            voids[record.seat].update((record.left, record.right))
        elif isinstance(event, TilesDrawn):
            drew = next(draws)
            after = events[k + 1] if k + 1 < len(events) else None
            played = after is None or (isinstance(after, TilePlayed) and after.seat == drew.seat)
            kept = drew.count - 1 if played else drew.count
            if kept:
                voids[drew.seat] = {drew.left, drew.right}
            else:
                voids[drew.seat].update((drew.left, drew.right))
    return voids


def score_moves(view: SeatView, moves: Sequence[Move]) -> list[float]:
    """The greedy score of each move (higher is better)."""
    state = view.state
    assert state is not None and state.hand is not None
    hand = state.hand
    seat = as_seat(view.seat)
    variant = state.variant
    opp_next = variant.next_seat(seat)
    partner = partner_of(seat) if variant.partnership else None
    opp_prev = partner_of(opp_next) if variant.partnership else None
    voids = known_voids(view, hand, variant.seats)
    own = hand.hands.get(seat) or frozenset()
    seen = set(own) | set(hand.played)
    unseen = [0] * (state.variant.max_pip + 1)
    for t in state.variant.tiles:
        if t not in seen:
            unseen[t.low] += 1
            if t.high != t.low:
                unseen[t.high] += 1
    plays = view.plays() if partner is not None else []
    partner_shown: set[int] = set()
    partner_end: str | None = None
    for play in plays:
        if play.seat == partner:
            t = parse_tile(play.tile)
            partner_shown.update((t.low, t.high))
    covered: set[str | None] = set()
    for play in reversed(plays):  # the partner's last play, if its end is still showing
        if play.seat == seat:
            break
        if play.seat == partner:
            if play.end is not None and play.end not in covered:
                partner_end = play.end
            break
        covered.add(play.end)
    scores = []
    for move in moves:
        t = move.tile
        ends = _ends_after(hand.left, hand.right, move)
        rest = own - {t}
        s = 6.0 if t.is_double else 0.0
        s += 0.3 * t.pips
        for v in ends:
            if v in voids[opp_next]:
                s += 4
            if opp_prev is not None and partner is not None:
                if v in voids[opp_prev]:
                    s += 3
                if v in voids[partner]:
                    s -= 3
                elif v in partner_shown:
                    s += 1.5
            s += sum(1 for r in rest if r.has(v))
            s += 0.5 * (7 - unseen[v])
        if partner_end is not None and move.end == partner_end and not t.is_double:
            s -= 2
        scores.append(s)
    return scores


def greedy_choice(view: SeatView, moves: Sequence[Move], rng: random.Random) -> Move:
    scores = score_moves(view, moves)
    best = max(scores)
    return rng.choice([m for m, s in zip(moves, scores, strict=True) if s == best])
