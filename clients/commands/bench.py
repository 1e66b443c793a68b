"""`domino-oracle bench TARGET`: benchmarks that print figures (never assert times)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util

BENCHMARKS = {
    "store": "storage.bench",
    "inference": "inference.bench",
}
"""Target name -> module with `add_arguments(parser)` and `run(args) -> int`."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="run a benchmark and print its figures")
    targets = parser.add_subparsers(dest="target", required=True, metavar="TARGET")
    for name, module_name in BENCHMARKS.items():
        if importlib.util.find_spec(module_name) is None:
            continue  # that part is not installed in this checkout
        module = importlib.import_module(module_name)
        target = targets.add_parser(name, help=(module.__doc__ or "").strip().splitlines()[0])
        module.add_arguments(target)
        target.set_defaults(handler=module.run)
