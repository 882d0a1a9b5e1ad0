"""Writing a file whole or not at all: what session logs, exported documents
and character sheets are saved with.

The data goes to a temporary file in the same folder, is flushed to the
disk, and replaces the file in one rename: a crash leaves the old file or
the new one, never half of either. The rename is then made durable by
syncing the folder.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

OWNER_ONLY = 0o600
"""A new file's permission bits unless told otherwise: a session file holds a
secret seed until its reveal."""


def write_atomically(path: Path, data: bytes, *, new: bool = False, mode: int = OWNER_ONLY) -> None:
    """``data`` in ``path`` whole or not at all, with permission bits
    ``mode``; with ``new``, never over a file that exists (FileExistsError).
    Raises OSError when the folder can't take the file."""
    folder = path.parent if str(path.parent) else Path(".")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        if mode != OWNER_ONLY:  # mkstemp makes the file owner-only
            os.fchmod(descriptor, mode)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if new:
            os.link(temporary, path)  # fails if the path exists: nothing is overwritten
            os.unlink(temporary)
        else:
            os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a platform that can't open a
    folder has nothing to sync."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
