"""Rate and quota guards: a token bucket per connection, and the server-wide limits that
keep one client (or one address) from taking what every connection shares.

- `TokenBucket`: bursts are fine, a flood gets `rate_limited`; big work (a long backlog)
  is charged by its size, so the connection repays it before its next message.
- `TableQuota`: unfinished tables created per connection and per address (`limit_reached`).
- `AddressBuckets`: a rate per IP address for what strangers may ask (replay computations).
- `BacklogGate`: backlogs (`watch`/`resume` history) are folded and encoded on the event
  loop; the gate spreads them over time (a server-wide rate in events/s) and caps how many
  wait at once (`busy`), so 200 simultaneous resumes cannot stall the loop for seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from protocol import ProtocolError


@dataclass(slots=True)
class TokenBucket:
    rate: float
    """Tokens added per second."""
    burst: float
    """Bucket capacity (the largest burst allowed)."""
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def _refill(self, now: float | None) -> None:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float | None = None, cost: float = 1.0) -> bool:
        """Spend `cost` tokens if there are; False means the caller is over its rate."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def charge(self, cost: float, now: float | None = None) -> None:
        """Spend `cost` tokens whatever the balance: work already done (a backlog sent) is
        repaid before the next message is accepted. The debt is capped at ten bursts."""
        self._refill(now)
        self.tokens = max(-10 * self.burst, self.tokens - cost)

    def wait_for(self, cost: float, now: float | None = None) -> float:
        """Seconds until `cost` tokens are there (0: now); takes them when it returns 0."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return 0.0
        return (cost - self.tokens) / self.rate


class AddressBuckets:
    """A token bucket per address, for what any stranger may ask (replay computations,
    uploads). Bounded: past `max_addresses` the buckets that are full again are forgotten
    (an address that has waited its bucket full loses nothing by it)."""

    def __init__(self, rate: float, burst: float, max_addresses: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_addresses = max_addresses
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str, now: float | None = None) -> bool:
        """One token from `address`'s bucket; False: over its rate."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.max_addresses:
                self._forget_full(now)
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst)
        return bucket.take(now)

    def _forget_full(self, now: float | None) -> None:
        kept = {}
        for address, bucket in self._buckets.items():
            bucket.take(now, cost=0.0)  # brings its count up to now
            if bucket.tokens < bucket.burst:
                kept[address] = bucket
        self._buckets = kept

    def __len__(self) -> int:
        return len(self._buckets)


class TableQuota:
    """Unfinished tables created from one address (and, in the Session, one connection).

    `alive(table_id)` says whether a table still counts (hosted and not finished); ids that
    no longer count are dropped whenever the address creates again, and from every address
    once the map has doubled since the last sweep (an address that never comes back would
    otherwise stay for as long as the server runs)."""

    SWEEP_FLOOR = 1024
    """Addresses held before the first sweep of them all."""

    def __init__(self, per_address: int, alive: Callable[[str], bool]) -> None:
        self.per_address = per_address
        self.alive = alive
        self.by_address: dict[str, set[str]] = {}
        self._sweep_at = self.SWEEP_FLOOR

    def check(self, address: str, own: set[str], per_connection: int) -> None:
        """Refuse (`limit_reached`) a new table over either limit; prunes `own` as well."""
        own.intersection_update({t for t in own if self.alive(t)})
        held = self.by_address.get(address, set())
        held.intersection_update({t for t in held if self.alive(t)})
        if not held:
            self.by_address.pop(address, None)
        if len(own) >= per_connection:
            raise ProtocolError("limit_reached", f"this connection has {len(own)} unfinished "
                                f"tables (limit {per_connection}); finish or wait for one")
        if len(held) >= self.per_address:
            raise ProtocolError("limit_reached", f"your address has {len(held)} unfinished "
                                f"tables (limit {self.per_address})")

    def add(self, address: str, table_id: str) -> None:
        self.by_address.setdefault(address, set()).add(table_id)
        if len(self.by_address) > self._sweep_at:
            self.sweep()

    def sweep(self) -> None:
        """Drop every id that no longer counts, and the addresses left with none (amortised:
        the next sweep waits until the map has doubled again)."""
        for address in list(self.by_address):
            held = {t for t in self.by_address[address] if self.alive(t)}
            if held:
                self.by_address[address] = held
            else:
                del self.by_address[address]
        self._sweep_at = max(self.SWEEP_FLOOR, 2 * len(self.by_address))


class BacklogGate:
    """Admits backlogs (events to send on `watch`/`resume`) at a server-wide rate, and at
    most `ceiling` of them waiting or being served at once; beyond that, `busy`."""

    def __init__(self, events_per_second: float, burst: float, ceiling: int) -> None:
        self.bucket = TokenBucket(events_per_second, burst)
        self.ceiling = ceiling
        self.active = 0
        self.refused = 0

    async def admit(self, events: int) -> None:
        """Wait until `events` may be sent (returns at once for small backlogs)."""
        if self.active >= self.ceiling:
            self.refused += 1
            raise ProtocolError("busy", f"{self.active} catch-ups are being served; "
                                        "retry in a moment")
        self.active += 1
        try:
            cost = min(float(events), self.bucket.burst)
            while (delay := self.bucket.wait_for(cost)) > 0:
                await asyncio.sleep(delay)
        finally:
            self.active -= 1

    def charge(self, events: int) -> None:
        """Events sent that were not known before (a remote table's history)."""
        self.bucket.charge(float(events))
