"""The shape of the package: imports run one way, files and functions stay
small, private names stay in their module, the public names are listed once,
first use is safe.

The layers, bottom to top (a module imports only from its own layer or lower):

1. ``errors``, ``limits``, ``budget``, ``memory`` (the caches' one budget of bytes), ``stream``
   (the dice stream imports nothing of the project), ``files`` (writing a file whole or not at all)
2. ``language`` and ``exact`` (neither imports the other)
3. ``results``
4. ``render``
5. ``dice``
6. ``systems`` (``base``, the registry in ``__init__``, one package per system;
   a system package never imports another, nor the registry)
7. ``api``: the composition root, the only module outside ``systems`` that
   imports it
8. ``log``: the fair-roll log, which re-rolls texts through ``api`` to verify
   them; ``sheets``: character sheets in TOML, rolled by trait name through ``api``;
   ``comparisons``: rolls measured side by side through ``api``; ``chat``: the
   messages and commands of chat services (Discord, a webhook), made from the API's answers
9. ``server`` (the table: ``fudgedice serve``) and the package's ``__init__``
10. ``cli``: the command line's package (its click commands, ``console``, the
    ``session_*``, ``sheet_*``, ``compare``, ``floats``, ``checks`` and ``help``
    modules), above it ``cli.quick`` (a plain roll and odds without click), and
    at the top ``cli.entry`` (the console script)

The import graph is read from the source with :mod:`ast`, never by importing it.
The checkers take a source folder, so the ``planted`` tests can show on a small
made-up package that each of them does fail.
"""

from __future__ import annotations

import ast
import functools
import importlib
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import fudgedice

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
TESTS = ROOT / "tests"
PACKAGE = "fudgedice"
SYSTEMS = f"{PACKAGE}.systems"
COMPOSITION_ROOT = f"{PACKAGE}.api"

LAYERS: Mapping[str, int] = {
    f"{PACKAGE}.errors": 1,
    f"{PACKAGE}.limits": 1,
    f"{PACKAGE}.budget": 1,
    f"{PACKAGE}.memory": 1,
    f"{PACKAGE}.stream": 1,
    f"{PACKAGE}.files": 1,
    f"{PACKAGE}.names": 1,
    f"{PACKAGE}.arguments": 2,
    f"{PACKAGE}.language": 2,
    f"{PACKAGE}.exact": 2,
    f"{PACKAGE}.results": 3,
    f"{PACKAGE}.render": 4,
    f"{PACKAGE}.dice": 5,
    SYSTEMS: 6,
    COMPOSITION_ROOT: 7,
    f"{PACKAGE}.log": 8,
    f"{PACKAGE}.sheets": 8,
    f"{PACKAGE}.play": 8,
    f"{PACKAGE}.comparisons": 8,
    f"{PACKAGE}.sampling": 8,
    f"{PACKAGE}.chat": 8,
    f"{PACKAGE}.server": 9,
    PACKAGE: 9,
    f"{PACKAGE}.cli": 10,
    f"{PACKAGE}.cli.quick": 11,
    f"{PACKAGE}.cli.entry": 12,
}
"""Each top-level module or package of ``fudgedice`` and its layer."""

APART = (frozenset({f"{PACKAGE}.language", f"{PACKAGE}.exact"}),)
"""Units of one layer that must not import each other."""

LAZY_ALLOWED = frozenset(
    {
        "matplotlib",
        "numpy",
        "pandas",
        "difflib",
        "pathlib",
        "json",
        "hashlib",
        "click",
        "gettext",
        "decimal",
        "icu",
        "importlib",
    }
)
"""Heavy libraries that may be imported inside a function: matplotlib (charts),
NumPy (sampling) and pandas (frames, an optional extra) take longer to import
than a roll takes to start; difflib (did-you-mean hints, on a mistake), pathlib
(a d% table read from a file), json (--json) and hashlib (OpenSSL's SHA-256, which
the dice stream takes over to after a process's first blocks) and decimal (the
widest exact products, ``exact/wide.py``: about 9 ms to import under load) are
the standard library's, and ICU (``names``: confusable skeletons, some 40 ms to
import) is needed only when a member joins a room; importlib.metadata (the installed
packages' systems, ``systems/__init__.py``: tens of milliseconds to import and
read) only when a roll names a system not the project's own; but each costs a command that
starts milliseconds it would spend for nothing. click (and its gettext) is
imported inside a function by the console script alone (``cli.entry``), which
answers a plain ``roll``/``odds`` without it."""

SAMPLERS = frozenset(
    {
        f"{PACKAGE}.dice.sampling",
        f"{PACKAGE}.systems.d6.sampling",
        f"{PACKAGE}.dice.floats",
        f"{PACKAGE}.systems.d6.floats",
        f"{PACKAGE}.systems.fudge.floats",
        f"{PACKAGE}.systems.fudge3d6.sampling",
        f"{PACKAGE}.systems.fate.sampling",
    }
)
"""The modules that compute with NumPy (samplers, float odds), imported by each
``sample``, ``sample_events`` or ``float_odds`` method."""

