"""`domino-oracle verify`: every stream's hash chain holds and every match obeys the rules."""

from __future__ import annotations

import argparse

from clients.match_archive import ArchiveError, load_match, match_ids
from clients.store_option import add_db_option, open_store
from domino.validate import LogProblem, check_log


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("verify", help="check hash chains and rules of every match")
    add_db_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    checked = 0
    with open_store(args.db) as store:
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
