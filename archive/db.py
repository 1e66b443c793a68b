"""Where the event store is when nobody says: `$DOMINO_ORACLE_DB`, else a file here."""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT_DB = "domino-oracle.sqlite3"
ENV_VAR = "DOMINO_ORACLE_DB"


def default_db(environ: Mapping[str, str] = os.environ) -> str:
    """The store every tool and the server use unless given `--db`."""
    return environ.get(ENV_VAR) or DEFAULT_DB
