"""The `--db` option every tool shares, and opening the store it names."""

from __future__ import annotations

import argparse
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from archive.db import DEFAULT_DB, ENV_VAR, default_db
from clients.cli import CommandError
from storage.engine import store_url
from storage.errors import StorageError
from storage.keys import StoreKeyError
from storage.store import EventStore


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """`--db`, defaulting to $DOMINO_ORACLE_DB or the default file (archive.db)."""
    parser.add_argument(
        "--db",
        default=default_db(),
        help=f"SQLite file or postgresql:// URL (default: ${ENV_VAR} or {DEFAULT_DB}; "
             "here %(default)s)",
    )


def open_store(db: str, *, create: bool = False, key_errors: bool = False) -> EventStore:
    """The store `db` names, or a clear error (never a driver's traceback).

    Tools that only read pass create=False: a mistyped SQLite path is then "no store at ...",
    not a new, empty store that answers "0 matches". A key that does not fit the store (a
    StoreKeyError: not its key, or its seals stripped) is a CommandError too, unless
    `key_errors` (`verify` reports it as a finding)."""
    if not create and "://" not in db and not Path(db).is_file():
        raise CommandError(f"no store at {db} (a SQLite file, or a postgresql:// URL)")
    try:
        return EventStore(store_url(db))
    except StoreKeyError as error:
        if key_errors:
            raise
        raise CommandError(f"cannot open the store {shown(db)}: {error}") from None
    except (SQLAlchemyError, OSError, StorageError) as error:
        raise CommandError(cannot_open(db, error)) from None


def cannot_open(db: str, error: BaseException) -> str:
    """One line on why the store `db` names could not be used (its password hidden)."""
    text = str(getattr(error, "orig", None) or error).strip()
    reason = text.splitlines()[0] if text else type(error).__name__
    return f"cannot open the store {shown(db)}: {reason}"


def shown(db: str) -> str:
    """`db` fit for a message: a URL's password hidden."""
    if "://" not in db:
        return db
    try:
        return make_url(db).render_as_string(hide_password=True)
    except Exception:  # not even a URL: say nothing of it
        return "(unparseable URL)"
