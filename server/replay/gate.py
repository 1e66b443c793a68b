"""Who may make the server compute a replay's advice or odds, checked before any log is
loaded.

The replay routes are open to anyone (no account, no seat), and each new answer costs a
match log loaded and parsed (on a thread, holding the GIL) and seconds of a worker. Four
loops on `/advice` and `/odds` used to drain the live bots' pool (72 pimc decisions fell
back to greedy) and reloaded the whole log before looking at their queue. So, before
anything is loaded: a rate per address (`AddressBuckets`), a few computations per address
at a time, and at most `at_once` computations server-wide (loading, waiting for the replay
pool, or running); beyond, a typed refusal (429 `rate_limited`, 503 `busy`). The work
itself runs in the replay pool (server.strategy_processes.REPLAYS), never the bots'.
Answers already kept (server/replay/results.py) pass no gate: they cost nothing.
"""

from __future__ import annotations

from collections import Counter

from server.ratelimit import AddressBuckets
from server.replay.build import ReplayError
from server.replay.results import Compute, ReplayResults, ResultKey

PER_MINUTE = 120.0
"""New replay computations one address may ask for per minute (after a burst of BURST):
above what the one replay worker does for one viewer (0.8 s an answer), so a page ranking
every move of a match is slowed by the worker, never refused; what it bounds is the cheap
requests that still load a log (a new bad seq each time)."""
BURST = 30.0
PER_ADDRESS = 3
"""Computations one address may have admitted at once: a replay page asks for a move's
advice, the next verdict and the odds layer together."""
AT_ONCE = 8
"""Replay computations admitted server-wide at once (the pool runs one; the rest wait)."""
ANSWER_DEADLINE = 8.0
"""Seconds a request waits for its answer before 503 `busy` (the computation goes on and is
kept): below the 10 s websockets gives a handshake, whose `process_request` this is, so the
asker always gets a typed answer rather than a dropped connection."""


class ReplayGate:
    def __init__(self, per_minute: float = PER_MINUTE, burst: float = BURST,
                 at_once: int = AT_ONCE, per_address: int = PER_ADDRESS) -> None:
        self.buckets = AddressBuckets(per_minute / 60.0, burst)
        self.at_once = at_once
        self.per_address = per_address
        self.active = 0
        self._by_address: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        """Refusals by code, for /healthz."""

    def charge(self, address: str) -> None:
        """One request from `address` that is not answered from what is kept."""
        if not self.buckets.take(address):
            self._refuse(429, "rate_limited", "too many replay computations from your "
                                              "address: wait a minute")

    def enter(self, address: str) -> None:
        """Take one of the computation slots for `address`, or refuse at once (a plain
        pair with `leave`, not a contextlib manager: that would assign the frozen
        ReplayError's traceback on the way out)."""
        if self._by_address[address] >= self.per_address:
            self._refuse(429, "rate_limited", f"your address already has "
                                              f"{self.per_address} replay computations "
                                              f"running: wait for one")
        if self.active >= self.at_once:
            self._refuse(503, "busy", "the replay workers are busy: retry in a moment")
        self.active += 1
        self._by_address[address] += 1

    def leave(self, address: str) -> None:
        self.active -= 1
        self._by_address[address] -= 1
        if self._by_address[address] <= 0:
            del self._by_address[address]

    def _refuse(self, status: int, code: str, message: str) -> None:
        self.refused[code] += 1
        raise ReplayError(status, message, code=code)

    def health(self) -> dict[str, object]:
        return {"replay_computing": self.active, "replay_refused": dict(self.refused)}


async def gated(gate: ReplayGate, results: ReplayResults, key: ResultKey, address: str,
                compute: Compute, deadline: float | None = ANSWER_DEADLINE) -> bytes:
    """`key`'s answer: kept (free), shared with a computation under way, or computed anew
    once `address` passes the gate (refused otherwise, before `compute` loads anything).
    The slot is held until the computation ends, whoever still waits for it."""
    kept = results.get(key)
    if kept is not None:
        return kept
    task = results.computing(key)
    if task is None:
        gate.charge(address)
        gate.enter(address)
        task = results.start(key, compute, lambda: gate.leave(address))
    return await results.wait(task, deadline)
