"""The game systems: each module registers its ``name:`` prefix, its words
and its tables with the engine when it is loaded.

* :mod:`.fudge`: ``fudge:`` (the default) and ``power:``;
* :mod:`.fudge3d6`: ``3d6fudge:``;
* :mod:`.d6`: ``d6:``, the D6 System.
"""

from __future__ import annotations

_loaded = False


def load() -> None:
    """Register every system (once); cheap to call again."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import d6, fudge, fudge3d6  # noqa: F401 - imported to register
