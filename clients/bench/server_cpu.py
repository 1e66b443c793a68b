"""Server CPU per move, two source trees side by side (issue 15: "a server that spends less").

Each round starts `serve` from each tree in turn (fresh SQLite file, its own port), loads it
with this tree's `loadtest --url … --json`, and reads the server's CPU from /proc over the
load test: the server process's own threads (utime + stime of each, and by thread name) and,
separately, its child processes (the inference process). Trees alternate A/B/A/B so a noisy,
shared machine's drift lands on both. Figures are printed per run, then as ranges and the
ratio of the medians, with the load average.

    .venv/bin/python -m clients.bench.server_cpu --tree base=/tmp/wt-9cc1688 --tree new=. \\
        --rounds 3 --tables 50 --seconds 15 --port 8710

A tree is run with this venv's Python and PYTHONPATH set to the tree (check its imports: the
script prints the `server` package each tree's serve imported).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from clients.python.loadtest import process_cpu_seconds

TICK = os.sysconf("SC_CLK_TCK")


def _stat_cpu(path: Path) -> float:
    """utime + stime (seconds) from a /proc .../stat file."""
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def threads_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of the threads of `pid`: its main thread (the event loop) as "main", the
    others summed by name (Python's threads are all "python" to the kernel: in the server,
    the store writer, the inference forwarder's and the thread pool's)."""
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = "main" if task.name == str(pid) else (task / "comm").read_text().strip()
            out[name] = out.get(name, 0.0) + _stat_cpu(task / "stat")
        except (OSError, ValueError, IndexError):
            continue
    return out


def children(pid: int) -> list[int]:
    """Every descendant of `pid` (children of its threads, recursively)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids = [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            found.append(kid)
            found += children(kid)
    return found


def children_cpu(pid: int) -> float:
    return process_cpu_seconds(children(pid))


def wait_up(port: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    """Until `serve` on `port` answers /healthz (RuntimeError if it exits or never does)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("serve did not come up")


