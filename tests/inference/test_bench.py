"""`domino-oracle bench inference` on a tiny run: the table it prints has what the README cites.

A smoke test, not a measurement: it checks the shape and sanity of the figures (every group
present, numbers that parse, enumeration exact where it finished), never how fast they are.
"""

from __future__ import annotations

import contextlib
import io
import math
import time

import pytest

from clients.cli import main

ARGS = ["bench", "inference", "--matches", "2", "--ref-positions", "2", "--seed-positions",
        "1", "--samples", "200", "--seed-attempts", "20000", "--enum-budget", "50000"]


def number(text: str) -> float:
    value = float(text)  # raises on anything that is not a number
    assert not math.isnan(value), f"{text!r} is not a number"
    return value


@pytest.fixture(scope="module")
def table() -> tuple[list[str], dict[tuple[str, str], list[list[str]]], float]:
    """(header sections, rows by (variant, view) split into sections, CPU seconds): run once."""
    out = io.StringIO()
    start = time.thread_time()
    with contextlib.redirect_stdout(out):
        assert main(ARGS) == 0
    cpu = time.thread_time() - start
    lines = out.getvalue().splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("variant"))
    rows: dict[tuple[str, str], list[list[str]]] = {}
    for line in lines[header_at + 2:]:
        if not line.startswith("partnership-"):
            break
        sections = [part.split() for part in line.split("|")]
        rows[(sections[0][0], sections[0][1])] = sections
    return [part.strip() for part in lines[header_at].split("|")], rows, cpu


def test_runs_in_well_under_half_a_minute(table) -> None:
    _header, _rows, cpu = table
    assert cpu < 30  # CPU time of this thread: a busy machine does not make it fail


def test_one_row_per_variant_and_view(table) -> None:
    _header, rows, _cpu = table
    assert set(rows) == {(v, k) for v in ("partnership-6", "partnership-9")
                         for k in ("seat", "spectator")}


def test_columns_are_the_advertised_ones(table) -> None:
    header, _rows, _cpu = table
    assert header[0].split()[:3] == ["variant", "view", "updates"]
    assert "p50 ms" in header[0] and "p99 ms" in header[0]
    assert header[2].startswith("rej ms") and header[2].count("max err") == 1
    assert header[3].startswith("enum") and "max err" in header[3]
    assert header[5].startswith("seed") and "max err" in header[5]


def test_every_figure_parses_and_is_sane(table) -> None:
    _header, rows, _cpu = table
    for key, (times, refs, rejection, enum, constrained, seed) in rows.items():
        updates, p50, p99 = int(times[2]), number(times[3]), number(times[4])
        assert updates > 0 and 0 < p50 <= p99, key
        assert int(refs[0]) == 2 and number(refs[1]) > 0, key  # --ref-positions 2
        assert number(rejection[0]) > 0 and number(rejection[1]) > 0, key
        assert 0 <= number(rejection[2]) < 1 and int(rejection[3]) >= 0, key
        finished, tried = (int(n) for n in enum[0].split("/"))
        assert tried == 2 and 0 <= finished <= tried, key
        if finished:  # exact (error: rounding only); its time ratio may be any size
            assert number(enum[1]) >= 0 and number(enum[2]) <= 1e-9, key
        assert 0 <= number(constrained[0]) < 1, key
        assert int(seed[0]) == 1 and 0 <= float(seed[5]) < 1 and int(seed[6]) in (0, 1), key
    assert any(int(enum[0].split("/")[0]) for *_, enum, _c, _s in rows.values()), \
        "enumeration finished nowhere: its columns were never exercised"


def test_two_player_rows_beside_double_six() -> None:
    """`--two-player`: per-update times of block-2 and draw-2 beside partnership-6, each
    view with its ratio to partnership-6's (1.00 on partnership-6's own rows)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["bench", "inference", "--two-player", "--matches", "1"]) == 0
    lines = out.getvalue().splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("variant"))
    assert lines[header_at].split()[:3] == ["variant", "view", "updates"]
    rows = {}
    for line in lines[header_at + 2:]:
        if not line.split() or line.startswith("updates:"):
            break
        variant, view, updates, p50, p99, x50, x99 = line.split()
        assert int(updates) > 0 and 0 < number(p50) <= number(p99), line
        rows[(variant, view)] = (number(x50), number(x99))
    assert set(rows) == {(v, k) for v in ("partnership-6", "block-2", "draw-2")
                         for k in ("seat", "spectator")}
    assert rows[("partnership-6", "seat")] == rows[("partnership-6", "spectator")] == (1, 1)
    assert all(x > 0 for pair in rows.values() for x in pair)


def test_any_registered_variant_gets_per_update_rows() -> None:
    """`--variant V` outside the partnership references: V's rows beside partnership-6's; an
    unknown name is refused by name."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["bench", "inference", "--variant", "draw-2", "--matches", "1"]) == 0
    variants = {line.split()[0] for line in out.getvalue().splitlines()
                if line.split() and line.split()[0] in ("partnership-6", "draw-2", "block-2")}
    assert variants == {"partnership-6", "draw-2"}
    with pytest.raises(SystemExit, match="no-such-game"):
        main(["bench", "inference", "--variant", "no-such-game", "--matches", "1"])
