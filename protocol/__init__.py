"""The wire: every JSON text frame on /ws, as pydantic models, the frames the server builds
fast, and the JSON Schema of docs/protocol.md generated from the models.

Game-free, and free of the server: clients (the Python client, bots, the load test) import
this package, never server internals. Names are the contract: extend (new optional fields,
new message types), never rename. Unknown fields are rejected so that a client's typo is an
error, not silently ignored.
"""

from protocol.chat import (
    CHAT_HISTORY,
    MAX_CHAT_CHARS,
    Chat,
    ChatHistory,
    ChatLine,
    ChatMessage,
    clean_chat_text,
)
from protocol.client_messages import (
    CLIENT_ADAPTER,
    LIST_PAGE,
    Advise,
    ClientMessage,
    CreateTable,
    Draw,
    Join,
    Leave,
    ListTables,
    ListVariants,
    MoveCommand,
    Odds,
    Pass,
    Play,
    Resume,
    Watch,
    move_payload,
    parse_client,
    requested_options,
)
from protocol.errors import ErrorCode, ProtocolError
from protocol.fields import (
    MAX_SAFE_INTEGER,
    MAX_TABLE_OPTIONS,
    RESERVED_NAME_PREFIX,
    CommandId,
    Seat,
    TableId,
    TableStatus,
    check_person_name,
)
from protocol.server_messages import (
    SERVER_ADAPTER,
    Ack,
    AdviceMessage,
    AdviceMove,
    AdviceProgress,
    BeliefMessage,
    ErrorMessage,
    EventMessage,
    Joined,
    Left,
    OddsBelief,
    Resumed,
    ServerMessage,
    StandInMove,
    TableCreated,
    TableInfo,
    TableOptionInfo,
    Tables,
    VariantListing,
    Variants,
    Watching,
    parse_server,
)

__all__ = [
    "CHAT_HISTORY", "CLIENT_ADAPTER", "LIST_PAGE", "MAX_CHAT_CHARS", "MAX_SAFE_INTEGER",
    "MAX_TABLE_OPTIONS", "RESERVED_NAME_PREFIX", "SERVER_ADAPTER", "Ack", "AdviceMessage",
    "AdviceMove", "AdviceProgress", "Advise", "BeliefMessage", "Chat", "ChatHistory",
    "ChatLine", "ChatMessage",
    "ClientMessage", "CommandId", "CreateTable", "Draw", "ErrorCode", "ErrorMessage",
    "EventMessage", "Join", "Joined", "Leave", "Left", "ListTables", "ListVariants", "MoveCommand",
    "Odds", "OddsBelief", "Pass", "Play", "ProtocolError", "Resume", "Resumed", "Seat",
    "ServerMessage", "StandInMove", "TableCreated", "TableId", "TableInfo", "TableOptionInfo",
    "TableStatus", "Tables", "VariantListing", "Variants", "Watch", "Watching",
    "check_person_name", "clean_chat_text", "move_payload", "parse_client", "parse_server",
    "requested_options",
]
