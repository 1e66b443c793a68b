"""`python -m clients.bench.kernel_tools`: numba against Cython on the same piece of the Texas 42
kernel, side by side in one run (issue 29 asks for a compiled kernel in a tool "chosen by
measurement"; docs/kernel-tools.md has the figures and the decision).

The piece: the last two tricks (`games.texas42.kernel._two_left` with `_pair` and `_low_bit`,
and the tables it reads, LEAD, FOLLOW, POWER and POINTS), about a fifth of the kernel's time,
self-contained. `two_left.pyx` beside this module is its Cython port line by line (same
algorithm, move order and cut-offs; C arrays, inline functions, no bounds or wraparound
checks), built at bench time into a temporary directory: Cython's compiler turns it into C and
the C compiler Python was built with compiles it with Python's own flags (`-O3`), and once
more with `-march=native` added (numba compiles for the host's CPU). Cython is bench only: it
is in the `dev` extra, never a runtime dependency, and the bench says so and fails if it is
missing (or if there is no C compiler or no Python headers to build it with).

The same seeded endings (two dominoes per seat, a random trump of all nine, a random leader)
are solved by the pure-Python reference (`games.texas42.solver.Solver._two_tricks`, its
per-position memo cleared before each ending), by a numba loop calling the kernel's
`_two_left` and by a Cython loop calling its port (both loops compiled, so the per-call cost
of Python does not count), the tools taking turns round by round (`--rounds`, each round
starting with the next tool). Every value must be identical (a mismatch is printed and the
command fails). Times are CPU time of this thread, the C compiler's as the CPU time of the
child processes; the build and first-call figures are printed beside them. Nothing is
asserted about time.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
import numpy as np
from numba import njit

from games.texas42.kernel import (
    DE_BRUIJN,
    FOLLOW,
    LEAD,
    POINTS,
    POWER,
    _last_trick,
    _two_left,
)
from games.texas42.solver import Solver
from games.texas42.suits import TRUMPS

PYX = Path(__file__).with_name("two_left.pyx")
NATIVE = ("-march=native",)
"""The flags added to Python's for the second Cython build (numba compiles for the host)."""


class CythonMissing(RuntimeError):
    """Cython is not installed (it is in the dev extra: `bash scripts/setup dev`)."""


@dataclass
class Build:
    """One Cython build of two_left.pyx and what it cost."""

    module: ModuleType
    version: str
    flags: list[str]
    cython_cpu: float
    """Cython's compiler, .pyx to C: CPU seconds of this thread."""
    cc_cpu: float
    """The C compiler, C to a shared library: CPU seconds of the child processes."""
    wall: float
    first_call: float
    """Import, tables copied in (`init`) and the first ending solved: CPU seconds."""


