"""The store's key: stream heads sealed with HMAC-SHA256, so a rewrite needs more than the
database.

The hash chain alone proves nothing to someone who can edit the database: change a tile,
recompute every later hash and the `streams` head, and `verify` passed. With a key kept
outside the database (a file, `--store-key-file`), each stream's head — (stream, last seq,
last hash), which the chain ties to every event before it — carries
`head_mac = HMAC-SHA256(key, stream \\n last_seq \\n last_hash)`, written in the same
transaction as the events. Without the key a rewrite cannot produce a matching seal.
The store records only the key's id (an HMAC of a fixed label), to tell a wrong key from
a tampered stream.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from storage.errors import StorageError

KEY_BYTES = 32
ENV_KEY_FILE = "DOMINO_ORACLE_STORE_KEY_FILE"
"""A key file for every tool that opens the store (when not given one explicitly)."""


class StoreKeyError(StorageError):
    """The store's key is missing, unreadable, or not this store's."""


class UnsealedStore(StoreKeyError):
    """A key is given for a store with streams and no seal (stripped, or never sealed)."""


def key_file_for(db_path: Path) -> Path:
    """The default key file of a SQLite store: beside it, `<db>.key`."""
    return db_path.with_name(db_path.name + ".key")


def read_key(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, ValueError) as error:
        raise StoreKeyError(f"cannot read the store key {path}: {error}") from None
    if len(key) < 16:
        raise StoreKeyError(f"the store key {path} is too short (at least 16 bytes, hex)")
    return key


def create_key(path: Path) -> bytes:
    """A new random key in a new file readable by its owner only (never overwrites)."""
    key = secrets.token_bytes(KEY_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with contextlib.closing(os.fdopen(fd, "w", encoding="ascii")) as out:
        out.write(key.hex() + "\n")
        out.flush()
        os.fsync(out.fileno())
    return key


def key_id(key: bytes) -> str:
    return hmac.new(key, b"domino-oracle store key id", hashlib.sha256).hexdigest()[:16]


def head_mac(key: bytes, stream: str, last_seq: int, last_hash: str) -> str:
    message = f"{stream}\n{last_seq}\n{last_hash}".encode()
    sealer = _keyed(key).copy()
    sealer.update(message)
    return sealer.hexdigest()


@functools.lru_cache(maxsize=8)
def _keyed(key: bytes) -> hmac.HMAC:
    """HMAC-SHA256 with the key already absorbed, to copy per seal: the same MAC as
    hmac.digest, without hashing the key's two padded blocks again for every head (a
    grouped commit seals one head per stream: 0.8 µs a seal against 1.4)."""
    return hmac.new(key, digestmod=hashlib.sha256)
