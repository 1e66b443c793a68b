"""The MQTT control plane's credentials and signatures (issue 14, finding 1; issue 30).

The broker used to be open: any client that could connect read every seat's hand, made an
owner play for a connected person, faked presence, obtained seat tokens, stalled tables and
forged beliefs. Three defences, at the one place every process talks to the broker
(server/feeds/mqtt_link.py) and at start-up:

- **Credentials**: `mqtt://USER:PASS@HOST:PORT` (or `mqtts://` for TLS), or the user and
  password from `$DOMINO_MQTT_USERNAME` / `$DOMINO_MQTT_PASSWORD` (or a file named by
  `$DOMINO_MQTT_PASSWORD_FILE`) so that secrets stay off command lines. The broker's
  password file and ACL (deploy/) then decide who reads and writes which topics.
- **Signatures**: with a deployment key (`$DOMINO_MQTT_KEY_FILE`, hex, shared by every
  server and worker) each payload is sent as
  `MAGIC | time (8 bytes, ms) | sender (8) | counter (8) | HMAC-SHA256(key, topic \\0 time
  sender counter | payload) | payload`, and every message received is checked before use:
  a bad or missing signature, a time more than WINDOW seconds off (live messages), or a
  (sender, counter) already seen (a replay) drops the message, counted. The sender is 8
  random bytes per process and the counter goes up by one per message, so no two messages
  ever sign alike (two identical payloads in one millisecond used to share a signature,
  and the second was dropped as a replay), and a receiver remembers what it has seen as a
  window of REPLAY_WINDOW counters per sender (a bitmap), whatever the message rate (the
  old set of seen signatures forgot its oldest past 500,000, so a replay within the time
  window could pass again under load). So a broker client without the key — even one with
  a leaked broker password — cannot move a seat, change presence, join, or inject events
  or beliefs. Retained messages (beliefs) are exempt from the time window and the counter
  check only (they are delivered late and again by design; the bus's per-table seq gate
  drops an older one); an empty payload (clearing a retained belief) carries none.
- **Private by default**: `serve --mqtt` and `worker` refuse to start without a broker login
  and a key unless told `--insecure-bus` (a broker on a network nobody else reaches), which
  is logged at WARNING on start (`require_private_bus`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import ssl
import struct
import time
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from server.logs import log

MAGIC = b"DS2"
WINDOW = 120.0
"""Seconds a live message's time may differ from ours (servers' clocks are NTP-synced)."""
REPLAY_WINDOW = 1 << 16
"""Counters per sender remembered: a message more than this many behind the sender's
newest seen is refused (MQTT keeps one publisher's order up to the broker's queue, far
less than this, so only a replay is that late)."""
SENDERS_MAX = 10_000
"""Senders remembered; one silent for 2 x WINDOW is forgotten (its replays are stale)."""
ENV_KEY_FILE = "DOMINO_MQTT_KEY_FILE"
ENV_USERNAME = "DOMINO_MQTT_USERNAME"
ENV_PASSWORD = "DOMINO_MQTT_PASSWORD"
ENV_PASSWORD_FILE = "DOMINO_MQTT_PASSWORD_FILE"
ENV_CA_FILE = "DOMINO_MQTT_CA_FILE"
_STAMP = struct.Struct(">Q8sQ")
"""time (ms), sender, counter: what makes each signed message unique."""
_HEAD = len(MAGIC) + _STAMP.size + 32
_MASK = (1 << REPLAY_WINDOW) - 1


class InsecureBus(ValueError):
    """The bus would be open: no broker login or no signing key, and no --insecure-bus."""


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


def broker(url: str, environ: Mapping[str, str] | None = None) -> Broker:
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


def plane_key(environ: Mapping[str, str] | None = None) -> bytes | None:
    """The deployment key named by $DOMINO_MQTT_KEY_FILE (None: payloads are not signed)."""
    env = os.environ if environ is None else environ
    named = env.get(ENV_KEY_FILE)
    return read_plane_key(Path(named)) if named else None


def bus_exposure(url: str, environ: Mapping[str, str] | None = None) -> list[str]:
    """What a process on `url` would lack to be private: a broker login, a signing key."""
    env = os.environ if environ is None else environ
    found = broker(url, env)
    missing = []
    if not (found.username and found.password):
        missing.append(f"a broker login (USER:PASS in the URL, or ${ENV_USERNAME} with "
                       f"${ENV_PASSWORD} or ${ENV_PASSWORD_FILE})")
    if plane_key(env) is None:
        missing.append(f"a signing key (${ENV_KEY_FILE}: the deployment's shared key, hex)")
    return missing


def require_private_bus(url: str, insecure: bool, role: str,
                        environ: Mapping[str, str] | None = None) -> None:
    """Refuse (InsecureBus) to run `role` on an open bus unless `insecure`; then say so
    loudly. Without a login anyone on the broker's network reads hands from the work and
    seat topics; without the key anyone who can publish forges moves and beliefs."""
    missing = bus_exposure(url, environ)
    if not missing:
        return
    if not insecure:
        raise InsecureBus(
            f"refusing to run the {role} on an open bus: it has no "
            + " and no ".join(missing) + "; give both (docs/security.md), or pass "
            "--insecure-bus for a broker on a network nobody else can reach")
    log("insecure_bus", logging.WARNING, role=role, missing=" and ".join(missing),
        risk="anyone who can reach the broker may read hands and forge moves and beliefs")


@dataclass(slots=True)
class _Sender:
    """What a receiver remembers of one sender."""

    newest: int
    """The highest counter seen."""
    bits: int
    """Bit i set: counter newest - i was seen (REPLAY_WINDOW bits)."""
    heard: float
    """When it was last heard (monotonic seconds)."""


class Signer:
    """Signs what a process publishes and checks what it receives (one per connection)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.rejected = 0
        self.reasons: dict[str, int] = {}
        self.sender = secrets.token_bytes(8)
        self._counter = 0
        self._senders: dict[bytes, _Sender] = {}
        self._pruned = time.monotonic()

    def _mac(self, topic: str, stamp: bytes, payload: bytes) -> bytes:
        message = topic.encode() + b"\0" + stamp + payload
        return hmac.new(self.key, message, hashlib.sha256).digest()

    def sign(self, topic: str, payload: bytes) -> bytes:
        if not payload:
            return payload  # clears a retained message: nothing to sign
        self._counter += 1
        stamp = _STAMP.pack(int(time.time() * 1000), self.sender, self._counter)
        return MAGIC + stamp + self._mac(topic, stamp, payload) + payload

    def open(self, topic: str, data: bytes, retained: bool = False) -> bytes | None:
        """The payload if `data` was signed by a holder of the key for this topic, fresh
        and not seen before; None (counted by reason) otherwise."""
        if not data:
            return data
        if len(data) < _HEAD or not data.startswith(MAGIC):
            self._reject("unsigned")
            return None
        stamp, mac = data[len(MAGIC):len(MAGIC) + _STAMP.size], data[_HEAD - 32:_HEAD]
        payload = data[_HEAD:]
        if not hmac.compare_digest(mac, self._mac(topic, stamp, payload)):
            self._reject("bad_signature")
            return None
        if retained:
            return payload
        sent_ms, sender, counter = _STAMP.unpack(stamp)
        if abs(time.time() - sent_ms / 1000.0) > WINDOW:
            self._reject("stale")
            return None
        if not self._first_time(sender, counter):
            self._reject("replayed")
            return None
        return payload

    def _first_time(self, sender: bytes, counter: int) -> bool:
        """Record (sender, counter); False if it was seen, or is too far behind to tell."""
        now = time.monotonic()
        if now - self._pruned > WINDOW or len(self._senders) > SENDERS_MAX:
            self._forget_silent(now)
        seen = self._senders.get(sender)
        if seen is None:
            self._senders[sender] = _Sender(counter, 1, now)
            return True
        seen.heard = now
        if counter > seen.newest:
            seen.bits = ((seen.bits << (counter - seen.newest)) | 1) & _MASK
            seen.newest = counter
            return True
        behind = seen.newest - counter
        if behind >= REPLAY_WINDOW or (seen.bits >> behind) & 1:
            return False
        seen.bits |= 1 << behind
        return True

    def _forget_silent(self, now: float) -> None:
        self._senders = {sender: seen for sender, seen in self._senders.items()
                         if now - seen.heard <= 2 * WINDOW}
        self._pruned = now
        while len(self._senders) > SENDERS_MAX:  # only key holders make senders: never here
            self._senders.pop(next(iter(self._senders)))

    def _reject(self, reason: str) -> None:
        self.rejected += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        return None
