"""fudgedice.records.dataclass, held to the standard decorator: each class
below is made by both, and every instance behaves alike (construction,
defaults, equality, hashing, repr, freezing, replace, pickling, matching)."""

from __future__ import annotations

import copy
import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from fudgedice import records

Decorator = Callable[..., Any]


def _point(decorator: Decorator, **options: Any) -> Any:
    @decorator(**options)
    class Point:
        """A point."""

        x: int
        y: int = 0
        label: str = dataclasses.field(default="", compare=False, repr=False)
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
        norm: int = dataclasses.field(init=False, repr=False, compare=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "norm", abs(self.x) + abs(self.y))

    return Point


def _bare(decorator: Decorator, **options: Any) -> Any:
    @decorator(**options)
    class Bare:
        value: int
        other: str | None = None

    return Bare


def _own_hash(decorator: Decorator, **options: Any) -> Any:
    @decorator(**options)
    class Keyed:
        """Hashes once, as tree.Pool does."""

        a: int
        b: int = dataclasses.field(default=0, compare=False)

        def __hash__(self) -> int:
            return 7

    return Keyed


def _own_eq(decorator: Decorator, **options: Any) -> Any:
    @decorator(**options)
    class Loose:
        """Equal to everything of its class, unhashable, as exact.odds.Odds."""

        a: int

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Loose)

        __hash__ = None  # type: ignore[assignment]

    return Loose


OPTIONS = [
    {"frozen": True, "slots": True},
    {"frozen": True},
    {"slots": True},
    {},
    {"eq": False},
    {"frozen": True, "eq": False},
    {"slots": True, "repr": False},
]
MAKERS = [_point, _bare, _own_hash, _own_eq]


def _args(maker: Callable[..., Any]) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    if maker is _point:
        return [((1,), {}), ((1, 2), {"label": "p"}), ((3,), {"y": -4, "tags": ("a",)})]
    if maker is _bare:
        return [((5,), {}), ((5, "x"), {}), ((), {"value": 6, "other": None})]
    return [((1,), {}), ((2,), {})]


def _outcome(action: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("value", action())
    except Exception as error:  # the same error, of the same type, is the point
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@pytest.mark.parametrize("maker", MAKERS, ids=lambda maker: maker.__name__)
def test_every_method_behaves_as_the_standard_ones(
    maker: Callable[..., Any], options: dict[str, Any]
) -> None:
    standard: Any = maker(dataclasses.dataclass, **options)
    ours: Any = maker(records.dataclass, **options)
    assert hasattr(ours, "__dataclass_fields__")  # what is_dataclass reads
    assert [(f.name, f.init, f.repr, f.compare) for f in dataclasses.fields(ours)] == [
        (f.name, f.init, f.repr, f.compare) for f in dataclasses.fields(standard)
    ]
    assert ours.__match_args__ == standard.__match_args__
    assert ours.__doc__ == standard.__doc__
    assert hasattr(ours, "__slots__") == hasattr(standard, "__slots__")
    assert (ours.__hash__ is None) == (standard.__hash__ is None)
    cases = _args(maker)
    for args, kwargs in cases:
        a, b = ours(*args, **kwargs), standard(*args, **kwargs)
        # the fields shown (or object's own repr, but for its address)
        shown = [repr(x).split(" at 0x")[0] for x in (a, b)]
        assert shown[0] == shown[1]
        assert dataclasses.asdict(a) == dataclasses.asdict(b)
        for name in ("x", "label", "value", "norm", "zzz"):
            # a field: the same error; any other name: refused alike (3.11's own
            # frozen slotted classes raise a TypeError there, by a bug of theirs)
            fresh = [(made(*args, **kwargs), made(*args, **kwargs)) for made in (ours, standard)]
            setting = [_outcome(lambda: setattr(x, name, 1)) for x, _ in fresh]  # noqa: B023
            deleting = [_outcome(lambda: delattr(y, name)) for _, y in fresh]  # noqa: B023
            for one, other in (setting, deleting):
                if name in {f.name for f in dataclasses.fields(ours)}:
                    assert one == other
                else:
                    assert (one[0] == "value") == (other[0] == "value")
        if standard.__hash__ not in (None, object.__hash__):  # else no hash, or identity's
            assert hash(a) == hash(b)
        assert (ours.__hash__ is object.__hash__) == (standard.__hash__ is object.__hash__)
        if "frozen" in options or standard.__hash__ is not None:
            again = copy.deepcopy(a)  # through __getstate__, as pickle goes
            assert dataclasses.asdict(again) == dataclasses.asdict(a)
        first = dataclasses.fields(ours)[0].name
        changed = dataclasses.replace(a, **{first: 9})
        assert dataclasses.asdict(changed) == dataclasses.asdict(
            dataclasses.replace(b, **{first: 9})
        )
    for args_1, kwargs_1 in cases:
        for args_2, kwargs_2 in cases:
            ours_equal = ours(*args_1, **kwargs_1) == ours(*args_2, **kwargs_2)
            assert ours_equal == (standard(*args_1, **kwargs_1) == standard(*args_2, **kwargs_2))
    assert _outcome(lambda: ours())[0] == _outcome(lambda: standard())[0]
    assert str(inspect.signature(ours)) == str(inspect.signature(standard))
    assert ours(*cases[0][0], **cases[0][1]) != standard(*cases[0][0], **cases[0][1])


def test_frozen_messages_are_the_standard_ones() -> None:
    ours = _bare(records.dataclass, frozen=True, slots=True)(1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'value'"):
        ours.value = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'value'"):
        del ours.value


def test_a_recursive_repr_stops_as_the_standard_one_does() -> None:
    made = [_bare(decorator)(1) for decorator in (records.dataclass, dataclasses.dataclass)]
    for each in made:
        each.other = each
    assert repr(made[0]) == repr(made[1]) == "_bare.<locals>.Bare(value=1, other=...)"


def test_a_class_pattern_matches_its_fields() -> None:
    match _point(records.dataclass, frozen=True, slots=True)(3, 4):
        case point if point.norm == 7:
            matched = point
        case _:
            matched = None
    assert matched is not None and (matched.x, matched.y) == (3, 4)


def test_other_options_go_to_the_standard_decorator() -> None:
    ordered: Any = records.dataclass(order=True)(
        type("Ordered", (), {"__annotations__": {"a": "int"}})
    )
    assert ordered(1) < ordered(2)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((), {}), ((1, 2, 3, 4, 5), {}), ((1,), {"x": 2}), ((1,), {"nope": 2}), ((1,), {"norm": 3})],
)
def test_a_first_instance_is_refused_as_the_standard_refuses_it(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """The first instance is made without compiling: wrong arguments still get
    the standard __init__'s own TypeError."""
    ours: Any = _point(records.dataclass, frozen=True, slots=True)
    standard: Any = _point(dataclasses.dataclass, frozen=True, slots=True)
    assert _outcome(lambda: ours(*args, **kwargs)) == _outcome(lambda: standard(*args, **kwargs))


@pytest.mark.parametrize("frozen", [True, False])
def test_the_first_and_later_instances_are_made_alike(frozen: bool) -> None:
    ours: Any = _point(records.dataclass, frozen=frozen)
    standard: Any = _point(dataclasses.dataclass, frozen=frozen)
    for kwargs in ({"tags": ("a",)}, {"y": 2, "label": "l"}, {}):
        made = [ours(5, **kwargs), standard(5, **kwargs)]
        assert dataclasses.asdict(made[0]) == dataclasses.asdict(made[1])
        assert made[0].label == made[1].label