def build_cython(folder: Path, extra_flags: tuple[str, ...] = ()) -> Build:
    """two_left.pyx compiled into `folder` (a fresh directory: nothing is reused) and imported,
    its tables copied from the kernel's."""
    try:
        from Cython import __version__
        from Cython.Compiler import Main
    except ImportError as error:
        raise CythonMissing("Cython is not installed: it is bench only, in the dev extra "
                            "(`bash scripts/setup dev` installs it)") from error
    folder.mkdir(parents=True, exist_ok=True)
    pyx = folder / PYX.name
    shutil.copyfile(PYX, pyx)
    c_file = pyx.with_suffix(".c")
    library = folder / ("two_left" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    wall = time.perf_counter()
    start = time.thread_time()
    result = Main.compile(str(pyx), output_file=str(c_file), language_level=3)
    cython_cpu = time.thread_time() - start
    if result.num_errors:
        raise RuntimeError(f"Cython could not compile {PYX.name}")
    flags = (shlex.split(str(sysconfig.get_config_var("CFLAGS")))
             + shlex.split(str(sysconfig.get_config_var("CCSHARED"))) + list(extra_flags))
    command = (shlex.split(str(sysconfig.get_config_var("LDSHARED"))) + flags
               + ["-I", sysconfig.get_paths()["include"], str(c_file), "-o", str(library)])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        subprocess.run(command, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as error:
        said = getattr(error, "stderr", "") or str(error)
        raise RuntimeError(f"the C compiler could not build {PYX.name} (Cython needs a C "
                           f"compiler and Python's headers): {command[0]}: "
                           f"{said.strip()[-2000:]}") from error
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cc_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    wall = time.perf_counter() - wall
    start = time.thread_time()
    spec = importlib.util.spec_from_file_location("two_left", library)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.init(LEAD, FOLLOW, POWER, POINTS, DE_BRUIJN)
    one = endings(1, 0)
    module.two_left_all(one, np.zeros(1, np.int64))
    first_call = time.thread_time() - start
    shown = [flag for flag in flags if flag.startswith(("-O", "-m"))]
    return Build(module, __version__, shown, cython_cpu, cc_cpu, wall, first_call)


def endings(count: int, seed: int, per_seat: int = 2) -> np.ndarray:
    """`count` seeded random endings, one row each: the masks of seats 0..3 (`per_seat`
    dominoes each), the leader, the trump (all nine, follow-me included)."""
    rng = random.Random(seed)
    rows = np.zeros((count, 6), np.int64)
    for i in range(count):
        tiles = rng.sample(range(28), 4 * per_seat)
        for seat in range(4):
            for tile in tiles[seat * per_seat:(seat + 1) * per_seat]:
                rows[i, seat] |= 1 << tile
        rows[i, 4] = rng.randrange(4)
        rows[i, 5] = rng.choice(TRUMPS)
    return rows


@njit(cache=False)
def numba_two_left_all(rows: np.ndarray, out: np.ndarray) -> None:
    """out[i]: the kernel's `_two_left` of row i (seats from the leader), looped in numba."""
    for i in range(rows.shape[0]):
        leader = rows[i, 4]
        out[i] = _two_left(rows[i, leader], rows[i, (leader + 1) % 4], rows[i, (leader + 2) % 4],
                           rows[i, (leader + 3) % 4], leader, rows[i, 5])


@njit(cache=False)
def numba_last_trick_all(rows: np.ndarray, out: np.ndarray) -> None:
    """out[i]: the kernel's `_last_trick` of row i (one domino per seat)."""
    for i in range(rows.shape[0]):
        leader = rows[i, 4]
        out[i] = _last_trick(rows[i, leader], rows[i, (leader + 1) % 4],
                             rows[i, (leader + 2) % 4], rows[i, (leader + 3) % 4], leader,
                             rows[i, 5])


def reference_all(rows: np.ndarray, out: np.ndarray) -> None:
    """out[i]: the pure-Python reference's value of row i (`Solver._two_tricks`, its memo of
    endings cleared each time so that every ending is solved)."""
    solvers = [Solver(trump) for trump in TRUMPS]
    values = []
    for h0, h1, h2, h3, leader, trump in rows.tolist():
        solver = solvers[trump]
        solver.two.clear()
        values.append(solver._two_tricks((h0, h1, h2, h3), leader))
    out[:] = values


def numba_cold() -> tuple[float, float]:
    """(import, first call) CPU seconds of a new process whose numba cache is empty: the
    loop and the kernel's `_two_left` compiled from nothing."""
    code = ("import time\n"
            "start = time.process_time()\n"
            "import numpy as np\n"
            "from clients.bench.kernel_tools import endings, numba_two_left_all\n"
            "imported = time.process_time()\n"
            "numba_two_left_all(endings(1, 0), np.zeros(1, np.int64))\n"
            "print(imported - start, time.process_time() - imported)\n")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        root = Path(__file__).resolve().parents[3]
        out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True,
                             capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--endings", type=int, default=200_000,
                        help="seeded two-trick endings solved by every tool each round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds, the tools taking turns (each round starts with the next)")


def run(args: argparse.Namespace) -> int:
    load = os.getloadavg()
    rows = endings(args.endings, args.seed)
    print(f"kernel tools: Texas 42's last two tricks (kernel._two_left), {args.endings:,} "
          f"seeded endings (seed {args.seed}; random trump of all nine, random leader), "
          f"{args.rounds} rounds, the tools taking turns; CPU time; numba {numba.__version__}")
    start = time.thread_time()
    numba_two_left_all(rows[:1], np.zeros(1, np.int64))
    numba_first = time.thread_time() - start
    cold_import, cold_first = numba_cold()
    tools: dict[str, Any] = {"reference (pure Python)": reference_all,
                             "numba (the kernel's _two_left)": numba_two_left_all}
    builds: dict[str, Build] = {}
    missing = ""
    try:
        with tempfile.TemporaryDirectory() as folder:
            for extra in ((), NATIVE):
                build = build_cython(Path(folder) / f"build{len(builds)}", extra)
                name = f"Cython {build.version} ({' '.join(build.flags)})"
                builds[name] = build
                tools[name] = build.module.two_left_all
    except CythonMissing as error:
        missing = f"CYTHON MISSING: {error}"
    except RuntimeError as error:  # no C compiler or no Python headers
        missing = f"CYTHON NOT BUILT: {error}"
    print(f"  numba: first call in this process {numba_first:.2f} s CPU (the loop compiled, "
          f"the kernel's _two_left from its cache); in a new process with an empty cache "
          f"{cold_first:.2f} s CPU to compile both (+ {cold_import:.2f} s importing numpy, "
          f"numba and the kernel)")
    for name, build in builds.items():
        print(f"  {name}: build {build.cython_cpu:.2f} s CPU .pyx -> C, {build.cc_cpu:.2f} s "
              f"CPU C compiler ({build.wall:.2f} s wall); import + tables + first call "
              f"{build.first_call * 1000:.1f} ms CPU")
    if missing:
        print(f"  {missing}")
    names = list(tools)
    cpu: dict[str, list[float]] = {name: [] for name in names}
    values: dict[str, np.ndarray] = {}
    unstable = False
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            out = np.zeros(len(rows), np.int64)
            start = time.thread_time()
            tools[name](rows, out)
            cpu[name].append(time.thread_time() - start)
            if name in values and not np.array_equal(values[name], out):
                print(f"  {name} gave other values in round {r + 1}")
                unstable = True
            values[name] = out
    n = len(rows)
    reference, fast = names[0], names[1]
    print(f"  {'tool':44} {'ns/ending by round':>24} {'mean':>10} {'x ref':>7} "
          f"{'x numba':>8}")
    for name in names:
        per = [1e9 * t / n for t in cpu[name]]
        total = sum(cpu[name])
        mean = 1e9 * total / n / len(per)
        print(f"  {name:44} {' '.join(f'{p:7.1f}' for p in per):>24} {mean:>10.1f} "
              f"{sum(cpu[reference]) / total:>6.1f}x {sum(cpu[fast]) / total:>7.2f}x")
    wrong = [i for i in range(n) if len({int(values[name][i]) for name in names}) > 1]
    print(f"  identical values: {n - len(wrong)} of {n} endings"
          + ("" if not wrong else f"; MISMATCHES (ending, values in the order above): "
             f"{[(i, [int(values[name][i]) for name in names]) for i in wrong[:10]]}"))
    end = os.getloadavg()
    print(f"  load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the "
          f"start, {end[0]:.2f} {end[1]:.2f} {end[2]:.2f} at the end ({os.cpu_count()} cores)")
    return 1 if wrong or missing or unstable else 0
