"""`domino-oracle`: one entry point; each subcommand lives in its own module.

A module in clients/commands/ joins the CLI by defining `register(subparsers)` which adds a
parser whose `handler` default is a function `(args) -> int` (the exit code).

Every handler finds the games it may meet in `args.games` (a `games.registry.Registry`):
`main(argv)` passes the real `GAMES`; a caller hosting more games (a test with its own toy
game) passes its own registry to `main(argv, games=...)`. Nothing else names the registry.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import clients.commands as commands_package
from games.registry import GAMES, Registry


class CommandError(Exception):
    """A user-facing failure: printed as 'error: ...' with exit code 2, no traceback."""


class NotForThisGame(CommandError):
    """A feature only some games have, asked of one that does not declare it."""


def build_parser(games: Registry = GAMES) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="domino-oracle",
        description="Partnership dominoes (and every registered game) with exact live "
                    "probabilities.",
    )
    parser.set_defaults(games=games)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = sorted(pkgutil.iter_modules(commands_package.__path__), key=lambda m: m.name)
    for module_info in modules:
        module = importlib.import_module(f"{commands_package.__name__}.{module_info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None, games: Registry = GAMES) -> int:
    """Run one command; its exit code. `games`: the games the commands may meet."""
    args = build_parser(games).parse_args(argv)
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
