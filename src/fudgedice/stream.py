"""The dice stream: every die the project tosses comes from here.

A stream is a key (bytes) and a context (text). Block ``i`` is
HMAC-SHA256(key, UTF-8(context) + ``:`` + decimal(i)); the blocks, one after
another, are read as unsigned 32-bit big-endian words u0, u1, ...; a draw
below ``n`` takes the next word ``u`` and, if ``u < 2**32 - 2**32 % n``,
returns ``u % n``, otherwise discards it and takes the next (no bias).

The same key and context give the same draws on every machine, in every
Python and in any other language: docs/fairness.md restates the rule with
test vectors. This module imports nothing of the project, so anything may use
it (a table server rolling a room's nonce included).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _hashlib import HASH
    from hashlib import sha256 as _builtin_sha256
else:
    try:
        from _sha2 import sha256 as _builtin_sha256  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256 as _builtin_sha256  # Python 3.11
        except ImportError:  # an interpreter built without it
            from hashlib import sha256 as _builtin_sha256

_OPENSSL_AFTER = 256
"""Blocks hashed with the interpreter's own SHA-256 before OpenSSL's takes over."""
_builtin_blocks = 0


def _starting_sha256(data: bytes) -> HASH:
    """SHA-256 of ``data`` (the same digest either way), by the interpreter's own
    code for a process's first blocks, then by OpenSSL's. Loading ``hashlib``
    (OpenSSL's library) costs about 4 ms, which a command that starts would pay to
    hash one or two blocks; but OpenSSL hashes a block faster, a few percent of a
    roll, so a process that rolls on loads it and calls it directly from then on."""
    global _builtin_blocks, _sha256
    _builtin_blocks += 1
    if _builtin_blocks >= _OPENSSL_AFTER:
        import hashlib  # here: see above

        _sha256 = hashlib.sha256
    return _builtin_sha256(data)


_sha256: Callable[[bytes], HASH] = _starting_sha256
"""The SHA-256 every hash of the stream calls (see :func:`_starting_sha256`)."""

WORD_RANGE = 2**32
"""Draws are taken from 32-bit words: a die has at most this many sides."""

_WORDS_PER_BLOCK = 8
_unpack_block = struct.Struct(">8I").unpack
"""One HMAC-SHA256 block as its eight big-endian 32-bit words."""

_HMAC_BLOCK = 64
_INNER = bytes(byte ^ 0x36 for byte in range(256))
_OUTER = bytes(byte ^ 0x5C for byte in range(256))
"""HMAC's ipad and opad, as tables for ``bytes.translate``."""

_BLOCK_NUMBERS = [str(block).encode("ascii") for block in range(64)]
"""The first blocks' numbers as the message writes them (a roll needs block 0)."""

SERVER_SEED_BYTES = 32
"""A fresh key or a room's server seed: 32 bytes from the operating system."""


class Stream:
    """Draws from one key and context, in order, each exactly once.

    Blocks are computed one at a time as draws need them (a 3d6 roll costs one
    HMAC), and kept as their eight words, so no draw calls HMAC itself.
    """

    __slots__ = ("_block", "_inner", "_next", "_outer", "_prefix", "_words", "context")

    def __init__(self, key: bytes, context: str = "") -> None:
        if not isinstance(key, bytes | bytearray):
            raise TypeError(f"a stream's key is bytes, not {type(key).__name__}")
        if not isinstance(context, str):
            raise TypeError(f"a stream's context is text, not {type(context).__name__}")
        if len(key) > _HMAC_BLOCK:
            key = _sha256(key).digest()  # HMAC's rule for long keys
        padded = bytes(key).ljust(_HMAC_BLOCK, b"\0")
        # HMAC written out (RFC 2104) with the key's pads made once: a roll
        # costs one HMAC, and this is a third cheaper than hmac.digest's setup.
        self._inner = padded.translate(_INNER)
        self._outer = padded.translate(_OUTER)
        self.context = context
        self._prefix = context.encode("utf-8") + b":"
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._next = _WORDS_PER_BLOCK

    def _refill(self) -> tuple[int, ...]:
        """The next block's eight words, which the next draws read."""
        block = self._block
        message = self._prefix + (
            _BLOCK_NUMBERS[block] if block < 64 else str(block).encode("ascii")
        )
        inner = _sha256(self._inner + message).digest()
        self._words = _unpack_block(_sha256(self._outer + inner).digest())
        self._block = block + 1
        self._next = 0
        return self._words

    def word(self) -> int:
        """The next unsigned 32-bit word of the stream."""
        if self._next == _WORDS_PER_BLOCK:
            self._refill()
        index = self._next
        self._next = index + 1
        return self._words[index]

    def below(self, n: int) -> int:
        """A uniform draw in ``[0, n)``: the next word that falls below the
        largest multiple of ``n`` at most 2**32, taken modulo ``n``."""
        if not 1 <= n <= WORD_RANGE:
            raise ValueError(f"a draw is below 1..2**32, not {n}")
        limit = WORD_RANGE - WORD_RANGE % n
        while True:
            if self._next == _WORDS_PER_BLOCK:
                self._refill()
            drawn = self._words[self._next]
            self._next += 1
            if drawn < limit:
                return drawn % n

    def draws(self, n: int, count: int) -> list[int]:
        """``count`` draws below ``n``: the same as calling :meth:`below`
        ``count`` times, in one loop (a pool of plain dice)."""
        if not 1 <= n <= WORD_RANGE:
            raise ValueError(f"a draw is below 1..2**32, not {n}")
        limit = WORD_RANGE - WORD_RANGE % n
        words, index = self._words, self._next
        if index == _WORDS_PER_BLOCK and 0 < count <= _WORDS_PER_BLOCK:
            words, index = self._refill(), 0
        end = index + count
        if end <= _WORDS_PER_BLOCK:
            # the words of one block, none discarded: a small pool's draws
            # nearly always (one word in a billion is discarded for a d6)
            taken = words[index:end]
            if max(taken, default=0) < limit:
                self._next = end
                return [word % n for word in taken]
        drawn: list[int] = []
        while len(drawn) < count:
            if index == _WORDS_PER_BLOCK:
                words, index = self._refill(), 0
            word = words[index]
            index += 1
            if word < limit:
                drawn.append(word % n)
        self._next = index
        return drawn

    def mark(self) -> Position:
        """Where the stream stands: :meth:`rewound` starts a copy there."""
        return (self._block, self._words, self._next)

    def rewound(self, mark: Position, kind: type[S]) -> S:
        """A new stream of ``kind`` (Stream or a subclass), of the same key and
        context, standing at ``mark``: it draws what this one drew from
        there, and this one is left as it is."""
        copy = _new_stream(kind)
        copy._inner, copy._outer = self._inner, self._outer
        copy.context, copy._prefix = self.context, self._prefix
        copy._block, copy._words, copy._next = mark
        return copy

    def follow(self, other: Stream) -> None:
        """Stand where ``other`` (a rewound copy) stands now."""
        self._block, self._words, self._next = other._block, other._words, other._next


Position = tuple[int, tuple[int, ...], int]
"""A stream's position: the next block, the current block's words, the next word."""
S = TypeVar("S", bound=Stream)


def seed_key(seed: int | str) -> bytes:
    """The key of a roll with ``seed``: the UTF-8 bytes of a word, or of a
    whole number written in decimal (``7`` and ``"7"`` are the same seed)."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError(f"a seed is a whole number or text, not {type(seed).__name__}")
    return str(seed).encode("utf-8") if isinstance(seed, int) else seed.encode("utf-8")


def seeded(seed: int | str) -> Stream:
    """The stream of a roll with ``seed``: its key, the empty context."""
    return Stream(seed_key(seed))


def fresh() -> Stream:
    """The stream of a roll with no seed: 32 fresh bytes from the operating
    system, the empty context."""
    # Stream(os.urandom(32)) without its checks: the key is known to be 32
    # bytes, and every unseeded roll pays for this (a tenth of a plain roll)
    stream = _new_stream(Stream)
    key = _urandom(SERVER_SEED_BYTES)
    stream._inner = key.translate(_INNER) + _INNER_PADDING
    stream._outer = key.translate(_OUTER) + _OUTER_PADDING
    stream.context = ""
    stream._prefix = b":"
    stream._block = 0
    stream._words = ()
    stream._next = _WORDS_PER_BLOCK
    return stream


def fresh_start() -> tuple[bytes, tuple[int, ...]]:
    """A fresh key (32 bytes from the operating system) and the first eight
    words of its stream, the empty context: what ``Stream(key)`` reads first,
    for a roll whose draws all lie in that block (it builds the stream only
    if it needs more)."""
    key = _urandom(SERVER_SEED_BYTES)
    # the key's pads: the padding's zeros XORed are constants, made once
    inner = _sha256(key.translate(_INNER) + _INNER_FIRST).digest()
    return key, _unpack_block(_sha256(key.translate(_OUTER) + _OUTER_PADDING + inner).digest())


_new_stream = object.__new__
_urandom = os.urandom
_INNER_PADDING = bytes(_HMAC_BLOCK - SERVER_SEED_BYTES).translate(_INNER)
"""The zeros that pad a fresh key to HMAC's block, XORed into its inner pad."""
_OUTER_PADDING = bytes(_HMAC_BLOCK - SERVER_SEED_BYTES).translate(_OUTER)
_INNER_FIRST = _INNER_PADDING + b":0"
"""The inner pad's padding and the empty context's first block, ``:0``."""


def room_context(room: str, client_seed: str, nonce: int) -> str:
    """``ROOM:CLIENT_SEED:NONCE``, the context of a roll at a table under
    version 1 of the stream (one nonce counter for the whole room): logs
    written with it still verify."""
    return f"{room}:{client_seed}:{_checked_nonce(nonce)}"


def member_context(room: str, member: str, client_seed: str, nonce: int) -> str:
    """``ROOM:MEMBER:CLIENT_SEED:NONCE``, the context of a roll at a table
    under version 2: the roller's member id is in it, so that no member's
    draws are another's, and the nonce counts that member's draws alone."""
    if not member or ":" in member:
        # the client seed is free text: a member id with a ':' could read as
        # another member's id followed by another client seed
        raise ValueError(f"a member id is non-empty and has no ':', not {member!r}")
    return f"{room}:{member}:{client_seed}:{_checked_nonce(nonce)}"


def _checked_nonce(nonce: int) -> int:
    if isinstance(nonce, bool) or not isinstance(nonce, int) or nonce < 0:
        raise ValueError(f"a nonce is a whole number >= 0, not {nonce!r}")
    return nonce


def room_stream(
    server_seed: bytes, room: str, client_seed: str, nonce: int, member: str | None = None
) -> Stream:
    """The stream of a roll at a table: the room's server seed as the key;
    the room, the roller's member id (version 2; None: version 1), client
    seed and the roll's nonce as the context."""
    if member is None:
        return Stream(server_seed, room_context(room, client_seed, nonce))
    return Stream(server_seed, member_context(room, member, client_seed, nonce))


def new_server_seed() -> bytes:
    """A server seed for a room or a session: 32 bytes from the operating system."""
    # os.urandom is what secrets.token_bytes reads; importing secrets costs every
    # command that starts its random, base64 and hmac modules
    return os.urandom(SERVER_SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """What is published before play: SHA-256 of the server seed, in hex."""
    return _sha256(server_seed).hexdigest()