SAMPLED = frozenset({f"{PACKAGE}.results.sampled"})
"""What ``sample_events`` returns (a named tuple of NumPy arrays), made only
when a sample is: building its class is a fraction of a millisecond of every
roll's and odds' start-up."""

ROLLING = frozenset(
    f"{PACKAGE}.{name}"
    for name in (
        "dice.roller",
        "dice.hand",
        "dice.quick",
        "results.dice",
        "results.roll",
        "render.explain",
    )
)
"""What a roll is rolled and explained with (the roller, the rolled dice, the
roll, its explanation), which a program loads when it first rolls: odds never do."""

MEASURING = frozenset({f"{PACKAGE}.exact.odds", f"{PACKAGE}.exact.views"})
"""The odds a program measures (their rows, tails and views), which a roll never loads."""

LAZY_OURS: Mapping[str, frozenset[str]] = {
    # compare and --plot load comparisons and charts, which a roll never needs; the
    # sheet, session, verify, serve, mcp and help commands are built when named (their options
    # and types are milliseconds of every roll's start-up)
    # the console script gives every command line but a plain roll or odds to click
    # (cli.quick, the plain roll and odds, without it), each loaded with the
    # collector paused
    f"{PACKAGE}.cli.entry": frozenset({f"{PACKAGE}.cli.commands", f"{PACKAGE}.cli.quick"}),
    # a plain roll prints no odds table
    f"{PACKAGE}.cli.quick": frozenset({f"{PACKAGE}.render.odds_table"}),
    # a system declares its tables when it loads; a roll prints none of them
    f"{PACKAGE}.systems.fudge.tables": frozenset({f"{PACKAGE}.results.table"}),
    f"{PACKAGE}.results.table_spec": frozenset({f"{PACKAGE}.results.table"}),
    f"{PACKAGE}.dice.outcomes": MEASURING,
    f"{PACKAGE}.systems.fudge.notes": MEASURING,
    # the package names its click group only when asked: importing it loads no click
    f"{PACKAGE}.cli": frozenset({f"{PACKAGE}.cli.commands"}),
    f"{PACKAGE}.cli.commands": frozenset(
        {
            f"{PACKAGE}.cli.serve",
            f"{PACKAGE}.cli.discord",
            f"{PACKAGE}.cli.mcp",
            f"{PACKAGE}.cli.backup",
            f"{PACKAGE}.cli.compare",
            f"{PACKAGE}.render.plot",
            f"{PACKAGE}.cli.sheet_commands",
            f"{PACKAGE}.cli.session_commands",
            f"{PACKAGE}.cli.help",
        }
    ),
    # the rules a sheet reads: each loads a whole system, which a roll of 4dF does not
    COMPOSITION_ROOT: frozenset({SYSTEMS}),
    f"{PACKAGE}.cli.serve": frozenset({f"{PACKAGE}.server"}),
    # the assistant's tools load the Model Context Protocol's SDK, when `mcp` starts
    f"{PACKAGE}.cli.mcp": frozenset({f"{PACKAGE}.cli.mcp_tools"}),
    f"{PACKAGE}.cli.backup": frozenset({f"{PACKAGE}.server"}),
    f"{PACKAGE}.cli.sheet_options": frozenset({f"{PACKAGE}.sheets"}),
    f"{PACKAGE}.cli.sheet_commands": frozenset({f"{PACKAGE}.sheets"}),
    f"{PACKAGE}.cli.session_commands": frozenset({f"{PACKAGE}.log", f"{PACKAGE}.files"}),
    f"{PACKAGE}.cli.session_rolls": frozenset({f"{PACKAGE}.log"}),
    f"{PACKAGE}.dice.program": SAMPLERS
    | SAMPLED
    | {f"{PACKAGE}.render.html"}
    | ROLLING
    | MEASURING,
    # each renderer loads when first shown: a command prints its own tables
    f"{PACKAGE}.render.views": frozenset({f"{PACKAGE}.render"}),
    f"{PACKAGE}.systems.fudge.program": SAMPLERS
    | SAMPLED
    | ROLLING
    | MEASURING
    | {f"{PACKAGE}.systems.fudge.rolling"},
    f"{PACKAGE}.systems.fudge3d6.program": SAMPLERS,
    f"{PACKAGE}.systems.d6.program": SAMPLERS | SAMPLED,
    f"{PACKAGE}.systems.fate.program": SAMPLERS,
}
"""Modules of the package that one module may import inside a function, so
that ``fudgedice roll`` starts without what it does not use: the command line
imports the server only when ``serve`` runs (FastAPI, SQLAlchemy and uvicorn
take longer to import than every other command takes to run), the sheets
(tomlkit) only for ``--sheet`` and ``sheet``, the session log only for
``session``, ``verify`` and ``roll --session``, and a program the NumPy
samplers only when it samples. Nothing else may defer an import of the
package's own modules: a deferred import hides an edge of the graph until the
first call."""

