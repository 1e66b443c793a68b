"""The typed errors a client can receive: their stable codes, and the exception carrying one."""

from __future__ import annotations

from typing import Literal

ErrorCode = Literal[
    "bad_request",
    "unknown_table",
    "seat_taken",
    "unauthorized",
    "not_your_turn",
    "illegal_move",
    "wrong_phase",
    "rate_limited",
    "too_large",
    "unknown_bot",
    "advice_disabled",
    "no_choice",
    "internal",
    "shutting_down",
    "busy",
    "limit_reached",
    "unavailable",
    "bad_option",
    "unknown_model",
    "table_abandoned",
]


class ProtocolError(Exception):
    """A command refused with a protocol error code (sent back as `error`)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
