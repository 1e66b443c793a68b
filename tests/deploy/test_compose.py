"""docker-compose.yml, checked without Docker: the services are there and every command is
one the real CLI parser accepts (so a renamed flag breaks this test, not a deployment)."""

from __future__ import annotations

from pathlib import Path

import yaml

from clients.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_services_are_the_deployment() -> None:
    services = compose()["services"]
    assert {"postgres", "mosquitto", "server-1", "server-2", "worker"} <= services.keys()
    assert services["worker"]["deploy"]["replicas"] >= 2
    assert "postgres:" in services["postgres"]["image"]
    assert "eclipse-mosquitto:2" in services["mosquitto"]["image"]
    config = services["mosquitto"]["volumes"][0].split(":")[0]
    assert (ROOT / config).is_file()
    host_ports = [p.split(":")[0] for s in ("server-1", "server-2")
                  for p in services[s]["ports"]]
    assert len(set(host_ports)) == 2


def open_to_all(ports: list[str | int | dict]) -> list[str | int | dict]:
    """The port entries that publish on every host interface: `HOST:CONTAINER` and bare
    `CONTAINER` (a random host port), or long syntax without a loopback `host_ip`."""
    wide = []
    for entry in ports:
        if isinstance(entry, dict):
            host_ip = str(entry.get("host_ip", ""))
        else:
            parts = str(entry).rsplit(":", 2)
            host_ip = parts[0] if len(parts) == 3 else ""
        if host_ip.strip("[]") not in ("127.0.0.1", "::1", "localhost"):
            wide.append(entry)
    return wide


def test_port_check_tells_wide_from_loopback() -> None:
    wide = ["1883:1883", "1883", 1883, "0.0.0.0:1883:1883", {"target": 1883, "published": 1883}]
    local = ["127.0.0.1:1883:1883", "[::1]:1883:1883",
             {"target": 1883, "published": 1883, "host_ip": "127.0.0.1"}]
    assert open_to_all(wide + local) == wide


def test_broker_and_database_are_private_to_the_deployment() -> None:
    """Anonymous Mosquitto carries private hands and takes moves for any seat; PostgreSQL
    has a password in this file: neither may be published on the host's interfaces."""
    services = compose()["services"]
    for name in ("mosquitto", "postgres"):
        service = services[name]
        assert service.get("network_mode") != "host", name
        assert open_to_all(service.get("ports", [])) == [], name


def test_commands_parse_with_the_real_cli() -> None:
    services = compose()["services"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["domino-oracle"]' in dockerfile
    parser = build_parser()
    nodes = set()
    for name in ("server-1", "server-2", "worker"):
        service = services[name]
        assert service["build"] == "."
        args = parser.parse_args(service["command"])
        assert args.mqtt == "mqtt://mosquitto:1883"
        assert args.db.startswith("postgresql://") and "@postgres:5432/" in args.db
        assert {"postgres", "mosquitto"} <= set(service["depends_on"])
        if args.command == "serve":
            assert args.host == "0.0.0.0"
            nodes.add(args.node)
        else:
            assert args.command == "worker"
    assert nodes == {"server-1", "server-2"}  # explicit, unique node names


def test_mosquitto_config_allows_the_compose_network() -> None:
    text = (ROOT / "deploy" / "mosquitto.conf").read_text()
    assert "listener 1883" in text  # on every interface of its container: the servers and
    # workers reach it over the compose network (the host does not: see the test above)
