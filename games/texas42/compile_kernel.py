"""`python -m games.texas42.compile_kernel`: compile the numba kernel now, once per clone.

numba compiles `games.texas42.kernel` at its first call and keeps the machine code beside the
module (`cache=True`). Cold, that is about 90 s of CPU on this project's two-core machines, so
whatever calls the kernel first (a Texas 42 bid's oracle, a test) waits that long. scripts/test
runs this in the background while the lint and type checks leave a core idle, so the tests
find the kernel compiled. It prints how long the first call took: cold, the compile's cost;
warm, loading the cache.
"""

from __future__ import annotations

import time

from games.texas42.dominoes import parse_tile
from games.texas42.oracle import bidding_oracle

HAND = "6-6 5-6 4-6 3-6 1-1 5-5 0-5"


def compile_kernel() -> None:
    """One bid's oracle at N = 1: the greedy floor, MTD(f) and the opening-lead tests run
    every compiled entry point of the kernel (each is compiled, or loaded, once)."""
    bidding_oracle([parse_tile(t) for t in HAND.split()], "S", trumps=(6, 5), n=1)


def main() -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    compile_kernel()
    print(f"Texas 42 kernel ready: {time.perf_counter() - wall:.1f} s wall, "
          f"{time.process_time() - cpu:.1f} s CPU (cold: compiled; warm: loaded from the cache)")


if __name__ == "__main__":
    main()
