"""The explanation of a roll: every die as it came up, what happened to it,
and what the roll means.

Only renders; never rolls or measures. The CLI, ``Roll.text`` and the JSON
output all come through here.
"""

from __future__ import annotations

from functools import lru_cache

from ..memory import reserve
from ..results.dice import (
    SET_ASIDE,
    DieRoll,
    GroupRoll,
    Mark,
    NegRoll,
    NumberRoll,
    OpRoll,
    Part,
    PoolRoll,
    WordRoll,
    pools_of,
)
from ..results.roll import Roll
from .numbers import counted, signed

_SET_ASIDE_WORDS = (
    (Mark.DROPPED.value, "dropped"),
    (Mark.REROLLED.value, "rerolled"),
    (Mark.CANCELLED.value, "cancelled"),
    (Mark.REMOVED.value, "removed"),
    (Mark.IGNORED.value, "ignored"),
)
# plain ints: every die of every explanation is tested against these
_EXPLODED = Mark.EXPLODED.value
_PENETRATING = Mark.PENETRATING.value
_SUCCESS = Mark.SUCCESS.value
_FAILURE = Mark.FAILURE.value
_SET_ASIDE_BITS = SET_ASIDE.value


def die_token(die: DieRoll) -> str:
    """One toss as a player would jot it: ``[+]``, ``6!``, ``(2 dropped)``."""
    flags = die.flags
    face = f"[{die.face}]" if die.die.fudge or "+" in die.face else die.face
    if not flags:
        return face
    if flags & _EXPLODED:
        face += "!"
    if flags & _PENETRATING:
        face += "-1"
    if flags & _SUCCESS:
        face += "✓"
    if flags & _FAILURE:
        face += "✗"
    if not die.kept:
        reasons = [word for bit, word in _SET_ASIDE_WORDS if flags & bit]
        face = f"({face} {', '.join(reasons)})"
    return face


def pool_line(pool: PoolRoll) -> str:
    # a toss with no flags written inline: most dice of most rolls (die_token's own first case)
    dice = (
        " ".join(
            [
                die_token(die)
                if die.flags
                else f"[{die.face}]"
                if die.die.fudge or "+" in die.face
                else die.face
                for die in pool.dice
            ]
        )
        or "no dice"
    )
    rule = pool.pool
    total = pool.total
    if rule.counting is not None:
        return f"{rule.source}: {dice} = {total} {'success' if total in (1, -1) else 'successes'}"
    return (
        f"{rule.source}: {dice} = {total:+d}"
        if rule.die.fudge
        else f"{rule.source}: {dice} = {total}"
    )


def formula(part: Part) -> str:
    """The expression with every part replaced by what it rolled."""
    if isinstance(part, (NumberRoll, PoolRoll)):
        return str(part.total)
    if isinstance(part, WordRoll):
        return f"{part.word.text} ({signed(part.total)})"
    if isinstance(part, GroupRoll):
        return f"({formula(part.inner)})"
    if isinstance(part, NegRoll):
        inner = formula(part.operand)
        # "-4dF" that came up -1 reads -(-1), never --1
        return f"-({inner})" if inner.startswith("-") else f"-{inner}"
    assert isinstance(part, OpRoll)
    right = formula(part.right)
    if part.node.op in "+-" and right.startswith("-"):
        right = f"({right})"
    return f"{formula(part.left)} {part.node.op} {right}"


def quick_read(pool_roll: PoolRoll) -> str | None:
    """Seed 001's quick read of Fudge dice: cancel +/- pairs, set the blanks
    aside, read what is left. None where it does not apply (modified pools,
    and techniques other than @d6, whose dice are not + and -)."""
    pool = pool_roll.pool
    if not pool.die.fudge or pool.count < 2:
        return None
    if pool.reroll or pool.explode or pool.keep or pool.counting:
        return None
    if pool.technique not in (None, "d6"):
        return None
    values = [die.value for die in pool_roll.dice if not die.flags & _SET_ASIDE_BITS]
    if len(values) < 2:
        return None
    pluses = values.count(1)
    minuses = values.count(-1)
    return _quick_words(pool.source, pluses, minuses, len(values) - pluses - minuses)


@lru_cache(maxsize=1024)  # its memory set aside below: a line of a short text
def _quick_words(source: str, pluses: int, minuses: int, blanks: int) -> str:
    """The quick read's line for these counts: a pool of four Fudge dice has
    fifteen, so every roll after the first few finds its line written."""
    pairs = min(pluses, minuses)
    steps = []
    if pairs:
        steps.append(f"cancel {counted(pairs, '+/- pair')}")
    if blanks:
        steps.append(f"set aside {counted(blanks, 'blank')}")
    left = pluses - minuses
    rest = " ".join(("+" if left > 0 else "-") for _ in range(abs(left))) or "nothing"
    return f"{source}: {', '.join(steps) or 'nothing to cancel'} -> {rest} left = {left:+d}"


reserve("quick reads", 1024, 1200)  # a pool's source (at most 1,000 characters) and its steps


def roll_text(roll: Roll, indent: str = "") -> str:
    """Head line, one line per pool, the sum when there is more than a pool,
    the system's steps, then each side the roll's own dice don't show."""
    # the label leads the line, so it is not repeated after the notation
    label = roll.label
    title = roll.title or (roll.notation.split("#", 1)[0].strip() if label else roll.notation)
    head = f"{title} = {roll.total} -> {roll.result}" if roll.result else f"{title} = {roll.total}"
    if label:
        head = f"{label}: {head}"
    inner = indent + "  "
    parts = roll.parts
    pools = pools_of(parts)
    lines = [indent + head]
    lines += [inner + pool_line(pool) for pool in pools]
    if not (len(pools) == 1 and isinstance(parts, PoolRoll)):
        # the formula's own value: a check's total (a relative degree) is
        # told by the head line
        lines.append(f"{inner}{formula(parts)} = {parts.total}")
    if roll.steps:
        lines += [inner + step for step in roll.steps]
    if roll.quick_read:
        for pool in pools:
            read = quick_read(pool)
            if read:
                lines.append(inner + read)
    if roll.sides:
        lines += [roll_text(side, inner) for side in roll.apart()]
    return "\n".join(lines)
