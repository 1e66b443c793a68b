"""A server's MQTT client id carries its node name and a suffix of its own: two servers named
alike on one broker (two clusters, or two test runs side by side) must not take each other's
connection (the broker drops the older of two clients with one id, and they reconnect in
turn every 0.1 s; one such server once hung in its shutdown)."""

from __future__ import annotations

from server.cluster.ownership import client_id


def test_two_servers_with_one_node_name_have_two_client_ids() -> None:
    ids = {client_id("s1") for _ in range(50)}
    assert len(ids) == 50
    assert all(i.startswith("server-s1-") and len(i) == len("server-s1-") + 8 for i in ids)
