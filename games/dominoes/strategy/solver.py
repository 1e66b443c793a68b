"""Perfect-information solver: the value of a hand under best play by both sides.

Negamax alpha-beta over the compact Position. Sides alternate at every turn (S, W, N, E in
partnership; S, N for two players), so a child's value is the negation of its parent's.
Rules, as in games/dominoes/rules.py: a seat that has no tile fitting an open end passes;
after every play the hand ends if the player emptied its hand (domino) or no seat can play
(blocked — lower side pip total wins, tie 0); the winners score the losing side's pips
('losers') or every hand's ('all').

Draw-2 (two players, `Position.boneyard` in draw order): a seat with nothing to play draws
until a tile fits — and then must play it, which is the only tile that fits, so the search
goes on at the same seat with that one tile playable — or until the boneyard is empty (then
it passes, or the hand is blocked if the other seat cannot play either). A hand is blocked
only once the boneyard is empty. The order being known, a draw is one deterministic step;
draws, like passes, cost no depth.

Speed: a transposition table keyed on (hands, unordered ends, turn) stores bounds and the best
move, tried first on revisits; other moves are ordered doubles first, then heaviest. `depth`
counts plays (passes are free); at depth 0 a hand still in play is scored by .horizon. With
`depth=None` the search is exact. `limit` (a node count, never a time) aborts with OutOfNodes
once the solver has searched more nodes than it; `solve_moves_within` deepens iteratively
until its node budget is spent. Work, not wall-clock time, decides where a search stops, so
the same position gives the same values on any machine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.dominoes.commands import Move
from games.dominoes.strategy.encoding import codec
from games.dominoes.strategy.horizon import horizon_value
from games.dominoes.strategy.position import Position, child_ends

EXACT = 1000
"""A depth that never runs out (there are at most 55 tiles)."""
_EXACT_FLAG, _LOWER, _UPPER = 0, 1, 2
Leaf = Callable[[int, int, int, int, bool], float]
"""(tiles_me, tiles_opp, pips_me, pips_opp, scoring_all) -> points to the side to move minus
the other's, for a hand still in play where the depth runs out (.horizon.horizon_value)."""
UNLIMITED = 1 << 62
"""A node limit no search reaches."""


class OutOfNodes(Exception):
    """The search reached its node limit before it finished."""


@dataclass(frozen=True)
class SolveResult:
    value: float
    """Points to the first side minus points to the second under best play (exact when
    `exact`): NS minus EW in partnership, S minus N for two players."""
    exact: bool
    nodes: int
    sides: tuple[str, str] = ("NS", "EW")

    @property
    def winner(self) -> str | None:
        """The side the value favours (a zero-point hand has no winner here)."""
        return self.sides[0] if self.value > 0 else self.sides[1] if self.value < 0 else None


