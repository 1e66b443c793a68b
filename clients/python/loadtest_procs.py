"""A group of a paced ramp's tables played in a child process (`loadtest --generator-processes`).

One load generator's event loop plays every seat of every table: at 160 tables at human pace
its own loop lag was p99 89 ms, a share of the play -> ack latency the server never saw. K
child processes (spawned, each with its own loop) split the tables, so the generator's lag is
measured per process and its cost is spread over the cores. The parent asks over a pipe:
("add", seeds) -> ("ok", None) once seated; ("mark", None); ("sample", None) -> the raw
window sample; ("stop", None). A failure comes back as ("error", text).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.connection import Connection
from typing import Any

from clients.python.loadtest_group import GroupConfig, TableGroup, WindowSample


class ProcessGroup:
    """The parent's handle on one child process's TableGroup."""

    def __init__(self, config: GroupConfig) -> None:
        context = multiprocessing.get_context("spawn")  # no copy of the parent's loop
        self._conn, child = context.Pipe()
        self.process = context.Process(target=_child_main, args=(child, config), daemon=True,
                                       name="loadtest-generator")
        self.process.start()
        self.pid = self.process.pid or 0
        child.close()
        self._lock = asyncio.Lock()

    async def _ask(self, command: str, argument: Any = None) -> Any:
        async with self._lock:
            self._conn.send((command, argument))
            status, answer = await asyncio.to_thread(self._conn.recv)
        if status != "ok":
            raise RuntimeError(f"load generator process: {answer}")
        return answer

    async def add(self, seeds: list[int]) -> None:
        await self._ask("add", seeds)

    async def mark(self) -> None:
        await self._ask("mark")

    async def sample(self) -> WindowSample:
        sample: WindowSample = await self._ask("sample")
        return sample

    async def stop(self) -> None:
        try:
            if self.process.is_alive():
                await self._ask("stop")
        finally:
            await asyncio.to_thread(self.process.join, 30)
            if self.process.is_alive():
                self.process.kill()
            self._conn.close()


def _child_main(conn: Connection, config: GroupConfig) -> None:
    asyncio.run(_serve(conn, config))


async def _serve(conn: Connection, config: GroupConfig) -> None:
    group = TableGroup(config)
    try:
        while True:
            try:
                command, argument = await asyncio.to_thread(conn.recv)
            except EOFError:  # the parent is gone
                return
            try:
                answer = None
                if command == "add":
                    await group.add(list(argument))
                elif command == "mark":
                    await group.mark()
                elif command == "sample":
                    answer = await group.sample()
                elif command == "stop":
                    await group.stop()
                    conn.send(("ok", None))
                    return
                conn.send(("ok", answer))
            except Exception as error:  # told to the parent, which stops the ramp
                conn.send(("error", repr(error)))
    finally:
        await group.stop()
        conn.close()
