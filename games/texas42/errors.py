"""Texas 42's typed rule errors (their codes are what the server sends a client)."""

from __future__ import annotations

from games.interface import RuleViolation


class Texas42Violation(RuleViolation):
    """A command the rules of 42 refuse; `code` is one of the stable codes below."""


def illegal(message: str) -> Texas42Violation:
    return Texas42Violation("illegal_move", message)


def not_your_turn(message: str) -> Texas42Violation:
    return Texas42Violation("not_your_turn", message)


def wrong_phase(message: str) -> Texas42Violation:
    return Texas42Violation("wrong_phase", message)
