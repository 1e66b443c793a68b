"""What a table needs of its game: the registered game, its variant's seats and audiences, and
the table options it was created with (which may decide the seats, e.g. a number of players).

Resolved once from the table's variant name through the server's game registry
(`ServerConfig.games`, every registered game by default), so the table, fan-out, belief
workers and bots speak only the game interface and never import a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from archive.tables import TableConfig
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
from protocol import ProtocolError


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

    @classmethod
    def of_config(cls, config: TableConfig, registry: Registry = GAMES) -> TableGame:
        """A stored table's game: its options, over the fields an old record carried in their
        stead (`config.legacy`) where the variant declares an option of that name."""
        options = dict(config.options)
        if config.legacy:
            try:
                info = registry.variant(config.variant)
            except UnknownGame:
                info = None
            if info is not None:
                options = {**{k: v for k, v in config.legacy.items()
                              if info.option(k) is not None}, **options}
        return cls.of(config.variant, registry, options)

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

    def offered_moves(self, state: Any, seat: Seat) -> list[dict[str, Any]]:
        """`seat`'s legal moves in `state` as wire payloads (`command_to_wire`): what the
        seat's feed offers, each sendable back verbatim as a `move`."""
        game = self.game
        return [game.command_to_wire(command) for command in game.legal_moves(state, seat)]

    def options(self) -> Mapping[str, Any]:
        """The table options a match starts with: the declared ones, as the table has them."""
        return dict(self.chosen)
