"""Every kind of table handle satisfies the declared TableHandle interface, member by member.

There is no type checker in the test run, so this checks what one would: each member of the
Protocol exists on every kind, with the same parameters and the same sync/async nature.
"""

from __future__ import annotations

import inspect

import pytest

from server.tables.archived import ArchivedTable
from server.tables.interface import TableHandle
from server.tables.local import Table
from server.tables.remote import RemoteTable

METHODS = [name for name, member in vars(TableHandle).items()
           if inspect.isfunction(member) and not name.startswith("_")]


def test_the_interface_declares_what_a_connection_uses() -> None:
    assert {"open_feed", "find_seat", "join_seat", "move", "presence", "table_config",
            "referee_log"} <= set(METHODS)


@pytest.mark.parametrize("kind", [Table, RemoteTable, ArchivedTable])
@pytest.mark.parametrize("name", METHODS)
def test_each_kind_has_each_method_with_the_same_shape(kind: type, name: str) -> None:
    declared = getattr(TableHandle, name)
    actual = getattr(kind, name, None)
    assert actual is not None, f"{kind.__name__} has no {name}"
    assert inspect.iscoroutinefunction(actual) == inspect.iscoroutinefunction(declared)
    assert list(inspect.signature(actual).parameters) == \
        list(inspect.signature(declared).parameters)
