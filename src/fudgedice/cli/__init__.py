"""The ``fudgedice`` command line: the console script (:mod:`.entry`), which
answers a plain ``roll``/``odds`` without click (:mod:`.quick`) and gives every
other command line to the click commands (:mod:`.commands`).

Importing this package imports nothing else: the console script's quick way
starts without click. ``fudgedice.cli.main``, the click group, is imported when
first named (PEP 562)."""

from __future__ import annotations

from .. import TYPE_CHECKING

if TYPE_CHECKING:
    from .commands import main as main


def __getattr__(name: str) -> object:
    if name == "main":  # the click group: click and every command's options load here
        from .commands import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
