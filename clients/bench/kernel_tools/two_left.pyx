# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""A Cython port of the Texas 42 kernel's last-two-tricks solver (games/texas42/kernel.py:
`_two_left` with `_pair`, `_low_bit` and `_last_trick`), for the bench-only comparison of
compiled-kernel tools (clients/bench/kernel_tools). The same algorithm, order of play and
cut-offs line by line; the kernel's tables (LEAD, FOLLOW, POWER, POINTS) are copied into C
arrays by `init` before use. Not used by the game: the kernel is numba's."""

from libc.stdint cimport int64_t

cdef extern from *:
    """
    /* the kernel's DE_BRUIJN table for 0x077CB531, a compile-time constant as it is in numba */
    static const int64_t TWO_LEFT_DE_BRUIJN[32] = {
        0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
        31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9};
    """
    const int64_t DE_BRUIJN "TWO_LEFT_DE_BRUIJN"[32]

cdef int64_t LEAD[9][28]
cdef int64_t FOLLOW[9][8]
cdef int64_t POWER[9][8][28]
cdef int64_t POINTS[28]
cdef bint ready = False


def init(const int64_t[:, ::1] lead, const int64_t[:, ::1] follow,
         const int64_t[:, :, ::1] power, const int64_t[::1] points,
         const int64_t[::1] de_bruijn) -> None:
    """Copy the kernel's tables (kernel.LEAD, FOLLOW, POWER, POINTS) into this module's C
    arrays; `de_bruijn` (kernel.DE_BRUIJN) is checked against the constant above."""
    global ready
    cdef Py_ssize_t t, s, k
    if (lead.shape[0] != 9 or lead.shape[1] != 28 or follow.shape[0] != 9
            or follow.shape[1] != 8 or power.shape[0] != 9 or power.shape[1] != 8
            or power.shape[2] != 28 or points.shape[0] != 28 or de_bruijn.shape[0] != 32):
        raise ValueError("the kernel's tables changed shape")
    for k in range(32):
        if de_bruijn[k] != DE_BRUIJN[k]:
            raise ValueError("the kernel's DE_BRUIJN table changed")
    for t in range(9):
        for k in range(28):
            LEAD[t][k] = lead[t, k]
        for s in range(8):
            FOLLOW[t][s] = follow[t, s]
            for k in range(28):
                POWER[t][s][k] = power[t, s, k]
    for k in range(28):
        POINTS[k] = points[k]
    ready = True


cdef inline int64_t _low_bit(int64_t x) noexcept nogil:
    """The index of the lowest set bit of a 28-bit mask x > 0 (de Bruijn)."""
    return DE_BRUIJN[(((x & -x) * 0x077CB531LL) & 0xFFFFFFFFLL) >> 27]


cdef inline int64_t _last_trick(int64_t h0, int64_t h1, int64_t h2, int64_t h3,
                                int64_t leader, int64_t trump) noexcept nogil:
    """NS points of the last trick: one domino each (h0 is the leader's)."""
    cdef int64_t suit = LEAD[trump][_low_bit(h0)]
    cdef int64_t held[4]
    cdef int64_t winner = 0, top = -2, gained = 1, tile
    cdef int k
    held[0] = h0
    held[1] = h1
    held[2] = h2
    held[3] = h3
    for k in range(4):
        tile = _low_bit(held[k])
        gained += POINTS[tile]
        if POWER[trump][suit][tile] > top:
            winner, top = k, POWER[trump][suit][tile]
    return gained if (leader + winner) % 2 == 0 else 0


cdef inline (int64_t, int64_t, int64_t) _pair(int64_t hand, int64_t f, bint first) noexcept nogil:
    """A seat's choice in the first of its last two tricks, its two dominoes being `hand` and
    `f` the led suit's followers: (how many choices, this one, the domino kept) for the
    first (or second) choice."""
    cdef int64_t x = _low_bit(hand)
    cdef int64_t y = _low_bit(hand & (hand - 1))
    cdef int64_t fx = (f >> x) & 1
    cdef int64_t fy = (f >> y) & 1
    if fx != fy:  # one follows: it must be played
        if fx:
            return (1, x, y)
        return (1, y, x)
    if first:
        return (2, x, y)
    return (2, y, x)


