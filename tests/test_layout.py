"""The project's layout as a test: no import circles, and dependencies point inward.

Every import counts, wherever it is written: at the top, inside a function, or under
TYPE_CHECKING (a circle hidden there is still a circle in the design). Modules are read with
ast, never imported, and each is parsed once for the whole file, so it sees code that is not
executed and costs a few seconds, not one parse of the tree per case.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "inference", "storage", "strategy", "server", "clients", "archive",
            "calibration", "protocol")

FORBIDDEN: dict[str, frozenset[str]] = {
    "storage": frozenset({"games", "inference", "strategy", "server", "clients", "archive"}),
    # exact counting knows no game: each game builds its own positions (games -> inference)
    "inference": frozenset({"games", "server", "clients", "strategy", "storage", "archive"}),
    "games": frozenset({"server", "clients", "storage", "strategy", "archive"}),
    "strategy": frozenset({"server", "clients"}),
    "archive": frozenset({"server", "clients", "strategy"}),
    # scoring stored matches: reads the archive, the games, inference and strategy's bots
    "calibration": frozenset({"server", "clients"}),
}
"""Package -> the packages it must not import (ARCHITECTURE.md, "Layout")."""

_SERVER_TOP = frozenset({"server.app", "server.session"})
SERVER_FORBIDDEN: dict[str, frozenset[str]] = {
    # feeds carry frames; they know nothing of what tables, beliefs or the cluster are
    "server.feeds": _SERVER_TOP
    | {"server.tables", "server.beliefs", "server.cluster", "server.replay"},
    # beliefs follow a table through a small Protocol of their own, never a table module
    "server.beliefs": _SERVER_TOP | {"server.tables", "server.cluster", "server.replay"},
    "server.tables": _SERVER_TOP | {"server.cluster", "server.replay"},
    "server.cluster": _SERVER_TOP | {"server.replay"},
    # replays are built from the store alone: no live table, feed or cluster
    "server.replay": _SERVER_TOP | {"server.tables", "server.feeds", "server.cluster"},
}
"""server's subpackages -> the server modules and subpackages they must not import."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        base = ROOT / package
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported_names(module: str, path: Path) -> set[str]:
    """Every dotted name an import statement in `path` refers to (relative ones resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


@cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (a package's own submodules excluded).

    Built once per test session: every module is parsed once, whatever the number of cases
    that read the graph (callers must not change it)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in _imported_names(module, path):
            while name and name not in modules:  # `from a.b import C`: C is not a module
                name = name.rpartition(".")[0]
            related = name.startswith(module + ".") or module.startswith(name + ".")
            if name and name != module and not related:
                targets.add(name)
        graph[module] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a path [a, b, ..., a], or None (depth-first, three colours)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_a_circle_and_accepts_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_imports_inside_functions_and_type_checking(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from server.table import Table\n"
        "def f():\n    import storage.store\n    from . import sibling\n"
    )
    names = _imported_names("server.m", source)
    assert {"server.table", "storage.store", "server.sibling"} <= names


def test_there_is_no_import_circle_among_the_project_modules() -> None:
    graph = import_graph()
    assert len(graph) > 50, "the layout test found too few modules: wrong root?"
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_dependencies_point_inward(package: str) -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if module.split(".")[0] == package
        for target in targets
        if target.split(".")[0] in FORBIDDEN[package]
    )
    assert not wrong, f"{package} must not import {sorted(FORBIDDEN[package])}: {wrong}"


def within(name: str, prefixes: frozenset[str]) -> bool:
    """Is `name` one of `prefixes` or inside one of them?"""
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("package", sorted(SERVER_FORBIDDEN))
def test_server_subpackages_point_inward(package: str) -> None:
    graph = import_graph()
    assert any(within(m, frozenset({package})) for m in graph), f"no modules in {package}"
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        if within(module, frozenset({package}))
        for target in targets
        if within(target, SERVER_FORBIDDEN[package])
    )
    assert not wrong, f"{package} must not import {sorted(SERVER_FORBIDDEN[package])}: {wrong}"


GENERIC_LAYERS = ("server", "archive", "storage", "inference", "protocol", "strategy",
                  "calibration")
"""The layers that serve every game and so may know none of them by name."""


def game_packages() -> frozenset[str]:
    """Each game's own package: a folder of games/ that holds a `game.py` (dominoes, clue,
    ...). The rest of games/ (the interface, the registry, the game-free helpers beside
    them) is what generic layers may use."""
    return frozenset(f"games.{path.parent.name}" for path in (ROOT / "games").glob("*/game.py"))


def game_imports_from_generic_layers(graph: dict[str, set[str]],
                                     games: frozenset[str]) -> list[str]:
    """`module imports target` for every import of one game's own code from a generic layer."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        if module.split(".")[0] in GENERIC_LAYERS
        for target in targets
        if within(target, games)
    )


def test_the_game_rule_catches_a_new_import_of_one_game() -> None:
    graph = {"server.x": {"games.interface", "games.registry"},
             "archive.y": {"games.clue.cards"}, "clients.z": {"games.uno"}}
    found = game_imports_from_generic_layers(graph, frozenset({"games.clue", "games.uno"}))
    assert found == ["archive.y imports games.clue.cards"]
    assert {"games.dominoes", "games.texas42", "games.clue", "games.uno"} <= game_packages()


def test_generic_layers_reach_games_only_through_the_interface_and_the_registry() -> None:
    wrong = game_imports_from_generic_layers(import_graph(), game_packages())
    assert not wrong, f"a generic layer imports one game's own code: {wrong}"


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Top-level package -> the other top-level packages it imports."""
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        top = module.split(".")[0]
        packages.setdefault(top, set()).update(
            t.split(".")[0] for t in targets if t.split(".")[0] != top)
    return packages


def test_there_is_no_circle_among_the_top_level_packages() -> None:
    """Module circles are not enough: two packages importing each other through different
    modules form no module circle, yet neither can be understood without the other."""
    cycle = find_cycle(package_graph(import_graph()))
    assert cycle is None, "package circle: " + " -> ".join(cycle or [])
