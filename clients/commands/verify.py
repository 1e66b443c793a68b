"""`domino-oracle verify`: prove stored matches, or log files, fair and legal.

`verify --db PATH` checks every stream's hash chain and re-decides every stored match.
`verify FILE.jsonl ...` checks log files instead — a referee's export, or a seat's or a
spectator's own (redacted) log: each finished hand's revealed seed must hash to its
commitment and deal exactly what the log shows, and every finished hand is re-decided.
A player who holds only their own export can so check that the deals were fixed in advance.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from archive.matches import ArchiveError, load_match, match_ids
from clients.log_file import read_log
from clients.store_option import add_db_option, open_store
from games.dominoes.validate import LogProblem, PublicLogCheck, check_log, check_public_log


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check hash chains and rules of every stored match, or of JSONL log files",
        description="Without FILE: every match in --db (hash chains, then every move "
        "re-decided). With FILE(s): those logs, which may be a seat's or a spectator's own "
        "export (seeds revealed at each hand's end prove the deals); --db is then not used.",
    )
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE.jsonl",
                        help="log files to check instead of the store")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.files:
        return _verify_files(args.files)
    return _verify_store(args.db)


def _verify_store(db: str) -> int:
    checked = 0
    with open_store(db) as store:
        for info in store.streams():
            report = store.verify_chain(info.stream)
            if not report.ok:
                print(f"BAD {info.stream}: hash chain breaks at seq {report.first_bad_seq} "
                      f"({report.reason})")
                return 1
        for match_id in match_ids(store):
            try:
                check_log(load_match(store, match_id))
            except (LogProblem, ArchiveError) as problem:
                print(f"BAD {match_id}: {problem}")
                return 1
            checked += 1
    print(f"ok: {checked} matches, every hash chain and every move checked")
    return 0


def _verify_files(files: list[Path]) -> int:
    """Check each file; all are checked, and the exit code is 1 if any is bad."""
    bad = 0
    for path in files:
        events = read_log(path)
        try:
            report = check_public_log(events)
        except LogProblem as problem:
            print(f"BAD {path}: {problem}")
            bad += 1
            continue
        print(f"ok: {path}: {_summary(report)}")
    return 1 if bad else 0


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