MAX_LINES = 400

GENERATED = frozenset({"generated_parser.py"})
"""Files a tool writes (``make parser``: lark's standalone parser with the
grammar's tables), read by no one as source, so held to no length."""


# ------------------------------------------------------------ the import graph


@dataclass(frozen=True)
class Edge:
    """One module importing another module of the package."""

    source: str
    target: str
    where: str
    """``path:line`` of the import statement."""

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.where})"


@dataclass(frozen=True)
class Found:
    """One import statement's reading: every module it names, ours or not."""

    source: str
    targets: tuple[str, ...]
    where: str
    lazy: bool
    """Inside a function: run on the first call, not at import."""


def module_files(src: Path) -> dict[str, Path]:
    """Every module of the package under ``src``, by its dotted name."""
    modules: dict[str, Path] = {}
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(
    nodes: Iterable[ast.AST], lazy: bool
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Import statements and whether each runs inside a function; blocks under
    ``if TYPE_CHECKING:`` never run, so they are skipped (their ``else`` is not)."""
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, lazy
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _statements(node.orelse, lazy)
        else:
            inner = lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            yield from _statements(ast.iter_child_nodes(node), inner)


def _ours(name: str) -> bool:
    return name == PACKAGE or name.startswith(f"{PACKAGE}.")


@functools.cache
def read_imports(src: Path) -> tuple[Found, ...]:
    """Every import statement of the package, its relative names resolved, and
    ``from pkg import name`` read as the module ``pkg.name`` when that is one."""
    modules = module_files(src)
    found: list[Found] = []
    for module, path in modules.items():
        if path.name in GENERATED:
            continue  # lark's own code, which imports nothing of ours (a dead relative import)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node, lazy in _statements(tree.body, False):
            if isinstance(node, ast.Import):
                targets = tuple(alias.name for alias in node.names)
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    anchor = ".".join(parts[: len(parts) - (node.level - 1)])
                    base = f"{anchor}.{base}" if node.module else anchor
                names = [f"{base}.{alias.name}" for alias in node.names]
                submodules = tuple(name for name in names if name in modules)
                # names that are not modules are attributes of ``base`` itself
                targets = submodules + ((base,) if len(submodules) < len(names) else ())
            where = f"{path.relative_to(src.parent)}:{node.lineno}"
            found.append(Found(module, targets, where, lazy))
    return tuple(found)


def import_edges(src: Path) -> list[Edge]:
    """The package's own import graph, one edge per module named by a statement."""
    return [
        Edge(each.source, target, each.where)
        for each in read_imports(src)
        for target in each.targets
        if _ours(target)
    ]


def _graph(edges: Iterable[Edge]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    return graph


def strongly_connected(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = itertools.count()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = next(counter)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def import_cycles(src: Path) -> list[str]:
    """Each cycle (a component of more than one module, or a module importing
    itself), with the imports that close it."""
    edges = import_edges(src)
    graph = _graph(edges)
    cycles = []
    for component in strongly_connected(graph):
        if len(component) == 1 and component[0] not in graph[component[0]]:
            continue
        inside = [str(edge) for edge in edges if {edge.source, edge.target} <= set(component)]
        cycles.append(f"{' <-> '.join(component)}: " + "; ".join(inside))
    return cycles


def unit_of(module: str) -> str:
    """The module or package of :data:`LAYERS` a module is part of: the longest
    one that holds it (``cli.quick`` above the rest of ``cli``), else its
    top-level module or package."""
    parts = module.split(".")
    for size in range(len(parts), 2, -1):
        if ".".join(parts[:size]) in LAYERS:
            return ".".join(parts[:size])
    return ".".join(parts[:2])


def _system_package(module: str, src: Path) -> str | None:
    """``fudgedice.systems.<name>`` when ``module`` is in that system's package."""
    parts = module.split(".")
    package = src.joinpath(*parts[:3]) / "__init__.py"
    if len(parts) >= 3 and unit_of(module) == SYSTEMS and package.is_file():
        return ".".join(parts[:3])
    return None


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def layer_violations(src: Path) -> list[str]:
    """Edges that go up a layer or sideways between units kept apart, and
    modules that belong to no layer."""
    wrong: list[str] = []
    modules = set(module_files(src))
    for module in sorted(modules):
        if unit_of(module) not in LAYERS:
            wrong.append(f"{module} belongs to no layer")
    for edge in import_edges(src):
        source, target = unit_of(edge.source), unit_of(edge.target)
        if source not in LAYERS or target not in LAYERS:
            continue  # reported above (or an import of a module that does not exist)
        if edge.target not in modules:
            wrong.append(f"{edge}: no such module")
        elif LAYERS[target] > LAYERS[source]:
            wrong.append(
                f"{edge}: {source} (layer {LAYERS[source]}) imports "
                f"{target} (layer {LAYERS[target]})"
            )
        elif source != target and frozenset({source, target}) in APART:
            wrong.append(f"{edge}: {source} and {target} must not import each other")
        system = _system_package(edge.source, src)
        if (
            system is not None
            and _inside(edge.target, SYSTEMS)
            and not _inside(edge.target, system)
            and (edge.target == SYSTEMS or _system_package(edge.target, src) is not None)
        ):
            wrong.append(f"{edge}: a system package imports another system or the registry")
    return wrong


def composition_root_violations(src: Path) -> list[str]:
    """Imports of the systems from outside ``systems/`` other than by ``api``."""
    return [
        f"{edge}: only {COMPOSITION_ROOT} imports the systems"
        for edge in import_edges(src)
        if _inside(edge.target, SYSTEMS)
        and not _inside(edge.source, SYSTEMS)
        and edge.source != COMPOSITION_ROOT
    ]


def lazy_import_violations(src: Path) -> list[str]:
    """Imports inside functions of anything but an optional heavy library (or
    a module :data:`LAZY_OURS` lets its importer defer)."""
    return [
        f"{each.where}: {each.source} imports {target} inside a function"
        for each in read_imports(src)
        if each.lazy
        for target in each.targets
        if target.split(".")[0] not in LAZY_ALLOWED
        and not any(_inside(target, ours) for ours in LAZY_OURS.get(each.source, ()))
    ]


def test_the_import_graph_has_no_cycles() -> None:
    assert import_edges(SRC), "no imports found: is SRC the package's source folder?"
    cycles = import_cycles(SRC)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_imports_run_down_the_layers() -> None:
    wrong = layer_violations(SRC)
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_only_the_composition_root_imports_the_systems() -> None:
    wrong = composition_root_violations(SRC)
    assert not wrong, "imports of the systems:\n" + "\n".join(wrong)


def test_only_optional_libraries_are_imported_lazily() -> None:
    wrong = lazy_import_violations(SRC)
    assert not wrong, "function-level imports:\n" + "\n".join(wrong)


# ------------------------------------------------------------- file length


def long_files(src: Path, limit: int = MAX_LINES) -> list[str]:
    """Source files (Python and the grammar) longer than ``limit`` lines."""
    return [
        f"{path.relative_to(src.parent)}: {lines} lines"
        for path in sorted(src.rglob("*"))
        if path.suffix in {".py", ".pyi", ".lark"} and path.is_file() and path.name not in GENERATED
        for lines in [len(path.read_text("utf-8").splitlines())]
        if lines > limit
    ]


def test_no_source_file_is_over_400_lines() -> None:
    assert module_files(SRC)
    too_long = long_files(SRC)
    assert not too_long, f"over {MAX_LINES} lines:\n" + "\n".join(too_long)


# ------------------------------------------------------- functions stay short

MAX_FUNCTION_LINES = 80

LONG_FUNCTIONS_ALLOWED: Mapping[str, int] = {}
"""Functions let stay over the limit, each with its length (none today): the list may only
shrink (an entry that is gone or back under the limit fails until it is taken
off, and none may grow)."""


def _functions(
    node: ast.AST, prefix: str
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}.{child.name}"
            if not isinstance(child, ast.ClassDef):
                yield name, child
            yield from _functions(child, name)
        else:
            yield from _functions(child, prefix)


def function_lengths(src: Path) -> dict[str, int]:
    """Every function and method of the package (generated code aside), by its
    dotted name, and its length in lines, decorators aside."""
    lengths: dict[str, int] = {}
    for module, path in module_files(src).items():
        if path.name in GENERATED:
            continue
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for name, function in _functions(tree, module):
            assert function.end_lineno is not None
            lengths[name] = function.end_lineno - function.lineno + 1
    return lengths


def long_functions(
    src: Path,
    allowed: Mapping[str, int] = LONG_FUNCTIONS_ALLOWED,
    limit: int = MAX_FUNCTION_LINES,
) -> list[str]:
    """Functions over ``limit`` lines that ``allowed`` does not list at their
    length or more, and entries of ``allowed`` no longer over the limit."""
    lengths = function_lengths(src)
    wrong = [
        f"{name}: {lines} lines"
        for name, lines in sorted(lengths.items())
        if lines > limit and lines > allowed.get(name, limit)
    ]
    wrong += [
        f"{name}: allowed {lines} lines, now {lengths.get(name, 0)}: take it off the list"
        for name, lines in sorted(allowed.items())
        if lengths.get(name, 0) <= limit
    ]
    return wrong


def test_no_function_is_over_80_lines() -> None:
    wrong = long_functions(SRC)
    assert not wrong, f"over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(wrong)


# ------------------------------------------------------ private names stay home

PRIVATE_IMPORTS_ALLOWED: frozenset[str] = frozenset()
"""Private names one module may still take from another (none today);
the list may only shrink (an entry no longer found fails until it is taken off)."""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(src: Path) -> list[str]:
    """Private names a module of the package takes from another: imported by
    name (``from .x import _y``) or read as an attribute of something imported
    from the package (``x._y``)."""
    modules = module_files(src)
    found: list[str] = []
    for module, path in modules.items():
        if path.name in GENERATED:
            continue
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text("utf-8"), str(path))
        imported: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if _ours(alias.name):
                        bound = alias.asname or alias.name.partition(".")[0]
                        imported[bound] = alias.name if alias.asname else bound
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    anchor = ".".join(parts[: len(parts) - (node.level - 1)])
                    base = f"{anchor}.{base}" if node.module else anchor
                if not _ours(base):
                    continue
                for alias in node.names:
                    if _private(alias.name):
                        found.append(f"{module} uses {alias.name} of {base}")
                    imported[alias.asname or alias.name] = f"{base}.{alias.name}"
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
            ):
                found.append(f"{module} uses {node.attr} of {imported[node.value.id]}")
    return sorted(set(found))


def test_no_private_name_is_used_across_modules() -> None:
    found = set(private_uses(SRC))
    assert not found - PRIVATE_IMPORTS_ALLOWED, "private names taken across modules:\n" + (
        "\n".join(sorted(found - PRIVATE_IMPORTS_ALLOWED))
    )
    assert not PRIVATE_IMPORTS_ALLOWED - found, "no longer found, take them off the list:\n" + (
        "\n".join(sorted(PRIVATE_IMPORTS_ALLOWED - found))
    )


# ------------------------------------------------------------ one list of names


def type_checking_names(path: Path) -> dict[str, str]:
    """What a module imports for type checkers alone (``if TYPE_CHECKING:``),
    each name and the relative module it comes from."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.level:
                    home = "." * statement.level + (statement.module or "")
                    names.update((alias.asname or alias.name, home) for alias in statement.names)
    return names


def test_the_public_names_are_listed_once() -> None:
    homes = fudgedice._HOMES
    assert fudgedice.__all__ == sorted(homes)
    # the type checkers read each public name from its home, and nothing else
    assert type_checking_names(SRC / PACKAGE / "__init__.py") == homes
    assert set(fudgedice.__all__) <= set(dir(fudgedice))
    for name, home in homes.items():
        assert getattr(fudgedice, name) is getattr(importlib.import_module(home, PACKAGE), name)


# ------------------------------------------------- first use, in a fresh interpreter

THREADS = 8
SEED = 2024
SAMPLES = 100


@dataclass(frozen=True)
class ThreadCase:
    text: str
    faces: str
    """Dice rolled by hand, for ``read``."""


THREAD_CASES = (
    ThreadCase("4dF+1", "+ - 0 +"),
    ThreadCase("Good vs Great", "+ - 0 +"),
    ThreadCase("power: 4dF+2 adv vs 3", "+ - 0 +"),
    ThreadCase("3d6fudge: Good opp Great", "1 2 3 4 5 6"),
    ThreadCase("d6: 4D+2 vs Moderate", "3 4 5 w6 w2"),
    ThreadCase("fate: Good reroll vs Great", "- - 0 0 + 0 0 +"),
)

_THREADS_SCRIPT = """
import json, sys, threading, traceback

sys.setswitchinterval(1e-4)  # switch threads as often as possible
import fudgedice

text, faces, seed, count, samples = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])


