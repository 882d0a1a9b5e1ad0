"""Text to parse tree: the lark grammar plus a transformer that builds
:mod:`fudgedice.tree` nodes and turns every parser complaint into a
:class:`~fudgedice.errors.DiceSyntaxError` that points at the column."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from .errors import DiceError, DiceSyntaxError, DiceValueError, LimitError, TooManyDice
from .limits import DEFAULT_LIMITS
from .tree import (
    BinOp,
    Compare,
    CompareOp,
    Count,
    Die,
    Explode,
    Expression,
    Group,
    Keep,
    Neg,
    Node,
    Number,
    Opposed,
    Option,
    Pool,
    Reroll,
    Side,
    Versus,
    Word,
)
from .vocabulary import SYSTEMS, known_words

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
    "LABEL": "'# label'",
    "TECHNIQUE": "'@' and a technique",
    "SETTING": "an option=value",
    "SYSTEM": "a system such as 'power:'",
    "$END": "the end of the roll",
}

_COMPARE = re.compile(r"(>=|<=|>|<|=)?\s*(-?\d+)")
_DICE = re.compile(r"(\d*)d(.*)", re.IGNORECASE)
_TECHNIQUE_ALIASES = {"1d6": "d6", "1d%": "d%", "d100": "d%", "1d100": "d%"}
"""Ways of writing one technique: the tree holds a single name for each."""
_DICE_PREFIX = re.compile(r"\d*d(?:\d+|%|f(?:\.\d+)?)?", re.IGNORECASE)


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = resources.files("fudgedice").joinpath("grammar.lark").read_text("utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False)


def _compare(text: str, default_op: CompareOp = "=") -> Compare:
    match = _COMPARE.fullmatch(text.strip())
    assert match is not None, text  # the grammar's tokens only allow this shape
    op = match.group(1) or default_op
    return Compare(op, int(match.group(2)))  # type: ignore[arg-type]


def _die(spec: str, token: Token, text: str) -> tuple[int, Die | None]:
    """(count, die) from a dice token; the die is None for a bare die code ``3D``."""
    match = _DICE.fullmatch(spec.replace(" ", ""))
    assert match is not None, spec
    limits = DEFAULT_LIMITS
    count_text, sides = match.group(1), match.group(2).lower()
    count = int(count_text) if count_text else 1
    where = token.start_pos or 0
    if count > limits.max_dice:
        raise TooManyDice(
            f"{count} dice is more than the limit of {limits.max_dice} in one pool",
            text=text,
            position=where,
        )
    if sides == "":
        return count, None
    if sides == "%":
        return count, Die("d%", tuple(range(1, 101)))
    if sides.startswith("f"):
        variant = sides[1:]
        if variant in ("", ".2"):
            return count, Die("dF", (-1, 0, 1), fudge=True)
        if variant == ".1":
            return count, Die("dF.1", (-1, 0, 0, 0, 0, 1), fudge=True)
        raise DiceValueError(
            f"Fudge dice come as dF (or dF.2) and dF.1, not dF{variant}",
            text=text,
            position=where,
        )
    number = int(sides)
    if number < 1:
        raise DiceValueError("a die needs at least one side", text=text, position=where)
    if number > limits.max_sides:
        raise LimitError(
            f"a die of {number} sides is more than the limit of {limits.max_sides}",
            text=text,
            position=where,
        )
    return count, Die(f"d{number}", tuple(range(1, number + 1)))


class _Builder(Transformer[Token, Expression]):
    """Builds tree nodes bottom-up; checks what can be checked without a system."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def _fail(
        self, message: str, token: Token, cls: type[DiceError] = DiceSyntaxError
    ) -> DiceError:
        return cls(message, text=self.text, position=token.start_pos)

    def number(self, items: list[Token]) -> Node:
        return Number(int(items[0]))

    def word(self, items: list[Token]) -> Node:
        return Word(str(items[0]), position=items[0].start_pos or 0)

    def phrase(self, items: list[Token]) -> Node:
        for item in items[1:]:
            if str(item).lower() in ("vs", "opp"):
                raise self._fail(f"a roll has one 'vs' or 'opp'; this '{item}' is a second", item)
        return Word(" ".join(str(item) for item in items), position=items[0].start_pos or 0)

    def group(self, items: list[Node]) -> Node:
        return Group(items[0])

    def neg(self, items: list[Node]) -> Node:
        return Neg(items[0])

    def add(self, items: list[Node]) -> Node:
        return BinOp("+", items[0], items[1])

    def sub(self, items: list[Node]) -> Node:
        return BinOp("-", items[0], items[1])

    def mul(self, items: list[Node]) -> Node:
        return BinOp("*", items[0], items[1])

    def div(self, items: list[Node]) -> Node:
        return BinOp("/", items[0], items[1])

    def keep(self, items: list[Token]) -> tuple[str, Token]:
        return ("keep", items[0])

    def explode(self, items: list[Token]) -> tuple[str, Token]:
        return ("explode", items[0])

    def reroll(self, items: list[Token]) -> tuple[str, Token]:
        return ("reroll", items[0])

    def success(self, items: list[Token]) -> tuple[str, Token]:
        return ("success", items[0])

    def failure(self, items: list[Token]) -> tuple[str, Token]:
        return ("failure", items[0])

    def pool(self, items: list[Token | tuple[str, Token]]) -> Node:
        dice_token = items[0]
        assert isinstance(dice_token, Token)
        count, die = _die(str(dice_token), dice_token, self.text)
        code = die is None
        if die is None:
            die = Die("D", tuple(range(1, 7)))
        seen: dict[str, Token] = {}
        technique: str | None = None
        end = dice_token.end_pos or 0
        for item in items[1:]:
            if isinstance(item, Token):  # the technique, always last
                written = item[1:].strip().lower()
                technique = _TECHNIQUE_ALIASES.get(written, written)
                end = item.end_pos or end
                continue
            kind, token = item
            if kind in seen:
                raise self._fail(f"a pool takes one {kind} modifier, not two", token)
            seen[kind] = token
            end = token.end_pos or end
        modifiers = {kind: str(token) for kind, token in seen.items()}

        keep = None
        if "keep" in modifiers:
            spec = modifiers["keep"].lower()
            mode = "kh" if spec[:2] not in ("kh", "kl", "dh", "dl") else spec[:2]
            digits = spec[len(mode) if mode != "kh" or spec.startswith("kh") else 1 :]
            n = int(digits) if digits else 1
            if n > count:
                verb = "keep" if mode[0] == "k" else "drop"
                raise self._fail(f"can't {verb} {n} of {count} dice", seen["keep"], DiceValueError)
            keep = Keep(mode, n)  # type: ignore[arg-type]

        explode = None
        if "explode" in modifiers:
            spec = modifiers["explode"]
            mode = "!!" if spec.startswith("!!") else "!p" if spec[:2].lower() == "!p" else "!"
            rest = spec[len(mode) :]
            on = _compare(rest) if rest else Compare("=", die.highest)
            explode = Explode(mode, on)  # type: ignore[arg-type]

        reroll = None
        if "reroll" in modifiers:
            spec = modifiers["reroll"]
            once = spec[:2].lower() == "ro"
            reroll = Reroll(once, _compare(spec[2 if once else 1 :]))

        counting = None
        if "failure" in modifiers and "success" not in modifiers:
            raise self._fail(
                "failures (f) are counted against successes: put a compare such as >=5 first",
                seen["failure"],
            )
        if "success" in modifiers:
            failure = _compare(modifiers["failure"][1:]) if "failure" in modifiers else None
            counting = Count(_compare(modifiers["success"]), failure)

        start = dice_token.start_pos or 0
        return Pool(
            count=count,
            die=die,
            source=self.text[start:end],
            reroll=reroll,
            explode=explode,
            keep=keep,
            counting=counting,
            technique=technique,
            die_code=code,
            position=start,
        )

    def option(self, items: list[Token]) -> Option:
        token = items[0]
        name, sep, value = str(token).partition("=")
        return Option(
            name.strip().lower(),
            value.strip().lower() if sep else None,
            position=token.start_pos or 0,
        )

    def side(self, items: list[Node | Option]) -> Side:
        expr = items[0]
        assert not isinstance(expr, Option)
        options = tuple(item for item in items[1:] if isinstance(item, Option))
        return Side(expr, options)

    def versus(self, items: list[Token | Node]) -> Versus:
        target = items[1]
        assert not isinstance(target, Token)
        return Versus(target)

    def opposed(self, items: list[Token | Side]) -> Opposed:
        other = items[1]
        assert isinstance(other, Side)
        return Opposed(other)

    def start(self, items: list[Token | Side | Versus | Opposed]) -> Expression:
        system = "fudge"
        side: Side | None = None
        check: Versus | Opposed | None = None
        label: str | None = None
        for item in items:
            if isinstance(item, Token) and item.type == "SYSTEM":
                system = str(item)[:-1].strip().lower()
                if system not in SYSTEMS:
                    raise DiceValueError(
                        f"unknown system '{system}'",
                        text=self.text,
                        position=item.start_pos,
                        hint=_suggest(system, SYSTEMS) or f"systems: {', '.join(SYSTEMS)}",
                    )
            elif isinstance(item, Token):
                label = str(item)[1:].strip() or None
            elif isinstance(item, Side):
                side = item
            else:
                check = item
        assert side is not None
        return Expression(system, side, check, label, text=self.text)


