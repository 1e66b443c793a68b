"""What a table needs of its game: the registered game, its variant's seats and audiences, and
the table options it was created with (which may decide the seats: Clue's `players`).

Resolved once from the table's variant name through the server's game registry
(`ServerConfig.games`, every registered game by default), so the table, fan-out, belief
workers and bots speak only the game interface and never import a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from games.interface import (
    SPECTATOR,
    Game,
    OptionError,
    Seat,
    UnknownGame,
    VariantInfo,
    table_seats,
)
from games.registry import GAMES, Registry
from server.protocol import ProtocolError


@dataclass(frozen=True)
class TableGame:
    """One table's game, variant and declared options (checked; defaults filled in)."""

    game: Game
    variant: VariantInfo
    chosen: Mapping[str, Any] = field(default_factory=dict)
    """The table's options as create_table set them (games.interface.VariantInfo.resolve)."""

    @classmethod
    def of(cls, variant: str, registry: Registry = GAMES,
           options: Mapping[str, Any] | None = None) -> TableGame:
        """The registered game of `variant` (a typed `bad_request` for an unknown name) with
        `options` checked against its declaration (a typed `bad_option` naming the option)."""
        try:
            game, info = registry.game_of_variant(variant), registry.variant(variant)
        except UnknownGame as error:
            raise ProtocolError("bad_request", str(error)) from None
        try:
            return cls(game, info, info.resolve(options))
        except OptionError as error:
            raise ProtocolError("bad_option", error.message) from None

    @property
    def name(self) -> str:
        return self.game.name

    @cached_property
    def seats(self) -> tuple[Seat, ...]:
        """The variant's seats, or as many as an option that decides seats asks for."""
        return table_seats(self.game, self.variant.name, self.chosen)

    @property
    def audiences(self) -> tuple[str, ...]:
        """Every audience that gets its own feed and belief: each seat, then the public."""
        return (*self.seats, SPECTATOR)

    def options(self, target: int, scoring: str) -> Mapping[str, Any]:
        """The table options a match starts with: the fixed fields and the declared ones."""
        return {"target": target, "scoring": scoring, **self.chosen}
