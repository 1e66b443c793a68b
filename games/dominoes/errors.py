"""Typed rule errors: every refusal says what is wrong in a code a client can switch on."""

from __future__ import annotations

from games.interface import RuleViolation


class NotYourTurn(RuleViolation):
    def __init__(self, message: str) -> None:
        super().__init__("not_your_turn", message)


class IllegalMove(RuleViolation):
    def __init__(self, message: str) -> None:
        super().__init__("illegal_move", message)


class WrongPhase(RuleViolation):
    """The command does not fit the match's phase (no hand in progress, match over...)."""

    def __init__(self, message: str) -> None:
        super().__init__("wrong_phase", message)


class BadEvent(ValueError):
    """An event that cannot follow the state it is applied to (a corrupt or forged log)."""
