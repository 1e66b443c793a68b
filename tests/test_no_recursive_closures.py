"""No function nested in another calls itself by name, in any package a server, an inference
process or a worker runs.

Such a closure is a reference cycle (the function holds its closure's cell, the cell holds
the function), left behind by every call of the function that defines it. The long-running
processes freeze what survives a young collection (server/collector.py), so cyclic garbage
made while a collection runs stays until the reclaim. Read with ast, never imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "inference", "storage", "strategy", "server", "protocol", "archive",
            "calibration")
"""What the server and its workers import (clients/ is the command line and the load
generator: short-lived, or not the server)."""


def recursive_closures(source: str, filename: str) -> list[str]:
    """`file:line name` of each nested function whose body names itself (a recursive
    closure); methods of a class count as top level, functions inside them as nested."""
    found: list[str] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if nested and any(isinstance(n, ast.Name) and n.id == child.name
                                  and isinstance(n.ctx, ast.Load) for n in ast.walk(child)):
                    found.append(f"{filename}:{child.lineno} {child.name}")
                visit(child, True)
            elif isinstance(child, ast.ClassDef):
                visit(child, False)  # its methods are not closures (their nested ones are)
            else:
                visit(child, nested)

    visit(ast.parse(source, filename), False)
    return found


def test_the_finder_finds_a_recursive_closure_and_accepts_the_rest() -> None:
    source = (
        "def outer(n):\n"
        "    def rec(k):\n"
        "        return 0 if k == 0 else rec(k - 1)\n"
        "    return rec(n)\n"
        "def fine(n):\n"
        "    return 0 if n == 0 else fine(n - 1)\n"
        "class C:\n"
        "    def method(self):\n"
        "        return self.method\n"
        "    def other(self):\n"
        "        def walk():\n"
        "            yield from walk()\n"
        "        return walk\n"
    )
    assert recursive_closures(source, "x.py") == ["x.py:2 rec", "x.py:11 walk"]


def test_no_server_side_module_defines_a_recursive_closure() -> None:
    found = [hit for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for hit in recursive_closures(path.read_text(), str(path.relative_to(ROOT)))]
    assert found == [], "recursive closures (reference cycles): " + ", ".join(found)
