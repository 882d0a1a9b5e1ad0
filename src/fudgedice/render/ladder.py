"""A game's ladder: what each level is called, and which level a word means.

A ladder turns a number into the word a player says (``+3 Superb``) and a
word back into its number. Shared by the systems that read results on a
ladder (Fudge, Power Fudge, Fate), which must never confuse one another's:
``Good`` is +1 on Fudge's ladder and +3 on Fate's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ladder:
    """A system's ladder of adjectives: which name each level has, which words it reads."""

    system: str
    bands: tuple[tuple[int, str], ...]
    """(lowest value, name) from the bottom up; the first band has no floor."""
    words: tuple[tuple[str, int], ...]
    """Every word accepted in a roll and the level it stands for."""
    beyond: bool
    """Name values past the top and bottom bands by counting (Fudge), rather
    than letting the end bands run on (Power Fudge)."""

    def name(self, value: int) -> str:
        """The ladder's word for ``value``: ``Great``, ``Superb+1``, ``Cosmic``."""
        bottom, bottom_name = self.bands[0]
        top, top_name = self.bands[-1]
        if self.beyond and value > top:
            return f"{top_name}+{value - top}"
        if self.beyond and value < bottom:
            return f"{bottom_name}-{bottom - value}"
        name = bottom_name
        for lowest, band in self.bands:
            if value >= lowest:
                name = band
        return name

    def describe(self, value: int) -> str:
        """A value as players say it: the number and its word (``+3 Superb``)."""
        return f"{value:+d} {self.name(value)}"

    def value_of(self, word: str) -> int | None:
        """The level a word stands for (any case), or None."""
        key = word.strip().lower()
        for known, value in self.words:
            if known == key:
                return value
        return None

    def suggest(self, word: str) -> str | None:
        """'did you mean ...?' with the nearest word of this ladder."""
        names = [known for known, _ in self.words]
        import difflib  # here: only a misspelling needs it, not a roll that starts

        close = difflib.get_close_matches(word.strip().lower(), names, n=1, cutoff=0.5)
        if close:
            return f"did you mean '{close[0].capitalize()}'?"
        return f"{self.system} ladder words: " + ", ".join(n.capitalize() for n in names)

    def range_text(self, index: int) -> str:
        """The values of band ``index`` (``+7..+9``, ``<= -4``, ``>= +14``)."""
        lowest = self.bands[index][0]
        if index + 1 < len(self.bands):
            highest = self.bands[index + 1][0] - 1
            if index == 0 and not self.beyond:
                return f"<= {highest:+d}"
            return f"{lowest:+d}" if lowest == highest else f"{lowest:+d}..{highest:+d}"
        return f"{lowest:+d}" if self.beyond else f">= {lowest:+d}"
