"""The `--db` option every tool shares, and opening the store it names."""

from __future__ import annotations

import argparse
import os

from storage.engine import store_url
from storage.store import EventStore

DEFAULT_DB = "domino-oracle.sqlite3"


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=os.environ.get("DOMINO_ORACLE_DB", DEFAULT_DB),
        help="SQLite file or postgresql:// URL (default: $DOMINO_ORACLE_DB or %(default)s)",
    )


def open_store(db: str) -> EventStore:
    return EventStore(store_url(db))
