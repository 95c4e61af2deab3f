"""The package's imports point inward: no cycles, the core knows neither Flask nor the database,
and no import hides inside a function without a comment saying why."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
# Pure: rule tables, scoring, checks, the sheet, statistics, charts and what they share.
CORE = {"variants", "messages", "models", "entry", "scoring", "checks", "sheet", "stats", "charts", "clock", "names"}
OUTSIDE_THE_CORE = (
    "flask",
    "flask_wtf",
    "flask_babel",
    "werkzeug",
    "itsdangerous",
    "wtforms",
    "sqlite_utils",
    "sqlite3",
)


def _modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(), str(path)) for path in PACKAGE.glob("*.py")}


def _imports(tree: ast.Module, modules: set[str]) -> tuple[set[str], set[str]]:
    """(modules of this package, outside packages) a module imports anywhere in it."""
    inner, outer = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # from . import x / from .x import y
                if node.module:
                    inner.add(node.module.split(".")[0])
                else:
                    inner.update(alias.name for alias in node.names if alias.name in modules)
            elif node.module:
                top = node.module.split(".")[0]
                if top == "scorekeeper":
                    parts = node.module.split(".")
                    if len(parts) > 1:
                        inner.add(parts[1])
                    else:
                        inner.update(alias.name for alias in node.names if alias.name in modules)
                else:
                    outer.add(top)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "scorekeeper" and len(parts) > 1:
                    inner.add(parts[1])
                elif parts[0] != "scorekeeper":
                    outer.add(parts[0])
    inner.discard("__init__")
    return inner, outer


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    names = set(modules)
    return {name: _imports(tree, names)[0] for name, tree in modules.items() if name != "__init__"}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_package_has_no_import_cycle():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()))


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_core_imports_neither_flask_nor_the_database_nor_anything_above_it():
    modules = _modules()
    names = set(modules)
    for name in CORE & names:
        inner, outer = _imports(modules[name], names)
        assert not outer & set(OUTSIDE_THE_CORE), f"{name} imports {outer & set(OUTSIDE_THE_CORE)}"
        assert inner <= CORE, f"core module {name} imports {inner - CORE}, which are not core"


def test_no_import_hides_inside_a_function_without_saying_why():
    for path in PACKAGE.glob("*.py"):
        source = path.read_text().splitlines()
        tree = ast.parse("\n".join(source))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    line = source[node.lineno - 1]
                    assert "#" in line, f"{path.name}:{node.lineno} imports inside a function with no reason given"
