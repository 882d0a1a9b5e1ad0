"""Mutations of valid rolls and of the faces given to ``read``.

Characters are inserted, deleted and replaced, with a bias towards the characters
of the language and towards their non-ASCII look-alikes (the Kelvin sign matches
``k`` in a case-insensitive regular expression, fullwidth digits pass ``isdigit``),
tokens are duplicated, swapped and dropped, and numbers are blown up.
"""

from __future__ import annotations

import random
import re

LANGUAGE = "0123456789dDfFkKhHlLrRoOpP!<>=@%.()+-*/#: \tvsopcw_"
"""Characters the grammar gives a meaning to."""

LOOKALIKES: dict[str, tuple[str, ...]] = {
    "k": ("\u212a",),  # KELVIN SIGN: lower() is 'k'
    "K": ("\u212a",),
    "d": ("\uff44", "\u0501"),  # fullwidth d, Cyrillic komi de
    "D": ("\uff24",),
    "f": ("\uff46", "\ufb00"),  # fullwidth f, the ff ligature
    "F": ("\uff26", "\u0192"),
    "s": ("\u017f",),  # LATIN SMALL LETTER LONG S: upper() is 'S'
    "i": ("\u0131", "\u0130"),  # dotless i; capital I with dot (lower() is two characters)
    "o": ("\u03bf", "\u043e"),
    "p": ("\u0440",),
    "h": ("\u04bb",),
    "l": ("\u217c",),  # SMALL ROMAN NUMERAL FIFTY
    "-": ("\u2212", "\u2013", "\u2010"),
    "+": ("\uff0b", "\u2795"),
    "*": ("\u00d7", "\u2217"),
    "/": ("\u2044", "\u00f7"),
    "!": ("\uff01", "\u01c3"),
    "=": ("\uff1d",),
    ">": ("\uff1e", "\u203a"),
    "<": ("\uff1c",),
    " ": ("\u00a0", "\u3000", "\u200b", "\n", "\r"),
    "%": ("\u066a", "\uff05"),
    "@": ("\uff20",),
    ":": ("\uff1a", "\u0589"),
    "#": ("\uff03",),
    "(": ("\uff08",),
    ")": ("\uff09",),
    ".": ("\u2024",),
}
for _digit in "0123456789":
    LOOKALIKES[_digit] = (
        chr(0xFF10 + int(_digit)),  # fullwidth digit: int() reads it
        chr(0x0660 + int(_digit)),  # Arabic-Indic digit: int() reads it
        chr(0x2070 + int(_digit)) if _digit not in "123" else "\u00b2",  # superscripts: isdigit
    )

ODD_CHARACTERS = ("\u00e9", "\u2713", "\U0001f3b2", "\x00", "\ufeff", "\\", "'", '"', "$", "~")

TOKEN = re.compile(r"[0-9]+|[A-Za-z_]+|\s+|.", re.DOTALL)
NUMBER = re.compile(r"[0-9]+")

HUGE = ("1" + "0" * 309, "9" * 400, str(2**63), str(2**64 + 1), "0" * 50 + "7", "10001")

WEIRD_FACES = (
    "",
    " ",
    "+",
    "-",
    "0",
    "o",
    "_",
    "p",
    "n",
    "w",
    "c",
    "opp",
    "OPP",
    "00",
    "000",
    "0",
    "7",
    "-1",
    "+1",
    "1.0",
    "1e3",
    "0x10",
    "\u00b2",  # isdigit, but int() refuses it
    "\u2082",  # subscript two: isdigit too
    "\uff16",  # fullwidth 6
    "\u0666",  # Arabic-Indic 6
    "\u216b",  # ROMAN NUMERAL TWELVE
    "w\uff16",
    "p\u00b2",
    "c\u2212",
    "ww6",
    "w-1",
    "c0",
    "p0",
    "n7",
    "6!",
    "6+6+2",
    "+ +",
    "1" + "0" * 309,
    "9" * 4301,
    "9" * 5000,
    "w" + "9" * 5000,
    "p" + "9" * 4400,
    "\u212a",
)


def mutate_text(rng: random.Random, text: str, donor: str = "") -> str:
    """One to three mutations of ``text``; ``donor`` is another roll to splice in."""
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        text = _MUTATIONS[rng.randrange(len(_MUTATIONS))](rng, text, donor)
    return text


def _character(rng: random.Random, near: str = "") -> str:
    roll = rng.random()
    if roll < 0.35 and near in LOOKALIKES:
        return rng.choice(LOOKALIKES[near])
    if roll < 0.55:
        key = rng.choice(sorted(LOOKALIKES))
        return rng.choice(LOOKALIKES[key])
    if roll < 0.9:
        return rng.choice(LANGUAGE)
    return rng.choice(ODD_CHARACTERS)


