"""Uno's typed rule errors (codes are stable: the server sends them to clients)."""

from __future__ import annotations

from games.interface import RuleViolation


class UnoRuleViolation(RuleViolation):
    """A command seed 004's rules refuse."""
