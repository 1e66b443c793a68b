"""Every tool, `serve` included, finds the store in $DOMINO_ORACLE_DB unless given --db."""

from __future__ import annotations

import pytest

from archive.db import DEFAULT_DB, ENV_VAR, default_db
from clients.cli import build_parser

TOOLS = ["serve", "matches"]


@pytest.mark.parametrize("tool", TOOLS)
def test_the_environment_names_the_store(tool: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "postgresql://somewhere/else")
    assert build_parser().parse_args([tool]).db == "postgresql://somewhere/else"


@pytest.mark.parametrize("tool", TOOLS)
def test_without_it_the_default_file(tool: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert build_parser().parse_args([tool]).db == DEFAULT_DB


@pytest.mark.parametrize("tool", TOOLS)
def test_db_wins_over_the_environment(tool: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "from-env.sqlite3")
    assert build_parser().parse_args([tool, "--db", "given.sqlite3"]).db == "given.sqlite3"


def test_an_empty_variable_is_no_store_name() -> None:
    assert default_db({ENV_VAR: ""}) == DEFAULT_DB
    assert default_db({}) == DEFAULT_DB
