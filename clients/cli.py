"""`domino-oracle`: one entry point; each subcommand lives in its own module.

A module in clients/commands/ joins the CLI by defining `register(subparsers)` which adds a
parser whose `handler` default is a function `(args) -> int` (the exit code).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import clients.commands as commands_package


class CommandError(Exception):
    """A user-facing failure: printed as 'error: ...' with exit code 2, no traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="domino-oracle",
        description="Partnership dominoes with exact live probabilities.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = sorted(pkgutil.iter_modules(commands_package.__path__), key=lambda m: m.name)
    for module_info in modules:
        module = importlib.import_module(f"{commands_package.__name__}.{module_info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    # run the imported module's main: the commands raise clients.cli.CommandError, which is
    # not this __main__ module's class of the same name
    from clients.cli import main as cli_main

    sys.exit(cli_main())
