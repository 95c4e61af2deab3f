"""The package's layers are its folders, and the imports between them point inward.

``core`` (the rules: pure) ← ``storage`` (the archive) ← ``services`` (every change) ← ``web``
(pages, forms, API) ← ``server`` (what ``python -m scorekeeper`` runs). ``network`` (this
machine's names, addresses and certificates) stands beside them: web and server use it, it uses
none of them. No cycles; no import hides inside a function without a comment saying why."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
LAYERS = ("core", "storage", "services", "network", "web", "server")
# what each layer may import from the package (besides itself)
MAY_IMPORT = {
    "core": set(),
    "storage": {"core"},
    "services": {"core", "storage"},
    "network": set(),
    "web": {"core", "storage", "services", "network"},
    "server": {"core", "storage", "services", "network", "web"},
    "": {"core", "storage", "services", "network", "web", "server"},  # __main__, the package itself
}
OUTSIDE_THE_CORE = (
    "flask",
    "flask_wtf",
    "flask_babel",
    "werkzeug",
    "itsdangerous",
    "wtforms",
    "sqlite_utils",
    "sqlite3",
    "waitress",
    "cheroot",
)
# modules that reach the disk: a module that uses them keeps state, it is not a rule or a figure
THE_DISK = ("os", "pathlib")
# pure modules that are no rule or figure of the game, and why they stay where they are
PURE_BUT_NO_RULE = {
    "services.verdicts": "what every service answers (saved, refused, overtaken ...): the service layer's own words",
    "storage.export_types": "what a value of an export file may be (its types and ranges): the archive's file format",
}


@functools.cache  # parsed once per test process: the tests only read the trees
def _modules() -> dict[str, ast.Module]:
    """Every module by its dotted name under the package: "core.rulesets", "__main__"."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = ast.parse(path.read_text(), str(path))
    return found


def _layer(name: str) -> str:
    return name.split(".")[0] if "." in name else ""


def _imports(name: str, tree: ast.Module, modules: set[str]) -> tuple[set[str], set[str]]:
    """(modules of this package, outside packages) a module imports anywhere in it."""
    inner, outer = set(), set()

    def ours(dotted: str, names: list[str]) -> None:
        for candidate in [f"{dotted}.{n}" if dotted else n for n in names]:
            if candidate in modules:
                inner.add(candidate)
                break
        else:
            if dotted in modules:
                inner.add(dotted)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = [alias.name for alias in node.names]
            if node.level:
                base = name.split(".")[: -node.level] if "." in name else []
                dotted = ".".join(base + ([node.module] if node.module else []))
                for n in names:
                    ours(dotted, [n])
            elif node.module and node.module.split(".")[0] == "scorekeeper":
                dotted = ".".join(node.module.split(".")[1:])
                for n in names:
                    ours(dotted, [n])
            elif node.module:
                outer.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "scorekeeper":
                    ours(".".join(parts[1:]), [])
                else:
                    outer.add(parts[0])
    inner.discard("")
    inner.discard(name)
    return inner, outer


@functools.cache  # worked out once per test process: the tests only read it
def _graph() -> dict[str, set[str]]:
    modules = _modules()
    names = set(modules)
    return {name: _imports(name, tree, names)[0] for name, tree in modules.items() if name}


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


def test_every_module_is_in_a_layer_folder():
    stray = [name for name in _modules() if name and _layer(name) not in LAYERS and name not in ("__main__",)]
    stray = [name for name in stray if name not in LAYERS]
    assert not stray, f"modules outside the layer folders: {stray}"


def test_the_package_has_no_import_cycle():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()))


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_imports_point_inward():
    wrong = []
    for name, inner in _graph().items():
        layer = _layer(name) if name not in LAYERS else name
        allowed = MAY_IMPORT[layer if name != "__main__" else ""] | {layer}
        wrong += [f"{name} -> {target}" for target in sorted(inner) if _layer(target) not in allowed]
    assert not wrong, "imports that point outward: " + ", ".join(wrong)


