"""Roll texts generated from the roll language (src/fudgedice/language/grammar.lark,
docs/notation.md and the systems' pages).

Most texts are meant to be accepted (so that the rolling, measuring and reading code
is reached, not only the parser), with a share of near misses: sizes just past a
limit, a modifier the pool can't take, a word of another system. Everything is drawn
from the ``random.Random`` given, so a seed gives the same texts on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import fudgedice

FUDGE_WORDS = ("Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb", "Legendary")
POWER_WORDS = (
    "Subhuman",
    "Terrible",
    "Poor",
    "Mediocre",
    "Fair",
    "Good",
    "Great",
    "Superb",
    "Incredible",
    "Legendary",
    "Superhuman",
    "Unearthly",
    "Cosmic",
)
FUDGE3D6_WORDS = (
    "Abysmal",
    "Terrible",
    "Poor",
    "Mediocre",
    "Fair",
    "Good",
    "Great",
    "Superb",
    "Legendary",
)
D6_DIFFICULTIES = (
    "Very Easy",
    "Easy",
    "Moderate",
    "Difficult",
    "Very Difficult",
    "Heroic",
    "Legendary",
)
POWER_OPTIONS = ("adv", "adv2", "dis", "dis2", "take0")
D6_CRIT = ("complication", "cancel", "ignore")
TECHNIQUES = ("@d6", "@3d6", "@d%", "@4d6", "@d100", "@ d6", "@2d6", "@d8", "@4d6", "@D6")
COMPARES = (">=", "<=", ">", "<", "=")
KEEPS = ("kh", "kl", "dh", "dl", "k")
EXPLODES = ("!", "!!", "!p")
BIG_NUMBERS = (
    10**12,
    2**31,
    2**53 + 1,
    2**62,
    2**63 - 1,
    2**63,
    2**64,
    10**20,
    10**100,
    10**308,
    10**309,
    10**400,
)
LABELS = ("attack", "", "  spaced  ", "dégâts ✓", "#", "a # b", "x" * 120, "vs Good", "opp 3d6")


class RollGrammar:
    """Draws roll texts: ``text()`` picks a system and builds a roll of it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # small pieces -------------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items: Sequence[str]) -> str:
        return items[self.rng.randrange(len(items))]

    def case(self, word: str) -> str:
        """Words and letters are case-insensitive: vary them."""
        roll = self.rng.random()
        if roll < 0.7:
            return word
        if roll < 0.8:
            return word.upper()
        if roll < 0.9:
            return word.lower()
        return "".join(c.upper() if self.chance(0.5) else c.lower() for c in word)

    def space(self) -> str:
        roll = self.rng.random()
        return "" if roll < 0.6 else " " if roll < 0.95 else self.pick(("  ", "\t", " \t "))

    def number(self) -> int:
        """Mostly small, sometimes large, now and then far beyond any limit."""
        roll = self.rng.random()
        if roll < 0.7:
            return self.rng.randint(0, 10)
        if roll < 0.88:
            return self.rng.randint(11, 1000)
        if roll < 0.97:
            return self.rng.choice(BIG_NUMBERS)
        return int("9" * self.rng.randint(20, 600))

    def number_text(self) -> str:
        text = str(self.number())
        return "0" + text if self.chance(0.02) else text

    def count(self) -> str:
        """The N of NdX: often left out, mostly small."""
        roll = self.rng.random()
        if roll < 0.15:
            return ""
        if roll < 0.87:
            return str(self.rng.randint(0, 10))
        if roll < 0.98:
            return str(self.rng.randint(11, 120))
        return str(self.rng.choice((1000, 2000, 9999, 10000, 10001, 10**6, 10**309)))

    def sides(self) -> str:
        roll = self.rng.random()
        if roll < 0.75:
            return str(self.rng.choice((2, 3, 4, 6, 6, 6, 8, 10, 12, 20, 100)))
        if roll < 0.85:
            return "%"
        if roll < 0.95:
            return str(self.rng.randint(0, 40))
        return str(self.rng.choice((1, 1000, 9999, 10000, 10001, 10**309)))

    def compare(self, low: int, high: int) -> str:
        op = self.pick(COMPARES)
        value = self.rng.randint(low - 1, high + 1)
        if self.chance(0.03):
            value = self.number()
        return f"{op}{self.pick(('', '', '', ' '))}{value}"

    # pools -------------------------------------------------------------------------

    def numbered_pool(self) -> str:
        sides = self.sides()
        high = 100 if sides == "%" else min(int(sides), 60)
        text = f"{self.count()}{self.case('d')}{sides}"
        return text + self.modifiers(1, max(high, 1), fudge=False)

    def fudge_pool(self) -> str:
        variant = self.pick(("F", "F", "F", "F", "F.1", "F.2", "F.3", "F.0", "f"))
        text = f"{self.count() if self.chance(0.6) else '4'}{self.case('d')}{variant}"
        if self.chance(0.25):
            return text + self.pick(TECHNIQUES)
        return text + self.modifiers(-1, 1, fudge=True)

    def modifiers(self, low: int, high: int, *, fudge: bool) -> str:
        """Each kind at most once (a second one is a near miss), in any order."""
        parts: list[str] = []
        if self.chance(0.3):
            keep = self.case(self.pick(KEEPS))
            parts.append(keep + (str(self.rng.randint(0, 6)) if self.chance(0.7) else ""))
        if self.chance(0.25):
            mode = self.case(self.pick(EXPLODES))
            roll = self.rng.random()
            if roll < 0.5:
                on = ""
            elif roll < 0.7:
                on = str(self.rng.randint(max(low, high - 2), high + 1))
            else:
                on = self.compare(max(low, high - 2), high)
            parts.append(mode + on)
        if self.chance(0.2):
            kind = self.case(self.pick(("r", "ro")))
            value = self.rng.randint(low - 1, min(high, low + 2))
            on = str(value) if self.chance(0.5) else self.compare(low, min(high, low + 2))
            parts.append(kind + on)
        counting = self.chance(0.2)
        if counting:
            parts.append(self.compare(low, high))
            if self.chance(0.4):
                value = self.rng.randint(low, min(high, low + 1))
                on = str(value) if self.chance(0.5) else self.compare(low, low + 1)
                parts.append(self.case("f") + on)
        elif self.chance(0.02):
            parts.append(self.case("f") + str(low))  # failures without successes
        if self.chance(0.03) and parts:
            parts.append(parts[0])  # the same kind twice
        self.rng.shuffle(parts)
        return "".join(self.space() + part for part in parts)

    # expressions --------------------------------------------------------------------

    def expression(self, atom: Callable[[], str], depth: int = 0) -> str:
        """Arithmetic of atoms: + - * /, signs and groups, nested a little."""
        roll = self.rng.random()
        if depth > 3 or roll < 0.45:
            return atom()
        if roll < 0.75:
            op = self.pick(("+", "+", "-", "*", "/"))
            left = self.expression(atom, depth + 1)
            right = self.expression(atom, depth + 1)
            return f"{left}{self.space()}{op}{self.space()}{right}"
        if roll < 0.85:
            return f"-{self.expression(atom, depth + 1)}"
        if roll < 0.9:
            return f"+{self.expression(atom, depth + 1)}"
        return f"({self.space()}{self.expression(atom, depth + 1)}{self.space()})"

    def generic_atom(self) -> str:
        roll = self.rng.random()
        if roll < 0.3:
            return self.number_text()
        if roll < 0.75:
            return self.numbered_pool()
        if roll < 0.95:
            return self.fudge_pool()
        return self.case(self.pick(FUDGE_WORDS))

    def fudge_atom(self) -> str:
        roll = self.rng.random()
        if roll < 0.35:
            return self.case(self.pick(FUDGE_WORDS)) + (
                f"{self.pick('+-')}{self.rng.randint(0, 5)}" if self.chance(0.3) else ""
            )
        if roll < 0.6:
            return self.fudge_pool()
        if roll < 0.85:
            return str(self.rng.randint(-3, 5)) if self.chance(0.9) else self.number_text()
        return self.numbered_pool()

    def label(self) -> str:
        if not self.chance(0.08):
            return ""
        return f"{self.space()}#{self.pick(('', ' '))}{self.pick(LABELS)}"

    # systems ------------------------------------------------------------------------

    def fudge(self) -> str:
        """fudge: (or no prefix): the generic dice, traits, vs, opp, techniques, coin."""
        atom = self.generic_atom if self.chance(0.4) else self.fudge_atom
        text = self.expression(atom)
        if self.chance(0.1):
            text += " " + self.case("coin")
        roll = self.rng.random()
        if roll < 0.2:
            target = self.case(self.pick(FUDGE_WORDS))
            if self.chance(0.2):
                target = self.expression(self.fudge_atom)
            text += f" {self.case('vs')} {target}"
        elif roll < 0.35:
            text += f" {self.case('opp')} {self.expression(self.fudge_atom)}"
        return text

    def power(self) -> str:
        dice = self.pick(("4dF", "4dF", "3dF", "dF", "6dF", "", "4dF@d6", "4dF@3d6", "2d6"))
        bonus = f"{self.pick('+-')}{self.rng.randint(0, 12)}" if self.chance(0.7) else ""
        if not dice and not bonus:
            bonus = "+" + str(self.rng.randint(0, 5))
        text = (self.case(self.pick(POWER_WORDS)) if self.chance(0.2) else dice) + bonus
        text += self.power_options()
        roll = self.rng.random()
        if roll < 0.35:
            target = self.case(self.pick(POWER_WORDS)) if self.chance(0.6) else self.number_text()
            text += f" {self.case('vs')} {target}"
        elif roll < 0.5:
            text += f" {self.case('opp')} 4dF+{self.rng.randint(0, 6)}{self.power_options()}"
        return text

    def power_options(self) -> str:
        options = [self.pick(POWER_OPTIONS) for _ in range(self.rng.choice((0, 0, 1, 1, 2, 3)))]
        return "".join(" " + self.case(option) for option in options)

    def fudge3d6(self) -> str:
        text = self.skill()
        roll = self.rng.random()
        if roll < 0.3:
            text += f" {self.case('opp')} {self.skill()}"
        elif roll < 0.33:
            text += f" {self.case('vs')} {self.skill()}"  # refused: no difficulties
        elif roll < 0.36:
            text += " " + self.pick(("3d6", "adv", "4dF", "Good"))
        return text

    def skill(self) -> str:
        base = (
            self.case(self.pick(FUDGE3D6_WORDS))
            if self.chance(0.6)
            else str(self.rng.choice((self.rng.randint(-2, 14), self.number())))
        )
        for _ in range(self.rng.choice((0, 0, 1, 1, 2))):
            base += f"{self.space()}{self.pick('+-')}{self.space()}{self.rng.randint(0, 12)}"
        return base

    def d6(self) -> str:
        text = self.d6_code() + self.d6_options()
        roll = self.rng.random()
        if roll < 0.3:
            target = (
                self.case(self.pick(D6_DIFFICULTIES))
                if self.chance(0.6)
                else self.expression(lambda: str(self.rng.randint(0, 40)))
            )
            text += f" {self.case('vs')} {target}"
        elif roll < 0.5:
            text += f" {self.case('opp')} {self.d6_code()}{self.d6_options()}"
        elif roll < 0.65:
            # damage against resistance: a weapon's dice on the left, armor's on the right
            # (and now and then where they do not belong)
            text += self.d6_part("weapon")
            text += f" {self.case('dmg')} {self.d6_code()}{self.d6_options()}"
            text += self.d6_part("armor")
        else:
            text += self.d6_part(self.pick(("weapon", "armor")), 0.05)
        return text

    def d6_part(self, name: str, chance: float = 0.5) -> str:
        """``weapon 2D``, ``armor 1``: dice that are not the character's own,
        with an option after them now and then."""
        if not self.chance(chance):
            return ""
        code = self.d6_code() if self.chance(0.7) else str(self.rng.randint(-1, 3))
        return f" {self.case(name)} {code}{self.d6_options()}"

    def d6_code(self) -> str:
        def dice() -> str:
            roll = self.rng.random()
            if roll < 0.85:
                n = self.rng.randint(0, 12)
            elif roll < 0.97:
                n = self.rng.randint(13, 60)
            else:
                n = self.rng.choice((100, 1000, 10000, 10001))
            return f"{n}{self.pick(('D', 'D', 'd'))}"

        text = dice()
        for _ in range(self.rng.choice((0, 1, 1, 2))):
            op = self.pick(("+", "-", "+"))
            term = dice() if self.chance(0.2) else str(self.rng.randint(0, 8))
            text += f"{self.space()}{op}{self.space()}{term}"
        if self.chance(0.05):
            text = f"({text})" + self.pick(("", "*2", "!", "kh1", "+Good", "+3d6"))
        return text

    def d6_options(self) -> str:
        choices = (
            "nowild",
            f"crit={self.pick(D6_CRIT)}",
            f"crit = {self.pick(D6_CRIT)}",
            f"cp{self.rng.randint(0, 5)}",
            f"cp={self.rng.randint(0, 5)}",
            "cp",
            "fp",
            "fast",
            "wildonly",
            "faster",
            "allow=cpfp",
            "crit=bogus",
            "allow=all",
            "unarmed",
            "rpb",
            f"rp={self.rng.randint(0, 20)}",
            "rp=",
            "rpb=3",
        )
        options = [self.pick(choices) for _ in range(self.rng.choice((0, 0, 1, 1, 2, 3)))]
        return "".join(" " + self.case(option) for option in options)

    # whole rolls --------------------------------------------------------------------

    def text(self) -> str:
        """One roll: a system prefix (or none), its roll, maybe a label."""
        roll = self.rng.random()
        if roll < 0.35:
            prefix, body = self.pick(("", "", "fudge:")), self.fudge()
        elif roll < 0.5:
            prefix, body = "power:", self.power()
        elif roll < 0.65:
            prefix, body = "3d6fudge:", self.fudge3d6()
        elif roll < 0.85:
            prefix, body = "d6:", self.d6()
        elif roll < 0.9:
            prefix, body = "", self.expression(self.generic_atom)
        elif roll < 0.93:
            prefix, body = self.declared()
        else:
            prefix = self.odd_prefix()
            body = self.rng.choice((self.fudge, self.d6, self.power))()
        if prefix:
            colon = prefix[:-1] + self.pick(("", "", " ")) + ":"
            prefix = self.case(colon) + self.pick(("", " ", " ", "  "))
        text = prefix + body + self.label()
        if self.chance(0.01):
            text = self.big(text)
        return text

    def declared(self) -> tuple[str, str]:
        """Any installed system (a plugin's included), from its declaration:
        one of its examples, with one of its words or a number after it."""
        every = fudgedice.SYSTEMS.declarations
        name = self.pick(list(every))
        declared = every[name]
        body = self.pick(declared.examples or ("4dF",))
        if declared.words and self.chance(0.3):
            body += " " + self.case(self.pick(sorted(declared.words)))
        elif self.chance(0.3):
            body += self.pick(("+1", "-2", " vs 3", " opp 2d6"))
        return f"{name}:", body

    def odd_prefix(self) -> str:
        return self.pick(("bogus:", "4dF:", "D6:", "fudge3d6:", "powr:", "3D6FUDGE:", "d6 :"))

    def big(self, text: str) -> str:
        """Near the size limits: many terms, deep nesting, a long text."""
        roll = self.rng.random()
        if roll < 0.3:
            return "+".join([text] * self.rng.randint(2, 40))
        if roll < 0.6:
            depth = self.rng.choice((10, 49, 50, 51, 200))
            return "(" * depth + text + ")" * depth
        if roll < 0.8:
            return "-" * self.rng.choice((2, 49, 50, 51, 300)) + text
        return text + " " * self.rng.choice((100, 999, 1000)) + "+1"
