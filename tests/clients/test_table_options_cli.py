"""`--option NAME=VALUE` on the commands that start matches, for any declared kind: a toy game
that declares a switch and a choice (tests/games/toy/options.py) is handed to
`clients.cli.main(argv, games=...)`; what its `start` receives is what the flags said, typed
as declared, and bad values are refused by name before anything is stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from clients.cli import main
from games.dominoes.game import DOMINOES
from games.registry import Registry
from storage.store import EventStore
from tests.games.toy.game import VARIANT
from tests.games.toy.options import OptionToy


def run(capsys: pytest.CaptureFixture[str], games: Registry, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), games=games)
    out, err = capsys.readouterr()
    return code, out, err


def _streams(db: Path) -> list[str]:
    if not db.exists():
        return []
    store = EventStore(db)
    try:
        return [s.stream for s in store.streams()]
    finally:
        store.close()


@pytest.mark.parametrize("text,value", [("true", True), ("yes", True), ("off", False),
                                        ("0", False)])
def test_a_switch_reaches_start_typed(text: str, value: bool, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    toy = OptionToy()
    games = Registry([DOMINOES, toy])
    db = tmp_path / "t.sqlite3"
    code, out, err = run(capsys, games, "selfplay", "--variant", VARIANT, "--matches", "2",
                         "--option", f"house_rule={text}", "--option", "pace=fast",
                         "--db", str(db))
    assert code == 0, err
    assert f"(house_rule={value}, pace=fast)" in out
    assert toy.started and all(s["house_rule"] is value and s["pace"] == "fast"
                               for s in toy.started)
    code, out, err = run(capsys, games, "tournament", "--variant", VARIANT, "--team-a",
                         "random", "--team-b", "random", "--matches", "2", "--json",
                         "--option", f"house_rule={text}", "--workers", "1")
    assert code == 0, err
    assert toy.started[-1]["house_rule"] is value and toy.started[-1]["pace"] == "slow"


@pytest.mark.parametrize("flag,named", [("house_rule=maybe", "house_rule"),
                                        ("pace=brisk", "pace"), ("speed=1", "speed"),
                                        ("pace", "pace")])
def test_bad_options_are_refused_by_name_and_nothing_is_stored(
        flag: str, named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    toy = OptionToy()
    db = tmp_path / "t.sqlite3"
    code, _, err = run(capsys, Registry([DOMINOES, toy]), "selfplay", "--variant", VARIANT,
                       "--option", flag, "--db", str(db))
    assert code == 2 and named in err, err
    assert toy.started == [] and _streams(db) == []
