"""How long a character sheet takes to read, show, roll by name and change,
and how long the worst sheets take to be refused (the limits must answer in
well under a second). A report, not a test: `.venv/bin/python benchmarks/sheets_load.py`."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from time import perf_counter

import fudgedice
from fudgedice import sheets

HEAD = 'system = "fudge"\nname = "A"\n'


def best(call: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs, in seconds (errors count as answers)."""
    times = []
    for _ in range(repeat):
        started = perf_counter()
        with contextlib.suppress(fudgedice.DiceError):
            call()
        times.append(perf_counter() - started)
    return min(times)


def main() -> None:
    limit = sheets.MAX_SHEET_BYTES
    template = {system: sheets.new_sheet(system, "Ashley") for system in sheets.SYSTEMS}
    fate = sheets.load_text(template["fate"])
    d6 = sheets.load_text(template["d6"])

    def load(text: str) -> Callable[[], object]:
        return lambda: sheets.load_text(text)

    cases: list[tuple[str, Callable[[], object]]] = [
        *((f"load a new {system} sheet", load(text)) for system, text in template.items()),
        ("show a fate sheet (10 skills, odds cached)", lambda: sheets.show(fate)),
        ("resolve 'Dodge vs Moderate' (d6)", lambda: sheets.resolve("Dodge vs Moderate", [d6])),
        ("hit a fate sheet for 6 shifts", lambda: sheets.hit(fate, 6)),
        ("refused: a file past the size limit", load("#" * (limit + 1))),
        ("worst: 32 KiB of newlines", load((HEAD + "\n" * limit)[:limit])),
        ("worst: 32 KiB of comment lines", load((HEAD + "# c\n" * limit)[:limit])),
        ("refused: an array of 3,000 values", load(HEAD + "x = [" + "1," * 3000 + "]\n")),
        ("refused: arrays nested 10,000 deep", load(HEAD + "x = " + "[" * 10_000 + "]" * 10_000)),
    ]
    width = max(len(name) for name, _ in cases)
    for name, call in cases:
        print(f"{name:<{width}}  {best(call) * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
