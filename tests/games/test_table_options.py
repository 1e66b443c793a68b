"""Table options as the game interface declares them (games/interface.py): each kind checks
its values and names itself when it refuses one; a variant resolves a request over its
defaults; Clue's `players` decides the seats; a match's seats come from its match_started."""

from __future__ import annotations

import pytest

from games.clue.game import CLUE
from games.interface import OptionError, TableOption, VariantInfo, match_seats, table_seats

NUMBER = TableOption.integer("n", "N", 4, 3, 6)
SWITCH = TableOption.switch("on", "On")
CHOICE = TableOption.choice("pace", "Pace", "slow", ("slow", "fast"))


@pytest.mark.parametrize("option,good,bad", [
    (NUMBER, [3, 6], [2, 7, True, 4.0, "4", None]),
    (SWITCH, [True, False], [1, 0, "true", None]),
    (CHOICE, ["slow", "fast"], ["brisk", 1, None, True]),
])
def test_each_kind_takes_its_values_and_names_itself_refusing_others(option, good, bad) -> None:
    for value in good:
        assert option.check(value) is value
    for value in bad:
        with pytest.raises(OptionError) as refused:
            option.check(value)
        assert refused.value.option == option.name and repr(option.name) in str(refused.value)


def test_a_declaration_is_checked_when_made() -> None:
    with pytest.raises(ValueError):
        TableOption("n", "int", 4, "N")  # an int needs bounds
    with pytest.raises(OptionError):
        TableOption.integer("n", "N", 9, 3, 6)  # a default out of bounds
    with pytest.raises(ValueError):
        TableOption.integer("n", "N", 4, 0, 100, decides_seats=True)  # too many seat sets
    with pytest.raises(ValueError):
        VariantInfo("v", "g", ("S",), "V", declared=(SWITCH, SWITCH))


def test_a_variant_resolves_a_request_over_its_defaults() -> None:
    info = VariantInfo("v", "g", ("S", "N"), "V", options={"target": 100},
                       declared=(NUMBER, SWITCH, CHOICE))
    assert info.options == {"target": 100, "n": 4, "on": False, "pace": "slow"}
    assert info.resolve(None) == {"n": 4, "on": False, "pace": "slow"}
    assert info.resolve({"on": True, "n": 5}) == {"n": 5, "on": True, "pace": "slow"}
    with pytest.raises(OptionError) as unknown:
        info.resolve({"target": 50})  # a default, not a declared option: not settable
    assert unknown.value.option == "target"
    with pytest.raises(OptionError):
        info.resolve({f"o{i}": 1 for i in range(17)})
    assert [o["name"] for o in info.to_dict()["options"]] == ["n", "on", "pace"]


def test_clues_players_decide_its_seats_and_the_old_names_are_aliases() -> None:
    variants = CLUE.variants()
    assert table_seats(CLUE, "clue", {"players": 6}) == ("P1", "P2", "P3", "P4", "P5", "P6")
    assert table_seats(CLUE, "clue", {}) == ("P1", "P2", "P3", "P4")
    assert table_seats(CLUE, "clue-mini", {}) == ("P1", "P2", "P3")
    assert variants["clue"].declared[0].to_dict() == {
        "name": "players", "kind": "int", "default": 4, "label": "Players", "minimum": 3,
        "maximum": 6, "decides_seats": True}
    for n in range(3, 7):
        alias = variants[f"clue-{n}"]
        assert alias.alias_of == "clue" and alias.declared == () and len(alias.seats) == n
    assert variants["clue"].alias_of is None and variants["clue-mini"].alias_of is None


def test_a_matchs_seats_are_its_players() -> None:
    started = CLUE.decide(None, CLUE.start("m", "clue", {f"P{i}": "x" for i in range(1, 6)},
                                           {"players": 5}))[0]
    assert match_seats(CLUE, started) == ("P1", "P2", "P3", "P4", "P5")
    as_json = CLUE.event_to_dict(started)
    assert match_seats(CLUE, as_json) == ("P1", "P2", "P3", "P4", "P5")
    assert match_seats(CLUE, {"type": "dealt", "variant": "clue"}) == ("P1", "P2", "P3", "P4")
    with pytest.raises(Exception) as refused:  # the option and the seats disagree
        CLUE.decide(None, CLUE.start("m", "clue", {"P1": "a", "P2": "b", "P3": "c"},
                                     {"players": 5}))
    assert getattr(refused.value, "code", None) == "bad_option"
