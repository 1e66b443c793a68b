"""The MQTT topic layout, in one place, so servers, workers, docs and tests agree.

    {prefix}/tables/{table}/events/{audience}   one event per message, that audience's view
    {prefix}/tables/{table}/beliefs/{observer}  the observer's latest belief (retained)
    {prefix}/tables/{table}/followers/{audience}/{node}
                                                "node follows this audience" (retained,
                                                non-empty while it does): the owner
                                                publishes an audience's frames only then
    {prefix}/work/{partition}/{table}           "table advanced to seq N", for the worker
                                                holding the table's partition (partition_of)
    {prefix}/nodes/{node}/commands              commands forwarded to the table's owner
    {prefix}/nodes/{node}/replies               answers to forwarded commands

The prefix (default `domino/v1`) versions the layout and lets test runs share one broker.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from urllib.parse import urlsplit

from server.feeds.bus import Kind

DEFAULT_PREFIX = "domino/v1"
DEFAULT_PARTITIONS = 64
WORK_QOS = 0
BELIEF_QOS = 0
"""Work notifications and workers' beliefs go at QoS 0. QoS 1 bought nothing here: every
session is clean (nothing is kept across a reconnection), the link drops what is unacked
when its connection goes, and the broker drops past its queue limits at either QoS; the
server's watchdog re-asks for a belief that did not come (server/beliefs/remote.py). It
cost a PUBACK per message each way: a worker read four per event (issue 15)."""


def partition_of(table_id: str, partitions: int = DEFAULT_PARTITIONS) -> int:
    """The table's inference partition: a stable hash (not `hash()`), the same in every
    process, run and machine, so servers and workers agree on it."""
    digest = hashlib.blake2b(table_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % partitions


@dataclass(frozen=True)
class Topics:
    prefix: str = DEFAULT_PREFIX
    partitions: int = DEFAULT_PARTITIONS

    def table(self, table_id: str) -> str:
        """Every topic of one table (a subscription filter)."""
        return f"{self.prefix}/tables/{table_id}/#"

    def events(self, table_id: str, audience: str) -> str:
        return f"{self.prefix}/tables/{table_id}/events/{audience}"

    def beliefs(self, table_id: str, observer: str) -> str:
        return f"{self.prefix}/tables/{table_id}/beliefs/{observer}"

    def work(self, table_id: str) -> str:
        """A table's work topic; `work("+")` is the filter for every table's."""
        if table_id == "+":
            return f"{self.prefix}/work/+/+"
        return f"{self.prefix}/work/{partition_of(table_id, self.partitions)}/{table_id}"

    def work_partition(self, partition: int) -> str:
        """The work of one partition's tables: what its worker subscribes to."""
        return f"{self.prefix}/work/{partition}/+"

    def commands(self, node: str) -> str:
        return f"{self.prefix}/nodes/{node}/commands"

    def replies(self, node: str) -> str:
        return f"{self.prefix}/nodes/{node}/replies"

    def follower(self, table_id: str, audience: str, node: str) -> str:
        """Where `node` says it follows `audience` of the table (see MqttBus)."""
        return f"{self.prefix}/tables/{table_id}/followers/{audience}/{node}"

    def parse_follower_topic(self, topic: str) -> tuple[str, str, str] | None:
        """(table_id, audience, node) for a follower marker's topic, else None."""
        head = f"{self.prefix}/tables/"
        if not topic.startswith(head):
            return None
        parts = topic[len(head):].split("/")
        if len(parts) != 4 or parts[1] != "followers":
            return None
        return parts[0], parts[2], parts[3]

    def parse_table_topic(self, topic: str) -> tuple[str, Kind, str] | None:
        """(table_id, kind "event"/"belief", audience) for a table topic, else None."""
        head = f"{self.prefix}/tables/"
        if not topic.startswith(head):
            return None
        parts = topic[len(head):].split("/")
        if len(parts) != 3 or parts[1] not in ("events", "beliefs"):
            return None
        return parts[0], "event" if parts[1] == "events" else "belief", parts[2]


def parse_mqtt_url(url: str) -> tuple[str, int]:
    """(host, port) from `mqtt://host[:port]` (or a bare `host[:port]`)."""
    parsed = urlsplit(url if "://" in url else f"mqtt://{url}")
    if parsed.scheme not in ("mqtt", "tcp") or not parsed.hostname:
        raise ValueError(f"not an MQTT URL: {url!r} (expected mqtt://HOST:PORT)")
    return parsed.hostname, parsed.port or 1883
