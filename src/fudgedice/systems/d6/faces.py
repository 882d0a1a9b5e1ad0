"""D6 System dice read by hand: plain faces, the Wild Die's tosses marked
``w``, Character Point dice marked ``c``, and the word that separates the
two sides of an opposed or damage roll; each kind of die a source of its own."""

from __future__ import annotations

from functools import cache
from typing import Literal

from ...dice.hand import HandRoller, numbered_face, written
from ...dice.roller import Roller, roll_die
from ...errors import DiceValueError
from ...language.tree import D6, Pool
from ...results.dice import DieRoll, Mark
from .measure import EXPLODES
from .rules import SideRules

FaceKind = Literal["plain", "wild", "cp"]


class _ChainFaces(HandRoller):
    """The tosses of one kind of exploding die read by hand (the Wild Die's
    ``w6 w3``, every Character Point die's ``c4``), handed to the dice layer's
    walk one die at a time, and missed in the D6 System's own words."""

    __slots__ = ("mark", "name", "start")

    def __init__(self, faces: list[str], mark: str) -> None:
        super().__init__(faces)
        self.mark = mark
        self.name = ""
        self.start = 0

    def chain(self, name: str) -> None:
        """The next die's tosses follow: ``name`` is that die's, in errors."""
        self.name = name
        self.start = self.used

    def next_face(self, what: str) -> str:
        if self.used >= len(self.faces):
            mark = self.mark
            if self.used == self.start:
                need = f"needs a toss (mark it {mark}, such as {mark}4)"
            else:
                need = f"came up 6, so it rolls again: add its next toss as {mark}<face>"
            raise DiceValueError(f"not enough dice: the {self.name} {need}")
        return super().next_face(what)


class TossSources:
    """Where one side's tosses come from, a source for each kind of die: the
    random roller for all three, or faces read by hand and sorted by their
    marks (``w6`` Wild Die, ``c4`` Character Point), each kind a
    :class:`~fudgedice.dice.hand.HandRoller` of its own."""

    def __init__(self, roller: Roller, tokens: list[str] | None) -> None:
        self.plain: Roller = roller
        self.wild: Roller = roller
        self.cp: Roller = roller
        self.by_hand = tokens is not None
        if tokens is not None:
            queues: dict[FaceKind, list[str]] = {"plain": [], "wild": [], "cp": []}
            for token in tokens:
                kind, face = _hand_face(token)
                queues[kind].append(str(face))
            self.plain = HandRoller(queues["plain"])
            self.wild = _ChainFaces(queues["wild"], "w")
            self.cp = _ChainFaces(queues["cp"], "c")

    def given(self) -> int:
        """Plain dice read by hand."""
        assert isinstance(self.plain, HandRoller)
        return len(self.plain.faces)

    def wild_given(self) -> int:
        """Wild Die tosses read by hand (marked ``w``)."""
        assert isinstance(self.wild, HandRoller)
        return len(self.wild.faces)

    def wild_die(self) -> list[DieRoll]:
        return self._exploding(self.wild, "Wild Die", Mark.WILD)

    def cp_die(self, number: int) -> list[DieRoll]:
        return self._exploding(self.cp, f"Character Point die {number}", Mark.CHARACTER_POINT)

    def _exploding(self, source: Roller, name: str, kind: Mark) -> list[DieRoll]:
        """One exploding die's tosses: in the language's terms a one-die pool
        exploding on 6, walked by the dice layer, each toss marked ``kind``."""
        if isinstance(source, _ChainFaces):
            source.chain(name)
        _, tosses = roll_die(_exploding_pool(name), source)
        for toss in tosses:
            toss.mark(kind)
        return tosses

    def check_used(self, rules: SideRules) -> None:
        """Dice read by hand: every marked face must have been needed."""
        if not self.by_hand:
            return
        assert isinstance(self.plain, HandRoller)
        assert isinstance(self.wild, HandRoller) and isinstance(self.cp, HandRoller)
        plain, wild, cp = self.plain.take_rest(), self.wild.take_rest(), self.cp.take_rest()
        if plain:
            raise DiceValueError(
                f"too many dice: {rules.code} rolls {rules.shape().plain} besides the Wild Die "
                f"and Character Point dice (left over: {' '.join(plain)})"
            )
        if wild:
            why = "it rolls again only after a 6" if rules.wild else "this roll has no Wild Die"
            raise DiceValueError(
                f"too many Wild Die tosses: {why} "
                f"(left over: {' '.join('w' + face for face in wild)})"
            )
        if cp:
            raise DiceValueError(
                f"too many Character Point dice: {rules.character_points} bought, each rolls "
                f"again only after a 6 (left over: {' '.join('c' + face for face in cp)})"
            )


@cache
def _exploding_pool(name: str) -> Pool:
    """The Wild Die or a Character Point die as the dice layer rolls it; its
    source names it in the walk's errors (``the Wild Die exploded more than ...``)."""
    return Pool(1, D6, f"the {name}", explode=EXPLODES)


def _hand_face(token: str) -> tuple[FaceKind, int]:
    word = token.strip().lower()
    kind: FaceKind = "plain"
    for mark, marked in (("cp", "cp"), ("c", "cp"), ("w", "wild")):
        if word.startswith(mark):
            kind, word = marked, word[len(mark) :]  # type: ignore[assignment]
            break
    face = numbered_face(word, 6)
    if face is None or not 1 <= face <= 6:
        raise DiceValueError(
            f"{written(token)} is not a face of a D6 System die (1..6)",
            hint="mark the Wild Die's tosses with w (w6 w3) and Character Point dice with c (c4)",
        )
    return kind, face


def split_hand(
    tokens: list[str], two_sided: bool, damage: bool
) -> tuple[list[str], list[str] | None]:
    """Dice read by hand: the other side's faces follow the word ``opp``
    (or, in a damage roll, ``dmg``, the word that introduces it)."""
    marks = [i for i, token in enumerate(tokens) if token.strip().lower() in ("opp", "dmg")]
    if not two_sided:
        if marks:
            raise DiceValueError(
                f"'{tokens[marks[0]].strip()}' separates the two sides of an opposed or "
                "damage roll only"
            )
        return tokens, None
    if len(marks) != 1:
        if damage:
            raise DiceValueError(
                "a damage roll read by hand gives the damage dice, then 'dmg' (or 'opp'), "
                "then the resistance's",
                hint="fudgedice read 'd6: 4D dmg 3D' 4 2 3 w5 dmg 3 2 w6 w1",
            )
        raise DiceValueError(
            "an opposed roll read by hand gives the initiator's dice, then 'opp', "
            "then the opponent's",
            hint="fudgedice read 'd6: 3D opp 2D' 4 2 w5 opp 3 w6 w1",
        )
    return tokens[: marks[0]], tokens[marks[0] + 1 :]
