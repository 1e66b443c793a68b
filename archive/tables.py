"""A table as stored: its config (the first record of `seats:<table_id>`) and seat claims.

Read from the store in one place, so the config record is parsed once, the same way, by
the live table's recovery, a remote handle, an archived match and the listing.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from archive.streams import seats_stream
from storage import EventStore

CREATED = "table_created"
CLAIMED = "seat_claimed"
LEGACY_FIELDS = ("target", "scoring")
"""Fields of config records written before table options: each game that reads them now
declares an option of the same name (the value they were written with goes there)."""
Seat = str


@dataclass(frozen=True)
class TableConfig:
    """What create_table fixed; the first record of `seats:<table_id>`."""

    table_id: str
    variant: str
    bots: dict[Seat, str] = field(default_factory=dict)
    advice: bool = False
    turn_clock: float | None = None
    """Seconds a person may take over a move before a stand-in plays it (None: no clock)."""
    options: dict[str, Any] = field(default_factory=dict)
    """The variant's declared table options, checked, defaults filled in. Records written
    before options existed have none: their variant's defaults apply."""
    legacy: dict[str, Any] = field(default_factory=dict)
    """An old record's own fields that are options now (LEGACY_FIELDS, with the values it
    was written with): the table's options take them where its variant declares them
    (server.table_game.TableGame.of_config). Never written: a new record has options."""

    def record(self) -> dict[str, Any]:
        data = asdict(self)
        del data["legacy"]
        return {"type": CREATED, **data}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> TableConfig:
        fields = {k: v for k, v in data.items()
                  if k not in ("type", "seq", "legacy", *LEGACY_FIELDS)}
        legacy = {k: data[k] for k in LEGACY_FIELDS if k in data}
        return cls(**fields, legacy=legacy)


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
