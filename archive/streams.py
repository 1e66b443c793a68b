"""Stream names: a match is stream `<table_id>` (the match id is the table id); a table's
side records live in `seats:<table_id>` (its config, then seat claims with the sha256 of
each token), `commands:<table_id>` (one record per applied client command id) and
`chat:<table_id>` (the table's chat lines: beside the match, never in its chain of moves).
"""

from __future__ import annotations

SIDE_STREAM_MARK = ":"
"""Streams with a ':' are side records (e.g. 'seats:<table>'), never matches."""

SEATS_PREFIX = "seats" + SIDE_STREAM_MARK


def seats_stream(table_id: str) -> str:
    return f"{SEATS_PREFIX}{table_id}"


def commands_stream(table_id: str) -> str:
    return f"commands{SIDE_STREAM_MARK}{table_id}"


def chat_stream(table_id: str) -> str:
    return f"chat{SIDE_STREAM_MARK}{table_id}"


def is_match_stream(stream: str) -> bool:
    return SIDE_STREAM_MARK not in stream


def table_of_seats_stream(stream: str) -> str:
    """`seats:<id>` -> `<id>`."""
    return stream.removeprefix(SEATS_PREFIX)
