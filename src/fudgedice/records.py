"""``dataclass``, as :mod:`dataclasses` makes it, at a fraction of the cost of
defining one.

A command that starts defines some seventy dataclasses. The standard
decorator compiles the source of five or six methods for each (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, a frozen class's ``__setattr__`` and
``__delattr__``): about a millisecond a class, most of a roll's start-up.
This one lets :mod:`dataclasses` read the fields (so ``fields``, ``replace``,
``asdict`` and ``__match_args__`` are the standard ones) but compiles nothing
when the class is defined: equality, hashing, ``repr`` and freezing are
shared functions over the field names, and ``__init__`` is the standard one,
made on the class's first instance (most classes a command defines it never
makes). Type checkers read the standard decorator (below), and
``tests/test_records.py`` holds every method to the standard one's behaviour.
"""

from __future__ import annotations

import dataclasses as _dataclasses
from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
    from dataclasses import field as field
else:
    field = _dataclasses.field

__all__ = ["dataclass", "field"]

_SUPPORTED = frozenset({"frozen", "slots", "eq", "repr"})
"""The options read here; any other goes to the standard decorator."""


def _install(cls: type, name: str, value: object) -> None:
    """Sets a method on a class (the standard decorator's way, after it is made)."""
    setattr(cls, name, value)


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an instance's values of ``names`` as a tuple (what the
    standard ``__eq__`` and ``__hash__`` compare and hash)."""
    if len(names) >= 2:
        return attrgetter(*names)  # a tuple for two names or more
    if len(names) == 1:
        single = attrgetter(names[0])
        return lambda instance: (single(instance),)
    return lambda instance: ()


def _lazy_init(cls: type, frozen: bool) -> Callable[..., None]:
    """``__init__`` until the class's second instance: the first (often the only
    one, a module's constant) has its fields set one by one, as the standard
    ``__init__`` would set them; the second compiles the standard one."""
    made = False

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal made
        values = None if made else _bound(cls, args, kwargs)
        if values is None:  # the second instance, or arguments to refuse as the standard does
            standard = _init(cls, frozen)
            _install(cls, "__init__", standard)
            standard(self, *args, **kwargs)
            return
        made = True
        for name, value in values.items():
            if frozen:
                object.__setattr__(self, name, value)
            else:
                setattr(self, name, value)
        if hasattr(cls, "__post_init__"):
            self.__post_init__()

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _bound(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any] | None:
    """Every field's value, in order, as the standard ``__init__`` would set it
    from these arguments; None if it would refuse them (it says why itself)."""
    fields = _dataclasses.fields(cls)
    positional = [each for each in fields if each.init and each.kw_only is not True]
    names = {each.name for each in fields if each.init}
    if len(args) > len(positional) or not kwargs.keys() <= names:
        return None
    given = {each.name: value for each, value in zip(positional, args, strict=False)}
    if given.keys() & kwargs.keys():
        return None
    given.update(kwargs)
    values: dict[str, Any] = {}
    for each in fields:
        if each.init and each.name in given:
            values[each.name] = given[each.name]
        elif each.default_factory is not _dataclasses.MISSING:
            values[each.name] = each.default_factory()
        elif each.default is not _dataclasses.MISSING:
            values[each.name] = each.default
        elif each.init:
            return None  # a required argument missing
    return values


_FACTORY = _dataclasses._HAS_DEFAULT_FACTORY  # type: ignore[attr-defined]
"""The standard ``__init__``'s mark of an argument left to its default factory."""


