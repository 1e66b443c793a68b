"""The toy with table options declared: a switch and a choice (no game in games/ declares a
boolean yet; Texas 42 will). It records every `options` its `start` is given, so a test can
see what the generic path (create_table, the CLI) carried there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.interface import Seat, TableOption, VariantInfo
from tests.games.toy.game import TOY, VARIANT, Toy

HOUSE_RULE = TableOption.switch("house_rule", "A house rule")
PACE = TableOption.choice("pace", "Pace", "slow", ("slow", "fast"))


class OptionToy(Toy):
    def __init__(self) -> None:
        self.started: list[dict[str, Any]] = []

    def variants(self) -> Mapping[str, VariantInfo]:
        info = TOY.variants()[VARIANT]
        return {VARIANT: VariantInfo(info.name, info.game, info.seats, info.title,
                                     declared=(HOUSE_RULE, PACE))}

    def start(self, match_id: str, variant: str, players: Mapping[Seat, str],
              options: Mapping[str, Any]) -> Any:
        self.started.append(dict(options))
        return super().start(match_id, variant, players, options)