def _insert(rng: random.Random, text: str, donor: str) -> str:
    at = rng.randint(0, len(text))
    return text[:at] + _character(rng) + text[at:]


def _delete(rng: random.Random, text: str, donor: str) -> str:
    if not text:
        return text
    at = rng.randrange(len(text))
    length = rng.choice((1, 1, 1, 2, 3, 5))
    return text[:at] + text[at + length :]


def _replace(rng: random.Random, text: str, donor: str) -> str:
    if not text:
        return _character(rng)
    at = rng.randrange(len(text))
    return text[:at] + _character(rng, text[at]) + text[at + 1 :]


def _lookalike_all(rng: random.Random, text: str, donor: str) -> str:
    """Every occurrence of one letter replaced by a look-alike."""
    present = [c for c in sorted(set(text)) if c in LOOKALIKES]
    if not present:
        return _insert(rng, text, donor)
    letter = rng.choice(present)
    return text.replace(letter, rng.choice(LOOKALIKES[letter]))


def _tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def _duplicate_token(rng: random.Random, text: str, donor: str) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    at = rng.randrange(len(tokens))
    copies = rng.choice((1, 1, 2, 5))
    separator = rng.choice(("", " "))
    tokens[at] = separator.join([tokens[at]] * (copies + 1))
    return "".join(tokens)


def _drop_token(rng: random.Random, text: str, donor: str) -> str:
    tokens = _tokens(text)
    if len(tokens) < 2:
        return text
    del tokens[rng.randrange(len(tokens))]
    return "".join(tokens)


def _swap_tokens(rng: random.Random, text: str, donor: str) -> str:
    tokens = _tokens(text)
    if len(tokens) < 2:
        return text
    i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
    tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens)


def _number(rng: random.Random, text: str, donor: str) -> str:
    """A number of the roll replaced by a huge one, 0, or one more."""
    spans = [m.span() for m in NUMBER.finditer(text)]
    if not spans:
        return _insert(rng, text, donor)
    start, end = rng.choice(spans)
    old = int(text[start:end])
    new = rng.choice((*HUGE, "0", str(old + 1), str(max(old - 1, 0)), "1" + "0" * 20))
    return text[:start] + new + text[end:]


def _splice(rng: random.Random, text: str, donor: str) -> str:
    if not donor:
        return _duplicate_token(rng, text, donor)
    return text[: rng.randint(0, len(text))] + donor[rng.randint(0, len(donor)) :]


def _join(rng: random.Random, text: str, donor: str) -> str:
    word = rng.choice((" vs ", " opp ", " ", "+", " # ", ":", " vs vs ", " opp opp "))
    return text + word + (donor or text)


def _flip_case(rng: random.Random, text: str, donor: str) -> str:
    return text.swapcase() if rng.random() < 0.5 else text.upper()


_MUTATIONS = (
    _insert,
    _insert,
    _delete,
    _delete,
    _replace,
    _replace,
    _replace,
    _lookalike_all,
    _duplicate_token,
    _drop_token,
    _swap_tokens,
    _number,
    _number,
    _splice,
    _join,
    _flip_case,
)


def mutate_faces(rng: random.Random, faces: list[str]) -> list[str]:
    """The faces of a real roll, changed the ways a player might get them wrong
    (and some no player would): a face replaced, added, dropped, blown up."""
    faces = list(faces)
    for _ in range(rng.choice((1, 1, 2, 3))):
        roll = rng.random()
        if roll < 0.35 and faces:
            at = rng.randrange(len(faces))
            faces[at] = _mutate_face(rng, faces[at])
        elif roll < 0.6:
            faces.insert(rng.randint(0, len(faces)), rng.choice(WEIRD_FACES))
        elif roll < 0.75 and faces:
            del faces[rng.randrange(len(faces))]
        elif roll < 0.85 and faces:
            at = rng.randrange(len(faces))
            faces.insert(at, faces[at])
        elif roll < 0.92:
            faces = [*faces, *faces]
        else:
            faces = [" ".join(faces)]  # one argument holding every face
    return faces


def _mutate_face(rng: random.Random, face: str) -> str:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(WEIRD_FACES)
    if roll < 0.8 and face:
        at = rng.randrange(len(face))
        return face[:at] + _character(rng, face[at]) + face[at + 1 :]
    return face + rng.choice(("0", "9" * 4400, "6", "w", " "))
