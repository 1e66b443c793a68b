"""Run the real server for the browser tests (and the screenshot script), with replay routes.

`python -m tests.web.serve --port P --db FILE [--bot-delay S] [--hand-pause S]` is
`domino-oracle serve`, plus the replay routes of server/replay.py placed in front of the
static files if server/app.py does not route them yet (see docs/web.md, "Wiring").
"""

from __future__ import annotations

import argparse
import asyncio

import server.app as app_module
from server.app import DominoServer, ServerConfig, run_until_signalled
from server.replay import UPLOAD_PATH, replay_upload_ws, wrap_process_request
from server.table import TableOptions


def replay_wired() -> bool:
    """Whether server/app.py already routes /api/ (then nothing is patched here)."""
    return "replay" in getattr(app_module, "__dict__", {}) or hasattr(
        app_module, "wrap_process_request"
    )


def install_replay_routes(server: DominoServer) -> None:
    if replay_wired():
        return
    original = app_module.make_process_request

    def make(health, web_root):  # type: ignore[no-untyped-def]
        return wrap_process_request(original(health, web_root), lambda: server.store)

    app_module.make_process_request = make  # type: ignore[assignment]
    handle = server._handle

    async def route(ws):  # type: ignore[no-untyped-def]
        if ws.request.path.partition("?")[0] == UPLOAD_PATH:
            await replay_upload_ws(ws)
        else:
            await handle(ws)

    server._handle = route  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--hand-pause", type=float, default=1.0)
    parser.add_argument("--grace", type=float, default=30.0)
    args = parser.parse_args()
    server = DominoServer(ServerConfig(
        host=args.host, port=args.port, db=args.db,
        tables=TableOptions(grace=args.grace, bot_delay=args.bot_delay,
                            hand_pause=args.hand_pause),
    ))
    install_replay_routes(server)
    asyncio.run(run_until_signalled(server))


if __name__ == "__main__":
    main()
