"""A Mosquitto of the deployment's own configuration, for the MQTT plane's tests; and
`start`, a real server in-process with the ServerConfig fields a test sets.

Each test gets its own broker on a free loopback port, from deploy/mosquitto-auth.conf and
deploy/mosquitto.acl, with a password file made by `mosquitto_passwd` for the logins below:
what docker-compose.yml runs, without Docker. It fails (never skips) without mosquitto.
"""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import DominoServer
from tests.conftest import make_config

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "domino/v1"
USERS = {"server-1": "s1-secret", "server-2": "s2-secret", "worker": "w-secret"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[int]:
    """Mosquitto with deploy/mosquitto.acl and a password file, on its own port."""
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(binary).exists() or not shutil.which("mosquitto_passwd"):
        pytest.fail("mosquitto and mosquitto_passwd are required (apt-get install mosquitto)")
    passwd = tmp_path / "passwd"
    passwd.touch(mode=0o600)
    for user, secret in USERS.items():
        subprocess.run(["mosquitto_passwd", "-b", str(passwd), user, secret], check=True)
    acl = tmp_path / "mosquitto.acl"
    shutil.copy(ROOT / "deploy" / "mosquitto.acl", acl)
    port = _free_port()
    conf = tmp_path / "mosquitto.conf"
    conf.write_text((ROOT / "deploy" / "mosquitto-auth.conf").read_text()
                    .replace("listener 1883", f"listener {port} 127.0.0.1")
                    .replace("/mosquitto/secrets/passwd", str(passwd))
                    .replace("/mosquitto/config/mosquitto.acl", str(acl))
                    # as root, mosquitto would drop to a user that cannot read tmp_path
                    + f"\nuser {getpass.getuser()}\n")
    process = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL,
                               stderr=(tmp_path / "mosquitto.log").open("w"))
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("mosquitto did not start: "
                                + (tmp_path / "mosquitto.log").read_text()[-500:])
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


def url(port: int, user: str | None = None, secret: str | None = None) -> str:
    login = f"{user}:{secret}@" if user else ""
    return f"mqtt://{login}127.0.0.1:{port}"


Start = Callable[..., Awaitable[DominoServer]]


@pytest.fixture
async def start(tmp_path: Path) -> AsyncIterator[Start]:
    """start(**fields): a real server on tmp_path/server.sqlite3 with those ServerConfig
    fields set; stopped after the test unless the test stopped it (`stopped_by_test`)."""
    started: list[DominoServer] = []

    async def run(**overrides: Any) -> DominoServer:
        instance = DominoServer(make_config(tmp_path, **overrides))
        await instance.start()
        started.append(instance)
        return instance

    yield run
    for instance in started:
        if not getattr(instance, "stopped_by_test", False):
            await instance.stop()
