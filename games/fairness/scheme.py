"""Which way a log's deals were made: the scheme its `match_started` names.

A new match names `NEW` in its `match_started.fairness`; a log that names none was written
before the field existed and reads as its game's old scheme: for dominoes and Texas 42 the
same shuffle, committed and revealed as now; for Uno and Clue a CPython `random` shuffle whose
seed was never committed (kept only so that their referee logs still re-decide).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

SchemeName = Literal["sha256-fisher-yates"]
"""What `match_started.fairness` may name (an old scheme is never written)."""
NEW: SchemeName = "sha256-fisher-yates"
"""What every new match names: games.fairness.shuffle, each seed committed before its deal
and revealed when the deal is over."""


@dataclass(frozen=True)
class Scheme:
    name: str
    commits: bool
    """Each deal's seed is committed before the deal and revealed after it, so an audience's
    own log can be proved fair. False only for old schemes kept for old logs."""


SHA256_FISHER_YATES = Scheme(NEW, commits=True)


def scheme_named(name: str | None, legacy: Scheme) -> Scheme:
    """The scheme a log's `fairness` field names; the game's `legacy` one when it names none."""
    if name is None:
        return legacy
    if name != NEW:
        raise ValueError(f"unknown dealing scheme {name!r}")
    return SHA256_FISHER_YATES


class NamesScheme(BaseModel):
    """An event with fields added for fair dealing (`match_started.fairness: SchemeName |
    None = None`, a commitment, a revealed seed): each is left out of the log when None, so
    that an old log, written before the field, reads back exactly as it was written."""

    fairness_fields: ClassVar[tuple[str, ...]] = ("fairness",)

    @model_serializer(mode="wrap")
    def _without_unset_fairness(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            for name in self.fairness_fields:
                if name in data and data[name] is None:
                    del data[name]
        return data
