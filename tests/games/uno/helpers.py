"""Shared helpers for the uno tests: seeded matches and hand-made positions."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.play import play_match
from games.uno.commands import Deal, StartMatch
from games.uno.game import UNO
from games.uno.rules import decide
from games.uno.state import UnoState, evolve


def match(seed: int, variant: str = "uno-2-mini", bots: tuple[str, str] = ("random", "random"),
          ) -> list[Any]:
    table = UNO.bots()
    return play_match(UNO, variant, {"S": table[bots[0]], "N": table[bots[1]]},
                      random.Random(seed), match_id=f"uno-{seed}")


def dealt(variant: str = "uno-2", secret: str = "ab" * 32) -> UnoState:
    """The referee's state right after a real deal."""
    state = None
    for command in (StartMatch("m", variant, {"S": "ann", "N": "bob"}), Deal(secret)):
        for event in decide(state, command):
            state = evolve(state, event)
    assert state is not None
    return state


def position(hands: dict[str, list[str]], top: str, deck: list[str], colour: str | None = None,
             turn: str = "S", owed: int = 0, under: tuple[str, ...] = (),
             variant: str = "uno-2") -> UnoState:
    """A hand-made referee state (cards need not add up to the deck: rules only read these)."""
    base = dealt(variant)
    return replace(base, hands={s: tuple(sorted(h)) for s, h in hands.items()},
                   counts={s: len(h) for s, h in hands.items()}, deck=tuple(deck),
                   deck_count=len(deck), pile=(*under, top),
                   colour=colour if colour is not None else (None if top[0] == "W" else top[0]),
                   turn=turn, owed=owed)


def run(state: UnoState, command: Any) -> tuple[UnoState, list[Any]]:
    events = decide(state, command)
    for event in events:
        state = evolve(state, event)
    return state, events
