"""Messages between the server and its inference processes: pickled, length-prefixed, over
a socket pair (asyncio streams on both ends, so neither side ever blocks its loop writing).

Only plain data crosses: table ids, audience names, frames (JSON text already built for the
audience's sockets), seqs, monotonic stamps (CLOCK_MONOTONIC is one clock for every process
on the machine, so lag is measured across the boundary).
"""

from __future__ import annotations

import asyncio
import pickle
import struct
from typing import Any

_LENGTH = struct.Struct("!I")


def encode(message: Any) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


async def receive(reader: asyncio.StreamReader) -> Any:
    """The next message (asyncio.IncompleteReadError at the end of the stream)."""
    return decode(await receive_bytes(reader))


async def receive_bytes(reader: asyncio.StreamReader) -> bytes:
    """The next message's body, not yet decoded (so its decoding can be timed apart)."""
    (size,) = _LENGTH.unpack(await reader.readexactly(_LENGTH.size))
    return await reader.readexactly(size)


def decode(body: bytes) -> Any:
    return pickle.loads(body)
