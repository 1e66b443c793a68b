"""`domino-oracle bench TARGET [OPTIONS]`: benchmarks that print figures (never assert times).

Each target's module is imported only when that target runs, so one part's benchmark never
stands in the way of another part's command.
"""

from __future__ import annotations

import argparse
import importlib

BENCHMARKS = {
    "store": ("clients.bench.store", "durable events/s of the event store; fold time of a match"),
    "inference": ("clients.bench.inference", "exact inference per update vs the seed's references"),
    "bursts": ("clients.bench.bursts", "the same belief updates back to back and in bursts "
               "after idle (what a paced move costs the inference process)"),
    "transport-floor": ("clients.bench.transport_floor", "a paced move's frames through a bare "
                        "WebSocket server: the CPU per move no game, store or inference adds"),
    "advice-sizes": ("clients.bench.advice_sizes", "each game's move advice as kept: its JSON, "
                     "its Python objects, how many the advice memo's byte bound holds"),
    "texas42": ("clients.bench.texas42", "Texas 42: the compiled solver against the pure-Python "
                "reference on the same deals (solves/s, identical values); the oracle at N = 150"),
    "solver42": ("clients.bench.texas42", "the same as texas42 (its former name)"),
    "texas42-calibration": ("clients.bench.texas42_calibration", "Texas 42: the oracle's "
                            "evaluators against PIMC play-outs of the same completions"),
    "kernel-tools": ("clients.bench.kernel_tools", "numba against Cython on the Texas 42 "
                     "kernel's last two tricks (needs the dev extra and a C compiler)"),
}
"""Target -> (module with `add_arguments(parser)` and `run(args) -> int`, one-line help)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="run a benchmark and print its figures",
        description="\n".join(f"  {name}: {text}" for name, (_, text) in BENCHMARKS.items()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("target", choices=sorted(BENCHMARKS))
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the target's own options")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    module_name, text = BENCHMARKS[args.target]
    module = importlib.import_module(module_name)
    target_parser = argparse.ArgumentParser(prog=f"domino-oracle bench {args.target}",
                                            description=text)
    module.add_arguments(target_parser)
    return int(module.run(target_parser.parse_args(args.options)) or 0)
