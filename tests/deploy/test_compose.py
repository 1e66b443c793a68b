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
        assert not args.insecure_bus  # private: a login and a key (the test below)
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


def test_the_broker_takes_logins_and_every_node_signs() -> None:
    """The compose broker runs the auth config (no anonymous clients, the ACL) with the
    logins the `secrets` service makes; every server and worker logs in as itself from a
    password file and signs with the deployment key (docs/security.md)."""
    services = compose()["services"]
    mounts = services["mosquitto"]["volumes"]
    assert mounts[0].startswith("./deploy/mosquitto-auth.conf:")
    conf = (ROOT / "deploy" / "mosquitto-auth.conf").read_text()
    assert "allow_anonymous false" in conf
    password_file = next(line.split()[1] for line in conf.splitlines()
                         if line.startswith("password_file"))
    assert any(m.startswith("secrets:") and password_file.startswith(m.split(":")[1])
               for m in mounts)
    assert services["mosquitto"]["depends_on"]["secrets"]["condition"] == \
        "service_completed_successfully"
    acl = (ROOT / "deploy" / "mosquitto.acl").read_text()
    for name in ("server-1", "server-2", "worker"):
        env = services[name]["environment"]
        assert env["DOMINO_MQTT_KEY_FILE"] == "/secrets/deployment.key"
        assert env["DOMINO_MQTT_PASSWORD_FILE"] == f"/secrets/{env['DOMINO_MQTT_USERNAME']}.pass"
        assert f"user {env['DOMINO_MQTT_USERNAME']}" in acl
        assert "secrets:/secrets:ro" in services[name]["volumes"]
        if name != "worker":  # a server logs in under its node name (the ACL's user)
            command = services[name]["command"]
            assert command[command.index("--node") + 1] == env["DOMINO_MQTT_USERNAME"]


def test_every_node_would_start_on_the_private_bus(tmp_path: Path) -> None:
    """`serve --mqtt` and `worker` refuse an open bus: with each service's environment
    (its files as `secrets` makes them), nothing is missing."""
    from server.feeds.plane import bus_exposure

    services = compose()["services"]
    for name in ("server-1", "server-2", "worker"):
        env = dict(services[name]["environment"])
        for variable in ("DOMINO_MQTT_KEY_FILE", "DOMINO_MQTT_PASSWORD_FILE"):
            made = tmp_path / Path(env[variable]).name
            made.write_text("ab" * 32)
            env[variable] = str(made)
        assert bus_exposure(services[name]["command"][services[name]["command"].index(
            "--mqtt") + 1], env) == [], name
