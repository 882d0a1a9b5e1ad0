"""One budget of memory for every cache of the process.

The caches exist for speed (a parse tree, a pool's exact distribution, a
roll's kept outcomes), and each is bounded by count; but one entry may hold
a few bytes or forty megabytes (``10000dF``'s distribution), so a count alone
bounds nothing. Every cache here is a :class:`SizedCache`: each entry is
charged an estimate of the bytes it holds (:func:`estimate`: big integers by
their bit length, sequences by their items, a few levels deep), and all of
them share one :class:`Ledger`. When what they hold together passes the
ledger's limit, the entry used least recently, whichever cache holds it, is
dropped: one LRU over the whole process (CLOCK's approximation of it, whose
hit is one store: these caches serve every roll).

The ledger's limit is a share (:data:`CACHE_SHARE`) of the process's memory
ceiling, 512 MB by default: ``FUDGEDICE_MEMORY_MB`` in the environment, or
``fudgedice serve --memory``, sets another (:func:`set_ceiling`). The rest of
the ceiling is for the interpreter, the libraries, and the work requests do
while they run (each bounded by :mod:`fudgedice.limits`).

A cache dropped is only speed lost: the next request computes the entry again.
"""

from __future__ import annotations

import itertools
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from functools import update_wrapper
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, cast

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")

MB = 2**20
DEFAULT_CEILING = 512 * MB
"""The memory a process aims to stay under (its resident set), by default."""
CEILING_VARIABLE = "FUDGEDICE_MEMORY_MB"
"""The environment variable that sets another ceiling, in MiB."""
CACHE_SHARE = 0.25
"""What the caches may hold together, as a share of the ceiling (128 MB of
512): a server's own objects, a few requests under way (each may build an
answer of tens of MB before it is cached) and the allocator's slack take the rest."""
SMALLEST_CEILING = 32 * MB
"""A ceiling below this is taken as this: the interpreter alone needs about 20 MB."""

_TICKS = itertools.count()
"""When each entry was queued, across every cache (one clock for all)."""
VALUE, USED, QUEUED = 0, 2, 3
"""An entry's value, whether it was used since queued, and when it was queued."""


def ceiling_from_environment() -> int:
    """The ceiling ``FUDGEDICE_MEMORY_MB`` sets, else the default; a value
    that is not a whole number of MiB is ignored (a process never fails to
    start over it)."""
    given = os.environ.get(CEILING_VARIABLE, "").strip()
    if given.isdigit() and int(given) > 0:
        return max(int(given) * MB, SMALLEST_CEILING)
    return DEFAULT_CEILING


