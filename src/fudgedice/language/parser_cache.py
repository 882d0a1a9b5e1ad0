"""The grammar's parser, built once per user and loaded from a cache file after.

Building lark's LALR tables from ``grammar.lark`` takes longer than the rest
of a ``fudgedice roll`` (50 to 90 ms); loading the built parser takes a few
milliseconds. The cache file sits in the user's cache folder
(``$XDG_CACHE_HOME/fudgedice``, else ``~/.cache/fudgedice``), named by a
digest of everything the tables depend on: the grammar's text, the options,
lark's version and Python's. A changed grammar or an upgraded lark therefore
looks for another file, and never loads stale tables.

The cache is only ever a shortcut: a file that is absent, unreadable,
truncated or not what its name says is ignored and the parser is built (and
the file written again); a folder that cannot be written leaves the parser
built in memory. Files are written whole to a temporary name, then renamed,
so a process starting meanwhile finds the old file or the new one, never half
of one. The file is lark's own format (a pickle), read only from the user's
own folder, which only the user may write.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark

OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual", "maybe_placeholders": False}
"""How the grammar is built: the same with the cache or without it."""

_MAGIC = b"fudgedice-parser 1 "
"""The cache file's first line starts with this, then the digest it was built for."""


def grammar_text() -> str:
    return resources.files(__package__).joinpath("grammar.lark").read_text("utf-8")


def digest(grammar: str) -> str:
    """What the built tables depend on, as a hex digest."""
    parts = [grammar, repr(sorted(OPTIONS.items())), lark.__version__, sys.version]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def cache_folder() -> Path | None:
    """The user's cache folder for fudgedice (None: the user has no home)."""
    root = os.environ.get("XDG_CACHE_HOME")
    if not root:
        try:
            root = str(Path.home() / ".cache")
        except RuntimeError:  # no home directory to be found
            return None
    return Path(root) / "fudgedice"


def cache_file(key: str) -> Path | None:
    folder = cache_folder()
    return None if folder is None else folder / f"parser-{key[:32]}.lark"


def build(grammar: str | None = None) -> Lark:
    """The parser, built from the grammar (no cache read or written)."""
    return Lark(grammar_text() if grammar is None else grammar, **OPTIONS)


def load_parser() -> Lark:
    """The grammar's parser: from the cache when a good file is there, else
    built, and the cache file written for the next process."""
    grammar = grammar_text()
    key = digest(grammar)
    path = cache_file(key)
    if path is not None:
        cached = _read(path, key)
        if cached is not None:
            return cached
    parser = build(grammar)
    if path is not None:
        _write(path, key, parser)
    return parser


def _read(path: Path, key: str) -> Lark | None:
    try:
        with path.open("rb") as file:
            if file.readline() != _MAGIC + key.encode("ascii") + b"\n":
                return None  # another grammar's, or not a cache file at all
            return Lark.load(file)
    except Exception:  # absent, unreadable, truncated: build it instead
        return None


def _write(path: Path, key: str, parser: Lark) -> None:
    """Write the cache file whole under a temporary name, then rename it; a
    folder that can't be written is no error (the next run builds again)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".parser-", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(_MAGIC + key.encode("ascii") + b"\n")
            parser.save(file)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
