"""The database itself refuses edits; edits made behind its back are caught by verify_chain."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from storage import EventStore, canonical_json, link_hash
from tests.storage.conftest import events


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET type = 'forged' WHERE seq = 2",
        "UPDATE events SET payload = '{}'",
        "DELETE FROM events WHERE seq = 3",
        "DELETE FROM events",
    ],
)
def test_triggers_reject_update_and_delete(store: EventStore, statement: str) -> None:
    store.append("s", 0, events(3))
    before = store.read("s")
    with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as conn:
        conn.execute(text(statement))
    assert store.read("s") == before
    assert store.verify_chain("s").ok


def test_postgresql_rejects_truncate(pg_url: str) -> None:
    with EventStore(pg_url) as store:
        store.append("s", 0, events(2))
        with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as conn:
            conn.execute(text("TRUNCATE events CASCADE"))
        assert store.last_seq("s") == 2 and len(store.read("s")) == 2


def _tamper(store: EventStore, *statements: str) -> None:
    """Edit the log the way an attacker with database access would: triggers off."""
    with store.engine.begin() as conn:
        if store.dialect == "sqlite":
            conn.execute(text("DROP TRIGGER events_no_update"))
            conn.execute(text("DROP TRIGGER events_no_delete"))
        else:
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER USER"))
        for statement in statements:
            conn.exec_driver_sql(statement)
        if store.dialect == "postgresql":
            conn.execute(text("ALTER TABLE events ENABLE TRIGGER USER"))


def test_edited_payload_is_detected(store: EventStore) -> None:
    store.append("s", 0, events(5))
    store.append("other", 0, events(2))
    _tamper(
        store,
        """UPDATE events SET payload = replace(payload, '"n":2', '"n":7')
                      WHERE stream = 's' AND seq = 3""",
    )
    report = store.verify_chain("s")
    assert not report.ok
    assert (report.first_bad_seq, report.reason, report.events_checked) == (3, "hash", 2)
    assert store.verify_chain("other").ok


def test_rehashed_edit_breaks_the_next_link(store: EventStore) -> None:
    stored = store.append("s", 0, events(5))
    forged = {**stored[2].payload, "n": 99}
    forged_hash = link_hash(stored[2].prev_hash, canonical_json(forged))
    _tamper(
        store,
        f"""UPDATE events SET payload = '{canonical_json(forged)}',
                       hash = '{forged_hash}' WHERE stream = 's' AND seq = 3""",
    )
    report = store.verify_chain("s")
    assert (report.ok, report.first_bad_seq, report.reason) == (False, 4, "prev_hash")


def test_removed_event_is_a_gap(store: EventStore) -> None:
    store.append("s", 0, events(5))
    _tamper(store, "DELETE FROM events WHERE stream = 's' AND seq = 2")
    report = store.verify_chain("s")
    assert (report.ok, report.first_bad_seq, report.reason) == (False, 2, "gap")


def test_cut_tail_is_caught_by_the_head(store: EventStore) -> None:
    store.append("s", 0, events(5))
    _tamper(store, "DELETE FROM events WHERE stream = 's' AND seq >= 4")
    report = store.verify_chain("s")
    assert (report.ok, report.first_bad_seq, report.reason) == (False, 4, "head")
    assert report.events_checked == 3


def test_row_type_disagreeing_with_payload(store: EventStore) -> None:
    store.append("s", 0, events(3))
    _tamper(store, "UPDATE events SET type = 'forged' WHERE stream = 's' AND seq = 2")
    report = store.verify_chain("s")
    assert (report.ok, report.first_bad_seq, report.reason) == (False, 2, "payload")


def test_verify_empty_stream(store: EventStore) -> None:
    report = store.verify_chain("nothing")
    assert report.ok and report.events_checked == 0 and report.last_seq == 0