def odds_summary(odds):
    return {
        "events": {name: str(p) for name, p in odds.events.items()},
        "outcomes": [[row.value, str(row.p)] for row in odds.outcomes],
    }


steps = [
    ("roll", lambda: fudgedice.roll(text, seed=seed).to_dict()),
    ("odds", lambda: odds_summary(fudgedice.odds(text))),
    ("read", lambda: fudgedice.read(text, faces).to_dict()),
    ("sample", lambda: fudgedice.sample(text, samples, seed=1).tolist()),
]
barrier = threading.Barrier(count)
results = [None] * count
errors = []


def work(i):
    try:
        barrier.wait(timeout=30)
        # each step is some thread's very first call
        order = steps[i % len(steps) :] + steps[: i % len(steps)]
        results[i] = {name: step() for name, step in order}
    except BaseException:
        errors.append(f"thread {i}: {traceback.format_exc()}")


threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(count)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join(timeout=60)
print(json.dumps({
    "module": fudgedice.__file__,
    "hung": sum(thread.is_alive() for thread in threads),
    "errors": errors,
    "results": results,
}))
"""


@dataclass(frozen=True)
class HintCase:
    text: str
    hint: str | None
    """The hint expected; None: whatever it is warm, the same cold."""


HINT_CASES = (
    HintCase("d6: 4D nowld 3", "did you mean 'nowild'?"),
    HintCase("power: 4dF advv vs 3", None),
)

_HINT_SCRIPT = """
import json, sys

