"""`domino-oracle verify`: prove stored matches, or log files, fair and legal.

`verify --db PATH` checks every stream's hash chain and re-decides every stored match, by
the rules of the game each match names (`Game.check_log`).
`verify FILE.jsonl ...` checks log files instead. For dominoes a file may be a referee's
export, or a seat's or a spectator's own (redacted) log: each finished hand's revealed seed
must hash to its commitment and deal exactly what the log shows, and every finished hand is
re-decided — a player who holds only their own export can so check that the deals were fixed
in advance. Other games' files must be the referee's log (re-decided by the game's checker);
their seats' own exports are refused with a clear error, not mistaken for forgeries.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from archive.matches import ArchiveError, MatchLog, load_match_log, match_ids
from clients.cli import CommandError, NotForThisGame
from clients.log_file import audiences, is_dominoes, read_log
from clients.store_option import add_db_option, open_store
from games.dominoes.validate import LogProblem as DominoesLogProblem
from games.dominoes.validate import PublicLogCheck, check_public_log
from games.interface import SPECTATOR, LogProblem
from games.registry import Registry
from storage import EventStore, StorageError, store_url
from storage.keys import ENV_KEY_FILE, read_key


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check hash chains and rules of every stored match, or of JSONL log files",
        description="Without FILE: every match in --db (hash chains, then every move "
        "re-decided). With FILE(s): those logs, which may be a seat's or a spectator's own "
        "export for dominoes (seeds revealed at each hand's end prove the deals); --db is "
        "then not used.",
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
        return open_store(db)
    open_store(db).close()  # the same clear errors for a missing store
    try:
        return EventStore(store_url(db), key=read_key(key_file))
    except StorageError as error:
        raise CommandError(str(error)) from None


def _verify_store(db: str, games: Registry, key_file: Path | None = None) -> int:
    checked = 0
    with _open(db, key_file) as store:
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
            summary = _check_dominoes_file(log) if is_dominoes(log.game) \
                else _check_referee_file(path, log)
        except (LogProblem, DominoesLogProblem) as problem:
            print(f"BAD {path}: {problem}")
            bad += 1
            continue
        print(f"ok: {path}: {summary}")
    return 1 if bad else 0


def _check_dominoes_file(log: MatchLog) -> str:
    return _summary(check_public_log(log.events))


def _check_referee_file(path: Path, log: MatchLog) -> str:
    """Any other game: the referee's log, re-decided. A log its checker refuses that is
    exactly some seat's (or a spectator's) view was never the referee's: say so, typed."""
    try:
        log.game.check_log(log.events)
    except LogProblem:
        owner = _whose_view(log)
        if owner is not None:
            raise NotForThisGame(
                f"{path}: verify of a seat's own export is only available for dominoes "
                f"(this is {owner}'s view of a {log.game.name} match)") from None
        raise
    first = log.game.event_to_dict(log.events[0])
    return (f"{log.game.name} match {first.get('match_id')}, every move up to seq "
            f"{log.events[-1].seq} re-decided")


def _whose_view(log: MatchLog) -> str | None:
    """The spectator or seat this log is the exact view of, if any (redacted events stay
    what they are when viewed again by the same audience; a referee's log with hidden
    information changes under every such view). The spectator is tried first: a spectator's
    log, which hides every hand, is also unchanged by a seat's view."""
    game = log.game
    logged = [game.event_to_dict(e) for e in log.events]
    known = audiences(log, referee=False) or ()
    for audience in sorted(known, key=lambda a: a != SPECTATOR):
        if all(game.event_to_dict(game.view(e, audience)) == d
               for e, d in zip(log.events, logged, strict=True)):
            return audience
    return None


def _summary(report: PublicLogCheck) -> str:
    match = f"match {report.state.match_id}" if report.state else "match"
    seen = (", ".join(report.own_seats) + " dealt as the seeds say") if report.own_seats \
        else "no hand visible"
    text = (f"{match}, {report.hands_proved} hands proved from their seeds ({seen}), every "
            f"move up to seq {report.proved_upto} re-decided")
    if report.open_hand is not None:
        text += (f"; hand {report.open_hand} is still in play and its seed is not revealed "
                 "yet: folded only")
    return text
