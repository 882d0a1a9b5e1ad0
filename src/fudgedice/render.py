"""Text for people: the explanation of a roll and the table of odds.

Only renders; never rolls or measures. The CLI, ``Roll.text`` and the JSON
output all come through here.
"""

from __future__ import annotations

from fractions import Fraction

from .odds import Odds, exact_text
from .results import (
    DieRoll,
    GroupRoll,
    NegRoll,
    NumberRoll,
    OpRoll,
    Part,
    PoolRoll,
    WordRoll,
    pools_of,
)
from .rolls import Roll
from .tables import Table


def signed(value: int) -> str:
    return f"{value:+d}"


def die_token(die: DieRoll) -> str:
    """One toss as a player would jot it: ``[+]``, ``6!``, ``(2 dropped)``."""
    face = f"[{die.face}]" if die.die.fudge or "+" in die.face else die.face
    if "exploded" in die.notes:
        face += "!"
    if "penetrating (-1)" in die.notes:
        face += "-1"
    if "success" in die.notes:
        face += "✓"
    if "failure" in die.notes:
        face += "✗"
    if not die.kept:
        reasons = [
            note.split(" (")[0]
            for note in die.notes
            if note.startswith(("dropped", "rerolled", "cancelled", "removed", "ignored"))
        ]
        face = f"({face} {', '.join(reasons) or 'not kept'})"
    return face


def pool_line(pool: PoolRoll) -> str:
    dice = " ".join(die_token(die) for die in pool.dice) or "no dice"
    fudge = pool.pool.die.fudge and pool.pool.counting is None
    total = signed(pool.total) if fudge else str(pool.total)
    what = ""
    if pool.pool.counting is not None:
        what = "success" if pool.total in (1, -1) else "successes"
    return f"{pool.pool.source}: {dice} = {total}" + (f" {what}" if what else "")


def formula(part: Part) -> str:
    """The expression with every part replaced by what it rolled."""
    if isinstance(part, (NumberRoll, PoolRoll)):
        return str(part.total)
    if isinstance(part, WordRoll):
        return f"{part.word.text} ({signed(part.total)})"
    if isinstance(part, GroupRoll):
        return f"({formula(part.inner)})"
    if isinstance(part, NegRoll):
        return f"-{formula(part.operand)}"
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
    values = [die.value for die in pool_roll.dice if die.kept]
    if len(values) < 2:
        return None
    pluses, minuses = values.count(1), values.count(-1)
    blanks = len(values) - pluses - minuses
    pairs = min(pluses, minuses)
    steps = []
    if pairs:
        steps.append(f"cancel {pairs} +/- pair{'s' if pairs > 1 else ''}")
    if blanks:
        steps.append(f"set aside {blanks} blank{'s' if blanks > 1 else ''}")
    left = pluses - minuses
    rest = " ".join(("+" if left > 0 else "-") for _ in range(abs(left))) or "nothing"
    return f"{pool.source}: {', '.join(steps) or 'nothing to cancel'} -> {rest} left = {left:+d}"


def roll_text(roll: Roll, indent: str = "") -> str:
    """Head line, one line per pool, the sum when there is more than a pool,
    the system's steps, the other sides of a check, and what happened."""
    # the label leads the line, so it is not repeated after the notation
    title = roll.title or (roll.notation.split("#", 1)[0].strip() if roll.label else roll.notation)
    head = f"{title} = {roll.total}"
    if roll.result:
        head += f" -> {roll.result}"
    if roll.label:
        head = f"{roll.label}: {head}"
    lines = [indent + head]
    pools = pools_of(roll.parts)
    lines.extend(f"{indent}  {pool_line(pool)}" for pool in pools)
    if not (isinstance(roll.parts, PoolRoll) and len(pools) == 1):
        # the formula's own value: a check's total (a relative degree) is
        # told by the head line
        lines.append(f"{indent}  {formula(roll.parts)} = {roll.parts.total}")
    lines.extend(f"{indent}  {detail}" for detail in roll.details)
    if roll.quick_read:
        for pool in pools:
            read = quick_read(pool)
            if read:
                lines.append(f"{indent}  {read}")
    lines.extend(roll_text(side, indent + "  ") for side in roll.sides)
    lines.extend(f"{indent}  {event}" for event in roll.events)
    return "\n".join(lines)


