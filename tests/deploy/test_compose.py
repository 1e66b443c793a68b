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
    assert "listener 1883" in text
