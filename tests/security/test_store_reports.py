"""Issue 30, item 6: what the server and `verify` say about a damaged store, and to whom.

- `/healthz` is open to anyone: a quarantined table's reason there names the kind of
  failure (its code, the stream's kind and the seq), never a value of the stored payload
  (before: `does not fold: RuleViolation(...)` quoted the rewritten event's fields, and the
  chain's detail the stream's name and hashes). The log keeps the whole story.
- `verify` on a store whose seals were stripped (every head's MAC and the key's id removed,
  with the key file still beside it): before, a traceback (`StoreKeyError`); now one line,
  typed, and exit code 1.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.security.conftest import Start
from tests.security.test_store_integrity import _two_tables, rewrite, stop_server

ROOT = Path(__file__).resolve().parents[2]
MARKER = 987_654_321


async def test_healthz_names_the_kind_of_failure_not_the_payload(
        start: Start, tmp_path: Path) -> None:
    server = await start(store_key_file=None)
    (folds_not, _), _ = await _two_tables(server)
    await stop_server(server)
    rewrite(tmp_path / "server.sqlite3", folds_not, 2, lambda event: event.update(
        type="hand_started", seq=2, hand=MARKER, dealer=f"x{MARKER}"))
    server = await start(store_key_file=None)
    reasons = server.health()["quarantined"]
    assert list(reasons) == [folds_not]
    said = json.dumps(reasons)
    assert str(MARKER) not in said, said
    assert reasons[folds_not].startswith("does_not_fold"), reasons


async def test_healthz_names_a_broken_seal_by_its_code(start: Start, tmp_path: Path) -> None:
    server = await start()
    (victim, _), _ = await _two_tables(server)
    await stop_server(server)
    rewrite(tmp_path / "server.sqlite3", f"seats:{victim}", 2,
            lambda claim: claim.update(name=f"mallory{MARKER}"))
    server = await start()
    reasons = server.health()["quarantined"]
    assert list(reasons) == [victim]
    assert reasons[victim] == "seal at seq 2 of the seats stream", reasons
    assert victim not in reasons[victim]


async def test_verify_on_a_store_whose_seals_were_stripped_says_so_in_one_line(
        start: Start, tmp_path: Path) -> None:
    server = await start()
    await _two_tables(server)
    await stop_server(server)
    db = tmp_path / "server.sqlite3"
    with sqlite3.connect(db) as con:
        con.execute("UPDATE streams SET head_mac = NULL")
        con.execute("DELETE FROM store_meta WHERE name = 'key_id'")
    done = subprocess.run([sys.executable, "-m", "clients.cli", "verify", "--db", str(db)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    print(f"\nexit {done.returncode}: {done.stdout.strip()} {done.stderr.strip()}")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"BAD {db}: seal"), lines
