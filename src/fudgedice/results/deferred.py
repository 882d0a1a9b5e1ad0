"""A roll whose dice records are built only when someone reads them.

Most rolls are asked for their total, their result and their text alone. A
:class:`DeferredRoll` holds those (worked out once per outcome, see
:mod:`fudgedice.dice.quick`) and a way to build the rest: the first read of
``parts``, ``steps``, ``events``, ``sides`` or ``details`` (or of anything that
needs them: ``dice``, ``to_dict()``, the HTML) rolls the same draws again
through the one general path and fills them in, so the roll is then the very
roll that path would have returned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .roll import Roll

_DEFERRED = {name: Roll.__dict__[name] for name in ("parts", "events", "steps", "sides", "details")}
"""The fields left empty until read, with the slots that hold them."""
_COMPARED = tuple(field.name for field in fields(Roll) if field.compare)
_FILLED_BY_US = ("_expand", "_head", "_replay", "_text")


class DeferredRoll(Roll):
    """A :class:`Roll` whose dice records wait until they are read."""

    __slots__ = _FILLED_BY_US

    _expand: Callable[..., Roll] | None
    """Makes the same roll by the general path, from :attr:`_replay` (None
    once the records are filled in)."""
    _replay: tuple[Any, ...]
    _text: str | None
    """The explanation, as the general path writes it for this outcome."""
    _head: tuple[Any, ...]
    """What the explanation's head line read when it was written: the text is
    written again by the renderer if any of it has changed since."""

    def __getattr__(self, name: str) -> Any:
        # called only when a slot is empty: a deferred field not read yet
        slot = _DEFERRED.get(name)
        if slot is None:
            if name in _FILLED_BY_US:
                return None  # a DeferredRoll made by Roll's own __init__ (replace())
            raise AttributeError(name)
        self._fill()
        return slot.__get__(self)

    def _fill(self) -> None:
        expand = self._expand
        if expand is None:
            raise AttributeError("a deferred roll without its dice")
        full = expand(*self._replay)
        for slot in _DEFERRED.values():
            try:
                slot.__get__(self)
            except AttributeError:
                slot.__set__(self, slot.__get__(full))
        # the records can be changed from now on: the renderer writes the text
        self._expand = None
        self._text = None

    def _shown(self) -> tuple[Any, ...]:
        """What the head line of the explanation reads."""
        return (self.notation, self.total, self.result, self.label, self.title, self.quick_read)

    @property
    def text(self) -> str:
        """The explanation: each die as it came up and what happened to it."""
        written = self._text
        if written is not None and self._head == self._shown():
            return written
        rendered: str = Roll.text.__get__(self)
        return rendered

    def __eq__(self, other: object) -> bool:
        # a deferred roll equals the general path's roll of the same dice
        if not isinstance(other, Roll):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _COMPARED)

    __hash__ = None  # type: ignore[assignment]
