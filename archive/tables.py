"""A table as stored: its config (the first record of `seats:<table_id>`) and seat claims.

Read from the store in one place, so the config record is parsed once, the same way, by
the live table's recovery, a remote handle, an archived match and the listing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from archive.streams import seats_stream
from games.dominoes.tiles import Seat
from games.dominoes.variants import Scoring
from storage import EventStore

CREATED = "table_created"
CLAIMED = "seat_claimed"


@dataclass(frozen=True)
class TableConfig:
    """What create_table fixed; the first record of `seats:<table_id>`."""

    table_id: str
    variant: str
    target: int = 100
    scoring: Scoring = "losers"
    bots: dict[Seat, str] = field(default_factory=dict)
    advice: bool = False
    turn_clock: float | None = None
    """Seconds a person may take over a move before a stand-in plays it (None: no clock)."""
    options: dict[str, Any] = field(default_factory=dict)
    """The variant's declared table options, checked, defaults filled in (Clue: players).
    Records written before options existed have none: their variant's defaults apply."""

    def record(self) -> dict[str, Any]:
        return {"type": CREATED, **asdict(self)}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> TableConfig:
        fields = {k: v for k, v in data.items() if k not in ("type", "seq")}
        return cls(**fields)


@dataclass(frozen=True)
class StoredTable:
    """A table's side records: its config and everything recorded after it, in order."""

    config: TableConfig
    records: list[dict[str, Any]]
    """Records after the config (seat claims), as stored."""

    @property
    def claims(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("type") == CLAIMED]

    def latest_claims(self) -> dict[Seat, dict[str, Any]]:
        """Seat -> its latest claim (a seat claimed again belongs to the later claim)."""
        return {r["seat"]: r for r in self.claims}


def parse_table(side: list[dict[str, Any]]) -> StoredTable | None:
    """The table a `seats:` stream's payloads describe (None: no config record first)."""
    if not side or side[0].get("type") != CREATED:
        return None
    return StoredTable(TableConfig.from_record(side[0]), side[1:])


def read_table(store: EventStore, table_id: str, *, config_only: bool = False
               ) -> StoredTable | None:
    """The stored table (blocking: call it in a thread); None if it was never created."""
    stored = store.read(seats_stream(table_id), 0, 1 if config_only else None)
    return parse_table([e.payload for e in stored])