class Solver:
    """One search context: the tables of a variant, a scoring rule and a transposition table.

    Reuse one Solver across searches of the same deal to share its table; a table is only
    valid for one (variant, scoring), which the constructor fixes, and for one boneyard
    order (a position with another order, or another number of seats, clears it).
    """

    def __init__(
        self,
        max_pip: int,
        scoring_all: bool = False,
        use_table: bool = True,
        limit: int | None = None,
        leaf: Leaf = horizon_value,
    ) -> None:
        c = codec(max_pip)
        self.max_pip = max_pip
        self.scoring_all = scoring_all
        self.use_table = use_table
        self.limit = UNLIMITED if limit is None else limit
        """OutOfNodes once `nodes` passes it (nodes count from the solver's creation)."""
        self.leaf = leaf
        """The value where a depth budget stops a hand still in play (.horizon by default;
        seed 001's minimax scores the hand as if blocked there: .scenarios)."""
        self.table: dict[int, tuple[int, int, float, int]] = {}
        self.nodes = 0
        self._seats = 0
        self._bone: tuple[int, ...] = ()
        self._suit = c.suit
        self._pips = c.pips
        self._low = c.low
        self._high = c.high
        self._shift = len(c.tiles)
        # static order: doubles first, then heavier tiles (a play that makes the next seat
        # pass goes before both: see _moves)
        self._rank = tuple(
            (100 if lo == hi else 0) + lo + hi for lo, hi in zip(c.low, c.high, strict=True)
        )

    # ------------------------------------------------------------------ public
    def solve(self, pos: Position, depth: int | None = None) -> SolveResult:
        """Value of `pos` for the first side, NS or S (an empty line means a free opening by
        the seat to play)."""
        self._use(pos)
        exact = depth is None or depth >= pos.plays_left
        d = EXACT if depth is None or exact else depth
        start = self.nodes
        v = self._root(pos, d) if len(pos.hands) == 4 else self._root2(pos, d)
        sign = 1 if pos.turn % 2 == 0 else -1
        sides = ("NS", "EW") if len(pos.hands) == 4 else ("S", "N")
        return SolveResult(sign * v, exact, self.nodes - start, sides)

    def move_values(
        self, pos: Position, moves: Sequence[Move], depth: int | None = None
    ) -> list[float]:
        """For each move of the seat to play: points to its side minus the other's, after it.

        Each move is searched with a full window, so every value is exact (for its depth) —
        PIMC averages them, so a bound would not do. `depth` counts the move itself.
        """
        self._use(pos)
        exact = depth is None or depth >= pos.plays_left
        d = EXACT if depth is None or exact else depth
        play_value = self._play_value if len(pos.hands) == 4 else self._play_value2
        values: list[float] = []
        seen: dict[tuple[int, int, int], float] = {}
        c = codec(self.max_pip)
        for move in moves:
            i = c.index[move.tile]
            left, right = child_ends(pos.left, pos.right, move)
            key = (i, min(left, right), max(left, right))
            if key not in seen:
                seen[key] = play_value(pos, i, left, right, d)
            values.append(seen[key])
        return values

    # ------------------------------------------------------------------ internals
    def _use(self, pos: Position) -> None:
        """Check the position's shape; clear the table if it was kept for another one."""
        seats = len(pos.hands)
        if seats not in (2, 4) or (seats == 4 and pos.boneyard):
            raise ValueError("a position has four hands, or two and maybe a boneyard")
        if (seats, pos.boneyard) != (self._seats, self._bone):
            if self._seats:
                self.table.clear()
            self._seats, self._bone = seats, pos.boneyard

    def _root(self, pos: Position, depth: int) -> float:
        h = list(pos.hands)
        me = pos.turn
        pm = self._team_pips(h, me)
        po = self._team_pips(h, me + 1)
        if any(x == 0 for x in h):
            raise ValueError("the hand is over: a seat has no tiles")
        if pos.left >= 0:
            ends = self._suit[pos.left] | self._suit[pos.right]
            if not (h[0] | h[1] | h[2] | h[3]) & ends:
                return self._blocked(pm, po)
        return self._negamax(h, pos.left, pos.right, me, pm, po, -1e9, 1e9, depth)

    def _play_value(self, pos: Position, i: int, left: int, right: int, depth: int) -> float:
        h = list(pos.hands)
        me = pos.turn
        bit = 1 << i
        if not h[me] & bit:
            raise ValueError("the move's tile is not in the hand of the seat to play")
        pm = self._team_pips(h, me) - self._pips[i]
        po = self._team_pips(h, me + 1)
        h[me] ^= bit
        if not h[me]:
            return po + pm if self.scoring_all else po
        if not (h[0] | h[1] | h[2] | h[3]) & (self._suit[left] | self._suit[right]):
            return self._blocked(pm, po)
        if depth <= 1:
            return self._horizon(h, me, pm, po)
        return -self._negamax(h, left, right, (me + 1) & 3, po, pm, -1e9, 1e9, depth - 1)

    def _team_pips(self, h: list[int], seat: int) -> int:
        pips = self._pips
        total = 0
        for s in (seat & 3, (seat + 2) & 3):
            m = h[s]
            while m:
                low = m & -m
                total += pips[low.bit_length() - 1]
                m ^= low
        return total

    def _blocked(self, pm: int, po: int) -> float:
        """Blocked hand, from the side of the team that made the last play (pips pm)."""
        if pm < po:
            return pm + po if self.scoring_all else po
        if po < pm:
            return -(pm + po) if self.scoring_all else -pm
        return 0

    def _horizon(self, h: list[int], me: int, pm: int, po: int) -> float:
        """Horizon value for the team of seat `me` (the team that just played)."""
        tm = min(h[me].bit_count(), h[(me + 2) & 3].bit_count())
        to = min(h[(me + 1) & 3].bit_count(), h[(me + 3) & 3].bit_count())
        # the other team moves next: give it the tempo by evaluating from its side
        return -self.leaf(to, tm, po, pm, self.scoring_all)

    def _negamax(
        self,
        h: list[int],
        left: int,
        right: int,
        turn: int,
        pm: int,
        po: int,
        alpha: float,
        beta: float,
        depth: int,
    ) -> float:
        """Value for the team of `turn` (pips pm; the other team's po), the hand in play."""
        self.nodes += 1
        if depth > EXACT // 2:
            depth = EXACT  # exact searches keep one depth, so their table entries always serve
        if self.nodes > self.limit:
            raise OutOfNodes
        suit = self._suit
        hand = h[turn]
        playable = hand if left < 0 else hand & (suit[left] | suit[right])
        if not playable:
            # a forced pass; the line is not blocked (checked after every play), so some
            # other seat can play and this recursion ends within three passes
            return -self._negamax(h, left, right, (turn + 1) & 3, po, pm, -beta, -alpha, depth)

        lo_end, hi_end = (left, right) if left <= right else (right, left)
        key = 0
        entry = None
        alpha_orig = alpha
        if self.use_table:
            s = self._shift
            key = (
                (((h[0] << s | h[1]) << s | h[2]) << s | h[3]) << 8
                | (lo_end + 1) << 4
                | (hi_end + 1)
            ) << 2 | turn
            entry = self.table.get(key)
            if entry is not None and entry[0] >= depth:
                flag, v = entry[1], entry[2]
                if flag == _EXACT_FLAG:
                    return v
                if flag == _LOWER:
                    if v > alpha:
                        alpha = v
                elif v < beta:
                    beta = v
                if alpha >= beta:
                    return v

        moves = self._moves(
            playable, left, right, entry[3] if entry is not None else -1, h[(turn + 1) & 3]
        )
        pips = self._pips
        scoring_all = self.scoring_all
        nxt = (turn + 1) & 3
        best = -1e9
        best_move = -1
        for i, nl, nr in moves:
            bit = 1 << i
            h[turn] = hand ^ bit
            npm = pm - pips[i]
            if hand == bit:
                v = npm + po if scoring_all else po
            elif not (h[0] | h[1] | h[2] | h[3]) & (suit[nl] | suit[nr]):
                v = self._blocked(npm, po)
            elif depth <= 1:
                v = self._horizon(h, turn, npm, po)
            else:
                v = -self._negamax(h, nl, nr, nxt, po, npm, -beta, -alpha, depth - 1)
            h[turn] = hand
            if v > best:
                best = v
                best_move = i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break

        self._remember(key, depth, best, best_move, alpha_orig, beta)
        return best

    def _remember(self, key: int, depth: int, best: float, best_move: int,
                  alpha_orig: float, beta: float) -> None:
        """Keep a searched node's value in the table, as exact or as the bound it is."""
        if self.use_table:
            if best <= alpha_orig:
                flag = _UPPER
            elif best >= beta:
                flag = _LOWER
            else:
                flag = _EXACT_FLAG
            self.table[key] = (depth, flag, best, best_move)

    # ------------------------------------------------------------------ two players
    def _root2(self, pos: Position, depth: int) -> float:
        h = list(pos.hands)
        me = pos.turn
        if not h[0] or not h[1]:
            raise ValueError("the hand is over: a seat has no tiles")
        pm, po = self._mask_pips(h[me]), self._mask_pips(h[me ^ 1])
        ends = self._suit[pos.left] | self._suit[pos.right] if pos.left >= 0 else -1
        if not pos.boneyard and not (h[0] | h[1]) & ends:
            return self._blocked(pm, po)
        return self._negamax2(h, pos.left, pos.right, me, pm, po, 0, -1e9, 1e9, depth)

    def _play_value2(self, pos: Position, i: int, left: int, right: int, depth: int) -> float:
        h = list(pos.hands)
        me = pos.turn
        bit = 1 << i
        if not h[me] & bit:
            raise ValueError("the move's tile is not in the hand of the seat to play")
        pm = self._mask_pips(h[me]) - self._pips[i]
        po = self._mask_pips(h[me ^ 1])
        h[me] ^= bit
        if not h[me]:
            return po + pm if self.scoring_all else po
        if not self._bone and not (h[0] | h[1]) & (self._suit[left] | self._suit[right]):
            return self._blocked(pm, po)
        if depth <= 1:
            return -self.leaf(h[me ^ 1].bit_count(), h[me].bit_count(), po, pm,
                              self.scoring_all)
        return -self._negamax2(h, left, right, me ^ 1, po, pm, 0, -1e9, 1e9, depth - 1)

    def _mask_pips(self, m: int) -> int:
        pips = self._pips
        total = 0
        while m:
            low = m & -m
            total += pips[low.bit_length() - 1]
            m ^= low
        return total

    def _negamax2(
        self,
        h: list[int],
        left: int,
        right: int,
        turn: int,
        pm: int,
        po: int,
        drawn: int,
        alpha: float,
        beta: float,
        depth: int,
    ) -> float:
        """Value for seat `turn` (pips pm; the other seat's po) with `drawn` tiles of the
        boneyard order already drawn, the hand in play."""
        self.nodes += 1
        if depth > EXACT // 2:
            depth = EXACT
        if self.nodes > self.limit:
            raise OutOfNodes
        suit = self._suit
        hand = h[turn]
        other = turn ^ 1
        playable = hand if left < 0 else hand & (suit[left] | suit[right])
        bone = self._bone
        if not playable:
            if drawn < len(bone):
                return self._draw2(h, left, right, turn, pm, po, drawn, alpha, beta, depth)
            # a pass: the hand is not blocked (checked after every play and every draw that
            # emptied the boneyard), so the other seat can play
            return -self._negamax2(h, left, right, other, po, pm, drawn, -beta, -alpha, depth)

        lo_end, hi_end = (left, right) if left <= right else (right, left)
        key = 0
        entry = None
        alpha_orig = alpha
        if self.use_table:
            key = (
                ((((h[0] << self._shift | h[1]) << 8 | (lo_end + 1) << 4 | (hi_end + 1)) << 6)
                 | drawn) << 1
            ) | turn
            entry = self.table.get(key)
            if entry is not None and entry[0] >= depth:
                flag, v = entry[1], entry[2]
                if flag == _EXACT_FLAG:
                    return v
                if flag == _LOWER:
                    if v > alpha:
                        alpha = v
                elif v < beta:
                    beta = v
                if alpha >= beta:
                    return v

        moves = self._moves(playable, left, right, entry[3] if entry is not None else -1, h[other])
        pips = self._pips
        scoring_all = self.scoring_all
        can_block = drawn >= len(bone)
        best = -1e9
        best_move = -1
        for i, nl, nr in moves:
            bit = 1 << i
            h[turn] = hand ^ bit
            npm = pm - pips[i]
            if hand == bit:
                v = npm + po if scoring_all else po
            elif can_block and not (h[0] | h[1]) & (suit[nl] | suit[nr]):
                v = self._blocked(npm, po)
            elif depth <= 1:
                v = -self.leaf(h[other].bit_count(), h[turn].bit_count(), po, npm,
                               scoring_all)
            else:
                v = -self._negamax2(h, nl, nr, other, po, npm, drawn, -beta, -alpha, depth - 1)
            h[turn] = hand
            if v > best:
                best = v
                best_move = i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break

        self._remember(key, depth, best, best_move, alpha_orig, beta)
        return best

    def _draw2(
        self,
        h: list[int],
        left: int,
        right: int,
        turn: int,
        pm: int,
        po: int,
        drawn: int,
        alpha: float,
        beta: float,
        depth: int,
    ) -> float:
        """Seat `turn` has nothing to play: it draws in the boneyard's order until a tile fits
        (then plays on, that tile its only playable one) or the boneyard is empty."""
        ends = self._suit[left] | self._suit[right]
        bone = self._bone
        hand = h[turn]
        added = 0
        fit = False
        while drawn < len(bone) and not fit:
            i = bone[drawn]
            drawn += 1
            added |= 1 << i
            pm += self._pips[i]
            fit = bool(ends >> i & 1)
        h[turn] = hand | added
        if fit:
            v = self._negamax2(h, left, right, turn, pm, po, drawn, alpha, beta, depth)
        elif not h[turn ^ 1] & ends:
            v = self._blocked(pm, po)  # the boneyard is empty and neither seat can play
        else:
            v = -self._negamax2(h, left, right, turn ^ 1, po, pm, drawn, -beta, -alpha, depth)
        h[turn] = hand
        return v

    def _moves(
        self, playable: int, left: int, right: int, first: int, nxt_hand: int
    ) -> list[tuple[int, int, int]]:
        """(tile, new left, new right) for each distinct play, best-first."""
        low, high, rank, suit = self._low, self._high, self._rank, self._suit
        out: list[tuple[int, int, int, int]] = []
        while playable:
            b = playable & -playable
            playable ^= b
            i = b.bit_length() - 1
            a, c = low[i], high[i]
            r = 1000 if i == first else rank[i]
            if left < 0:
                out.append((r, i, a, c))
                continue
            done = -1
            if a == left or c == left:
                nl = c if a == left else a
                out.append((r + (0 if nxt_hand & (suit[nl] | suit[right]) else 300), i, nl, right))
                done = nl
            if a == right or c == right:
                nr = c if a == right else a
                # the same tile on the other end: skip it when it leaves the same ends
                if done < 0 or {nr, left} != {done, right}:
                    out.append(
                        (r + (0 if nxt_hand & (suit[left] | suit[nr]) else 300), i, left, nr)
                    )
        out.sort(reverse=True)
        return [(i, nl, nr) for _, i, nl, nr in out]


