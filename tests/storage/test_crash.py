"""A writer process killed mid-append leaves no partial event, and the log still verifies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from storage import EventStore
from storage.schema import events as events_table
from tests.storage.conftest import events

ROOT = Path(__file__).resolve().parents[2]

# The child appends a big batch and freezes as it begins COMMIT: every row has been sent to
# the database, nothing is committed. Then it is SIGKILLed. (SQLite's raw writer runs its own
# transaction on its own connection: its COMMIT is seen by the connection's trace callback;
# PostgreSQL's is SQLAlchemy's, seen by the engine's "commit" event.)
FROZEN_AT_COMMIT = """
import sys, time
from sqlalchemy import event
from storage import EventStore

store = EventStore(sys.argv[1])

def freeze(*_args):
    print("ready", flush=True)
    time.sleep(120)

if store._raw is not None:
    store._raw.connection.set_trace_callback(lambda sql: sql == "COMMIT" and freeze())
else:
    event.listen(store.engine, "commit", freeze)

store.append_batch(
    [(f"s{i}", store.last_seq(f"s{i}"), [{"type": "big", "j": j} for j in range(200)])
     for i in range(10)]
)
"""

# The child appends 20 events to each of 20 streams per transaction, forever.
BUSY_WRITER = """
import sys
from storage import EventStore

store = EventStore(sys.argv[1])
done = 0
print("ready", flush=True)
while True:
    store.append_batch([(f"s{i}", done, [{"type": "e", "k": k} for k in range(20)])
                        for i in range(20)])
    done += 20
"""


def _start(code: str, url: str) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", code, url], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    return child


def _kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(30) == -signal.SIGKILL


def test_killed_before_commit_leaves_nothing(url: str) -> None:
    with EventStore(url) as store:
        before = store.append("s0", 0, events(5))
    _kill(_start(FROZEN_AT_COMMIT, url))

    with EventStore(url) as store:
        assert store.read("s0") == before
        assert [s.stream for s in store.streams()] == ["s0"]
        with store.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(events_table)).scalar() == 5
        assert store.verify_chain("s0").ok
        # the stream goes on from where it was, and new streams can still be created
        assert store.append("s0", 5, events(1))[0].seq == 6
        assert store.append("s1", 0, events(1))[0].seq == 1
        assert store.verify_chain("s0").ok


def test_killed_during_a_stream_of_batches_is_all_or_nothing(url: str) -> None:
    EventStore(url).close()
    child = _start(BUSY_WRITER, url)
    time.sleep(0.6)
    _kill(child)

    with EventStore(url) as store:
        heads = {info.stream: info.last_seq for info in store.streams()}
        assert heads, "the writer committed nothing in 0.6 s"
        assert len(heads) == 20 and len(set(heads.values())) == 1  # every batch whole or absent
        last = next(iter(heads.values()))
        assert last % 20 == 0
        for stream in heads:
            report = store.verify_chain(stream)
            assert report.ok and report.events_checked == last, report
        assert store.append("s0", last, events(1))[0].seq == last + 1
