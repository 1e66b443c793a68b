"""What every game's events are made of: frozen, strict pydantic models with their seq, and
the referee's 64-hex-digit secret (a shuffle's seed)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

Secret = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class GameEvent(BaseModel):
    """An event: unknown fields refused, never changed once made; seq 0 until stamped."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seq: int = Field(0, ge=0)