def percent(p: Fraction | float) -> str:
    value = float(p) * 100
    if value == 0:
        return "0%"
    if value < 0.01:
        return f"{value:.2g}%"
    return f"{value:.2f}%"


def exact(p: Fraction) -> str:
    return exact_text(p)


def _digits(number: int) -> int:
    """Decimal digits of ``number``, near enough, without printing it."""
    return int(abs(number).bit_length() * 0.30103) + 1


_BAR_WIDTH = 32
_MAX_ROWS = 61


def odds_text(odds: Odds, *, show_exact: bool = False, all_rows: bool = False) -> str:
    """The table a player reads: value, chance (percent and fraction),
    at least, at most and a bar; then mean and spread."""
    # Rows are chosen from the integer counts, and Fractions built only for
    # the rows shown: 10000dF has 20001 outcomes of thousands of digits each.
    counts, lo, total = odds.dist.counts, odds.dist.lo, odds.dist.total
    present = [index for index, count in enumerate(counts) if count]
    shown = present
    if not all_rows and len(present) > _MAX_ROWS:
        # Wide pools: keep the rows that hold almost all the probability.
        shown = [index for index in present if counts[index] * 100_000 >= total]
        if len(shown) > _MAX_ROWS:
            middle = max(range(len(shown)), key=lambda i: counts[shown[i]])
            half = _MAX_ROWS // 2
            start = max(0, min(middle - half, len(shown) - _MAX_ROWS))
            shown = shown[start : start + _MAX_ROWS]
    hidden = len(present) - len(shown)
    rows = [odds.outcome_at(lo + index) for index in shown]
    peak = Fraction(max(counts), total)
    fudge_like = odds.low < 0
    value_text = [signed(o.value) if fudge_like else str(o.value) for o in rows]
    if odds.value_name is not None:
        naming = odds.value_name
        value_text = [f"{text} {naming(o.value)}" for text, o in zip(value_text, rows, strict=True)]
    # digits known from bit lengths, before any long number is written out
    longest = max(_digits(o.p.numerator) + _digits(o.p.denominator) + 1 for o in rows)
    exact_column = show_exact or longest <= 24
    fractions = [exact(o.p) for o in rows] if exact_column else [""] * len(rows)
    fraction_width = max(len(f) for f in fractions)
    width = max(len(odds.value_title), max(len(v) for v in value_text))
    header = f"{odds.value_title:>{width}}  {'chance':>8}"
    if exact_column:
        header += f"  {'exact':>{fraction_width}}"
    header += f"  {'at least':>8}  {'at most':>8}"
    lines = [odds.notation, header]
    for outcome, value, fraction in zip(rows, value_text, fractions, strict=True):
        bar = "█" * max(1, round(float(outcome.p / peak) * _BAR_WIDTH)) if outcome.p else ""
        line = f"{value:>{width}}  {percent(outcome.p):>8}"
        if exact_column:
            line += f"  {fraction:>{fraction_width}}"
        line += f"  {percent(outcome.at_least):>8}  {percent(outcome.at_most):>8}  {bar}"
        lines.append(line)
    if hidden:
        lines.append(f"({hidden} rarer outcomes not shown; --all shows every one)")
    if not exact_column:
        lines.append("(exact fractions are long here; --exact shows them)")
    lines.append(f"mean {float(odds.mean):.4g}, stdev {odds.stdev:.4g}")
    if odds.truncated:
        lines.append(
            f"exploding dice cut off after a chance of {float(odds.truncated):.2g} (left out)"
        )
    for name, p in odds.events.items():
        line = f"{name}: {percent(p)}"
        if show_exact or _digits(p.numerator) + _digits(p.denominator) < 40:
            line += f" ({exact(p)})"
        lines.append(line)
    return "\n".join(lines)


def table_text(table: Table) -> str:
    """Columns padded to their widest cell; the first column left-aligned."""
    rows = [table.header, *table.rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(table.header))]

    def line(row: tuple[str, ...]) -> str:
        cells = [
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        return "  ".join(cells).rstrip()

    out = [table.title, line(table.header), line(tuple("-" * w for w in widths))]
    out.extend(line(row) for row in table.rows)
    out.extend(table.notes)
    return "\n".join(out)
