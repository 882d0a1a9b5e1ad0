"""What the Python API accepts: each value passed in is checked here, so a
value of the wrong kind is the project's own error that names it, never a
TypeError from deep inside."""

from __future__ import annotations

from .errors import DiceTypeError, DiceValueError

_FACE_CHARACTERS = 64
"""Characters in one face read by hand; the longest real face is ``cp6``."""


def _kind(value: object) -> str:
    return "None" if value is None else type(value).__name__


def text(value: object, what: str = "a roll", example: str = "4dF+1") -> str:
    """A roll (or a table's name) is text: ``"4dF+1"``."""
    if not isinstance(value, str):
        raise DiceTypeError(f"{what} is text, such as '{example}', not {_kind(value)}")
    return value


SEED_CHARACTERS = 1000
"""Characters (or decimal digits) in a seed: its UTF-8 bytes are the dice
stream's key, so a seed must be text that UTF-8 can write, of bounded length."""


def seed(value: object) -> int | str | None:
    """A seed is a whole number or a word (or None for fresh dice)."""
    if value is None:
        return value
    if isinstance(value, str):
        if len(value) > SEED_CHARACTERS:
            raise DiceValueError(
                f"a seed of {len(value):,} characters is too long (the limit is {SEED_CHARACTERS})"
            )
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise DiceValueError(
                "a seed is text that UTF-8 can write (no lone surrogates)"
            ) from None
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        # 3322 bits is just over 1000 decimal digits; checked before any digit is written
        if value.bit_length() > 3322 or len(str(value).lstrip("-")) > SEED_CHARACTERS:
            raise DiceValueError(f"a seed has at most {SEED_CHARACTERS} digits")
        return value
    raise DiceTypeError(f"a seed is a whole number or a word, not {_kind(value)}")


def count(value: object, what: str) -> int:
    """A count of things: a whole number >= 0 (True is not 1 here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise DiceTypeError(f"{what} is a whole number, not {_kind(value)}")
    if value < 0:
        raise DiceValueError(f"{what} is a whole number >= 0, not {value}")
    return value


def flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise DiceTypeError(f"{what} is True or False, not {_kind(value)}")
    return value


def faces(value: object) -> list[str]:
    """Dice read by hand: one text ("+ + - 0") or a sequence of faces, each
    written as text or as a whole number."""
    if isinstance(value, str):
        written = value.split()
    elif isinstance(value, (list, tuple)):
        written = []
        for face in value:
            if isinstance(face, bool) or not isinstance(face, (str, int)):
                raise DiceTypeError(
                    f"a face is written as text or a whole number, not {_kind(face)}"
                )
            written.append(str(face) if isinstance(face, str) else f"{face:d}")
    else:
        raise DiceTypeError(
            f"the dice read by hand are one text or a list of faces, not {_kind(value)}"
        )
    for face in written:
        if len(face) > _FACE_CHARACTERS:
            raise DiceValueError(
                f"a face of {len(face)} characters is no face (the limit is {_FACE_CHARACTERS})"
            )
    return written
