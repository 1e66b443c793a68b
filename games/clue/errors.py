"""Clue's typed rule errors (the codes are stable: the server sends them to clients)."""

from __future__ import annotations

from games.interface import RuleViolation


class ClueRuleViolation(RuleViolation):
    """A command the rules of Clue refuse: `code` is one of CODES."""


CODES = ("wrong_phase", "not_your_turn", "illegal_move", "bad_card", "must_show", "bad_option")
