"""Clients that misbehave on purpose, on bare sockets: a WebSocket that never reads (its
receive window kept small, so the server's sends back up), and HTTP by hand."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
import time


async def raw_socket(port: int, receive_buffer: int | None = None) -> socket.socket:
    """A non-blocking TCP socket connected to the server (its receive buffer set first)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def read_head(sock: socket.socket, limit: int = 65536) -> bytes:
    """An HTTP response's status line and headers (read until the blank line)."""
    loop = asyncio.get_running_loop()
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await loop.sock_recv(sock, 1024)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            break
    return data


async def deaf_websocket(port: int, path: str = "/ws") -> socket.socket:
    """A WebSocket opened by hand whose owner reads the 101 and nothing after it."""
    sock = await raw_socket(port, receive_buffer=4096)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n")
    await asyncio.get_running_loop().sock_sendall(sock, request.encode())
    head = await read_head(sock)
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return sock


def masked_text(text: str) -> bytes:
    """A client's (masked) final text frame."""
    data = text.encode()
    mask = os.urandom(4)
    length = len(data)
    if length < 126:
        head = struct.pack("!BB", 0x81, 0x80 | length)
    elif length < 65536:
        head = struct.pack("!BBH", 0x81, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", 0x81, 0x80 | 127, length)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def http_get(port: int, path: str) -> tuple[int, bytes, float]:
    """(status, body, seconds) of a plain GET on its own connection."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head else 0
    return status, body, time.monotonic() - started
