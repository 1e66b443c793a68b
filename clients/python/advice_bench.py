"""Advisor latency at a live table, and the server's event-loop lag meanwhile.

    python -m clients.python.advice_bench [--url ws://HOST:PORT/ws] [--requests 30]
                                          [--busy-tables 1] [--json]

A person (this script) sits South at a table with advice on, against bots (W pimc, N greedy,
E pimc), and on each of its turns with a tile to play sends `advise`, times the round trip,
then plays the advised best move; `--busy-tables` more tables of four pimc bots keep the bot
workers busy meanwhile. Reports advise round-trip p50/p95/max, the server's own
`elapsed_ms`, and the loop lag from /healthz (its trailing window, sampled every 2 s during
the run). Without --url a server is started in a subprocess (as the loadtest does).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from typing import Any

from clients.python.client import DominoClient
from clients.python.loadtest import fetch_health, health_url, local_server, percentile
from clients.python.seat_view import SeatView
from protocol import BeliefMessage, EventMessage


async def _my_turn(client: DominoClient, view: SeatView) -> None:
    """Fold the feed until it is our turn and the view has every event sent so far (a
    hand's last play and hand_ended come together: wait for the belief of the last seq)."""
    belief_seq = -1
    while not (view.my_turn() and client.feed.empty() and belief_seq >= view.last_seq):
        message = await client.next_message(60)
        if isinstance(message, EventMessage):
            view.apply(message)
        elif isinstance(message, BeliefMessage):
            belief_seq = max(belief_seq, message.seq)


async def measure(url: str, requests: int = 30, busy_tables: int = 1) -> dict[str, Any]:
    health = health_url(url)
    busy = await DominoClient.connect(url)
    for _ in range(busy_tables):
        await busy.create_table(bots=dict.fromkeys("SWNE", "pimc"), target=10_000)
    me = await DominoClient.connect(url)
    table_id = await me.create_table(bots={"W": "pimc", "N": "greedy", "E": "pimc"},
                                     advice=True, target=10_000)
    await me.join(table_id, "S")
    view = SeatView("S")
    round_trip: list[float] = []
    server_ms: list[float] = []
    lags: list[dict[str, float]] = []
    done = False

    async def sample() -> None:
        while not done:
            await asyncio.sleep(2.0)
            with contextlib.suppress(Exception):
                lags.append((await asyncio.to_thread(fetch_health, health))["loop_lag_ms"])

    sampler = asyncio.create_task(sample())
    started = time.monotonic()
    while len(round_trip) < requests:
        await _my_turn(me, view)
        moves = view.moves()
        if not moves:
            await me.pass_(table_id)
            continue
        t0 = time.monotonic()
        advice = await me.advise(table_id)
        round_trip.append((time.monotonic() - t0) * 1000.0)
        server_ms.append(advice.elapsed_ms)
        best = advice.moves[0]
        await me.play(table_id, best.tile, best.end)
    elapsed = time.monotonic() - started
    done = True
    sampler.cancel()
    after = await asyncio.to_thread(fetch_health, health)
    await me.close()
    await busy.close()
    lags.append(after["loop_lag_ms"])
    return {
        "requests": len(round_trip),
        "seconds": round(elapsed, 1),
        "busy_tables": busy_tables,
        "advise_ms": {"p50": round(percentile(round_trip, 50), 1),
                      "p95": round(percentile(round_trip, 95), 1),
                      "max": round(max(round_trip), 1)},
        "server_elapsed_ms": {"p50": round(percentile(server_ms, 50), 1),
                              "p95": round(percentile(server_ms, 95), 1)},
        "loop_lag_ms": {"p99_worst_window": max(lag["p99"] for lag in lags),
                        "p99_end": after["loop_lag_ms"]["p99"],
                        "p50_end": after["loop_lag_ms"]["p50"],
                        "max": max(lag["max"] for lag in lags)},
        "server_cpu_seconds": after.get("cpu_seconds"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url")
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--busy-tables", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    def run(url: str) -> dict[str, Any]:
        return asyncio.run(measure(url, args.requests, args.busy_tables))

    if args.url:
        figures = run(args.url)
    else:
        with local_server() as url:
            figures = run(url)
    if args.json:
        print(json.dumps(figures))
    else:
        a, s, lag = figures["advise_ms"], figures["server_elapsed_ms"], figures["loop_lag_ms"]
        print(f"{figures['requests']} advise requests in {figures['seconds']} s "
              f"({figures['busy_tables']} busy pimc tables besides)")
        print(f"advise round trip   p50 {a['p50']} ms  p95 {a['p95']} ms  max {a['max']} ms")
        print(f"server elapsed      p50 {s['p50']} ms  p95 {s['p95']} ms")
        print(f"loop lag            p99 {lag['p99_worst_window']} ms (worst 2 s sample of the "
              f"trailing window), p99 {lag['p99_end']} ms at the end, max {lag['max']} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
