"""Table chat on the wire: `chat` (client -> server), `chat_message` and `chat_history`
(server -> client).

Chat is public to the table: every connection attached to it (seats and spectators) gets
every line. It is plain text: the server strips control and formatting characters and folds
whitespace (`clean_chat_text`), and clients must draw it as text, never as markup. It is
kept beside the match (its own stream), never in the match's chain of moves.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import Field, Strict

from protocol.errors import ProtocolError
from protocol.fields import Command, Message, Reply, Seat, TableId

MAX_CHAT_CHARS = 280
"""Most characters in one chat line, counted after cleaning (`too_large` beyond)."""
CHAT_HISTORY = 50
"""Lines a connection attaching to a table is sent (`chat_history`), the latest."""

_KEPT_FORMAT = frozenset({"\u200d"})
"""Format characters kept: the zero-width joiner that composes emoji sequences."""
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def clean_chat_text(text: str, limit: int = MAX_CHAT_CHARS) -> str:
    """The line as stored and sent: control, formatting (bidi overrides, zero-width),
    and private-use characters removed, every run of whitespace (newlines, tabs
    included) folded to one space, trimmed. Refused: an empty line (`bad_request`) and one
    longer than `limit` characters (`too_large`)."""
    if len(text) > 4 * limit:  # not worth cleaning: it cannot come under the limit
        raise ProtocolError("too_large", f"chat lines are limited to {limit} characters")
    kept = []
    for char in text:
        if char.isspace():
            kept.append(" ")
        elif char in _KEPT_FORMAT or unicodedata.category(char) not in _DROPPED:
            kept.append(char)
    cleaned = " ".join("".join(kept).split())
    if not cleaned:
        raise ProtocolError("bad_request", "an empty chat line (after removing control "
                                           "characters)")
    if len(cleaned) > limit:
        raise ProtocolError("too_large", f"chat lines are limited to {limit} characters "
                                         f"(this one has {len(cleaned)})")
    return cleaned


class Chat(Command):
    """Say something at a table you joined, resumed or watch. The reply is your own
    `chat_message` (with this `id`); everyone else attached gets it without one."""

    type: Literal["chat"] = "chat"
    table_id: TableId
    text: Annotated[str, Strict()] = Field(
        min_length=1, description=f"Plain text. Control and formatting characters are "
        f"removed and whitespace folded; then at most {MAX_CHAT_CHARS} characters "
        f"(`too_large`). Rate-limited per connection and per address (`rate_limited`).")


class ChatLine(Message):
    """One line of a table's chat, as stored."""

    seq: int = Field(description="Its place in the table's chat (1, 2, ...): not an event seq.")
    seat: Seat | None = Field(description="The speaker's seat; null for a spectator.")
    name: str = Field(description="Who spoke: the seat's display name, or 'Spectator k'.")
    text: str = Field(description="Plain text: draw it as text, never as markup.")
    at: float = Field(description="When it was said (Unix time, seconds).")


class ChatMessage(Reply):
    """A line just said at the table: to everyone attached; to its speaker as the reply to
    their `chat` (with its `id`)."""

    type: Literal["chat_message"] = "chat_message"
    table_id: TableId
    line: ChatLine


class ChatHistory(Message):
    """The table's latest chat lines (at most CHAT_HISTORY, oldest first), sent after the
    `joined`, `resumed` or `watching` reply and its events when anything was said there."""

    type: Literal["chat_history"] = "chat_history"
    table_id: TableId
    lines: list[ChatLine]
