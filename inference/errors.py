"""Typed failures of inference: a position no deal fits, and a log that leads to one."""

from __future__ import annotations


class Infeasible(ValueError):
    """No assignment of the unseen tiles satisfies the constraints of a position."""


class InconsistentLog(ValueError):
    """The event log admits no deal at all: `seq` names the event where that became so."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"event {seq}: {reason}")
        self.seq = seq
        self.reason = reason
