"""The swap chain's inner loop, compiled (numba; `cache=True` keeps the machine code beside
the module, as games/texas42/kernel.py does).

One chain over arrangements (games.uno.arrangement): a proposal picks a pair of slots of one
source in different columns (a slot of an unknown hand uniformly, then any slot of its
source uniformly; a pair in one column proposes nothing) and swaps their cards. The pair's
probability depends only on where the two slots are, never on what they hold, so the
proposal is symmetric; the target is uniform over consistent arrangements, so Metropolis
keeps a swap exactly when the history stays consistent (acceptance 1 or 0).

The chain starts from the arrangement it is given (a draw of the prior: each source's cards
in a uniformly shuffled order) and first *searches* for a consistent one with the same moves,
annealed on the number of failed checks (a move that adds failures is kept with probability
2^-(beta x added), beta rising from 2 to 16 over the search's steps, decided on random bits
alone); the first arrangement with none starts the burn-in. Every count is in steps
(proposals), and the random numbers come from a 64-bit xorshift* generator seeded by the
caller, with integer arithmetic only: the same seed gives the same chain on any machine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MIX = np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def _next(state: np.ndarray) -> np.uint64:
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * MIX


@njit(cache=True)
def _below(state: np.ndarray, n: int) -> int:
    """Uniform in 0..n-1 (53 random bits mod n: a bias below n / 2^53)."""
    return int((_next(state) >> np.uint64(11)) % np.uint64(n))


@njit(cache=True)
def _failures(o: int, k: int, cnt: np.ndarray, owner_cols: np.ndarray, owner_ncols: np.ndarray,
              chk_lo: np.ndarray, chk_hi: np.ndarray, chk_d: np.ndarray, chk_q: np.ndarray,
              chk_play: np.ndarray) -> int:
    """How many of (owner o, kind k)'s checks fail on the column counts `cnt`."""
    lo, hi = chk_lo[o, k], chk_hi[o, k]
    if lo == hi:
        return 0
    bad = 0
    drawn = 0
    total = 0
    for i in range(lo, hi):
        d = chk_d[i]
        while drawn < d:
            total += cnt[owner_cols[o, drawn], k]
            drawn += 1
        have = total - chk_q[i]
        if chk_play[i] == 1:
            if have < 1:
                bad += 1
        elif have != 0:
            bad += 1
    return bad


@njit(cache=True)
def _touched(ca: int, cb: int, a: int, b: int, col_owner: np.ndarray, out: np.ndarray) -> int:
    """The (owner, kind) pairs a swap of kind a in column ca with kind b in column cb may
    change, into `out` (rows of owner, kind); their number."""
    n = 0
    for c in (ca, cb):
        o = col_owner[c]
        if o < 0:
            continue
        for k in (a, b):
            seen = False
            for j in range(n):
                if out[j, 0] == o and out[j, 1] == k:
                    seen = True
            if not seen:
                out[n, 0] = o
                out[n, 1] = k
                n += 1
    return n


@njit(cache=True)
def run_chain(slots: np.ndarray, slot_col: np.ndarray, slot_src: np.ndarray,
              src_lo: np.ndarray, src_hi: np.ndarray, movers: np.ndarray,
              col_owner: np.ndarray, owner_cols: np.ndarray, owner_ncols: np.ndarray,
              chk_lo: np.ndarray, chk_hi: np.ndarray, chk_d: np.ndarray, chk_q: np.ndarray,
              chk_play: np.ndarray, plays: np.ndarray, kinds: int, seed: np.uint64,
              search: int, burn: int, keep: int, thin: int, shuffle: bool
              ) -> tuple[int, int, int, int, np.ndarray]:
    """(steps the search took, or -1 if it found no consistent arrangement within `search`;
    swaps kept after it; failed checks left (0 once found); steps in all; the kept draws:
    (keep, holders, kinds) copies each unknown hand and the deck (last) hold now, one every
    `thin` steps after `burn`).
    `slots` (slot -> kind) is the start (`shuffle`: each source's cards first shuffled
    uniformly, Fisher-Yates, a draw of the prior) and is left at the chain's last
    arrangement."""
    owners = plays.shape[0]
    columns = col_owner.shape[0]
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed | np.uint64(1)
    if shuffle:
        for s in range(src_lo.shape[0]):
            for i in range(src_hi[s] - 1, src_lo[s], -1):
                j = src_lo[s] + _below(rng, i - src_lo[s] + 1)
                slots[i], slots[j] = slots[j], slots[i]
    cnt = np.zeros((columns, kinds), dtype=np.int64)
    for i in range(slots.shape[0]):
        cnt[slot_col[i], slots[i]] += 1
    out = np.zeros((keep, owners + 1, kinds), dtype=np.int16)
    pairs = np.zeros((4, 2), dtype=np.int64)
    before = np.zeros(4, dtype=np.int64)
    bad = 0
    for o in range(owners):
        for k in range(kinds):
            bad += _failures(o, k, cnt, owner_cols, owner_ncols, chk_lo, chk_hi, chk_d,
                             chk_q, chk_play)
    found = 0 if bad == 0 else -1
    steps = 0
    kept = 0
    accepted = 0
    nmov = movers.shape[0]
    while nmov and (kept < keep if found >= 0 else steps < search):
        steps += 1
        i = movers[_below(rng, nmov)]
        s = slot_src[i]
        j = src_lo[s] + _below(rng, src_hi[s] - src_lo[s])
        ci, cj = slot_col[i], slot_col[j]
        a, b = slots[i], slots[j]
        if ci != cj and a != b:
            n = _touched(ci, cj, a, b, col_owner, pairs)
            if found < 0:
                for t in range(n):
                    before[t] = _failures(pairs[t, 0], pairs[t, 1], cnt, owner_cols,
                                          owner_ncols, chk_lo, chk_hi, chk_d, chk_q, chk_play)
            cnt[ci, a] -= 1
            cnt[ci, b] += 1
            cnt[cj, b] -= 1
            cnt[cj, a] += 1
            change = 0
            for t in range(n):
                change += _failures(pairs[t, 0], pairs[t, 1], cnt, owner_cols, owner_ncols,
                                    chk_lo, chk_hi, chk_d, chk_q, chk_play)
                if found < 0:
                    change -= before[t]
                elif change:
                    break
            if found < 0:
                bits = (2 + (14 * steps) // search) * change
                keep_it = change <= 0 or (bits < 64 and _next(rng) >> np.uint64(64 - bits)
                                          == np.uint64(0))
            else:
                keep_it = change == 0
            if keep_it:
                slots[i], slots[j] = b, a
                if found < 0:
                    bad += change
                    if bad == 0:
                        found = steps
                else:
                    accepted += 1
            else:
                cnt[ci, a] += 1
                cnt[ci, b] -= 1
                cnt[cj, b] += 1
                cnt[cj, a] -= 1
        if found >= 0:
            since = steps - found - burn
            if since > 0 and since % thin == 0:
                _record(out[kept], cnt, col_owner, plays, owners, kinds)
                kept += 1
    if found >= 0 and nmov == 0:
        for r in range(keep):
            _record(out[r], cnt, col_owner, plays, owners, kinds)
    return found, accepted, bad, steps, out


@njit(cache=True)
def _record(row: np.ndarray, cnt: np.ndarray, col_owner: np.ndarray, plays: np.ndarray,
            owners: int, kinds: int) -> None:
    for o in range(owners):
        for k in range(kinds):
            row[o, k] = -plays[o, k]
    for c in range(col_owner.shape[0]):
        o = col_owner[c]
        h = owners if o < 0 else o
        for k in range(kinds):
            row[h, k] += cnt[c, k]