def _suggest(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    close = difflib.get_close_matches(word.lower(), [c.lower() for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def suggest_word(word: str) -> str | None:
    """'did you mean ...?' for a misspelled word of the language, or None."""
    return _suggest(word, known_words())


_MODIFIER_STEMS = ("kh", "kl", "dh", "dl", "ro", "r")
_MODIFIERS_EXPECTED = (
    "expected a modifier (kh/kl/dh/dl N, '!', '!!', '!p', r/ro, a compare such as >=5), "
    "an operator, or a space before an option"
)


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
    dice = _DICE_PREFIX.match(pool.source)
    modifiers = pool.source[dice.end() if dice else 0 :]
    stem = re.search(r"[a-z]*$", modifiers, re.IGNORECASE)
    typed = ((stem.group(0) if stem else "") + written).lower()
    letters = typed.rstrip("0123456789")
    digits = typed[len(letters) :]
    hint = None
    if letters:
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


def _syntax_error(text: str, error: UnexpectedInput) -> DiceSyntaxError:
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
    hint = _suggest_other(word_here.group(0)) if word_here else None
    word_before = re.search(r"([A-Za-z][A-Za-z0-9_]*)\s+$", text[:position])
    if hint is None and word_before:
        # A misspelled keyword ("4dF vss 3") reads as an option; the parser
        # only stumbles on the token after it.
        hint = _suggest_other(word_before.group(1))
    if hint is None and word_here:
        if word_here.group(0).lower() in ("vs", "opp"):
            hint = "a roll has one 'vs' or 'opp', and the options (such as fp or adv) go before it"
        elif re.search(r"\b(?:vs|opp)\b", text[:position], re.IGNORECASE):
            hint = f"options such as '{word_here.group(0)}' go before 'vs' or 'opp'"
    return DiceSyntaxError(message, text=text, position=position, hint=hint)


def _suggest_other(word: str) -> str | None:
    """A suggestion, unless it is the very word written (a real keyword in
    the wrong place is not a misspelling)."""
    hint = suggest_word(word)
    return None if hint == f"did you mean '{word.lower()}'?" else hint


def _check_size(text: str) -> None:
    limits = DEFAULT_LIMITS
    if len(text) > limits.max_text:
        raise LimitError(f"the roll is {len(text)} characters long; the limit is {limits.max_text}")
    depth = deepest = 0
    for char in text:
        depth += char == "("
        depth -= char == ")"
        deepest = max(deepest, depth)
    if deepest > limits.max_nesting:
        raise LimitError(f"parentheses nest {deepest} deep; the limit is {limits.max_nesting}")


def _nesting(tree: Tree[Token]) -> int:
    """How deep parentheses and unary minus signs sit inside one another.

    Counted on the tree, iteratively: a run of signs such as ``------1`` is as
    deep as the parentheses it stands for, and every interpreter recurses on it.
    """
    deepest = 0
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in ("neg", "group"):
            depth += 1
            deepest = max(deepest, depth)
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))
    return deepest


def _count_terms(tree: Tree[Token]) -> int:
    return sum(
        1 for sub in tree.iter_subtrees() if sub.data in ("number", "pool", "word", "phrase")
    )


@lru_cache(maxsize=4096)
def parse(text: str) -> Expression:
    """Parse a roll into its (cached, immutable) tree, or raise a DiceError."""
    _check_size(text)
    if not text.strip():
        raise DiceSyntaxError("the roll is empty: try '4dF' or '3d6+2'")
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    deepest = _nesting(tree)
    if deepest > DEFAULT_LIMITS.max_nesting:
        raise LimitError(
            f"parentheses and signs nest {deepest} deep; the limit is {DEFAULT_LIMITS.max_nesting}"
        )
    terms = _count_terms(tree)
    if terms > DEFAULT_LIMITS.max_terms:
        raise LimitError(f"the roll has {terms} terms; the limit is {DEFAULT_LIMITS.max_terms}")
    try:
        return _Builder(text).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, DiceError):
            raise error.orig_exc from None
        raise