def one_run(name: str, tree: Path, port: int, tables: int, seconds: float,
            serve_args: list[str], client: Path, pace: float | None = None) -> dict:
    """Start `serve` from `tree`, load it, return its CPU and the load test's figures.

    With `pace`: one step of a paced ramp (`loadtest --pace`: `tables` tables whose seats
    think `pace` seconds on average, measured over a window of `seconds` once seated and
    settled), and the CPU per move is the window's, from the server's /healthz (its
    process, and its inference processes) and the client's own; `/proc` figures are for
    the whole run, seating included."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.TemporaryDirectory(prefix="server-cpu-") as tmp:
        db = Path(tmp) / "bench.sqlite3"
        command = [sys.executable, "-c",
                   "import sys, server; print('imports', server.__file__, file=sys.stderr, "
                   "flush=True); from clients.cli import main; sys.argv[0] = 'domino-oracle';"
                   " sys.exit(main())",
                   "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0",
                   "--hand-pause", "0", "--log-level", "WARNING",
                   "--tables-per-address", "1000000",  # every table comes from 127.0.0.1
                   "--connections-per-address", "1000000", *serve_args]
        log = open(Path(tmp) / "serve.log", "w+")  # noqa: SIM115 - read back below
        proc = subprocess.Popen(command, cwd=tree, env=env, stdout=log, stderr=log)
        try:
            wait_up(port, proc)
            before_threads, before_kids = threads_cpu(proc.pid), children_cpu(proc.pid)
            paced = [] if pace is None else [
                "--pace", str(pace), "--max-tables", str(tables), "--window", str(seconds),
                "--settle", str(2 * pace)]
            load = subprocess.run(
                [sys.executable, "-m", "clients.cli", "loadtest", "--url",
                 f"ws://127.0.0.1:{port}/ws", "--tables", str(tables), "--seconds",
                 str(seconds), "--json", *paced],
                cwd=client, env=dict(os.environ, PYTHONPATH=str(client)), capture_output=True,
                text=True)
            if load.returncode != 0:
                raise RuntimeError(f"loadtest failed on {name}: {load.stderr[-2000:]}")
            after_threads, after_kids = threads_cpu(proc.pid), children_cpu(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.seek(0)
            imported = next((line.split()[1] for line in log if line.startswith("imports")),
                            "?")
            log.close()
    figures = json.loads(load.stdout)
    if pace is not None:
        return paced_run(name, imported, figures["steps"][-1])
    moves = figures["moves"] or 1
    by_thread = {k: round((v - before_threads.get(k, 0.0)) * 1000 / moves, 3)
                 for k, v in after_threads.items()}
    server = sum(after_threads.values()) - sum(before_threads.values())
    return {
        "tree": name, "imports": imported, "moves": figures["moves"],
        "moves_per_s": figures["moves_per_s"],
        "server_ms_per_move": round(server * 1000 / moves, 3),
        "children_ms_per_move": round((after_kids - before_kids) * 1000 / moves, 3),
        "commits_per_move": round(figures.get("server_commits", 0) / moves, 3),
        "by_thread_ms_per_move": by_thread,
        "ack_p50_p99": [figures["play_to_ack_ms"]["p50"], figures["play_to_ack_ms"]["p99"]],
        "beliefs_p50_p99": [figures["play_to_all_beliefs_ms"]["p50"],
                            figures["play_to_all_beliefs_ms"]["p99"]],
        "loop_lag": figures.get("server_loop_lag_ms"),
        "generator_ms_per_move": figures.get("generator_cpu_ms_per_move"),
        "loadavg": os.getloadavg()[0],
    }


def _span(values: list) -> str:
    """min-max of the values given (a paced step has no p50: "-")."""
    known = [v for v in values if v is not None]
    return f"{min(known)}-{max(known)}" if known else "-"


def paced_run(name: str, imported: str, step: dict) -> dict:
    """A paced step's figures, in one_run's shape (per move: within the step's window)."""
    return {
        "tree": name, "imports": imported, "moves": None,
        "moves_per_s": step["moves_per_s"],
        "server_ms_per_move": step.get("server_cpu_ms_per_move") or 0.0,
        "children_ms_per_move": step.get("inference_cpu_ms_per_move") or 0.0,
        "commits_per_move": step.get("commits_per_move") or 0.0,
        "by_thread_ms_per_move": {},
        "ack_p50_p99": [None, step["ack_p99_ms"]],
        "beliefs_p50_p99": [None, step["beliefs_p99_ms"]],
        "loop_lag": step.get("server_loop_lag_ms"),
        "generator_ms_per_move": step.get("generator_cpu_ms_per_move"),
        "stages": step.get("server_stage_ms_per_move"),
        "loadavg": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", required=True, metavar="NAME=PATH",
                        help="a source tree to serve from (give two or more, in run order)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--port", type=int, default=8710)
    parser.add_argument("--pace", type=float, help="human pace: seats think this many seconds "
                        "on average (one step of `loadtest --pace`, --tables tables, a window "
                        "of --seconds); needs a --client whose loadtest reports CPU per move "
                        "by step (this tree's)")
    parser.add_argument("--serve-arg", action="append", default=[], metavar="NAME=ARG",
                        help="an extra serve argument for one tree, e.g. "
                             "new=--inference-processes=0")
    parser.add_argument("--client", help="the tree whose `loadtest` loads every server "
                                          "(default: the first tree's: the same generator "
                                          "for all, and the oldest speaks the oldest wire)")
    args = parser.parse_args(argv)
    trees = [(t.split("=", 1)[0], Path(t.split("=", 1)[1]).resolve()) for t in args.tree]
    extra: dict[str, list[str]] = {}
    for item in args.serve_arg:
        name, arg = item.split("=", 1)
        extra.setdefault(name, []).append(arg)
    client = Path(args.client).resolve() if args.client else trees[0][1]
    runs: list[dict] = []
    for round_ in range(args.rounds):
        for i, (name, tree) in enumerate(trees):
            run = one_run(name, tree, args.port + i, args.tables, args.seconds,
                          extra.get(name, []), client, args.pace)
            run["round"] = round_ + 1
            runs.append(run)
            print(json.dumps(run), flush=True)
    print()
    medians: dict[str, float] = {}
    totals: dict[str, float] = {}
    for name, _ in trees:
        mine = [r for r in runs if r["tree"] == name]
        server = [r["server_ms_per_move"] for r in mine]
        kids = [r["children_ms_per_move"] for r in mine]
        both = [round(a + b, 3) for a, b in zip(server, kids, strict=True)]
        totals[name] = statistics.median(both)
        generator = [r["generator_ms_per_move"] for r in mine
                     if r.get("generator_ms_per_move") is not None]
        rate = [r["moves_per_s"] for r in mine]
        loop = [r["by_thread_ms_per_move"].get("main", 0.0) for r in mine]
        other = [round(r["server_ms_per_move"] - m, 3) for r, m in zip(mine, loop, strict=True)]
        medians[name] = statistics.median(server)
        print(f"{name:>6}: server {min(server):.3f}-{max(server):.3f} ms/move "
              f"(median {medians[name]:.3f}), children {min(kids):.3f}-{max(kids):.3f}, "
              f"moves/s {min(rate)}-{max(rate)}; event loop thread {min(loop):.3f}-"
              f"{max(loop):.3f}, other threads {min(other):.3f}-{max(other):.3f}; commits/move "
              f"{min(r['commits_per_move'] for r in mine)}-"
              f"{max(r['commits_per_move'] for r in mine)}; beliefs p50/p99 ms "
              f"{_span([r['beliefs_p50_p99'][0] for r in mine])} / "
              f"{min(r['beliefs_p50_p99'][1] for r in mine)}-"
              f"{max(r['beliefs_p50_p99'][1] for r in mine)}")
        print(f"{'':>8}server + children {min(both):.3f}-{max(both):.3f} ms/move (median "
              f"{totals[name]:.3f})" + (f"; load generator {min(generator):.3f}-"
                                        f"{max(generator):.3f} ms/move" if generator else ""))
    first = trees[0][0]
    for name, _ in trees[1:]:
        print(f"{name}/{first} (medians): server {medians[name] / medians[first]:.2f}x, "
              f"server + children {totals[name] / totals[first]:.2f}x")
    loads = [r["loadavg"] for r in runs]
    print(f"load average (1 min) during the runs: {min(loads):.2f}-{max(loads):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
