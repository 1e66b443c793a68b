"""The registry of games: a game registers with one line, variants resolve across games, and
variant names are unique. What every registered game must do through the interface (and the
toy game that exists only in the tests) is in tests/conformance/."""

from __future__ import annotations

import pytest

from games.dominoes.game import DOMINOES
from games.interface import UnknownGame
from games.registry import GAMES, Registry
from tests.games.toy.game import TOY, VARIANT


def _registry() -> Registry:
    return Registry([DOMINOES, TOY])


def test_a_game_registers_with_one_line_and_variants_resolve_across_games() -> None:
    registry = _registry()
    assert registry.game_of_variant(VARIANT) is TOY
    assert registry.game_of_variant("partnership-9") is DOMINOES
    assert registry.variant(VARIANT).seats == ("S", "N")
    assert registry.game(None) is DOMINOES  # old logs name no game: dominoes
    with pytest.raises(UnknownGame):
        registry.variant("no-such-variant")
    with pytest.raises(ValueError, match="registered twice"):
        registry.add(TOY)
    assert "toy" not in {g.name for g in GAMES.games()}  # tests never touch the real registry


def test_variant_names_must_be_unique_across_games() -> None:
    class Clash:
        name = "clash"

        def variants(self):
            return DOMINOES.variants()

    with pytest.raises(ValueError, match="taken by another game"):
        Registry([DOMINOES, Clash()])  # type: ignore[list-item]
