"""Plain HTTP on the WebSocket port: /healthz, and the browser client's static files.

Static files come from clients/web/ (index.html at `/`). Paths are resolved and must stay
inside that folder: no directory traversal, no symlink escapes, no dotfiles.
"""

from __future__ import annotations

import json
import mimetypes
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

WEB_ROOT = Path(__file__).resolve().parent.parent / "clients" / "web"

MISSING_CLIENT = b"""<!doctype html><meta charset="utf-8"><title>Domino Oracle</title>
<h1>Domino Oracle</h1><p>The server is running, but the browser client (clients/web/) is not
installed in this checkout. Connect a WebSocket client to <code>/ws</code>; see
docs/protocol.md.</p>
"""

_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".wasm": "application/wasm",
    ".map": "application/json",
}


def response(status: int, body: bytes, content_type: str, **extra: str) -> Response:
    reason = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
              405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict",
              413: "Content Too Large", 422: "Unprocessable Content",
              429: "Too Many Requests", 500: "Internal Server Error",
              503: "Service Unavailable"}
    headers = Headers(
        [
            ("Content-Type", content_type),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
            *extra.items(),
        ]
    )
    return Response(status, reason.get(status, "OK"), headers, body)


def json_response(data: Any, status: int = 200) -> Response:
    return response(status, json.dumps(data).encode(), "application/json")


def not_found() -> Response:
    return response(404, b"not found\n", "text/plain; charset=utf-8")


def static_file(root: Path, url_path: str) -> Response:
    """The file under `root` that `url_path` names, or 404; `/` is index.html."""
    path = urllib.parse.unquote(url_path.split("?", 1)[0].split("#", 1)[0])
    if path in ("", "/"):
        path = "/index.html"
    if not root.is_dir():
        if path == "/index.html":
            return response(200, MISSING_CLIENT, "text/html; charset=utf-8")
        return not_found()
    parts = [p for p in path.split("/") if p]
    if any(p.startswith(".") or "\\" in p or "\0" in p for p in parts):
        return not_found()
    base = root.resolve()
    target = base.joinpath(*parts).resolve()
    if base not in target.parents or not target.is_file():
        return not_found()
    kind = _TYPES.get(target.suffix.lower()) or mimetypes.guess_type(target.name)[0]
    return response(200, target.read_bytes(), kind or "application/octet-stream")


def make_process_request(
    health: Callable[[], dict[str, Any]], web_root: Path = WEB_ROOT
) -> Callable[[Any, Request], Response | None]:
    """The websockets `process_request` hook: /ws goes on to the WebSocket handshake."""

    def process_request(_connection: Any, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return None
        if path == "/healthz":
            return json_response(health())
        return static_file(web_root, request.path)

    return process_request
