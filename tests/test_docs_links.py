"""The maps stay true: every page a file names is a file of the repository.

Three kinds of reference are checked, in the README, every page under
``docs/``, and the source, tests, benchmarks, fuzzer and Makefile:

- a Markdown link to a relative path (``[fairness.md](fairness.md)``), from
  the folder of the page that holds it;
- a path under ``docs/`` (``docs/table.md``, ``docs/contracts/rules.md``),
  from the root of the repository;
- a page named alone in capitals (``RULES.md``), which must be a file at the
  root (``README.md``): the contracts live in ``docs/contracts/``.

And the architecture page names every folder of the package.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "fudgedice"

SOURCES = ("src", "tests", "benchmarks", "fuzz")
SUFFIXES = frozenset({".py", ".md", ".js", ".html", ".css", ".lark", ".toml"})
PLACEHOLDERS = frozenset({"docs/NAME.md"})
"""Paths written as a pattern, not as one file."""

_LINK = re.compile(r"\]\(([^)\s]+)\)")
_DOCS_PATH = re.compile(r"(?<![\w./-])docs/[\w./-]*\w\.(?:md|png)\b")
_BARE_PAGE = re.compile(r"(?<![\w./-])([A-Z][A-Z0-9_-]*\.md)\b")


def _files() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "Makefile"]
    found += sorted(path for path in (ROOT / "docs").rglob("*.md") if not path.is_symlink())
    for folder in SOURCES:
        found += sorted(
            path
            for path in (ROOT / folder).rglob("*")
            if path.suffix in SUFFIXES
            and path.is_file()
            # the project's own files: not bytecode, nor a virtualenv a benchmark made
            and not {"__pycache__", ".d20-venv", ".venv"} & set(path.parts)
        )
    here = Path(__file__).resolve()  # its examples of broken references are meant
    return [path for path in found if path != here]


FILES = _files()


def _local_link(target: str) -> str | None:
    """The file part of a link that points into the repository, or None."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
        return None  # a web address, mailto:, or an anchor of the same page
    return target.split("#", 1)[0] or None


def broken_references(path: Path, text: str) -> list[str]:
    """Each reference in ``text`` (the text of ``path``) to a file that is not there."""
    broken: list[str] = []
    if path.suffix == ".md":
        for target in _LINK.findall(text):
            local = _local_link(target)
            if local is not None and not (path.parent / local).exists():
                broken.append(target)
    for named in _DOCS_PATH.findall(text):
        if named not in PLACEHOLDERS and not (ROOT / named).is_file():
            broken.append(named)
    for named in _BARE_PAGE.findall(text):
        if not (ROOT / named).is_file():
            broken.append(named)
    return broken


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_files_checked_include_the_readme_docs_and_source() -> None:
    names = {_id(path) for path in FILES}
    assert {"README.md", "docs/architecture.md", "docs/contracts/rules.md"} <= names
    assert "src/fudgedice/reference/table.md" in names
    assert "src/fudgedice/api.py" in names


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_reference_names_a_file_that_exists(path: Path) -> None:
    assert broken_references(path, path.read_text("utf-8")) == []


def test_a_missing_page_is_found() -> None:
    """The check can fail: each kind of reference, pointed at nothing, is caught."""
    page = ROOT / "docs" / "architecture.md"
    text = (
        "See [the rules](contracts/rules.md), [gone](gone.md#part), [web](https://x.org/y.md),\n"
        "[here](#the-tree), docs/fairness.md, docs/missing.md, RULES.md and README.md.\n"
    )
    assert broken_references(page, text) == ["gone.md#part", "docs/missing.md", "RULES.md"]
    source = PACKAGE / "api.py"
    assert broken_references(source, '"""As TABLE.md says ([x](nowhere.md))."""') == ["TABLE.md"]


def _folders() -> list[str]:
    return sorted(
        str(path.relative_to(PACKAGE)) + "/"
        for path in PACKAGE.rglob("*")
        if path.is_dir() and "__pycache__" not in path.parts
    )


def test_the_architecture_page_names_every_folder_of_the_package() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    named = set(re.findall(r"[\w/]+/", page))
    missing = [
        folder
        for folder in _folders()
        if folder not in named and folder.rsplit("/", 2)[-2] + "/" not in named
    ]
    assert missing == []
