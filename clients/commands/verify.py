"""`domino-oracle verify`: prove stored matches, or log files, fair and legal.

`verify --db PATH` checks every stream's hash chain and re-decides every stored match, by
the rules of the game each match names (`Game.check_log`).
`verify FILE.jsonl ...` checks log files instead, of any game: a referee's export, or a
seat's or a spectator's own (redacted) log. Each deal's revealed seed must hash to the
commitment published before it and deal exactly what the log shows, and every move is
re-decided (games.fairness.proof) — a player who holds only their own export can so check
that the deals were fixed in advance. A log whose deals were never committed (Uno's and
Clue's before they were) is refused with a clear error unless it is the referee's own.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from archive.matches import ArchiveError, MatchLog, load_match_log, match_ids
from clients.cli import CommandError, NotForThisGame
from clients.log_file import read_log
from clients.store_option import add_db_option, open_store
from games.fairness.dealing import dealing_of
from games.fairness.proof import Proof, Unprovable, audience_of, prove
from games.interface import REFEREE, LogProblem
from games.registry import Registry
from storage import EventStore, StorageError, store_url
from storage.keys import ENV_KEY_FILE, StoreKeyError, UnsealedStore, read_key


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check hash chains and rules of every stored match, or of JSONL log files",
        description="Without FILE: every match in --db (hash chains, then every move "
        "re-decided). With FILE(s): those logs, which may be a seat's or a spectator's own "
        "export of any game (the seeds revealed after each deal prove it); --db is then "
        "not used.",
    )
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE.jsonl",
                        help="log files to check instead of the store")
    add_db_option(parser)
    parser.add_argument("--store-key-file", type=Path, metavar="PATH",
                        help="the key the store's heads are sealed with (default: "
                             f"${ENV_KEY_FILE}, else DB.key beside a SQLite store)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.files:
        return _verify_files(args.files, args.games)
    return _verify_store(args.db, args.games, args.store_key_file)


def _open(db: str, key_file: Path | None) -> EventStore:
    if key_file is None:
        return open_store(db, key_errors=True)
    open_store(db, key_errors=True).close()  # the same clear errors for a missing store
    try:
        return EventStore(store_url(db), key=read_key(key_file))
    except StoreKeyError:
        raise
    except StorageError as error:
        raise CommandError(str(error)) from None


STRIPPED = ("seal (no stream head is sealed, yet this store has a key: its seals were "
            "stripped, or it was never sealed; its history may have been rewritten)")


def _verify_store(db: str, games: Registry, key_file: Path | None = None) -> int:
    checked = 0
    try:
        opened = _open(db, key_file)
    except StoreKeyError as error:
        print(f"BAD {db}: " + (STRIPPED if isinstance(error, UnsealedStore)
                               else f"seal ({error})"))
        return 1
    with opened as store:
        for info in store.streams():
            report = store.verify_chain(info.stream)
            if not report.ok:
                print(f"BAD {info.stream}: hash chain breaks at seq {report.first_bad_seq} "
                      f"({report.reason})")
                return 1
        for match_id in match_ids(store):
            try:
                log = load_match_log(store, match_id, games=games)
                log.game.check_log(log.events)
            except (LogProblem, ArchiveError) as problem:
                print(f"BAD {match_id}: {problem}")
                return 1
            checked += 1
        sealed = store.key_id
    if sealed:
        print(f"ok: {checked} matches, every hash chain and every move checked, every head "
              f"sealed by key {sealed}")
    else:
        print(f"ok: {checked} matches, every hash chain and every move checked")
        print("note: no key seals this store: a rewrite that recomputes the hashes would "
              "pass (serve seals a store with --store-key-file)", file=sys.stderr)
    return 0


def _verify_files(files: list[Path], games: Registry) -> int:
    """Check each file; all are checked, and the exit code is 1 if any is bad."""
    bad = 0
    for path in files:
        log = read_log(path, games)
        try:
            summary = _check_file(path, log)
        except LogProblem as problem:
            print(f"BAD {path}: {problem}")
            bad += 1
            continue
        print(f"ok: {path}: {summary}")
    return 1 if bad else 0


def _check_file(path: Path, log: MatchLog) -> str:
    """Any audience's log proved from its seeds; a game that declares no fair dealing: the
    referee's log re-decided by the game's checker."""
    if dealing_of(log.game) is None:
        return _check_referee_file(path, log)
    try:
        return _summary(log, prove(log.game, log.events))
    except Unprovable as why:
        raise NotForThisGame(f"{path}: cannot be proved fair: {why}") from None


def _check_referee_file(path: Path, log: MatchLog) -> str:
    try:
        log.game.check_log(log.events)
    except LogProblem:
        owner = audience_of(log.game, log.events)
        if owner != REFEREE:
            raise NotForThisGame(
                f"{path}: {log.game.name} declares no fair dealing, so only the referee's log "
                f"can be checked (this is {owner}'s view)") from None
        raise
    first = log.game.event_to_dict(log.events[0])
    return (f"{log.game.name} match {first.get('match_id')}, every move up to seq "
            f"{log.events[-1].seq} re-decided")


def _summary(log: MatchLog, proof: Proof) -> str:
    first = log.game.event_to_dict(log.events[0])
    parts = []
    if proof.deals or not proof.uncommitted:
        parts.append(f"{_count(proof.deals, 'deal')} proved from "
                     f"{'its committed seed' if proof.deals == 1 else 'their committed seeds'}")
    if proof.derived:
        parts.append(f"{_count(proof.derived, 'later shuffle')} fixed by them")
    if proof.uncommitted:
        parts.append(f"{_count(proof.uncommitted, 'shuffle')} re-made from the seeds the log "
                     f"holds (its scheme, {proof.scheme}, committed none)")
    parts.append(f"every move up to seq {proof.upto} re-decided")
    text = (f"{log.game.name} match {first.get('match_id')} ({proof.audience}'s log), "
            + ", ".join(parts))
    if proof.open_at is not None:
        text += (f"; the deal at seq {proof.open_at} is still in play and its seed is not "
                 "revealed yet: folded only")
    return text


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")