class Ledger:
    """The bytes every cache of the process holds, and the most they may."""

    def __init__(self, ceiling: int) -> None:
        self.caches: weakref.WeakSet[SizedCache[Any, Any]] = weakref.WeakSet()
        """Every cache alive (one a throwaway object made is forgotten with it)."""
        self.held = 0
        self.lock = threading.RLock()
        self.reserved: dict[str, int] = {}
        """Caches of a fixed count of entries whose size the limits bound
        (``functools.lru_cache`` on a hot path): the most each may hold, set
        aside from the share rather than counted entry by entry."""
        self.dropped = 0
        """Bytes of every entry dropped to fit, since the process began."""
        self.ceiling = ceiling
        self.limit = 0
        self.set_ceiling(ceiling)

    def set_ceiling(self, ceiling: int) -> None:
        """Aim the process at another ceiling; the caches shrink to fit at once."""
        with self.lock:
            self.ceiling = max(ceiling, SMALLEST_CEILING)
            share = int(self.ceiling * CACHE_SHARE)
            self.limit = max(share - sum(self.reserved.values()), share // 2)
            self.shrink()

    def reserve(self, name: str, most: int) -> None:
        """Set ``most`` bytes aside for the fixed cache called ``name``."""
        with self.lock:
            self.reserved[name] = most
            self.set_ceiling(self.ceiling)

    def shrink(self) -> None:
        """Drop the entries used least recently until the caches fit."""
        with self.lock:
            while self.held > self.limit and self._drop_oldest():
                pass

    def _drop_oldest(self) -> bool:
        """One turn of the clock over every cache: the entry queued longest,
        whichever cache holds it, is dropped, or queued again if it was used
        since (False: nothing left to drop)."""
        oldest: SizedCache[Any, Any] | None = None
        tick = -1
        for cache in list(self.caches):
            head = cache.oldest_tick()
            if head is not None and (oldest is None or head < tick):
                oldest, tick = cache, head
        if oldest is None:
            return False
        self.dropped += oldest.turn()
        return True

    def sizes(self) -> dict[str, tuple[int, int]]:
        """Each cache's entries and estimated bytes, by name (for reports)."""
        with self.lock:
            sizes: dict[str, tuple[int, int]] = {}
            for cache in list(self.caches):
                entries, held = sizes.get(cache.name, (0, 0))
                sizes[cache.name] = (entries + len(cache), held + cache.held)
            return sizes

    def release(self, account: list[int]) -> None:
        """A cache is gone: what it held is no longer held."""
        with self.lock:
            self.held -= account[0]


LEDGER = Ledger(ceiling_from_environment())
"""The one ledger of the process."""


def set_ceiling(megabytes: int) -> None:
    """Aim this process at a ceiling of ``megabytes`` MiB (``serve --memory``)."""
    LEDGER.set_ceiling(megabytes * MB)


def reserve(name: str, entries: int, entry_bytes: int) -> None:
    """Set aside what a fixed cache of ``entries`` entries of at most
    ``entry_bytes`` bytes each may hold (see :attr:`Ledger.reserved`)."""
    LEDGER.reserve(name, entries * entry_bytes)


class SizedCache(Generic[K, V]):
    """An LRU cache whose entries are charged to the :class:`Ledger` by the
    bytes they hold (``size`` of a value, else :func:`estimate`), and which
    keeps at most ``most`` entries besides. Safe to share between threads: a
    lookup is one dictionary read, and changes hold the ledger's lock."""

    def __init__(
        self,
        name: str,
        most: int,
        size: Callable[[V], int] | None = None,
        ledger: Ledger = LEDGER,
    ) -> None:
        self.name = name
        self.most = most
        self.size: Callable[[V], int] = size if size is not None else estimate
        self.ledger = ledger
        self._account = [0]
        """The bytes held, in a list the ledger is handed back when the cache goes."""
        self._data: OrderedDict[K, list[Any]] = OrderedDict()
        """key -> [value, bytes, used since queued, when queued], oldest first"""
        self.find: Callable[[K], list[Any] | None] = self._data.get
        """The entry of a key, or None: for a hot path, one call of C where
        :meth:`get` is one of Python. Its value is ``entry[VALUE]``, and a
        caller that uses it sets ``entry[USED] = True``."""
        with ledger.lock:
            ledger.caches.add(self)
        weakref.finalize(self, ledger.release, self._account)

    @property
    def held(self) -> int:
        """The estimated bytes of every entry."""
        return self._account[0]

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __getitem__(self, key: K) -> V:
        value: V = self._data[key][0]
        return value

    def get(self, key: K) -> V | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        entry[USED] = True  # one store: a hit neither reorders nor locks
        value: V = entry[VALUE]
        return value

    def put(self, key: K, value: V, size: int | None = None) -> V:
        """Keep ``value`` (unless it alone is more than the caches may hold),
        charged ``size`` bytes if given (a key that holds more than its value)."""
        if size is None:
            size = self.size(value)
        ledger = self.ledger
        if size > ledger.limit // 2:
            return value  # it would push out nearly everything else for one entry
        with ledger.lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._forget(old)
            self._data[key] = [value, size, False, next(_TICKS)]
            self._account[0] += size
            ledger.held += size
            while len(self._data) > self.most:
                self.turn()
            if ledger.held > ledger.limit:
                ledger.shrink()
        return value

    def discard(self, key: K) -> None:
        """Forget ``key``'s entry, if kept (a value that no longer holds)."""
        with self.ledger.lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._forget(old)

    def oldest_tick(self) -> int | None:
        """When the entry queued longest was queued (None: empty)."""
        for entry in self._data.values():
            tick: int = entry[QUEUED]
            return tick
        return None

    def turn(self) -> int:
        """The clock's hand on the entry queued longest: dropped if it was not
        used since it was queued (the bytes it held), else queued again as
        unused (0). Entries used again and again stay; the rest go in turn,
        the least recently used first (CLOCK, an LRU that costs a hit nothing)."""
        with self.ledger.lock:
            for key, entry in self._data.items():
                if entry[USED]:
                    entry[USED] = False
                    entry[QUEUED] = next(_TICKS)
                    self._data.move_to_end(key)
                    return 0
                del self._data[key]
                self._forget(entry)
                held: int = entry[1]
                return held
            return 0

    def _forget(self, entry: list[Any]) -> None:
        self._account[0] -= entry[1]
        self.ledger.held -= entry[1]

    def drop_where(self, test: Callable[[K, V], bool]) -> int:
        """Drop every entry whose key and value pass ``test`` (a walk of the
        whole cache: for what is rare, a room deleted); how many went."""
        with self.ledger.lock:
            gone = [key for key, entry in self._data.items() if test(key, entry[VALUE])]
            for key in gone:
                self._forget(self._data.pop(key))
        return len(gone)

    def clear(self) -> None:
        with self.ledger.lock:
            self.ledger.held -= self._account[0]
            self._account[0] = 0
            self._data.clear()


class Memoized(Protocol[P, R]):
    """A function whose results a :class:`SizedCache` keeps (:func:`memoize`)."""

    cache: SizedCache[Hashable, R]

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R: ...

    def cache_clear(self) -> None: ...


def memoize(
    name: str, most: int, size: Callable[[Any], int] | None = None
) -> Callable[[Callable[P, R]], Memoized[P, R]]:
    """``functools.lru_cache`` over a :class:`SizedCache` called ``name``:
    positional, hashable arguments; a call that raises keeps nothing."""

    def decorate(function: Callable[P, R]) -> Memoized[P, R]:
        cache: SizedCache[Hashable, R] = SizedCache(name, most, size)
        find, put = cache.find, cache.put

        # a function, not an object's __call__, and the hit written out: a
        # pool's plan and a text's program are looked up on every roll
        def memoized(*args: P.args, **kwargs: P.kwargs) -> R:
            if kwargs:  # the key is the positional arguments alone
                return function(*args, **kwargs)
            entry = find(args)
            if entry is not None:
                entry[USED] = True
                value: R = entry[VALUE]
                return value
            return put(args, function(*args, **kwargs))

        update_wrapper(memoized, function)
        wrapper = cast("Memoized[P, R]", memoized)
        wrapper.cache = cache
        wrapper.cache_clear = cache.clear  # type: ignore[method-assign]
        return wrapper

    return decorate


# ------------------------------------------------------------- what things hold
#
# CPython 3.11 on 64 bits: an object's header is 16 bytes, an int 24 bytes and
# 4 bytes for each 30-bit digit, a tuple 40 bytes and 8 a slot, a list 56 and
# 8 a slot (more while it grows), a str 49 bytes and one a character (ASCII).

INT = 28
"""An int of one digit; small ints (-5 to 256) are shared, counted all the same."""
DEPTH = 6
"""Levels :func:`estimate` looks into: deeper objects are counted as one of them."""


def ints(values: Iterable[int], length: int) -> int:
    """Bytes of ``length`` ints and the slots that hold them: one pass in C."""
    return length * (INT + 8) + sum(map(int.bit_length, values)) // 30 * 4


def estimate(value: Any, depth: int = DEPTH) -> int:
    """The bytes ``value`` holds, roughly (within a factor of two or so):
    cheap enough to run on every entry a cache keeps, which costs far more
    to compute. Objects seen twice are counted twice (an over-estimate)."""
    kind = type(value)  # exact types, not isinstance: a subclass may hold more
    if kind is int or kind is bool:
        return INT + int(value).bit_length() // 30 * 4
    if kind is str or kind is bytes:
        return 49 + len(value)
    if value is None or kind is float:
        return 24
    if kind is Fraction:
        return 56 + estimate(value.numerator) + estimate(value.denominator)
    if depth <= 0:
        return 64
    if kind is tuple or kind is list or kind is frozenset or kind is set:
        return 56 + _items(value, depth)
    if kind is dict:
        held = 232 + 24 * len(value)
        return held + _items(value.keys(), depth) + _items(value.values(), depth)
    if isinstance(value, tuple):  # a named tuple: its fields, of any kinds (no ints() first)
        return 56 + 8 * len(value) + sum(estimate(item, depth - 1) for item in value)
    return _fields(value, depth)


def _items(values: Any, depth: int) -> int:
    length = len(values)
    try:
        return ints(values, length)
    except TypeError:  # not all ints
        return 8 * length + sum(estimate(item, depth - 1) for item in values)


def _fields(value: object, depth: int) -> int:
    """An object's attributes (slots or a ``__dict__``), each a level deeper."""
    held = 48
    attributes = getattr(value, "__dict__", None)
    if attributes is not None:
        held += estimate(attributes, depth - 1)
    for kind in type(value).__mro__:
        slots = kind.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot.startswith("__"):  # __dict__, __weakref__
                continue
            field = getattr(value, slot, None)
            held += 8 if field is None else 8 + estimate(field, depth - 1)
    return held


__all__ = [
    "CACHE_SHARE",
    "CEILING_VARIABLE",
    "DEFAULT_CEILING",
    "LEDGER",
    "Ledger",
    "Memoized",
    "SizedCache",
    "ceiling_from_environment",
    "estimate",
    "memoize",
    "reserve",
    "set_ceiling",
]