def solve(pos: Position, depth: int | None = None, use_table: bool = True) -> SolveResult:
    """Value of `pos` for the first side (NS, or S) under best play (exact unless `depth`
    cuts it short)."""
    return Solver(pos.max_pip, pos.scoring == "all", use_table).solve(pos, depth)


def solve_moves_within(
    pos: Position, moves: Sequence[Move], nodes: int, exact_tiles: int = 21
) -> tuple[list[float], bool, int]:
    """Move values (mover's side perspective) within a node budget, whether they are exact,
    and the nodes searched.

    Exact at once, whatever the budget, when at most `exact_tiles` plays are left (tiles in
    hands and, in draw-2, still to draw; about 20 ms at 21 tiles in partnership); otherwise
    iterative deepening (depth 4, 6, 8, ..., then exact) keeping the deepest iteration that
    finished within `nodes` nodes in all. Depth 4 is always returned, even past the budget.
    The nodes searched are counted, never timed: the same position and budget give the same
    values on any machine.
    """
    solver = Solver(pos.max_pip, pos.scoring == "all")
    left = pos.plays_left
    if left <= exact_tiles:
        return solver.move_values(pos, moves), True, solver.nodes
    values = solver.move_values(pos, moves, depth=4)
    solver.limit = nodes
    depth = 6
    try:
        while depth < left:
            values = solver.move_values(pos, moves, depth=depth)
            depth += 2
        return solver.move_values(pos, moves), True, solver.nodes
    except OutOfNodes:
        return values, False, solver.nodes
