"""The MQTT control plane's credentials and signatures (issue 14, finding 1).

The broker used to be open: any client that could connect read every seat's hand, made an
owner play for a connected person, faked presence, obtained seat tokens, stalled tables and
forged beliefs. Two defences, both at the one place every process talks to the broker
(server/feeds/mqtt_link.py):

- **Credentials**: `mqtt://USER:PASS@HOST:PORT` (or `mqtts://` for TLS), or the user and
  password from `$DOMINO_MQTT_USERNAME` / `$DOMINO_MQTT_PASSWORD` (or a file named by
  `$DOMINO_MQTT_PASSWORD_FILE`) so that secrets stay off command lines. The broker's
  password file and ACL (deploy/) then decide who reads and writes which topics.
- **Signatures**: with a deployment key (`$DOMINO_MQTT_KEY_FILE`, hex, shared by every
  server and worker) each payload is sent as
  `MAGIC | time (8 bytes, ms) | HMAC-SHA256(key, topic \\0 time | payload) | payload`, and
  every message received is checked before use: a bad or missing signature, a time more
  than WINDOW seconds off (live messages), or a signature already seen within the window
  (a replay) drops the message, counted. So a broker client without the key — even one with
  a leaked broker password — cannot move a seat, change presence, join, or inject events
  or beliefs. Retained messages (beliefs) are exempt from the time window only (they are
  delivered late by design); an empty payload (clearing a retained belief) carries none.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import ssl
import struct
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"DS1"
WINDOW = 120.0
"""Seconds a live message's time may differ from ours (servers' clocks are NTP-synced)."""
ENV_KEY_FILE = "DOMINO_MQTT_KEY_FILE"
ENV_USERNAME = "DOMINO_MQTT_USERNAME"
ENV_PASSWORD = "DOMINO_MQTT_PASSWORD"
ENV_PASSWORD_FILE = "DOMINO_MQTT_PASSWORD_FILE"
ENV_CA_FILE = "DOMINO_MQTT_CA_FILE"
_HEAD = len(MAGIC) + 8 + 32
_SEEN_MAX = 500_000


@dataclass(frozen=True)
class Broker:
    """Where the broker is and how to log in (the password never printed)."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False

    def __repr__(self) -> str:
        user = f"{self.username}@" if self.username else ""
        return f"Broker({'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port})"

    def tls_context(self) -> ssl.SSLContext | None:
        if not self.tls:
            return None
        return ssl.create_default_context(cafile=os.environ.get(ENV_CA_FILE) or None)


def broker(url: str, environ: dict[str, str] | None = None) -> Broker:
    """The broker a URL names: `mqtt[s]://[USER[:PASS]@]HOST[:PORT]` (a bare HOST[:PORT] is
    mqtt); the environment supplies what the URL leaves out."""
    env = os.environ if environ is None else environ
    parsed = urllib.parse.urlsplit(url if "://" in url else f"mqtt://{url}")
    if parsed.scheme not in ("mqtt", "tcp", "mqtts", "ssl") or not parsed.hostname:
        raise ValueError(f"not an MQTT URL: {url!r} (expected mqtt[s]://[USER:PASS@]HOST:PORT)")
    tls = parsed.scheme in ("mqtts", "ssl")
    username = urllib.parse.unquote(parsed.username) if parsed.username else None
    password = urllib.parse.unquote(parsed.password) if parsed.password else None
    username = username or env.get(ENV_USERNAME) or None
    if password is None:
        password = env.get(ENV_PASSWORD) or None
        named = env.get(ENV_PASSWORD_FILE)
        if password is None and named:
            password = Path(named).read_text(encoding="utf-8").strip()
    return Broker(parsed.hostname, parsed.port or (8883 if tls else 1883), username, password,
                  tls)


def read_plane_key(path: Path) -> bytes:
    key = bytes.fromhex(path.read_text(encoding="ascii").strip())
    if len(key) < 16:
        raise ValueError(f"the MQTT key {path} is too short (at least 16 bytes, hex)")
    return key


def plane_key(environ: dict[str, str] | None = None) -> bytes | None:
    """The deployment key named by $DOMINO_MQTT_KEY_FILE (None: payloads are not signed)."""
    env = os.environ if environ is None else environ
    named = env.get(ENV_KEY_FILE)
    return read_plane_key(Path(named)) if named else None


class Signer:
    """Signs what a process publishes and checks what it receives (one per connection)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.rejected = 0
        self.reasons: dict[str, int] = {}
        self._seen: dict[bytes, float] = {}
        self._pruned = time.monotonic()

    def _mac(self, topic: str, stamp: bytes, payload: bytes) -> bytes:
        message = topic.encode() + b"\0" + stamp + payload
        return hmac.new(self.key, message, hashlib.sha256).digest()

    def sign(self, topic: str, payload: bytes) -> bytes:
        if not payload:
            return payload  # clears a retained message: nothing to sign
        stamp = struct.pack(">Q", int(time.time() * 1000))
        return MAGIC + stamp + self._mac(topic, stamp, payload) + payload

    def open(self, topic: str, data: bytes, retained: bool = False) -> bytes | None:
        """The payload if `data` was signed by a holder of the key for this topic, fresh
        and not seen before; None (counted by reason) otherwise."""
        if not data:
            return data
        if len(data) < _HEAD or not data.startswith(MAGIC):
            return self._reject("unsigned")
        stamp, mac = data[len(MAGIC):len(MAGIC) + 8], data[len(MAGIC) + 8:_HEAD]
        payload = data[_HEAD:]
        if not hmac.compare_digest(mac, self._mac(topic, stamp, payload)):
            return self._reject("bad_signature")
        if retained:
            return payload
        sent = struct.unpack(">Q", stamp)[0] / 1000.0
        if abs(time.time() - sent) > WINDOW:
            return self._reject("stale")
        if mac in self._seen:
            return self._reject("replayed")
        self._remember(mac)
        return payload

    def _remember(self, mac: bytes) -> None:
        now = time.monotonic()
        self._seen[mac] = now + 2 * WINDOW
        if now - self._pruned > WINDOW or len(self._seen) > _SEEN_MAX:
            self._seen = {m: t for m, t in self._seen.items() if t > now}
            self._pruned = now
            while len(self._seen) > _SEEN_MAX:  # a flood of valid messages: forget the oldest
                self._seen.pop(next(iter(self._seen)))

    def _reject(self, reason: str) -> None:
        self.rejected += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        return None
