"""Memory and CPU of a `serve` under the attacks of issue 14 (a measurement, not a test).

    python tests/security/attack_bench.py TREE LOGFILE [PARTS]

TREE: a checkout whose `serve` is attacked (e.g. a `git worktree` of an older commit);
PARTS: any of a (table flood), b (never-reading sockets), c (uploads), d (catch-up flood),
e (catch-up storm); default all. Prints one JSON line of figures (docs/security.md,
"Measured under the attacks"). The attacker is this checkout's code."""

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from websockets.asyncio.client import connect

PY = sys.executable
tree = sys.argv[1] if len(sys.argv) > 1 else "."
PARTS = sys.argv[3] if len(sys.argv) > 3 else "abcde"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Peak:
    def __init__(self, pid):
        self.pid, self.peak, self.task = pid, 0.0, None

    async def run(self):
        while True:
            self.peak = max(self.peak, rss_mb(self.pid))
            await asyncio.sleep(0.2)

    def __enter__(self):
        self.peak = rss_mb(self.pid)
        self.task = asyncio.create_task(self.run())
        return self

    def __exit__(self, *a):
        self.task.cancel()


async def ask(ws, payload):
    await ws.send(json.dumps(payload))
    while True:
        m = json.loads(await ws.recv())
        if m["type"] not in ("event", "belief"):
            return m


