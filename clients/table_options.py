"""`--option NAME=VALUE` and `--players N`, shared by every command that starts matches.

Values are read by the variant's own declaration (games.interface.TableOption): `true`/`false`
for a switch, a whole number for an int option, one of the choices for a choice; unknown
names and bad values are the same errors create_table gives (`bad_option` there, a clear
CommandError here). `--players N` is the shorthand for `--option players=N`, and `--target N`
(on the commands that have it) for `--option target=N`: a variant that declares no such
option refuses it by name.
"""

from __future__ import annotations

import argparse
from typing import Any

from clients.cli import CommandError
from games.interface import Game, OptionError, Seat, TableOption, VariantInfo, table_seats

TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a table option the variant declares (repeatable), e.g. "
                             "--option players=5 for clue")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help="how many play, for a variant with a players option "
                             "(clue: 3-6, default 4); the same as --option players=N")


def _value(spec: TableOption | None, text: str) -> Any:
    """`text` as the declared kind wants it (an undeclared name is left to `resolve`)."""
    if spec is None or spec.kind == "choice":
        return text
    if spec.kind == "bool":
        low = text.strip().lower()
        if low in TRUE or low in FALSE:
            return low in TRUE
        return text  # refused by the declaration, with the option's name
    try:
        return int(text)
    except ValueError:
        return text


def chosen_options(args: argparse.Namespace, info: VariantInfo) -> dict[str, Any]:
    """The declared options of `info` as `--option`/`--players` set them, checked, with the
    defaults filled in (a CommandError naming the option otherwise)."""
    given: dict[str, Any] = {}
    for item in getattr(args, "option", None) or ():
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise CommandError(f"--option {item!r}: write NAME=VALUE")
        given[name.strip()] = _value(info.option(name.strip()), text)
    if getattr(args, "players", None) is not None:
        given["players"] = args.players
    if getattr(args, "target", None) is not None:
        given["target"] = args.target
    try:
        return info.resolve(given)
    except OptionError as error:
        raise CommandError(f"{info.name}: {error.message}") from None


def seats_and_options(args: argparse.Namespace, game: Game, variant: str
                      ) -> tuple[tuple[Seat, ...], dict[str, Any]]:
    """The seats a match of `variant` has with the command line's options, and those options."""
    options = chosen_options(args, game.variants()[variant])
    return table_seats(game, variant, options), options
