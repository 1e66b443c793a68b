"""What the behaviour layers' browser tests share (tests/web/test_uno_plays_layer.py,
test_clue_shows_layer.py): the page's WebSocket routed through the test, so the `odds`
answers the page is sent are read (and can be held back to see the page wait for them), and
the effective sample as the page words it."""

from __future__ import annotations

import json
import math
from typing import Any


class Frames:
    """The page's WebSocket, routed through the test: every server frame is recorded, and
    `odds_belief` answers are held back while `hold` is set (sent on `release`)."""

    def __init__(self, page: Any) -> None:
        self.answers: list[dict[str, Any]] = []
        self.held: list[str] = []
        self.hold = False
        self.route: Any = None
        page.route_web_socket("**/ws", self._connect)

    def _connect(self, route: Any) -> None:
        self.route = route
        server = route.connect_to_server()
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        text = message if isinstance(message, str) else message.decode()
        if '"odds_belief"' in text:
            self.answers.append(json.loads(text))
            if self.hold:
                self.held.append(text)
                return
        self.route.send(text)

    def release(self) -> None:
        self.hold = False
        for text in self.held:
            self.route.send(text)
        self.held.clear()


def js_round(ess: float) -> int:
    """The effective sample as the page words it: JavaScript's Math.round (a half up: 198.5
    -> 199, where Python's round gives 198), at least 1."""
    return max(1, math.floor(ess + 0.5))
