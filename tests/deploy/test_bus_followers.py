"""The bus publishes an audience's frames to the broker only while another process follows
that audience (issue 15), and a follower that arrives late is never left behind.

Two MqttBus instances on the real Mosquitto play the owner and a follower; a third client
reads the broker raw. "Nothing was published" is checked by a sentinel the owner's link
sends last on a topic the reader also takes: one connection's QoS 0 messages reach a
subscriber in order, so once the sentinel is in, anything published before it would be.
"""

from __future__ import annotations

import json
import uuid

import aiomqtt
import pytest

from games.dominoes.game import DOMINOES
from server.feeds.bus import Envelope
from server.feeds.mqtt_bus import MqttBus
from server.feeds.mqtt_link import MqttLink
from server.feeds.topics import Topics, parse_mqtt_url
from tests.deploy.helpers import until

pytestmark = pytest.mark.mqtt

TABLE = "t-follow"


def _event(seq: int, audience: str) -> Envelope:
    frame = json.dumps({"type": "event", "table_id": TABLE, "seq": seq,
                        "event": {"type": "passed", "seq": seq, "hand": 1, "seat": "S"}},
                       separators=(",", ":"))
    return Envelope(TABLE, audience, "event", seq, frame)


def _belief(seq: int, audience: str) -> Envelope:
    frame = json.dumps({"type": "belief", "table_id": TABLE, "seq": seq,
                        "observer": audience}, separators=(",", ":"))
    return Envelope(TABLE, audience, "belief", seq, frame)


class Reader:
    """A raw broker client: every message on the table's event and belief topics."""

    def __init__(self, topics: Topics) -> None:
        self.topics = topics
        self.seen: list[tuple[str, str, int]] = []
        self.sentinels = 0

    def on_message(self, topic: str, payload: bytes) -> None:
        if topic.endswith("/sentinel"):
            self.sentinels += 1
            return
        parsed = self.topics.parse_table_topic(topic)
        if parsed is not None and payload:
            self.seen.append((parsed[1], parsed[2], json.loads(payload)["seq"]))


async def _settle(owner: MqttLink, reader: Reader, topics: Topics) -> None:
    """Wait for a sentinel sent after everything the owner published so far."""
    before = reader.sentinels
    owner.publish(f"{topics.prefix}/tables/{TABLE}/sentinel", b"s", qos=0)
    await until(lambda: reader.sentinels > before, "the sentinel")


async def test_frames_go_to_the_broker_only_while_another_process_follows(
    mqtt_url: str, prefix: str
) -> None:
    topics = Topics(prefix)
    reader = Reader(topics)
    tag = uuid.uuid4().hex[:8]
    owner_link = MqttLink(mqtt_url, f"owner-{tag}", lambda t, p: owner.on_message(t, p))
    follower_link = MqttLink(mqtt_url, f"follower-{tag}", lambda t, p: follower.on_message(t, p))
    reader_link = MqttLink(mqtt_url, f"reader-{tag}", reader.on_message)
    owner = MqttBus(owner_link, topics, "owner")
    follower = MqttBus(follower_link, topics, "follower")
    links = (owner_link, follower_link, reader_link)
    for link in links:
        await link.start()
    try:
        await reader_link.subscribe(f"{prefix}/tables/{TABLE}/#", qos=0)
        # the owner's own seat connection (its marker names itself: not a follower)
        local: list[int] = []
        owner.subscribe(TABLE, "S", "event", lambda e: local.append(e.seq))
        await owner.ensure_subscribed(TABLE)
        for seq in (1, 2, 3):
            for audience in ("S", "spectator"):
                owner.publish(_event(seq, audience))
            owner.publish(_belief(seq, "spectator"), retain=True)
        await _settle(owner_link, reader, topics)
        assert local == [1, 2, 3]  # local subscribers are served as before
        assert reader.seen == [] and owner.published == 0 and owner.withheld == 9

        # another process follows the spectators: it gets the latest of each at once
        follower.host(TABLE, DOMINOES)
        got: list[tuple[str, int]] = []
        follower.subscribe(TABLE, "spectator", "event", lambda e: got.append(("event", e.seq)))
        follower.subscribe(TABLE, "spectator", "belief", lambda e: got.append(("belief", e.seq)))
        await until(lambda: owner.followers(TABLE, "spectator") == {"follower"},
                    "the owner to see the follower's marker")
        await until(lambda: ("belief", 3) in got and ("event", 3) in got,
                    "the republished event and belief")
        owner.publish(_event(4, "S"))
        owner.publish(_event(4, "spectator"))
        await until(lambda: ("event", 4) in got, "the next spectator event")
        await _settle(owner_link, reader, topics)
        assert reader.seen == [("event", "spectator", 3), ("belief", "spectator", 3),
                               ("event", "spectator", 4)]  # never S: nobody else follows S
        assert owner.followers(TABLE, "S") == frozenset()

        # the follower leaves: the owner stops publishing for it
        follower.forget(TABLE, ())
        await until(lambda: not owner.followers(TABLE, "spectator"),
                    "the owner to see the marker cleared")
        owner.publish(_event(5, "spectator"))
        await _settle(owner_link, reader, topics)
        assert ("event", "spectator", 5) not in reader.seen

        # the table retires: no marker is left retained on the broker
        owner.forget(TABLE, ("S", "spectator"))
        markers: list[str] = []
        late = Reader(topics)
        late_link = MqttLink(mqtt_url, f"late-{tag}",
                             lambda t, p: (markers.append(t) if "/followers/" in t and p
                                           else late.on_message(t, p)))
        await late_link.start()
        try:
            await late_link.subscribe(f"{prefix}/tables/{TABLE}/#", qos=0)
            before = late.sentinels
            owner_link.publish(f"{prefix}/tables/{TABLE}/sentinel", b"s", qos=0)
            await until(lambda: late.sentinels > before, "the sentinel at a late reader")
            assert markers == []
        finally:
            await late_link.stop()
    finally:
        for link in links:
            await link.stop()