def test_the_core_imports_neither_flask_nor_the_database_nor_a_server():
    modules = _modules()
    names = set(modules)
    for name, tree in modules.items():
        if _layer(name) != "core":
            continue
        inner, outer = _imports(name, tree, names)
        assert not outer & set(OUTSIDE_THE_CORE), f"{name} imports {outer & set(OUTSIDE_THE_CORE)}"
        assert all(_layer(target) == "core" for target in inner), f"core module {name} imports {inner}"


def test_every_pure_module_is_in_the_core():
    """A module that needs neither Flask, nor the database, nor a server, nor the disk, nor a module
    outside the core is a rule or a figure: it belongs in core/."""
    modules = _modules()
    names = set(modules)
    outside = [n for n in names if n and "." in n and _layer(n) != "core"]
    pure = []
    for name in sorted(set(outside) - set(PURE_BUT_NO_RULE)):
        inner, outer = _imports(name, modules[name], names)
        if (
            not outer & set(OUTSIDE_THE_CORE + THE_DISK)
            and all(_layer(t) == "core" for t in inner)
            and _layer(name) != "network"
        ):
            pure.append(name)
    assert not pure, f"pure modules outside core/: {sorted(pure)}"


def test_the_import_checker_sees_relative_and_absolute_imports():
    names = {"core.rulesets", "web.games", "storage.transaction"}
    tree = ast.parse("from ..core import rulesets\nfrom scorekeeper.storage.transaction import write\nimport flask")
    inner, outer = _imports("web.games", tree, names)
    assert inner == {"core.rulesets", "storage.transaction"} and outer == {"flask"}


def test_no_import_hides_inside_a_function_without_saying_why():
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text().splitlines()
        tree = ast.parse("\n".join(source))
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    line = source[node.lineno - 1]
                    assert "#" in line, f"{path.name}:{node.lineno} imports inside a function with no reason given"


# What the web layer may import from storage: the modules that only read the archive, the connection
# and the disk's troubles, and the phones' sessions file (their login state, not the archive).
STORAGE_THE_WEB_READS = {
    "storage",  # the package itself (its docstring)
    "storage.db",  # the connection for the request, the archive's generation
    "storage.records",  # one game, its hands, an evening, a player, a phone, a change log
    "storage.totals",  # the archive's pages: history, statistics, standings
    "storage.leaderboard",  # the ratings and fair partners
    "storage.tournament_records",  # a tournament, its rounds and tables as they stand, the organiser's actions
    "storage.backup",  # the export and the CSV files
    "storage.export_check",  # why an import was refused (NotAnExport)
    "storage.disk",  # a busy, full or replaced disk (Unavailable)
    "storage.sessions",  # which phones' sessions were locked: a file of its own, not the archive
}


def test_the_web_changes_the_archive_only_through_a_service():
    """Every change to the archive goes through a service (services/), one ``BEGIN IMMEDIATE``
    transaction each, the conflicts decided inside it: so a web module (a page, the API, a command)
    imports from storage only the modules that read (STORAGE_THE_WEB_READS), never the write
    transaction (storage.transaction) nor a module that writes (games, players, evenings, changes,
    results, ratings, restore)."""
    wrong = []
    for name, inner in _graph().items():
        if _layer(name) == "web":
            wrong += [
                f"{name} -> {t}" for t in sorted(inner) if _layer(t) == "storage" and t not in STORAGE_THE_WEB_READS
            ]
    assert not wrong, "web modules that import storage's writes: " + ", ".join(wrong)


def test_the_modules_the_web_may_read_do_not_write():
    """The read modules open no write transaction and import no module that writes."""
    modules = _modules()
    names = set(modules)
    writes = {
        "storage.transaction",
        "storage.games",
        "storage.players",
        "storage.evenings",
        "storage.results",
        "storage.ratings",
        "storage.restore",
    }
    for name in STORAGE_THE_WEB_READS - {"storage", "storage.db", "storage.export_check"}:
        inner, _outer = _imports(name, modules[name], names)
        assert not inner & writes, f"{name} imports {inner & writes}"
