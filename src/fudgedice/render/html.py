"""Odds, rolls and comparisons as HTML, for notebooks (``_repr_html_``): the
same cells the command line prints, every text of the user's escaped (a
roll's label may hold any markup)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..exact.odds import Odds
from ..results.roll import Roll
from .odds_table import odds_layout

BAR_COLOUR = "#3b6ea5"
BLOCK_PIXELS = 5
"""Width of one block of a row's bar (a bar is at most 32 blocks)."""


def table_html(
    caption: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    bars: Sequence[int] | None = None,
    css_class: str = "fudgedice-odds",
) -> str:
    """A table of text cells, numbers right-aligned, with an optional bar a
    row; a row of one cell is the title of the rows below it."""
    cell = 'style="text-align:right;padding:0 0.6em"'
    head = "".join(f"<th {cell}>{escape(name)}</th>" for name in columns)
    head += "<th></th>" if bars is not None else ""
    body = []
    for index, row in enumerate(rows):
        if len(row) == 1 < len(columns):
            # a block's title, across the table
            span = len(columns) + (bars is not None)
            body.append(
                f'<tr><th colspan="{span}" style="text-align:left">{escape(row[0])}</th></tr>'
            )
            continue
        cells = "".join(f"<td {cell}>{escape(text)}</td>" for text in row)
        if bars is not None:
            width = bars[index] * BLOCK_PIXELS
            cells += (
                f'<td><div style="width:{width}px;height:0.9em;background:{BAR_COLOUR}"></div></td>'
            )
        body.append(f"<tr>{cells}</tr>")
    return (
        f'<table class="{css_class}"><caption style="text-align:left;font-weight:bold">'
        f"{escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def lines_html(lines: Sequence[str]) -> str:
    """Lines of text under a table, one paragraph each."""
    return "".join(f'<p style="margin:0.2em 0">{escape(line)}</p>' for line in lines)


def odds_html(odds: Odds) -> str:
    """The table of ``fudgedice odds`` as HTML: its rows, bars and notes."""
    layout = odds_layout(odds)
    return (
        '<div class="fudgedice">'
        + table_html(layout.title, layout.columns, layout.rows, layout.bars)
        + lines_html([*layout.notes, *layout.footer])
        + "</div>"
    )


def roll_html(roll: Roll) -> str:
    """A roll's explanation as ``fudgedice roll`` prints it: the head line
    (the roll and its result) in bold, each die's story under it."""
    head, _, rest = roll.text.partition("\n")
    return (
        '<div class="fudgedice-roll"><pre style="margin:0">'
        f"<strong>{escape(head)}</strong>\n{escape(rest)}</pre></div>"
    )
