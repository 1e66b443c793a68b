"""The load generator's CPU per move beside the server's it loads, generator trees side by side
(issue 31: the generator must cost at most a third of the server per move, so it measures
the server and not itself).

Round by round, each tree's own `loadtest --url … --json` against a `serve` from this tree,
alternated A/B/A/B so a noisy machine's drift lands on both. Each run gets a fresh server
(fresh SQLite file; `--serve-arg` adds to its arguments, e.g. `--inference-processes=0`):
a load test's tables left mid-match are played out by the server's stand-ins afterwards
(tens of seconds of its CPU), which one server shared by the runs counted against the next
run's moves. Flat out by default;
with `--pace`, one step of a paced ramp (`--tables` tables, a window of `--seconds` once
seated and settled). Each run reports the generator's CPU per move (its own process_time) and
the server's (its /healthz: the server process plus its inference processes) over the same
moves, and their ratio; then ranges and medians per tree.

    .venv/bin/python -m clients.bench.generator_cpu --tree main=/tmp/main-src --tree new=. \\
        --rounds 3 --tables 30 --seconds 10 --serve-arg=--inference-processes=0

A tree is run with this venv's Python and PYTHONPATH set to the tree.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from clients.bench.server_cpu import wait_up

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def fresh_server(port: int, serve_args: list[str]) -> Iterator[None]:
    """A `serve` from this tree on `port`, with a fresh SQLite file, stopped afterwards."""
    with tempfile.TemporaryDirectory(prefix="generator-cpu-") as tmp, \
            open(Path(tmp) / "serve.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "clients.cli", "serve", "--port", str(port), "--db",
             str(Path(tmp) / "bench.sqlite3"), "--bot-delay", "0", "--hand-pause", "0",
             "--log-level", "WARNING", "--tables-per-address", "1000000",
             "--connections-per-address", "1000000", *serve_args],
            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=log, stderr=log)
        try:
            wait_up(port, proc)
            yield
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def one_run(name: str, tree: Path, port: int, tables: int, seconds: float,
            pace: float | None) -> dict[str, Any]:
    """`tree`'s loadtest against the server on `port`: the generator's and the server's CPU
    per move over the same moves (flat: the whole run; paced: the step's window)."""
    paced = [] if pace is None else [
        "--pace", str(pace), "--max-tables", str(tables), "--window", str(seconds),
        "--settle", str(2 * pace)]
    load = subprocess.run(
        [sys.executable, "-m", "clients.cli", "loadtest", "--url", f"ws://127.0.0.1:{port}/ws",
         "--tables", str(tables), "--seconds", str(seconds), "--json", *paced],
        cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True)
    if load.returncode != 0:
        raise RuntimeError(f"loadtest failed on {name}: {load.stderr[-2000:]}")
    figures = json.loads(load.stdout)
    if pace is None:
        generator = figures["generator_cpu_ms_per_move"]
        server = (figures["server_cpu_ms_per_move"] or 0.0) + (
            figures.get("server_children_cpu_ms_per_move") or 0.0)
        ack_p99 = figures["play_to_ack_ms"]["p99"]
        beliefs_p99 = figures["play_to_all_beliefs_ms"]["p99"]
        measured = figures["beliefs_measured"] == figures["moves"] and \
            figures["beliefs_never_arrived"] == 0
    else:
        step = figures["steps"][-1]
        generator = step["generator_cpu_ms_per_move"]
        server = (step["server_cpu_ms_per_move"] or 0.0) + (
            step.get("inference_cpu_ms_per_move") or 0.0)
        ack_p99, beliefs_p99, measured = step["ack_p99_ms"], step["beliefs_p99_ms"], None
    return {
        "tree": name, "moves_per_s": figures["steps"][-1]["moves_per_s"] if pace
        else figures["moves_per_s"],
        "generator_ms_per_move": generator, "server_ms_per_move": round(server, 3),
        "ratio": round(generator / server, 3) if server and generator else None,
        "ack_p99_ms": ack_p99, "beliefs_p99_ms": beliefs_p99,
        "every_belief_measured": measured, "loadavg": round(os.getloadavg()[0], 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", required=True, metavar="NAME=PATH",
                        help="a tree whose load generator to run (two or more, in run order)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pace", type=float, help="human pace: one step of `loadtest --pace`")
    parser.add_argument("--port", type=int, default=8770)
    parser.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                        help="an extra argument for the one server, e.g. "
                             "--serve-arg=--inference-processes=0")
    args = parser.parse_args(argv)
    trees = [(t.split("=", 1)[0], Path(t.split("=", 1)[1]).resolve()) for t in args.tree]
    runs: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        for name, tree in trees:
            with fresh_server(args.port, args.serve_arg):
                run = one_run(name, tree, args.port, args.tables, args.seconds, args.pace)
            run["round"] = round_ + 1
            runs.append(run)
            print(json.dumps(run), flush=True)
    print()
    medians: dict[str, float] = {}
    for name, _ in trees:
        mine = [r for r in runs if r["tree"] == name]
        generator = [r["generator_ms_per_move"] for r in mine]
        server = [r["server_ms_per_move"] for r in mine]
        ratio = [r["ratio"] for r in mine if r["ratio"] is not None]
        medians[name] = statistics.median(generator)
        print(f"{name:>6}: generator {min(generator):.3f}-{max(generator):.3f} ms/move (median "
              f"{medians[name]:.3f}); server + inference {min(server):.3f}-{max(server):.3f}; "
              f"generator / server {min(ratio):.2f}-{max(ratio):.2f} (median "
              f"{statistics.median(ratio):.2f})")
    first = trees[0][0]
    for name, _ in trees[1:]:
        print(f"{name}/{first} generator CPU per move (medians): "
              f"{medians[name] / medians[first]:.2f}x")
    loads = [r["loadavg"] for r in runs]
    print(f"load average (1 min) during the runs: {min(loads):.2f}-{max(loads):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
