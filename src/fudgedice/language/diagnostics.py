"""What the parser says when a text is not a roll: the column, what was
expected, and the nearest real word."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container, Iterable, Mapping

from ..errors import DiceError, DiceSyntaxError
from .generated_parser import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from .tree import BinOp, Expression, Neg, Node, Option, Pool
from .words import Vocabulary

_EXPECTED_NAMES = {
    "DICE": "dice such as 3d6 or 4dF",
    "INT": "a number",
    "WORD": "a word",
    "LPAR": "'('",
    "RPAR": "')'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "SLASH": "'/'",
    "KEEP": "kh/kl/dh/dl",
    "EXPLODE": "'!'",
    "REROLL": "r/ro",
    "SUCCESS": "a compare such as >=5",
    "FAILURE": "f<=N",
    "VS": "'vs'",
    "OPP": "'opp'",
    "DMG": "'dmg'",
    "PART": "'weapon' or 'armor'",
    "LABEL": "'# label'",
    "TECHNIQUE": "'@' and a technique",
    "SETTING": "an option=value",
    "SYSTEM": "a system such as 'power:'",
    "$END": "the end of the roll",
}

_MODIFIER_STEMS = ("kh", "kl", "dh", "dl", "ro", "r")
_MODIFIERS_EXPECTED = (
    "expected a modifier (kh/kl/dh/dl N, '!', '!!', '!p', r/ro, a compare such as >=5), "
    "an operator, or a space before an option"
)


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """'did you mean ...?' for the choice nearest to ``word``, or None."""
    ordered = sorted(choice.lower() for choice in choices)
    import difflib  # here: only a misspelling needs it, not a roll that starts

    close = difflib.get_close_matches(word.lower(), ordered, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def suggest_other(word: str, vocabulary: Vocabulary) -> str | None:
    """A suggestion, unless it is the very word written (a real keyword in
    the wrong place is not a misspelling)."""
    hint = suggest(word, vocabulary)
    return None if hint == f"did you mean '{word.lower()}'?" else hint


def _rightmost_pool(node: Node) -> Pool | None:
    while True:
        if isinstance(node, Pool):
            return node
        if isinstance(node, BinOp):
            node = node.right
        elif isinstance(node, Neg):
            node = node.operand
        else:
            return None


def modifier_typo(expression: Expression, option: Option) -> DiceSyntaxError | None:
    """The error for an unknown option written hard against a pool (``4d6kx3``):
    it is a mistyped modifier, not an option, so say what a modifier looks like
    and suggest the nearest one. None when the option stands apart."""
    pool = _rightmost_pool(expression.side.expr)
    if pool is None or option.value is not None:
        return None
    if option.position != pool.position + len(pool.source):
        return None
    text = expression.text
    written = text[option.position : option.position + len(option.name)]
    dice = re.match(r"\d*d(?:\d+|%|f(?:\.\d+)?)?", pool.source, re.IGNORECASE)  # a hint's alone
    modifiers = pool.source[dice.end() if dice else 0 :]
    stem = re.search(r"[a-z]*$", modifiers, re.IGNORECASE)
    typed = ((stem.group(0) if stem else "") + written).lower()
    letters = typed.rstrip("0123456789")
    digits = typed[len(letters) :]
    hint = None
    if letters:
        import difflib  # here: only a misspelling needs it, not a roll that starts

        scores = [
            (difflib.SequenceMatcher(None, letters, candidate).ratio(), -index, candidate)
            for index, candidate in enumerate(_MODIFIER_STEMS)
        ]
        score, _, best = max(scores)
        if score >= 0.5:
            hint = f"did you mean '{best}{digits}'?"
    return DiceSyntaxError(
        f"unexpected '{written}' at column {option.position + 1} after "
        f"'{pool.source}': {_MODIFIERS_EXPECTED}",
        text=text,
        position=option.position,
        hint=hint,
    )


def syntax_error(text: str, error: UnexpectedInput, vocabulary: Vocabulary) -> DiceSyntaxError:
    """The parser's complaint as the project's own error, pointing at the column."""
    position = len(text)
    expected: set[str] = set()
    found = "end of the roll"
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        expected = set(error.allowed or ())
        found = repr(text[position])
    elif isinstance(error, UnexpectedToken):
        token = error.token
        expected = set(error.expected)
        if token.type != "$END":
            position = token.start_pos or 0
            found = repr(str(token))
    elif isinstance(error, UnexpectedEOF):
        expected = set(error.expected)
    names = sorted({_EXPECTED_NAMES.get(name, name.lower()) for name in expected})
    message = f"unexpected {found} at column {position + 1}"
    if names:
        message += ": expected " + ", ".join(names)
    word_here = re.match(r"[A-Za-z][A-Za-z0-9_]*", text[position:])
    hint = suggest_other(word_here.group(0), vocabulary) if word_here else None
    word_before = re.search(r"(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9_]*)\s+$", text[:position])
    if hint is None and word_before:
        # A misspelled keyword ("4dF vss 3") reads as an option; the parser
        # only stumbles on the token after it.
        hint = suggest_other(word_before.group(1), vocabulary)
    part = word_before.group(1).lower() if word_before else ""
    if hint is None and part in ("weapon", "armor"):
        # a part begins a side: "d6: weapon 5D dmg 3D"
        whose = "the weapon's" if part == "weapon" else "armor's"
        hint = (
            f"'{part}' adds {whose} dice after the character's own, as in "
            "'d6: 3D+1 weapon 2D dmg 3D+2 armor 1D'"
            + (
                "; a damage code alone is all the weapon's: 'd6: 5D dmg 3D'"
                if part == "weapon"
                else ""
            )
        )
    if hint is None and word_here:
        check = re.search(r"\b(vs|opp|dmg)\b", text[:position], re.IGNORECASE)
        if word_here.group(0).lower() in ("vs", "opp", "dmg"):
            hint = (
                "a roll has one 'vs' or 'opp' (or a D6 System 'dmg'), and the options "
                "(such as fp or adv) go before it"
            )
        elif check and check.group(1).lower() == "dmg":
            hint = f"options such as '{word_here.group(0)}' go before 'dmg'"
        elif check:
            hint = f"options such as '{word_here.group(0)}' go before 'vs' or 'opp'"
    return DiceSyntaxError(message, text=text, position=position, hint=hint)


def system_without_colon(text: str, systems: Container[str]) -> tuple[str, str] | None:
    """ "d6 2D+3" and "3d6 fudge: Good": a system named, but not as the
    grammar reads one (one word and a colon). The message and the hint."""
    head, colon, rest = text.partition(":")
    squeezed = "".join(head.split()).lower()
    if colon and squeezed in systems and head.strip().lower() != squeezed:
        return (
            f"'{head.strip()}' names the {squeezed} system as more than one word",
            f"write '{squeezed}: {rest.strip()}'",
        )
    words = text.split(None, 1)
    if len(words) == 2 and words[0].lower() in systems:
        system = words[0].lower()
        return (
            f"'{words[0]}' names a system without its colon",
            f"write '{system}: {words[1]}'",
        )
    return None


def another_systems_word(
    expression: Expression, error: DiceError, words: Mapping[str, frozenset[str]]
) -> str | None:
    """The hint of ``error``: 'Incredible' in a Fudge roll is a Power Fudge word,
    so say whose word it is, rather than which word of this system it is nearest
    to. ``words`` are each system's own."""
    own = error.hint
    if error.position is None or error.text != expression.text:
        return own
    found = re.match(r"[A-Za-z][A-Za-z0-9_]*", expression.text[error.position :])
    word = found.group(0) if found else ""
    if not word or word.lower() in words[expression.system]:
        return own
    owners = [name for name, each in words.items() if word.lower() in each]
    if not owners:
        return own
    # the very word of another system says more than the nearest word of this one
    whose = f"'{word}' is a word of {owners[0]} rolls (written '{owners[0]}: ...')"
    return f"{whose}; {own}" if own and not own.startswith("did you mean") else whose


def check_ascii(text: str) -> None:
    """Words and numbers are ASCII: Python's case folding would read the Kelvin
    sign as ``k`` and ``int`` reads an Arabic-Indic or fullwidth six as 6, so a look-alike could
    pass for a keyword or a digit. A label (after ``#``) is the player's own text."""
    body = text.split("#", 1)[0]
    for position, char in enumerate(body):
        if not char.isascii():
            name = unicodedata.name(char, "an unnamed character")
            raise DiceSyntaxError(
                f"'{char}' ({name}, U+{ord(char):04X}) is not a character of the roll "
                "language: words and numbers are written in plain ASCII",
                text=text,
                position=position,
            )
