"""The event loop `serve` and the inference processes run on: uvloop where importable,
asyncio's own otherwise (or when asked), and a typed error when uvloop is demanded but
missing."""

from __future__ import annotations

import asyncio
import sys

import pytest

from server.app import loop_factory, run_server


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__.partition(".")[0]


def test_auto_takes_uvloop_and_asyncio_keeps_the_standard_loop() -> None:
    import uvloop  # noqa: F401  (a dependency: pyproject.toml)
    assert loop_factory("auto")[1] == "uvloop"
    assert run_server(_loop_module(), "auto") == "uvloop"
    assert loop_factory("asyncio") == (None, "asyncio")
    assert run_server(_loop_module(), "asyncio") == "asyncio"


def test_without_uvloop_auto_falls_back_and_uvloop_refuses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop -> ImportError
    assert loop_factory("auto") == (None, "asyncio")
    assert run_server(_loop_module(), "auto") == "asyncio"
    with pytest.raises(ImportError):
        loop_factory("uvloop")
    with pytest.raises(ValueError):
        loop_factory("trio")
