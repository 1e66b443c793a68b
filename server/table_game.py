"""What a table needs of its game: the registered game and its variant's seats and audiences.

Resolved once from the table's variant name through the server's game registry
(`ServerConfig.games`, every registered game by default), so the table, fan-out, belief
workers and bots speak only the game interface and never import a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.interface import SPECTATOR, Game, Seat, UnknownGame, VariantInfo
from games.registry import GAMES, Registry
from server.protocol import ProtocolError


@dataclass(frozen=True)
class TableGame:
    """One table's game and variant."""

    game: Game
    variant: VariantInfo

    @classmethod
    def of(cls, variant: str, registry: Registry = GAMES) -> TableGame:
        """The registered game of `variant` (a typed `bad_request` for an unknown name)."""
        try:
            return cls(registry.game_of_variant(variant), registry.variant(variant))
        except UnknownGame as error:
            raise ProtocolError("bad_request", str(error)) from None

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.variant.seats

    @property
    def audiences(self) -> tuple[str, ...]:
        """Every audience that gets its own feed and belief: each seat, then the public."""
        return (*self.seats, SPECTATOR)

    def options(self, target: int, scoring: str) -> Mapping[str, Any]:
        """The table options a match starts with."""
        return {"target": target, "scoring": scoring}