async def test_a_follower_the_owner_learns_of_late_still_reaches_the_head(
    mqtt_url: str, prefix: str
) -> None:
    """The follower subscribed and read its history before the owner committed seq 2 and
    before the owner saw its marker (here: the owner's broker subscription comes after the
    follower's marker, so it learns of it from the retained copy). Seq 2 was withheld;
    nothing else will be committed: only the republish on the marker brings it."""
    topics = Topics(prefix)
    tag = uuid.uuid4().hex[:8]
    owner_link = MqttLink(mqtt_url, f"owner-{tag}", lambda t, p: owner.on_message(t, p))
    follower_link = MqttLink(mqtt_url, f"follower-{tag}", lambda t, p: follower.on_message(t, p))
    owner = MqttBus(owner_link, topics, "owner")
    follower = MqttBus(follower_link, topics, "follower")
    for link in (owner_link, follower_link):
        await link.start()
    try:
        got: list[int] = []
        follower.subscribe(TABLE, "W", "belief", lambda e: got.append(e.seq))
        follower.subscribe(TABLE, "W", "event", lambda e: None)
        await follower.ensure_subscribed(TABLE)
        owner.publish(_belief(2, "W"), retain=True)  # before the owner follows the table
        assert owner.published == 0
        owner.subscribe(TABLE, "spectator", "belief", lambda e: None)  # now it does
        await until(lambda: got == [2], "the withheld belief, republished for the follower")
        assert owner.published == 1
    finally:
        for link in (owner_link, follower_link):
            await link.stop()


async def test_markers_are_set_again_after_a_reconnection(mqtt_url: str, prefix: str) -> None:
    """A broker that lost its retained messages (restarted without persistence, as
    deploy/mosquitto.conf runs) forgets the follower markers: the owner would publish for
    nobody. Here the marker is wiped by hand, then the follower's connection is taken over
    (a reconnection, as after a broker restart): it sets its markers again."""
    topics = Topics(prefix)
    tag = uuid.uuid4().hex[:8]
    owner_link = MqttLink(mqtt_url, f"owner-{tag}", lambda t, p: owner.on_message(t, p))
    follower_id = f"follower-{tag}"
    follower_link = MqttLink(mqtt_url, follower_id, lambda t, p: follower.on_message(t, p))
    wiper_link = MqttLink(mqtt_url, f"wiper-{tag}", lambda t, p: None)
    owner = MqttBus(owner_link, topics, "owner")
    follower = MqttBus(follower_link, topics, "follower")
    links = (owner_link, follower_link, wiper_link)
    for link in links:
        await link.start()
    try:
        owner.subscribe(TABLE, "S", "belief", lambda e: None)
        await owner.ensure_subscribed(TABLE)
        follower.subscribe(TABLE, "W", "event", lambda e: None)
        await until(lambda: owner.followers(TABLE, "W") == {"follower"}, "the marker")
        wiper_link.publish(topics.follower(TABLE, "W", "follower"), b"", qos=1, retain=True)
        await until(lambda: not owner.followers(TABLE, "W"), "the marker wiped")
        host, port = parse_mqtt_url(mqtt_url)
        async with aiomqtt.Client(host, port, identifier=follower_id,
                                  protocol=aiomqtt.ProtocolVersion.V5):
            pass  # takes the follower's client id: the broker drops its connection
        await until(lambda: follower_link.connections == 2, "the follower's reconnection")
        await until(lambda: owner.followers(TABLE, "W") == {"follower"}, "the marker again")
    finally:
        for link in links:
            await link.stop()


async def test_a_marker_after_the_last_subscriber_left_leaves_nothing_behind(
        mqtt_url: str, prefix: str) -> None:
    """The owner's last subscriber of a table leaves: it forgets the table's followers and
    unsubscribes. A follower's marker already on its way (delivered before the broker took
    the unsubscription) used to recreate the entry, which then stayed for as long as the
    server ran; the bus now takes markers only for tables it follows. Coming back, the
    owner learns the marker again from the broker (it is retained)."""
    topics = Topics(prefix)
    tag = uuid.uuid4().hex[:8]
    owner_link = MqttLink(mqtt_url, f"owner-{tag}", lambda t, p: owner.on_message(t, p))
    owner = MqttBus(owner_link, topics, "owner")
    await owner_link.start()
    try:
        unsubscribe = owner.subscribe(TABLE, "S", "belief", lambda e: None)
        await owner.ensure_subscribed(TABLE)
        unsubscribe()  # the last one: the table's followers are forgotten
        owner.on_message(topics.follower(TABLE, "W", "late"), b"1")  # the marker in flight
        assert owner.followers(TABLE, "W") == frozenset()
        assert not owner._followers
        owner_link.publish(topics.follower(TABLE, "W", "late"), b"1", qos=1, retain=True)
        owner.subscribe(TABLE, "S", "belief", lambda e: None)  # back: retained markers come
        await until(lambda: owner.followers(TABLE, "W") == {"late"}, "the retained marker")
        owner_link.publish(topics.follower(TABLE, "W", "late"), b"", qos=1, retain=True)
    finally:
        await owner_link.stop()
