"""A printed table as text: columns padded to their widest cell."""

from __future__ import annotations

from ..results.table import Table


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
