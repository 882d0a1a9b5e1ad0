"""Session and log files: read with a bound, written atomically.

A session file holds the secret server seed until the reveal, so it is
created readable by its owner only. Every write goes to a temporary file in
the same folder, is flushed to the disk, and replaces the file in one step:
a crash leaves the old session or the new one, never half of either. A roll
holds a lock on the file from reading it to replacing it, so two rolls at
once both land.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import DiceValueError, LimitError
from ..files import write_atomically
from ..limits import DEFAULT_LIMITS
from .canonical import FORMATS
from .session import Session

SESSION_FORMAT = "fudgedice-session/1"
"""The ``format`` of a session file."""


def _read_bounded(handle: Any, path: Path) -> bytes:
    data: bytes = handle.read(DEFAULT_LIMITS.max_log_bytes + 1)
    _check_size(data, path)
    return data


def _check_size(data: bytes, name: str | Path) -> None:
    limit = DEFAULT_LIMITS.max_log_bytes
    if len(data) > limit:
        raise LimitError(f"{name} is larger than the limit of {limit // 2**20} MB")


def _parse(data: bytes, path: str | Path) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DiceValueError(f"{path} is not UTF-8 text") from None
    except (ValueError, RecursionError) as error:
        # ValueError: bad JSON, or a number of more digits than int() takes
        reason = str(error).split(":")[0] if isinstance(error, ValueError) else "nested too deep"
        raise DiceValueError(f"{path} is not JSON ({reason})") from None


def _open_error(path: Path, error: OSError) -> DiceValueError:
    return DiceValueError(f"can't read {path}: {error.strerror or error}")


def read_json(path: str | Path) -> Any:
    """A JSON file, at most ``max_log_bytes`` long."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return _parse(_read_bounded(handle, path), path)
    except OSError as error:
        raise _open_error(path, error) from None


def read_log(path: str | Path) -> Any:
    """The log document in a file: an exported log, or a session file's log
    (whatever it holds; ``verify`` judges it)."""
    return _log_of(read_json(path))


def parse_log(data: bytes, name: str = "the log") -> Any:
    """The log document in ``data``, a file's bytes given by other means than
    its path (``name`` says what it is in a message), read as :func:`read_log`
    reads a file: at most ``max_log_bytes``, an exported log or a session file."""
    _check_size(data, name)
    return _log_of(_parse(data, name))


def _log_of(data: Any) -> Any:
    if isinstance(data, dict) and data.get("format") == SESSION_FORMAT:
        return data.get("log")
    return data


def _session(data: Any, path: Path) -> Session:
    if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
        hint = "an exported log is for 'fudgedice verify'" if _is_log(data) else None
        raise DiceValueError(f"{path} is not a fudgedice session file", hint=hint)
    try:
        return Session.from_state(data)
    except DiceValueError as error:
        raise DiceValueError(f"{path}: {error.message}") from None


def _is_log(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") in FORMATS


def load(path: str | Path) -> Session:
    """The session kept in a file."""
    path = Path(path)
    return _session(read_json(path), path)


_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""JSON with no spaces, made once: a session file writes every entry anew."""


def log_text(document: dict[str, Any]) -> str:
    """A log document as JSON with one entry a line: for people to read, for
    ``diff`` to compare; any JSON reader reads it."""
    compact = _compact
    fields = [
        f"{compact(key)}:{compact(value)}" for key, value in document.items() if key != "entries"
    ]
    entries = ",\n".join(compact(entry) for entry in document.get("entries", []))
    return "{" + ",\n".join(fields) + ',\n"entries":[\n' + entries + "\n]}\n"


def _encoded(session: Session) -> bytes:
    state = session.state()
    log = log_text(state.pop("log"))
    private = json.dumps({"format": SESSION_FORMAT, **state}, ensure_ascii=False)
    # the private fields first, then the log, whose entries keep one line each
    return (private[:-1] + ',\n"log":' + log.rstrip("\n") + "}\n").encode("utf-8")


def create(path: str | Path, session: Session) -> None:
    """Write a new session file; an existing file is never replaced."""
    path = Path(path)
    try:
        write_atomically(path, _encoded(session), new=True)
    except FileExistsError:
        raise DiceValueError(
            f"{path} exists: a session file is never overwritten",
            hint="choose another file name, or remove the old session yourself",
        ) from None
    except OSError as error:
        raise DiceValueError(f"can't write {path}: {error.strerror or error}") from None


@contextlib.contextmanager
def updating(path: str | Path) -> Iterator[Session]:
    """The session in ``path``, locked against other writers, and written back
    atomically when the block ends without an error."""
    path = Path(path)
    try:
        with _locked(path) as handle:
            session = _session(_parse(_read_bounded(handle, path), path), path)
            yield session
            write_atomically(path, _encoded(session))
    except OSError as error:
        raise DiceValueError(f"can't update {path}: {error.strerror or error}") from None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[Any]:
    """The file open and locked; if another writer replaced it while this one
    waited for the lock, the new file is opened and locked instead."""
    while True:
        handle = path.open("rb")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            if os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino:
                yield handle
                return
        finally:
            handle.close()  # closing releases the lock
