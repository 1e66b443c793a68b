"""Every error code, provoked over a real socket and answered with a typed `error`."""

from __future__ import annotations

import json
import urllib.request

import pytest

from clients.python import DominoClient, SeatView, ServerError
from protocol import ErrorMessage, EventMessage, parse_server
from server.app import DominoServer
from tests.server.helpers import drain


async def _raw(client: DominoClient, payload: object) -> ErrorMessage:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    await client.send_raw(text)
    while True:  # events and beliefs of a table we sit at may come first
        message = await client.next_message()
        if isinstance(message, ErrorMessage):
            return message


async def test_every_error_code_is_provoked_and_answered(server: DominoServer, url: str) -> None:
    client = await DominoClient.connect(url)
    codes: set[str] = set()

    async def expect(code: str, coro) -> None:
        with pytest.raises(ServerError) as caught:
            await coro
        assert caught.value.code == code, caught.value
        codes.add(code)

    # bad_request: not JSON, unknown type, unknown field, wrong value; the id is echoed
    for payload in ["{", "[]", {"type": "nope"}, {"type": "list_tables", "extra": 1},
                    {"type": "play", "table_id": "t", "tile": "x", "id": "q1"}]:
        error = await _raw(client, payload)
        assert error.code == "bad_request"
    assert error.id == "q1"
    codes.add("bad_request")

    await expect("unknown_table", client.join("t000000000000", "S"))
    await expect("unknown_bot", client.create_table(bots={"W": "oracle-of-delphi"}))
    await expect("bad_request", client.create_table(variant="partnership-12"))

    table_id = await client.create_table(bots={"W": "random"})
    await expect("unauthorized", client.play(table_id, "6-6"))  # no seat here
    await expect("unauthorized", client.resume(table_id, "x" * 32))
    await expect("seat_taken", client.join(table_id, "W"))
    await client.join(table_id, "S")
    await expect("seat_taken", client.join(table_id, "S"))
    await expect("wrong_phase", client.pass_(table_id))  # seats still empty

    others = [await DominoClient.connect(url) for _ in range(2)]
    await others[0].join(table_id, "N")
    await others[1].join(table_id, "E")
    view = SeatView("S")
    state = None
    while state is None or state.phase != "playing":
        message = await client.next_message()
        if isinstance(message, EventMessage):
            view.apply(message)
            state = view.state
    turn = state.hand.turn
    wrong_seat_client = client if turn != "S" else others[0]
    await expect("not_your_turn", wrong_seat_client.pass_(table_id))

    # too_large: the frame is refused, the connection stays
    error = await _raw(client, json.dumps({"type": "list_tables", "pad": "x" * 70_000}))
    assert error.code == "too_large"
    wide = json.dumps({"type": "list_tables", "pad": "é" * 40_000}, ensure_ascii=False)
    assert len(wide) < 64 * 1024 < len(wide.encode())  # the limit is in bytes
    assert (await _raw(client, wide)).code == "too_large"
    codes.add("too_large")

    # rate_limited: a flood beyond the burst
    flood = await DominoClient.connect(url)
    for _ in range(150):
        await flood.send_raw('{"type":"list_tables"}')
    replies = [parse_server(m.model_dump_json()) for m in await drain(flood)]
    limited = [m for m in replies if isinstance(m, ErrorMessage) and m.code == "rate_limited"]
    assert limited
    codes.add("rate_limited")

    for c in [client, *others, flood]:
        await c.close()
    # (illegal_move: test_illegal_move_is_refused)
    expected = {"bad_request", "unknown_table", "seat_taken", "unauthorized", "not_your_turn",
                "rate_limited", "too_large", "unknown_bot", "wrong_phase"}
    assert expected <= codes


async def test_illegal_move_is_refused(server: DominoServer, url: str) -> None:
    client = await DominoClient.connect(url)
    table_id = await client.create_table(bots={"W": "random", "N": "random", "E": "random"})
    await client.join(table_id, "S")
    view = SeatView("S")
    while not (view.my_turn() and client.feed.empty()):
        message = await client.next_message()
        if isinstance(message, EventMessage):
            view.apply(message)
    mine = view.state.hand.hands["S"]
    absent = next(t for t in view.state.variant.tiles if t not in mine)
    with pytest.raises(ServerError) as caught:
        await client.play(table_id, str(absent))
    assert caught.value.code == "illegal_move"
    with pytest.raises(ServerError) as caught:
        await client.play(table_id, "12-12")
    assert caught.value.code == "illegal_move"
    await client.close()


def _get(port: int, path: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


async def test_healthz_and_static_files(server: DominoServer, tmp_path) -> None:
    import asyncio

    status, kind, body = await asyncio.to_thread(_get, server.port, "/healthz")
    health = json.loads(body)
    assert status == 200 and kind == "application/json"
    assert health["ok"] is True and "p99" in health["loop_lag_ms"] and health["uptime"] >= 0

    status, kind, body = await asyncio.to_thread(_get, server.port, "/")
    assert status == 200 and b"is not" in body  # no clients/web/ yet

    web = server.config.web_root
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>hi</title>")
    (web / "js" / "app.js").write_text("export const x = 1;")
    (tmp_path / "secret.txt").write_text("do not serve")
    status, kind, body = await asyncio.to_thread(_get, server.port, "/")
    assert status == 200 and kind.startswith("text/html") and b"hi" in body
    status, kind, _ = await asyncio.to_thread(_get, server.port, "/js/app.js")
    assert status == 200 and kind.startswith("text/javascript")
    for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/js/../../secret.txt",
                 "/..%2fsecret.txt", "/nope.js", "/.hidden"]:
        status, _, body = await asyncio.to_thread(_get, server.port, path)
        assert status == 404 and b"do not serve" not in body, path
