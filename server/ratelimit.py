"""A token bucket per connection: bursts are fine, a flood gets `rate_limited`."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


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

    def take(self, now: float | None = None) -> bool:
        """Spend one token if there is one; False means the caller is over its rate."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
