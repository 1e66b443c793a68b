"""A position as arrays for the swap chain (games.uno.chain_kernel): slots, columns, checks.

An *arrangement* puts every hidden physical card of a source (the deal's shuffled deck, or a
reshuffled pile) into one slot of that source's columns (an unknown hand's batches, the
deck). Under the uniform model (the fair shuffle: every order of a source equally likely,
each reshuffle's order independent of everything the observer saw) every arrangement is
equally likely a priori, and the history keeps it or not. An arrangement is consistent when,
for every unknown hand and kind, the count along the hand's timeline (copies in the batches
drawn so far minus copies played so far) passes every check: at least one before a play of
the kind, none at a "nothing to play" moment where the kind was legal.

Checks are stored per (owner, kind) as (batches drawn before, copies played before, is a
play), so a swap that moves kinds a and b between two batches re-checks only those kinds on
those batches' owners.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.uno.counting import DECK, Position

DECK_OWNER = -1


@dataclass(frozen=True)
class Layout:
    kinds: tuple[str, ...]
    owners: tuple[str, ...]
    source_cards: tuple[np.ndarray, ...]
    """Per source, its hidden cards as kind indices, in a canonical (sorted) order."""
    slot_col: np.ndarray
    """Slot -> its column; slots of one source are contiguous, source by source."""
    src_lo: np.ndarray
    src_hi: np.ndarray
    """Per source, its slots' range [lo, hi)."""
    slot_src: np.ndarray
    col_owner: np.ndarray
    """Column -> owner index, or DECK_OWNER."""
    owner_cols: np.ndarray
    """(owners, most columns): each owner's columns in the order drawn (-1 padded)."""
    owner_ncols: np.ndarray
    chk_lo: np.ndarray
    chk_hi: np.ndarray
    """(owners, kinds): the range of (owner, kind)'s checks in chk_d / chk_q / chk_play."""
    chk_d: np.ndarray
    """Columns of the owner drawn before the check."""
    chk_q: np.ndarray
    """Copies of the kind the owner played before the check."""
    chk_play: np.ndarray
    """1: a play of the kind (needs a copy), 0: 'nothing to play' with the kind legal."""
    plays: np.ndarray
    """(owners, kinds): copies played in all (a hand now holds its columns' minus these)."""
    movers: np.ndarray
    """Slots in an unknown hand whose source has another column: a swap starts at one."""

    @property
    def columns(self) -> int:
        return len(self.col_owner)

    def holders(self) -> list[str]:
        return [*self.owners, DECK]


def layout(position: Position) -> Layout:
    kinds = tuple(position.kinds)
    index = {k: i for i, k in enumerate(kinds)}
    owners = tuple(position.owners())
    columns = position.columns
    col_owner = np.array([DECK_OWNER if c.owner == DECK else owners.index(c.owner)
                          for c in columns], dtype=np.int64)
    slot_col: list[int] = []
    lo: list[int] = []
    hi: list[int] = []
    cards: list[np.ndarray] = []
    movers: list[int] = []
    for s, content in enumerate(position.sources):
        lo.append(len(slot_col))
        mine = [c for c, col in enumerate(columns) if col.source == s and col.size]
        for c in mine:
            if columns[c].owner != DECK and len(mine) > 1:
                movers.extend(range(len(slot_col), len(slot_col) + columns[c].size))
            slot_col.extend([c] * columns[c].size)
        hi.append(len(slot_col))
        held = sorted(index[k] for k, n in content.items() for _ in range(n))
        if len(held) != hi[-1] - lo[-1]:
            raise ValueError(f"source {s} holds {len(held)} cards for {hi[-1] - lo[-1]} slots")
        cards.append(np.array(held, dtype=np.int64))
    slot_src = np.zeros(len(slot_col), dtype=np.int64)
    for s in range(len(lo)):
        slot_src[lo[s]:hi[s]] = s
    order = [[step.column for step in position.timelines[o] if step.what == "draw"]
             for o in owners]
    width = max((len(x) for x in order), default=0)
    owner_cols = np.full((len(owners), max(1, width)), -1, dtype=np.int64)
    for o, cols in enumerate(order):
        owner_cols[o, :len(cols)] = cols
    chk_lo = np.zeros((len(owners), len(kinds)), dtype=np.int64)
    chk_hi = np.zeros((len(owners), len(kinds)), dtype=np.int64)
    plays = np.zeros((len(owners), len(kinds)), dtype=np.int64)
    d_list: list[int] = []
    q_list: list[int] = []
    p_list: list[int] = []
    for o, owner in enumerate(owners):
        timeline = position.timelines[owner]
        for k, kind in enumerate(kinds):
            chk_lo[o, k] = len(d_list)
            drawn = played = 0
            for step in timeline:
                if step.what == "draw":
                    drawn += 1
                elif step.what == "play":
                    if step.kind == kind:
                        d_list.append(drawn)
                        q_list.append(played)
                        p_list.append(1)
                        played += 1
                elif kind in step.legal:
                    d_list.append(drawn)
                    q_list.append(played)
                    p_list.append(0)
            chk_hi[o, k] = len(d_list)
            plays[o, k] = played

    def arr(x: list[int]) -> np.ndarray:
        return np.array(x, dtype=np.int64)

    return Layout(kinds, owners, tuple(cards), arr(slot_col), arr(lo), arr(hi), slot_src,
                  col_owner, owner_cols, np.array([len(x) for x in order], dtype=np.int64),
                  chk_lo, chk_hi, arr(d_list), arr(q_list), arr(p_list), plays, arr(movers))