import fudgedice


def attempt(text):
    try:
        fudgedice.roll(text)
    except fudgedice.DiceError as error:
        return {"error": type(error).__name__, "message": str(error), "hint": error.hint}
    return None


bad, others, good = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
cold = attempt(bad)  # the very first call of this interpreter
rolled = [fudgedice.roll(text, seed=1).total for text in good]
measured = [fudgedice.odds(text).outcomes for text in good]
refused = [text for text in others if attempt(text) is not None]
warmed = [len(rolled), sum(1 for outcomes in measured if outcomes), len(refused)]
warm = attempt(bad)
print(json.dumps({"module": fudgedice.__file__, "cold": cold, "warm": warm, "warmed": warmed}))
"""


@dataclass
class Child:
    """A fresh interpreter running a script; its JSON output once it ends."""

    process: subprocess.Popen[str]
    output: tuple[str, str] | None = None

    def summary(self) -> Any:
        if self.output is None:
            self.output = self.process.communicate(timeout=120)
        out, err = self.output
        assert self.process.returncode == 0, f"the child failed:\n{err}"
        return json.loads(out)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


def _start(script: str, *args: str) -> Child:
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), *([path] if path else [])])}
    return Child(
        subprocess.Popen(
            [sys.executable, "-c", script, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
    )


@pytest.fixture(scope="module")
def children() -> Iterator[dict[tuple[str, str], Child]]:
    """Every fresh interpreter, started at once so that they run side by side."""
    good = json.dumps([case.text for case in THREAD_CASES])
    started: dict[tuple[str, str], Child] = {}
    try:
        for case in THREAD_CASES:
            args = (case.text, case.faces, str(SEED), str(THREADS), str(SAMPLES))
            started["threads", case.text] = _start(_THREADS_SCRIPT, *args)
        for hint in HINT_CASES:
            others = json.dumps([other.text for other in HINT_CASES if other != hint])
            started["hint", hint.text] = _start(_HINT_SCRIPT, hint.text, others, good)
        yield started
    finally:
        for child in started.values():
            child.close()


def _odds_summary(odds: fudgedice.Odds) -> dict[str, Any]:
    return {
        "events": {name: str(p) for name, p in odds.events.items()},
        "outcomes": [[row.value, str(row.p)] for row in odds.outcomes],
    }


def _reference(case: ThreadCase) -> Any:
    """The same calls, made one at a time in this process."""
    return json.loads(
        json.dumps(
            {
                "roll": fudgedice.roll(case.text, seed=SEED).to_dict(),
                "odds": _odds_summary(fudgedice.odds(case.text)),
                "read": fudgedice.read(case.text, case.faces).to_dict(),
                "sample": fudgedice.sample(case.text, SAMPLES, seed=1).tolist(),
            }
        )
    )


def _from_src(summary: Any) -> None:
    module = Path(summary["module"]).resolve()
    assert module.is_relative_to(SRC), f"the child imported {module}, not the package in {SRC}"


@pytest.mark.parametrize("case", THREAD_CASES, ids=[case.text for case in THREAD_CASES])
def test_first_use_from_many_threads(
    case: ThreadCase, children: dict[tuple[str, str], Child]
) -> None:
    summary = children["threads", case.text].summary()
    _from_src(summary)
    assert summary["errors"] == [], "\n".join(summary["errors"])
    assert summary["hung"] == 0, f"{summary['hung']} threads did not finish"
    results: list[Any] = summary["results"]
    assert len(results) == THREADS and all(result is not None for result in results)
    assert set(results[0]) == {"roll", "odds", "read", "sample"}
    assert results[0]["odds"]["outcomes"], "no outcomes"
    assert sum(Fraction(p) for _, p in results[0]["odds"]["outcomes"]) <= 1
    assert len(results[0]["sample"]) == SAMPLES
    differ = [
        f"thread {i}: {name}"
        for i, result in enumerate(results)
        for name in results[0]
        if result[name] != results[0][name]
    ]
    assert not differ, "threads disagree with thread 0:\n" + "\n".join(differ)
    reference = _reference(case)
    differ = [name for name in reference if results[0][name] != reference[name]]
    assert not differ, f"the threads' {differ} differ from the same calls made one at a time"


@pytest.mark.parametrize("case", HINT_CASES, ids=[case.text for case in HINT_CASES])
def test_the_first_call_gets_the_same_hint(
    case: HintCase, children: dict[tuple[str, str], Child]
) -> None:
    summary = children["hint", case.text].summary()
    _from_src(summary)
    cold, warm = summary["cold"], summary["warm"]
    others = len(HINT_CASES) - 1
    assert summary["warmed"] == [len(THREAD_CASES), len(THREAD_CASES), others], "no warm-up"
    assert warm is not None, f"{case.text!r} raised no DiceError"
    assert warm["hint"], f"{case.text!r} has no hint: {warm['message']}"
    assert cold == warm, f"first call: {cold}\nafter other rolls: {warm}"
    if case.hint is not None:
        assert warm["hint"] == case.hint


# ----------------------------------------------- tests import the package only


def imports_of_test_modules(tests: Path) -> list[str]:
    """Imports of test modules: ``tests.*``, relative imports, or a test
    module (``test_*``, ``conftest``, any other file under ``tests/``) by name."""
    test_modules = {path.stem for path in tests.rglob("*.py")} - {"__init__"}
    test_modules.add(tests.name)
    wrong: list[str] = []
    for path in sorted(tests.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    names = ["." * node.level + (node.module or "")]
                else:
                    names = [node.module or ""] + [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.startswith(".") or set(name.split(".")) & test_modules:
                    where = f"{path.relative_to(tests.parent)}:{node.lineno}"
                    wrong.append(f"{where}: imports {name}")
    return wrong


def test_tests_import_the_package_never_each_other() -> None:
    assert any(TESTS.rglob("test_*.py"))
    wrong = imports_of_test_modules(TESTS)
    assert not wrong, "test modules importing test modules:\n" + "\n".join(wrong)


# ------------------------------------------- the checkers fail on planted faults


def _plant(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root


def test_planted_cycles_are_found(tmp_path: Path) -> None:
    src = _plant(
        tmp_path / "src",
        {
            "fudgedice/__init__.py": "from .api import roll\n",
            "fudgedice/errors.py": "from fudgedice import limits\nimport fudgedice.limits\n",
            "fudgedice/limits.py": "import numpy\n\ndef f():\n    from .errors import E\n",
            "fudgedice/api.py": "from .exact import dist, Odds\n",
            "fudgedice/exact/__init__.py": "from . import Odds\n",
            "fudgedice/exact/dist.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from ..api import roll\n"
                "else:\n    from .. import errors\n"
            ),
        },
    )
    edges = {(edge.source, edge.target) for edge in import_edges(src)}
    assert edges == {
        ("fudgedice", "fudgedice.api"),
        ("fudgedice.errors", "fudgedice.limits"),
        ("fudgedice.limits", "fudgedice.errors"),
        ("fudgedice.api", "fudgedice.exact.dist"),
        ("fudgedice.api", "fudgedice.exact"),
        ("fudgedice.exact", "fudgedice.exact"),
        ("fudgedice.exact.dist", "fudgedice.errors"),
    }
    cycles = import_cycles(src)
    assert [cycle.split(":")[0] for cycle in cycles] == [
        "fudgedice.errors <-> fudgedice.limits",
        "fudgedice.exact",
    ]
    assert "src/fudgedice/limits.py:4" in cycles[0]


def test_planted_layer_faults_are_found(tmp_path: Path) -> None:
    src = _plant(
        tmp_path / "src",
        {
            "fudgedice/__init__.py": "",
            "fudgedice/errors.py": "",
            "fudgedice/extra.py": "",
            "fudgedice/language/__init__.py": "",
            "fudgedice/language/tree.py": "from ..exact import dist\nfrom .. import errors\n",
            "fudgedice/exact/__init__.py": "",
            "fudgedice/exact/dist.py": "",
            "fudgedice/results/__init__.py": "",
            "fudgedice/results/roll.py": "from ..render.explain import text\n",
            "fudgedice/render/__init__.py": "",
            "fudgedice/render/explain.py": (
                "def text():\n    import matplotlib.pyplot\n    from ..results import roll\n"
            ),
            "fudgedice/systems/__init__.py": "from .a import A\nfrom .b import B\n",
            "fudgedice/systems/base.py": "",
            "fudgedice/systems/shared.py": "",
            "fudgedice/systems/a/__init__.py": (
                "from ..b import B\nfrom .. import base, shared\nfrom . import rules\n"
            ),
            "fudgedice/systems/a/rules.py": "from fudgedice.systems import SYSTEMS\n",
            "fudgedice/systems/b/__init__.py": "",
            "fudgedice/api.py": "from .systems import SYSTEMS\n",
            "fudgedice/cli/__init__.py": "",
            "fudgedice/cli/commands.py": (
                "from ..api import roll\nfrom ..systems.base import System\n"
            ),
            "fudgedice/cli/serve.py": "def serve():\n    from ..server import run\n",
            "fudgedice/cli/quick.py": "from .entry import main\n",
            "fudgedice/cli/entry.py": "from .commands import main\n",
            "fudgedice/server/__init__.py": "def run():\n    from ..cli.commands import main\n",
        },
    )
    wrong = layer_violations(src)
    assert [line.split(" (")[0] for line in wrong] == [
        "fudgedice.extra belongs to no layer",
        "fudgedice.cli.quick -> fudgedice.cli.entry",
        "fudgedice.language.tree -> fudgedice.exact.dist",
        "fudgedice.results.roll -> fudgedice.render.explain",
        "fudgedice.server -> fudgedice.cli.commands",
        "fudgedice.systems.a -> fudgedice.systems.b",
        "fudgedice.systems.a.rules -> fudgedice.systems",
    ]
    assert "src/fudgedice/results/roll.py:1" in wrong[3]
    assert [line.split(" (")[0] for line in composition_root_violations(src)] == [
        "fudgedice.cli.commands -> fudgedice.systems.base"
    ]
    assert [line.split(": ", 1)[1] for line in lazy_import_violations(src)] == [
        "fudgedice.render.explain imports fudgedice.results.roll inside a function",
        "fudgedice.server imports fudgedice.cli.commands inside a function",
    ]


def test_planted_long_file_is_found(tmp_path: Path) -> None:
    src = _plant(
        tmp_path / "src",
        {
            "fudgedice/short.py": "x = 1\n" * MAX_LINES,
            "fudgedice/long.py": "x = 1\n" * (MAX_LINES + 1),
            "fudgedice/grammar.lark": "start: x\n" * (MAX_LINES + 1),
        },
    )
    assert long_files(src) == [
        f"src/fudgedice/grammar.lark: {MAX_LINES + 1} lines",
        f"src/fudgedice/long.py: {MAX_LINES + 1} lines",
    ]


def test_planted_test_imports_are_found(tmp_path: Path) -> None:
    tests = _plant(
        tmp_path / "tests",
        {
            "__init__.py": "",
            "conftest.py": "import pytest\n",
            "test_a.py": (
                "import fudgedice\nfrom fudgedice.api import roll\nimport json\n"
                "from tests.test_b import helper\nimport tests\n"
                "from .conftest import fixture\nfrom . import test_b\n"
                "def f():\n    import test_b\n    from conftest import thing\n"
            ),
            "sub/test_b.py": "from fudgedice import dice\n",
        },
    )
    assert [line.split(": ", 1)[1] for line in imports_of_test_modules(tests)] == [
        "imports tests.test_b",
        "imports tests",
        "imports .conftest",
        "imports .",
        "imports test_b",
        "imports conftest",
    ]


def test_planted_long_functions_are_found(tmp_path: Path) -> None:
    body, inner = "    x = 1\n", "        x = 1\n"
    src = _plant(
        tmp_path / "src",
        {
            "fudgedice/__init__.py": "",
            "fudgedice/short.py": "def f():\n" + body * (MAX_FUNCTION_LINES - 1),
            "fudgedice/long.py": (
                "class C:\n    def m(self):\n"
                + inner * MAX_FUNCTION_LINES
                + "def g():\n    def inner():\n"
                + inner * MAX_FUNCTION_LINES
            ),
            "fudgedice/listed.py": "def h():\n" + body * (MAX_FUNCTION_LINES + 4),
            "fudgedice/grown.py": "def k():\n" + body * (MAX_FUNCTION_LINES + 4),
            "fudgedice/generated_parser.py": "def p():\n" + body * (MAX_FUNCTION_LINES + 4),
        },
    )
    allowed = {
        "fudgedice.listed.h": MAX_FUNCTION_LINES + 5,
        "fudgedice.grown.k": MAX_FUNCTION_LINES + 1,
        "fudgedice.short.f": MAX_FUNCTION_LINES + 1,
        "fudgedice.gone": MAX_FUNCTION_LINES + 1,
    }
    over = MAX_FUNCTION_LINES + 1
    assert long_functions(src, allowed) == [
        f"fudgedice.grown.k: {MAX_FUNCTION_LINES + 5} lines",
        f"fudgedice.long.C.m: {over} lines",
        f"fudgedice.long.g: {over + 1} lines",
        f"fudgedice.long.g.inner: {over} lines",
        f"fudgedice.gone: allowed {over} lines, now 0: take it off the list",
        f"fudgedice.short.f: allowed {over} lines, now {MAX_FUNCTION_LINES}: take it off the list",
    ]


def test_planted_private_uses_are_found(tmp_path: Path) -> None:
    src = _plant(
        tmp_path / "src",
        {
            "fudgedice/__init__.py": "",
            "fudgedice/a.py": "_hidden = 1\nshown = 2\n\n\ndef _helper(): ...\n",
            "fudgedice/sub/__init__.py": "",
            "fudgedice/sub/b.py": (
                "from ..a import _hidden, shown as _mine\n"
                "from fudgedice import a\nimport fudgedice.a as other\n"
                "from . import c\n"
                "import json\n"
                "json._default_decoder\n"
                "def f():\n    a._helper()\n    other._hidden\n    c.public\n    _mine\n"
            ),
            "fudgedice/sub/c.py": "def g():\n    from .b import _x\n",
        },
    )
    assert private_uses(src) == [
        "fudgedice.sub.b uses _helper of fudgedice.a",
        "fudgedice.sub.b uses _hidden of fudgedice.a",
        "fudgedice.sub.c uses _x of fudgedice.sub.b",
    ]
