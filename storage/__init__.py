"""Append-only event store: typed JSON events in hash-chained streams, SQLite or PostgreSQL.

It knows nothing of dominoes: an event is a JSON object with a "type"; the store adds "seq".
"""

from storage.aio import AsyncEventStore
from storage.chain import GENESIS_HASH, canonical_json, link_hash
from storage.engine import store_url
from storage.errors import (
    ConcurrencyConflict,
    InvalidEvent,
    StorageError,
    StoreClosed,
    StoreGone,
    StoreLocked,
)
from storage.keys import StoreKeyError
from storage.records import ChainReport, StoredEvent, StreamInfo
from storage.store import AppendRequest, AppendResult, EventStore, server_key

__all__ = [
    "GENESIS_HASH",
    "AppendRequest",
    "AppendResult",
    "AsyncEventStore",
    "ChainReport",
    "ConcurrencyConflict",
    "EventStore",
    "InvalidEvent",
    "StorageError",
    "StoreClosed",
    "StoreGone",
    "StoreKeyError",
    "StoreLocked",
    "StoredEvent",
    "StreamInfo",
    "canonical_json",
    "link_hash",
    "server_key",
    "store_url",
]
