"""Sealed heads (storage/keys.py) on both backends: a rewrite without the key fails
verify_chain with reason "seal", however carefully the plain chain was recomputed."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from sqlalchemy import text

from storage import GENESIS_HASH, EventStore, StoreKeyError, canonical_json, link_hash
from storage.keys import head_mac
from tests.storage.conftest import events

KEY = bytes(range(32))


def _rewrite(store: EventStore, stream: str, seq: int) -> None:
    """Edit one payload and recompute every later hash and the head, as someone with write
    access to the database (and the right to disable its triggers) can."""
    with store.engine.begin() as conn:
        if store.dialect == "postgresql":
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER events_append_only"))
        else:
            conn.execute(text("DROP TRIGGER IF EXISTS events_no_update"))
        rows = conn.execute(text("SELECT seq, payload FROM events WHERE stream = :s "
                                 "ORDER BY seq"), {"s": stream}).all()
        prev = GENESIS_HASH
        for row_seq, payload in rows:
            if row_seq == seq:
                data = json.loads(payload)
                data["n"] = 999
                payload = canonical_json(data)
            digest = link_hash(prev, payload)
            conn.execute(text("UPDATE events SET payload = :p, prev_hash = :h0, hash = :h1 "
                              "WHERE stream = :s AND seq = :q"),
                         {"p": payload, "h0": prev, "h1": digest, "s": stream, "q": row_seq})
            prev = digest
        conn.execute(text("UPDATE streams SET last_hash = :h WHERE stream = :s"),
                     {"h": prev, "s": stream})
        if store.dialect == "postgresql":
            conn.execute(text("ALTER TABLE events ENABLE TRIGGER events_append_only"))


def test_a_rewrite_without_the_key_breaks_the_seal(url: str) -> None:
    with EventStore(url, key=KEY) as store:
        store.append("m", 0, events(3))
        store.append("m", 3, events(2))
        assert store.sealed and store.verify_chain("m").ok
        _rewrite(store, "m", 2)
        report = store.verify_chain("m")
        assert (report.ok, report.reason) == (False, "seal")
    with EventStore(url, key=None) as reader:  # no key: readable, not writable
        assert reader.read("m")[1].payload["n"] == 999
        with pytest.raises(StoreKeyError):
            reader.append("other", 0, events(1))
    with pytest.raises(StoreKeyError):
        EventStore(url, key=bytes(32))


def test_an_unsealed_store_is_sealed_only_by_a_new_key(url: str) -> None:
    with EventStore(url, key=None) as store:
        store.append("old", 0, events(2))
        assert not store.sealed and store.verify_chain("old").ok
    with pytest.raises(StoreKeyError):  # a key that already existed does not seal it
        EventStore(url, key=KEY)
    with EventStore(url, key=KEY, seal_unkeyed=True) as store:  # trust on first use
        assert store.sealed and store.verify_chain("old").ok
        store.append("old", 2, events(1))
        assert store.verify_chain("old").ok


@pytest.mark.parametrize("key", [KEY, bytes(16), b"k" * 64, bytes(range(100))])
def test_a_seal_is_hmac_sha256_of_the_head_whatever_the_key(key: bytes) -> None:
    # the sealer keeps the keyed state to copy per seal: the MAC must stay the standard one,
    # for every key length (shorter than a block, a block, longer: hashed first), and the
    # same when asked again after other keys
    heads = [("t:1", 1, GENESIS_HASH), ("tables/ü", 42, "ab" * 32), ("x", 10**9, "0" * 64)]
    for _ in range(2):
        for stream, seq, last in heads:
            message = f"{stream}\n{seq}\n{last}".encode()
            assert head_mac(key, stream, seq, last) == hmac.new(key, message,
                                                                 hashlib.sha256).hexdigest()
        head_mac(bytes(32), "other", 1, GENESIS_HASH)
