"""Text to parse tree: the lark grammar plus a transformer that builds
:mod:`fudgedice.tree` nodes and turns every parser complaint into a
:class:`~fudgedice.errors.DiceSyntaxError` that points at the column."""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import DiceError, DiceSyntaxError, DiceValueError, LimitError, TooManyDice
from ..limits import DEFAULT_LIMITS
from .diagnostics import check_ascii, syntax_error
from .generated_parser import (
    Lark,
    Lark_StandAlone,
    Token,
    Transformer,
    Tree,
    UnexpectedInput,
    VisitError,
)
from .tree import (
    D6,
    D100,
    FUDGE_DIE,
    FUDGE_DIE_1,
    Against,
    BinOp,
    Compare,
    CompareOp,
    Count,
    Damage,
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
    Part,
    Pool,
    Reroll,
    Side,
    Versus,
    Word,
    numbered_die,
)
from .words import Vocabulary

_DICE = re.compile(r"(\d*)d(.*)", re.IGNORECASE)
_TECHNIQUE_ALIASES = {"1d6": "d6", "1d%": "d%", "d100": "d%", "1d100": "d%"}
"""Ways of writing one technique: the tree holds a single name for each."""


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The grammar's parser: lark's LALR tables for grammar.lark, generated
    into the package (``make parser``), so a command that starts loads them
    without importing lark or building them."""
    # ASCII case folding: the text is ASCII up to its label (check_ascii), so the
    # terminals match alike, and their regular expressions compile in a third of the
    # time (Unicode folding adds look-alikes to every [a-z]; a command pays it each start)
    built: Lark = Lark_StandAlone(g_regex_flags=re.ASCII)  # type: ignore[no-untyped-call]
    return built


def _compare(text: str, default_op: CompareOp = "=") -> Compare:
    # compiled when first met (re caches it): a roll without a compare point never needs it
    match = re.fullmatch(r"(>=|<=|>|<|=)?\s*(-?\d+)", text.strip())
    assert match is not None, text  # the grammar's tokens only allow this shape
    op = match.group(1) or default_op
    return Compare(op, int(match.group(2)))  # type: ignore[arg-type]


def _die(spec: str, token: Token, text: str, max_dice: int) -> tuple[int, Die | None]:
    """(count, die) from a dice token; the die is None for a bare die code ``3D``."""
    match = _DICE.fullmatch(spec.replace(" ", ""))
    assert match is not None, spec
    limits = DEFAULT_LIMITS
    count_text, sides = match.group(1), match.group(2).lower()
    count = int(count_text) if count_text else 1
    where = token.start_pos or 0
    if count > max_dice:
        raise TooManyDice(
            f"{count} dice is more than the limit of {max_dice} in one pool",
            text=text,
            position=where,
        )
    if sides == "":
        return count, None
    if sides == "%":
        return count, D100
    if sides.startswith("f"):
        variant = sides[1:]
        if variant in ("", ".2"):
            return count, FUDGE_DIE
        if variant == ".1":
            return count, FUDGE_DIE_1
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
    return count, numbered_die(number)


class _Builder(Transformer[Token, Expression]):
    """Builds tree nodes bottom-up; checks what can be checked without a system."""

    def __init__(self, text: str, max_dice: int) -> None:
        super().__init__()
        self.text = text
        self.max_dice = max_dice

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
            if str(item).lower() in ("vs", "opp", "dmg"):
                raise self._fail(
                    f"a roll has one 'vs' or 'opp' (or a D6 System 'dmg'); "
                    f"this '{item}' is a second",
                    item,
                )
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
        count, die = _die(str(dice_token), dice_token, self.text, self.max_dice)
        code = die is None
        if die is None:
            die = D6
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

    def part(self, items: list[Token | Node]) -> Part:
        word, expr = items
        assert isinstance(word, Token) and not isinstance(expr, Token)
        return Part(str(word).lower(), expr, position=word.start_pos or 0)

    def side(self, items: list[Node | Option | Part]) -> Side:
        expr = items[0]
        assert not isinstance(expr, Option | Part)
        options = tuple(item for item in items[1:] if isinstance(item, Option))
        return Side(expr, options, parts=tuple(item for item in items if isinstance(item, Part)))

    def versus(self, items: list[Token | Node]) -> Versus:
        target = items[1]
        assert not isinstance(target, Token)
        return Versus(target)

    def opposed(self, items: list[Token | Side]) -> Opposed:
        other = items[1]
        assert isinstance(other, Side)
        return Opposed(other)

    def damage(self, items: list[Token | Side]) -> Damage:
        other = items[1]
        assert isinstance(other, Side)
        return Damage(other)

    def start(self, items: list[Token | Side | Against | Node]) -> Expression:
        system = "fudge"
        system_position: int | None = None
        side: Side | None = None
        check: Against | None = None
        label: str | None = None
        for item in items:
            if isinstance(item, Token) and item.type == "VS":
                continue  # "vs Good" with no side: its target follows
            if not isinstance(item, (Token, Side, Versus, Opposed, Damage)):
                check = Versus(item)
                side = Side(Number(0), written=False)
            elif isinstance(item, Token) and item.type == "SYSTEM":
                # which systems exist is the registry's business, not the grammar's
                system = str(item)[:-1].strip().lower()
                system_position = item.start_pos
            elif isinstance(item, Token):
                label = str(item)[1:].strip() or None
            elif isinstance(item, Side):
                side = item
            else:
                check = item
        assert side is not None
        return Expression(
            system,
            side,
            check,
            label,
            text=self.text,
            system_position=system_position,
            max_dice=self.max_dice,
        )


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
def parse(
    text: str, vocabulary: Vocabulary = frozenset(), max_dice: int = DEFAULT_LIMITS.max_dice
) -> Expression:
    """Parse a roll into its (cached, immutable) tree, or raise a DiceError.

    ``vocabulary`` holds the words a misspelling is compared with; the
    system prefix is read but not checked (systems are not the grammar's).
    ``max_dice`` bounds one pool: float odds (:mod:`fudgedice.dice.spectral`)
    take far larger pools than anything that rolls or counts them exactly."""
    _check_size(text)
    check_ascii(text)
    if not text.strip():
        raise DiceSyntaxError("the roll is empty: try '4dF' or '3d6+2'")
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as error:
        raise syntax_error(text, error, vocabulary) from None
    deepest = _nesting(tree)
    if deepest > DEFAULT_LIMITS.max_nesting:
        raise LimitError(
            f"parentheses and signs nest {deepest} deep; the limit is {DEFAULT_LIMITS.max_nesting}"
        )
    terms = _count_terms(tree)
    if terms > DEFAULT_LIMITS.max_terms:
        raise LimitError(f"the roll has {terms} terms; the limit is {DEFAULT_LIMITS.max_terms}")
    try:
        return _Builder(text, max_dice).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, DiceError):
            raise error.orig_exc from None
        raise
