"""Every game the server hosts, registered once, and lookups by game or variant name.

Adding a game: its package under games/, its web renderer, and one line in `GAMES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.clue.game import CLUE
from games.dominoes.game import DOMINOES
from games.interface import Game, UnknownGame, VariantInfo
from games.texas42.game import TEXAS42
from games.uno.game import UNO

DEFAULT_GAME = "dominoes"


class Registry:
    """Games by name and variants by name; variant names are unique across games."""

    def __init__(self, games: Iterable[Game]) -> None:
        self._games: dict[str, Game] = {}
        self._variants: dict[str, tuple[Game, VariantInfo]] = {}
        for game in games:
            self.add(game)

    def add(self, game: Game) -> None:
        if game.name in self._games:
            raise ValueError(f"game {game.name!r} is registered twice")
        variants = game.variants()
        clash = sorted(set(variants) & set(self._variants))
        if clash:
            raise ValueError(f"variant names {clash} are taken by another game")
        self._games[game.name] = game
        for name, info in variants.items():
            self._variants[name] = (game, info)

    def game(self, name: str | None) -> Game:
        """The game called `name`; None (an old log that names no game) means dominoes."""
        try:
            return self._games[name or DEFAULT_GAME]
        except KeyError:
            raise UnknownGame(f"unknown game {name!r} (known: {', '.join(self._games)})") from None

    def game_of_variant(self, variant: str) -> Game:
        return self._lookup(variant)[0]

    def variant(self, variant: str) -> VariantInfo:
        return self._lookup(variant)[1]

    def variants(self) -> Mapping[str, VariantInfo]:
        return {name: info for name, (_, info) in self._variants.items()}

    def games(self) -> tuple[Game, ...]:
        return tuple(self._games.values())

    def default_variant(self) -> str:
        """What a request that names no variant gets: the default game's first variant that
        is not an alias (that game registered; else the first registered game's)."""
        game = self._games.get(DEFAULT_GAME) or next(iter(self._games.values()))
        return next(name for name, info in game.variants().items() if info.alias_of is None)

    def _lookup(self, variant: str) -> tuple[Game, VariantInfo]:
        try:
            return self._variants[variant]
        except KeyError:
            known = ", ".join(self._variants)
            raise UnknownGame(f"unknown variant {variant!r} (known: {known})") from None


GAMES = Registry([DOMINOES, CLUE, TEXAS42, UNO])
"""The games this server hosts: one line per game."""