cdef int64_t _two_left(int64_t h0, int64_t h1, int64_t h2, int64_t h3, int64_t leader,
                       int64_t trump) noexcept nogil:
    """The last two tricks exactly, by plain minimax in nested loops, with the reference's
    shallow cut-offs (kernel._two_left line by line)."""
    cdef bint ns_leads = leader % 2 == 0
    cdef int64_t best0 = -1 if ns_leads else 43
    cdef int64_t best1, best2, best3, count1, count2, count3, value
    cdef int64_t a, ra, b, rb, c, rc, d, rd, suit, f, win, top, lead2, suit2, win2, top2
    cdef int64_t i0, i1, i2, i3, _
    for i0 in range(2):
        _, a, ra = _pair(h0, 0, i0 == 0)
        suit = LEAD[trump][a]
        f = FOLLOW[trump][suit]
        best1 = 43 if ns_leads else -1
        count1, _, _ = _pair(h1, f, True)
        for i1 in range(count1):
            _, b, rb = _pair(h1, f, i1 == 0)
            best2 = -1 if ns_leads else 43
            count2, _, _ = _pair(h2, f, True)
            for i2 in range(count2):
                _, c, rc = _pair(h2, f, i2 == 0)
                best3 = 43 if ns_leads else -1
                count3, _, _ = _pair(h3, f, True)
                for i3 in range(count3):
                    _, d, rd = _pair(h3, f, i3 == 0)
                    win, top, lead2 = 0, POWER[trump][suit][a], ra
                    if POWER[trump][suit][b] > top:
                        win, top, lead2 = 1, POWER[trump][suit][b], rb
                    if POWER[trump][suit][c] > top:
                        win, top, lead2 = 2, POWER[trump][suit][c], rc
                    if POWER[trump][suit][d] > top:
                        win, lead2 = 3, rd
                    value = 0
                    if (leader + win) % 2 == 0:
                        value = 1 + POINTS[a] + POINTS[b] + POINTS[c] + POINTS[d]
                    suit2 = LEAD[trump][lead2]
                    win2, top2 = 0, POWER[trump][suit2][ra]
                    if POWER[trump][suit2][rb] > top2:
                        win2, top2 = 1, POWER[trump][suit2][rb]
                    if POWER[trump][suit2][rc] > top2:
                        win2, top2 = 2, POWER[trump][suit2][rc]
                    if POWER[trump][suit2][rd] > top2:
                        win2 = 3
                    if (leader + win2) % 2 == 0:
                        value += 1 + POINTS[ra] + POINTS[rb] + POINTS[rc] + POINTS[rd]
                    if ns_leads:
                        if value < best3:
                            best3 = value
                            if best3 <= best2:
                                break
                    elif value > best3:
                        best3 = value
                        if best3 >= best2:
                            break
                if ns_leads:
                    if best3 > best2:
                        best2 = best3
                        if best2 >= best1:
                            break
                elif best3 < best2:
                    best2 = best3
                    if best2 <= best1:
                        break
            if ns_leads:
                if best2 < best1:
                    best1 = best2
                    if best1 <= best0:
                        break
            elif best2 > best1:
                best1 = best2
                if best1 >= best0:
                    break
        if ns_leads:
            if best1 > best0:
                best0 = best1
        elif best1 < best0:
            best0 = best1
    return best0


def two_left_all(const int64_t[:, ::1] endings, int64_t[::1] out) -> None:
    """out[i]: the NS points of ending i, a row (hand of seat 0, 1, 2, 3, leader, trump);
    the loop runs in C (as the numba side's loop runs in numba)."""
    cdef Py_ssize_t i, n = endings.shape[0]
    cdef int64_t leader
    if not ready:
        raise RuntimeError("two_left.init(...) first")
    if endings.shape[1] != 6 or out.shape[0] < n:
        raise ValueError("endings: n rows of 6; out: n values")
    with nogil:
        for i in range(n):
            leader = endings[i, 4]
            out[i] = _two_left(endings[i, leader], endings[i, (leader + 1) % 4],
                               endings[i, (leader + 2) % 4], endings[i, (leader + 3) % 4],
                               leader, endings[i, 5])


def last_trick_all(const int64_t[:, ::1] endings, int64_t[::1] out) -> None:
    """out[i]: `_last_trick` of row i (one domino per seat, leader, trump)."""
    cdef Py_ssize_t i, n = endings.shape[0]
    cdef int64_t leader
    if not ready:
        raise RuntimeError("two_left.init(...) first")
    if endings.shape[1] != 6 or out.shape[0] < n:
        raise ValueError("endings: n rows of 6; out: n values")
    with nogil:
        for i in range(n):
            leader = endings[i, 4]
            out[i] = _last_trick(endings[i, leader], endings[i, (leader + 1) % 4],
                                 endings[i, (leader + 2) % 4], endings[i, (leader + 3) % 4],
                                 leader, endings[i, 5])