async def main(port, pid, out):
    url = f"ws://127.0.0.1:{port}/ws"
    out["rss_start_mb"] = round(rss_mb(pid), 1)
    if "a" in PARTS or "b" in PARTS or "c" in PARTS:
        # A: ten connections create tables for 7 s
        made = 0

        async def creator():
            nonlocal made
            async with connect(url) as ws:
                end = time.monotonic() + 7
                while time.monotonic() < end:
                    r = await ask(ws, {"type": "create_table"})
                    if r["type"] == "table_created":
                        made += 1
                    elif r.get("code") == "rate_limited":
                        await asyncio.sleep(0.05)
                    else:
                        await asyncio.sleep(0.2)

        await asyncio.gather(*(creator() for _ in range(10)))
        out["tables_created_in_7s"] = made
        out["rss_after_tables_mb"] = round(rss_mb(pid), 1)
        # B: four sockets that never read send list_tables at 45/s for 30 s
        with Peak(pid) as peak:

            async def never_reads():
                try:
                    async with connect(url, max_queue=1, close_timeout=1) as ws:
                        end = time.monotonic() + 30
                        while time.monotonic() < end:
                            await ws.send('{"type":"list_tables"}')
                            await asyncio.sleep(1 / 45)
                except Exception:
                    pass

            t0 = time.monotonic()
            await asyncio.gather(*(never_reads() for _ in range(4)))
            out["never_readers_seconds_connected"] = round(time.monotonic() - t0, 1)
            await asyncio.sleep(5)
        out["never_readers_peak_rss_mb"] = round(peak.peak, 1)
        out["rss_5s_after_they_left_mb"] = round(rss_mb(pid), 1)
        # C: four uploads at once of a ~3,900-event log; a victim's /healthz meanwhile
        from archive.jsonl import dump_lines
        from games.dominoes.game import DOMINOES
        from games.dominoes.selfplay import random_match_events

        events = random_match_events(random.Random(3), target=1500, match_id="m-big")[:3900]
        text = dump_lines(DOMINOES, events)
        out["upload_events"], out["upload_mb"] = len(events), round(len(text) / 2**20, 2)
        slowest = 0.0

        async def victim():
            nonlocal slowest
            while True:
                t = time.monotonic()
                await asyncio.to_thread(urllib.request.urlopen, f"http://127.0.0.1:{port}/healthz")
                slowest = max(slowest, time.monotonic() - t)
                await asyncio.sleep(0.1)

        async def upload():
            async with connect(
                f"ws://127.0.0.1:{port}/api/replay/upload?perspective=spectator",
                max_size=None,
                close_timeout=1,
            ) as ws:
                await ws.send(text)
                reply = await ws.recv()
                return len(reply)

        with Peak(pid) as peak:
            v = asyncio.create_task(victim())
            t0 = time.monotonic()
            sizes = await asyncio.gather(*(upload() for _ in range(4)), return_exceptions=True)
            out["uploads_seconds"] = round(time.monotonic() - t0, 1)
            v.cancel()
        out["upload_reply_mb"] = [
            round(s / 2**20, 1) if isinstance(s, int) else repr(s)[:60] for s in sizes
        ]
        out["uploads_peak_rss_mb"] = round(peak.peak, 1)
        out["victim_healthz_slowest_s"] = round(slowest, 2)
    # D: a finished 2,500-event match; a never-reading client sends 50 watch/s for 15 s
    async with connect(url) as ws:
        bots = dict.fromkeys("SWNE", "random")
        tid = (await ask(ws, {"type": "create_table", "bots": bots, "target": 1000}))["table_id"]
    while True:  # the bots play it out
        await asyncio.sleep(1)
        async with connect(url, max_size=None) as ws:
            r = await ask(ws, {"type": "watch", "table_id": tid})
            if r.get("finished"):
                break
    out["watched_table_events"] = r["last_seq"]
    if "d" in PARTS:
        await asyncio.sleep(2)
        c0 = cpu_s(pid)
        await asyncio.sleep(5)
        idle = (cpu_s(pid) - c0) * 3
        with Peak(pid) as peak:
            c0 = cpu_s(pid)
            t0 = time.monotonic()
            try:
                async with connect(url, max_queue=1, close_timeout=1) as ws:
                    end = time.monotonic() + 15
                    while time.monotonic() < end:
                        await ws.send(json.dumps({"type": "watch", "table_id": tid}))
                        await asyncio.sleep(1 / 50)
            except Exception as error:
                out["watch_flood_ended_by"] = type(error).__name__
            out["watch_flood_connected_s"] = round(time.monotonic() - t0, 1)
            await asyncio.sleep(max(0.0, 15 - (time.monotonic() - t0)))
            out["watch_flood_server_cpu_s_in_15s"] = round(cpu_s(pid) - c0, 1)
            out["idle_server_cpu_s_per_15s"] = round(idle, 1)
        out["watch_flood_peak_rss_mb"] = round(peak.peak, 1)
    # E: 200 simultaneous watches of that match; a victim's /healthz meanwhile
    socks = [await connect(url, max_size=None, close_timeout=1) for _ in range(200)]
    slowest = 0.0

    async def victim2():
        nonlocal slowest
        while True:
            t = time.monotonic()
            await asyncio.to_thread(urllib.request.urlopen, f"http://127.0.0.1:{port}/healthz")
            slowest = max(slowest, time.monotonic() - t)
            await asyncio.sleep(0.05)

    v = asyncio.create_task(victim2())
    await asyncio.sleep(0.3)
    t0 = time.monotonic()
    await asyncio.gather(*(s.send(json.dumps({"type": "watch", "table_id": tid})) for s in socks))

    async def first_reply(s):
        while True:
            m = json.loads(await s.recv())
            if m["type"] in ("watching", "error"):
                return m.get("code", "watching")

    answers = await asyncio.gather(*(first_reply(s) for s in socks), return_exceptions=True)
    out["storm_seconds"] = round(time.monotonic() - t0, 1)
    await asyncio.sleep(1)
    v.cancel()
    answers = [a if isinstance(a, str) else type(a).__name__ for a in answers]
    out["storm_answers"] = {a: answers.count(a) for a in set(answers)}
    out["storm_victim_healthz_slowest_s"] = round(slowest, 2)
    for s_ in socks:
        s_.transport.abort()
    out["rss_end_mb"] = round(rss_mb(pid), 1)


if __name__ == "__main__":
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp, open(sys.argv[2], "w") as server_log:
        server = subprocess.Popen(
            [
                PY,
                "-m",
                "clients.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                f"{tmp}/a.sqlite3",
                "--bot-delay",
                "0",
                "--hand-pause",
                "0",
                "--log-level",
                "WARNING",
            ],
            cwd=tree,
            stdout=subprocess.DEVNULL,
            stderr=server_log,
        )
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            out = {"tree": tree}
            try:
                asyncio.run(main(port, server.pid, out))
            finally:
                print(json.dumps(out), flush=True)
        finally:
            server.kill()
            server.wait(timeout=30)
