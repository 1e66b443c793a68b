"""The shapes every message shares: ids, names, seats, option values, and the base models.

Game-free: a seat or an option is a short checked string or scalar; the game that the table
plays decides what it means.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict

TableId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
MAX_SAFE_INTEGER = 2**53
"""Integer ids above this are not exact in JavaScript (and a 4,300-digit id costs to parse)."""
CommandId = Annotated[str, Strict(), Field(min_length=1, max_length=64)] | Annotated[
    int, Strict(), Field(ge=0, le=MAX_SAFE_INTEGER)]
"""A string of 1-64 characters or an integer 0..2^53; never a boolean (`true` is not `1`)."""
AfterSeq = Annotated[int, Strict(), Field(ge=0, le=MAX_SAFE_INTEGER)]
"""The last seq a client has (`resume`, `watch`): an integer 0..2^53, never a string, a
float or a boolean (lax parsing took "5", 5.0 and true, and any size of integer)."""
TileName = Annotated[str, Field(pattern=r"^(0|[1-9][0-9]?)-(0|[1-9][0-9]?)$")]
"""A tile as the `play` short form and dominoes-shaped advice write it (\"3-5\"): ASCII
digits without leading zeros (a backslash-d took any Unicode digit)."""
End = Literal["left", "right"]
"""The end of the line a `play` short form puts its tile on."""
Token = Annotated[str, Field(min_length=16, max_length=128)]
Seat = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]
"""A seat of the table's variant (the game names its seats); the table checks."""

RESERVED_NAME_PREFIX = "bot:"
"""Seats held by bots are listed as `bot:<name>`: a person may not take a name like that."""


def check_person_name(name: str) -> str:
    """A person's display name: no control, format (bidi, zero-width), private-use or
    line-separator characters, and not the `bot:` prefix the listing uses for bots (nor a
    look-alike of it: compared after NFKC folding)."""
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            raise ValueError(f"the name holds a control or formatting character "
                             f"(U+{ord(char):04X})")
    if unicodedata.normalize("NFKC", name).strip().casefold().startswith(RESERVED_NAME_PREFIX):
        raise ValueError(f"names starting with {RESERVED_NAME_PREFIX!r} are kept for bots")
    return name


PersonName = Annotated[str, Field(max_length=40), AfterValidator(check_person_name)]

TableStatus = Literal["waiting", "playing", "finished", "abandoned"]


OptionName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_]*$")]
OptionValue = (Annotated[bool, Strict()]
               | Annotated[int, Strict(), Field(ge=-MAX_SAFE_INTEGER, le=MAX_SAFE_INTEGER)]
               | Annotated[float, Strict()]
               | Annotated[str, Strict(), Field(max_length=64)]
               | None)
"""One option's value as sent: any JSON scalar (the game's declaration then checks its type
and bounds, so a wrong type is a `bad_option` naming the option, not a shape error)."""
MAX_TABLE_OPTIONS = 16
"""Most options in one create_table (games.interface.MAX_OPTIONS: no variant declares more)."""



class Message(BaseModel):
    """Every message: unknown fields are refused (a client's typo is an error) and frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Command(Message):
    """A client's request: its `id` comes back in the reply."""

    id: CommandId | None = Field(None, description="Echoed in the reply; retries reuse it.")


class Reply(Message):
    """A server reply to a command (`id` echoed), or a push with no id."""

    id: CommandId | None = None
