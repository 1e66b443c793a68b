"""The event loop's CPU by stage of a move (issue 31: what a paced move costs, and where).

A move crosses the loop in synchronous pieces: its frame is parsed and checked, the table
decides and folds it, the commit goes to the store's thread, the events are framed per
audience and written to the sockets, each audience's frames go to the inference process,
and its beliefs come back and are written out. Each piece is timed here with the loop
thread's CPU clock (time.thread_time: CPU, not wall, so a shared machine's waits for a
core are not counted), exclusively: a stage entered inside another (a belief forwarded
from inside the fan-out) is charged to the inner stage only. Only synchronous code is
ever between `enter` and `leave` (no await), so tasks never interleave inside a stage.

What is not inside a stage is the loop's own work (websockets' reads and framing of what
comes in, the selector, task wake-ups), read as the loop thread's CPU less the stages';
the store's commits run on its own thread and are read from /proc (`thread_cpu`).
Off unless asked for (`serve --stage-clock`): the thread's CPU clock is a system call, 2.2 us
a read on the 2-core VM this was measured on, and a move takes about 14 reads (~30 us, some
5% of a paced move's CPU); off, `enter` and `leave` return at once. The reads are counted
(`reads`), so a report can say what the clock itself cost.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

STAGES = ("parse", "actor", "fanout", "belief_out", "belief_in")
"""parse: a client frame's size, rate and validation; actor: the table's decide, fold
and bookkeeping (in the actor, outside the commit); fanout: the events framed per audience
and written to the sockets, and the ack; belief_out: an audience's frames queued for and
written to the inference process; belief_in: its answers read, and the beliefs published
and written to the sockets (in-process inference: the beliefs computed, too)."""

_clock = time.thread_time


class StageClock:
    """Exclusive CPU seconds of the loop thread per stage; `enter`/`leave` nest."""

    def __init__(self) -> None:
        self.enabled = False
        self.reads = 0
        self.seconds: dict[str, float] = dict.fromkeys(STAGES, 0.0)
        self._stack: list[str] = []
        self._since = 0.0
        self.thread = threading.get_ident()
        """The thread the stages are counted on (the server's loop)."""

    def enable(self) -> None:
        """Count from now on, on the calling thread (the server's loop)."""
        self.enabled = True
        self.thread = threading.get_ident()

    def enter(self, stage: str) -> None:
        if not self.enabled:
            return
        self.reads += 1
        now = _clock()
        stack = self._stack
        if stack:
            self.seconds[stack[-1]] += now - self._since
        stack.append(stage)
        self._since = now

    def leave(self) -> None:
        if not self.enabled:
            return
        self.reads += 1
        now = _clock()
        stage = self._stack.pop()
        self.seconds[stage] += now - self._since
        self._since = now

    def snapshot(self) -> dict[str, float] | None:
        """The stages' seconds so far, the loop thread's CPU (`loop`) and the process's
        other threads' (`other_threads`: the store's writer, thread pools); None when off."""
        if not self.enabled:
            return None
        loop = _clock() if threading.get_ident() == self.thread else thread_cpu(main=True)
        out = {stage: round(value, 6) for stage, value in self.seconds.items()}
        out["loop"] = round(loop, 6)
        out["reads"] = self.reads
        out["other_threads"] = round(max(0.0, time.process_time() - loop), 6)
        return out


def thread_cpu(main: bool) -> float:
    """User + system CPU seconds of this process's main thread (`main`) or of all its
    others, from /proc (Linux; 0 where unreadable)."""
    pid = os.getpid()
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            if (task.name == str(pid)) != main:
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
    return total


CLOCK = StageClock()
"""The server's one clock (one event loop per server process)."""