def _init(cls: type, frozen: bool) -> Callable[..., None]:
    """The standard ``__init__`` of ``cls``: its source as :mod:`dataclasses`
    writes it (positional fields, then keyword-only ones; defaults; default
    factories; fields outside ``__init__`` set from their defaults; a frozen
    class's fields set through ``object.__setattr__``; ``__post_init__``)."""
    names: dict[str, Any] = {"_FACTORY": _FACTORY, "_object": object}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    annotations: dict[str, Any] = {}
    for each in _dataclasses.fields(cls):
        default = f"_default_{each.name}"
        if each.default_factory is not _dataclasses.MISSING:
            names[default] = each.default_factory
            value = (
                f"{default}() if {each.name} is _FACTORY else {each.name}"
                if each.init
                else f"{default}()"
            )
            parameter = f"{each.name}=_FACTORY"
        elif each.default is not _dataclasses.MISSING:
            names[default] = each.default
            value = each.name if each.init else default
            parameter = f"{each.name}={default}"
        else:
            value = each.name
            parameter = each.name
        if each.init:
            (keywords if each.kw_only is True else positional).append(parameter)
            annotations[each.name] = each.type
        elif value == each.name:
            continue  # outside __init__, with no default: left unset
        slot = getattr(cls, each.name, None)
        if frozen and type(slot) is MemberDescriptorType:
            # the slot's own setter: what object.__setattr__ finds and calls,
            # without looking it up again for every field of every instance
            names[f"_set_{each.name}"] = slot.__set__
            body.append(f"    _set_{each.name}(self, {value})")
        elif frozen:
            body.append(f"    _object.__setattr__(self, {each.name!r}, {value})")
        else:
            body.append(f"    self.{each.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    parameters = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = f"def __init__({parameters}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, names)  # the source is made above, of field names alone
    made: Callable[..., None] = names["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    made.__annotations__ = {**annotations, "return": None}
    return made


def _frozen(cls: type, names: frozenset[str]) -> None:
    """The standard frozen ``__setattr__`` and ``__delattr__``."""
    owner: Any = cls

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    for function in (__setattr__, __delattr__):
        if function.__name__ in cls.__dict__:
            raise TypeError(
                f"Cannot overwrite attribute {function.__name__} in class {cls.__name__}"
            )
        function.__qualname__ = f"{cls.__qualname__}.{function.__name__}"
        _install(cls, function.__name__, function)


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, each.name) for each in _dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for each, value in zip(_dataclasses.fields(self), state, strict=False):
        object.__setattr__(self, each.name, value)


def _make(cls: type, frozen: bool, slots: bool, eq: bool, repr: bool) -> type:
    own_hash = cls.__dict__.get("__hash__", _dataclasses.MISSING)
    explicit_hash = not (
        own_hash is _dataclasses.MISSING or (own_hash is None and "__eq__" in cls.__dict__)
    )
    undocumented = not cls.__doc__
    if undocumented:
        cls.__doc__ = "-"  # spares the standard decorator's inspect.signature
    made: type = _dataclasses.dataclass(
        cls, init=False, repr=False, eq=False, frozen=False, slots=slots
    )
    fields = _dataclasses.fields(made)
    if undocumented:
        made.__doc__ = (
            f"{made.__name__}({', '.join(_signature(each) for each in fields if each.init)})"
        )
    if "__init__" not in made.__dict__:
        _install(made, "__init__", _lazy_init(made, frozen))
    if repr and "__repr__" not in made.__dict__:
        shown = tuple(each.name for each in fields if each.repr)

        @recursive_repr()
        def __repr__(self: Any) -> str:
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
            return f"{self.__class__.__qualname__}({inner})"

        __repr__.__qualname__ = f"{made.__qualname__}.__repr__"
        _install(made, "__repr__", __repr__)
    compared = _values(tuple(each.name for each in fields if each.compare))
    if eq and "__eq__" not in made.__dict__:

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented

        __eq__.__qualname__ = f"{made.__qualname__}.__eq__"
        _install(made, "__eq__", __eq__)
    if eq and not explicit_hash:
        if frozen:
            hashed = _values(
                tuple(
                    each.name
                    for each in fields
                    if (each.compare if each.hash is None else each.hash)
                )
            )

            def __hash__(self: Any) -> int:
                return hash(hashed(self))

            __hash__.__qualname__ = f"{made.__qualname__}.__hash__"
            _install(made, "__hash__", __hash__)
        else:
            _install(made, "__hash__", None)
    if frozen:
        _frozen(made, frozenset(each.name for each in fields))
        if slots:
            _install(made, "__getstate__", _getstate)
            _install(made, "__setstate__", _setstate)
    return made


def _signature(each: _dataclasses.Field[Any]) -> str:
    """A field as the standard decorator's docstring of an undocumented class
    shows it: ``value: 'int'``, ``= 0`` or ``= <factory>`` after a default."""
    text = f"{each.name}: {each.type!r}"
    if each.default is not _dataclasses.MISSING:
        text += f" = {each.default!r}"
    elif each.default_factory is not _dataclasses.MISSING:
        text += " = <factory>"
    return text


if not TYPE_CHECKING:

    def dataclass(cls=None, /, **options):
        """``dataclasses.dataclass``, compiling nothing when the class is defined."""
        if not options.keys() <= _SUPPORTED:
            return _dataclasses.dataclass(cls, **options)

        def wrap(each):
            return _make(
                each,
                frozen=options.get("frozen", False),
                slots=options.get("slots", False),
                eq=options.get("eq", True),
                repr=options.get("repr", True),
            )

        return wrap if cls is None else wrap(cls)
