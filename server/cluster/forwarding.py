"""Commands for a table another server owns, forwarded to that server over MQTT.

Request/response on per-node topics: a request goes to `{prefix}/nodes/{owner}/commands`
with a correlation id and our reply topic; the owner runs it on the table's actor (the same
code a local connection uses, so acks still follow commits) and answers on
`{prefix}/nodes/{us}/replies`. Errors travel as protocol error codes. A request that gets no
answer in `timeout` seconds fails with `internal`; the client retries with the same command
id, which the owner answers once (its id records are in the store).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from games.interface import RuleViolation
from protocol import ProtocolError
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import Topics
from server.logs import log

Executor = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Forwarder:
    def __init__(self, link: MqttLink, topics: Topics, node: str, timeout: float = 5.0) -> None:
        self.link = link
        self.topics = topics
        self.node = node
        self.timeout = timeout
        self.execute: Executor | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.served = 0

    async def start(self) -> None:
        await self.link.subscribe(self.topics.commands(self.node), qos=1)
        await self.link.subscribe(self.topics.replies(self.node), qos=1)

    def owns_topic(self, topic: str) -> bool:
        return topic in (self.topics.commands(self.node), self.topics.replies(self.node))

    # -- asking --------------------------------------------------------------------------

    async def request(self, owner: str, op: dict[str, Any]) -> dict[str, Any]:
        """Run `op` on `owner`; its result, or its ProtocolError raised here."""
        corr = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[corr] = future
        message = {**op, "corr": corr, "reply_to": self.topics.replies(self.node)}
        self.link.publish(self.topics.commands(owner), json.dumps(message), qos=1)
        try:
            answer = await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            raise ProtocolError("internal", f"the server owning table {op.get('table_id')} "
                                            "did not answer; retry with the same id") from None
        finally:
            self._waiting.pop(corr, None)
        error = answer.get("error")
        if error:
            raise ProtocolError(error["code"], error["message"])
        return answer.get("result") or {}

    def tell(self, owner: str, op: dict[str, Any]) -> None:
        """Fire and forget (presence changes)."""
        self.link.publish(self.topics.commands(owner), json.dumps(op), qos=1)

    # -- answering -----------------------------------------------------------------------

    def on_message(self, topic: str, payload: bytes) -> None:
        data = json.loads(payload)
        if topic == self.topics.replies(self.node):
            future = self._waiting.get(data.get("corr"))
            if future is not None and not future.done():
                future.set_result(data)
            return
        task = asyncio.get_running_loop().create_task(self._serve(data))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, data: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"corr": data.get("corr")}
        try:
            assert self.execute is not None
            reply["result"] = await self.execute(data)
        except ProtocolError as error:
            reply["error"] = {"code": error.code, "message": error.message}
        except RuleViolation as error:
            code = error.code if error.code in ("not_your_turn", "wrong_phase") \
                else "illegal_move"
            reply["error"] = {"code": code, "message": error.message}
        except Exception as error:
            log("forwarded_command_failed", op=data.get("op"), error=repr(error))
            reply["error"] = {"code": "internal", "message": "the owner failed on this"}
        self.served += 1
        reply_to = data.get("reply_to")
        if reply_to:
            with contextlib.suppress(Exception):
                self.link.publish(reply_to, json.dumps(reply), qos=1)
