"""What a system tells character sheets (:mod:`fudgedice.sheets`): how a
sheet writes its traits' levels, how its rolls say them, and which of the
sheets' kinds of state it keeps. A system's ``System.sheet``; a system with
none has no sheets.

The sheets' own rules (the Fudge wound track, the D6 System's wounds, Fate's
stress and pyramid) are the sheets'; a system names the one it keeps
(``state``). Everything else a sheet does by system is read from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # a name for annotations: Fate's stress module loads with Fate's sheets
    from .fate.stress import BoxKind

FUDGE_KEYS = ("gifts", "faults", "fudge_points", "ep", "ep_costs", "wounds", "wound_boxes")
"""The keys of the Fudge family's sheets: Fudge's, Power Fudge's and 3d6 Fudge's."""


def fudge_family_template(levels: str) -> str:
    """A new Fudge-family sheet's keys, its levels written as ``levels`` says."""
    return f"""\
ep = 0               # unspent Experience Points
fudge_points = 3
gifts = []           # such as ["Night vision"]
faults = []          # such as ["Curious"]

[attributes]         # {levels}; attributes default to Fair
Strength = "Fair"
Agility = "Fair"
Health = "Fair"
Reasoning = "Fair"
Perception = "Fair"
Will = "Fair"

[skills]             # most skills default to Poor; some don't exist untrained
Melee = "Poor"
Climbing = "Poor"
Stealth = "Poor"

# The wound track: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near Death.
# Hurt is -1 to every roll, Very Hurt -2; Incapacitated and Near Death roll nothing.
[wounds]             # boxes checked
Scratch = 0          # of 3 boxes
Hurt = 0
"Very Hurt" = 0
Incapacitated = 0
"Near Death" = 0

# EP to raise a trait to a level: Superb 8, Great 4, Good 2, Fair/Mediocre/Poor/Terrible 1.
# Set your game's own with a table such as:
# [ep_costs]
# Legendary = 16
"""


_NONE: Mapping[str, Any] = MappingProxyType({})

State = Literal["", "wound track", "wound level", "stress"]
"""The state a sheet keeps beside its traits: none; the Fudge wound track
(``[wounds]``, ``[wound_boxes]``); the D6 System's wound level (``wound``);
Fate's stress, consequences and skill pyramid."""


class Stress:
    """What a sheet that keeps Fate's stress (``state = "stress"``) reads:
    its tracks, their boxes and consequences, and the check of its traits'
    spread (the skill pyramid, Fate Accelerated's approaches)."""

    __slots__ = (
        "boxes",
        "check",
        "check_hint",
        "check_key",
        "consequences",
        "fault",
        "kind",
        "tracks",
    )

    tracks: Mapping[str, str]
    """Each stress track and the skill that sizes it ("": none, the track is
    sized as for a Mediocre skill)."""
    boxes: Callable[[int], tuple[int, ...]]
    """A track's boxes, numbered, by the level of its skill."""
    kind: BoxKind
    """How the boxes absorb a hit (Fate Core's one box, Condensed's 1-point boxes)."""
    consequences: Callable[[int], Mapping[str, int]]
    """The consequences and the shifts each absorbs, by the level of a track's skill."""
    fault: Callable[[Mapping[str, int]], str | None]
    """Why the traits' levels (by name) break the spread, or None."""
    check: str
    """The spread's name in messages: ``the pyramid``."""
    check_key: str
    """The key a sheet sets to false to opt out of the check: ``pyramid``."""
    check_hint: str
    """What the spread asks, for the hint of a sheet that breaks it."""

    def __init__(
        self,
        tracks: Mapping[str, str],
        boxes: Callable[[int], tuple[int, ...]],
        kind: BoxKind,
        consequences: Callable[[int], Mapping[str, int]],
        fault: Callable[[Mapping[str, int]], str | None],
        check: str,
        check_key: str,
        check_hint: str,
    ) -> None:
        self.tracks, self.boxes, self.kind, self.consequences = tracks, boxes, kind, consequences
        self.fault, self.check, self.check_key, self.check_hint = (
            fault,
            check,
            check_key,
            check_hint,
        )

    def slots(self, levels: Mapping[str, int], track: str | None = None) -> dict[str, int]:
        """The consequences of a character whose tracks' skills are at
        ``levels`` (by track), and what each absorbs: those every character
        has, and each track's own (``track``: that track's alone, the ones a
        hit on it may take). A track's own are named as a sheet keeps them:
        the first track's extra mild is ``extra mild``; another's, when one
        before it has one too, ``extra mild TRACK``. So Physique and Will
        both at Superb give two, each for its own harm, and a sheet with one
        keeps the name it always had.

        >>> from fudgedice.systems.fate.sheet import FATE_SHEET
        >>> FATE_SHEET.stress.slots({"physical": 5, "mental": 5})
        {'mild': 2, 'moderate': 4, 'severe': 6, 'extra mild': 2, 'extra mild mental': 2}
        >>> FATE_SHEET.stress.slots({"physical": 5, "mental": 5}, "mental")
        {'mild': 2, 'moderate': 4, 'severe': 6, 'extra mild mental': 2}
        >>> FATE_SHEET.stress.slots({"physical": 1, "mental": 5}, "mental")
        {'mild': 2, 'moderate': 4, 'severe': 6, 'extra mild': 2}
        """
        every = dict(self.consequences(0))  # a Mediocre skill's: every character's
        slots = dict(every)
        named: set[str] = set()
        for each, level in levels.items():
            for name, shifts in self.consequences(level).items():
                if name in every:
                    continue
                if track is None or each == track:
                    slots[f"{name} {each}" if name in named else name] = shifts
                named.add(name)
        return slots


class SheetLevels:
    """A system's character sheets. A plain class, not a dataclass: a roll
    loads its system's, and building a dataclass costs a command milliseconds."""

    __slots__ = (
        "absent",
        "codes",
        "keys",
        "levels_help",
        "named",
        "penalised",
        "said",
        "signed",
        "spendable",
        "state",
        "stress",
        "template",
        "typical",
        "words",
        "written",
    )

    said: Callable[[int], str]
    """A level as its roll says it when the sheet wrote no word: a ladder's
    word (``Great+1``), ``4dF+2``, a number, a die code, ``4d6``."""
    named: Callable[[int], str]
    """A level as a page names it: ``+1 Good``, ``6 Good``, ``4D+1``."""
    written: Callable[[int], str]
    """A level as a sheet writes it in words (a raised trait written in
    words stays in words): ``Great``, ``Superb+1``."""
    words: Mapping[str, int]
    """The level words (lower case) a sheet may write, and their numbers."""
    signed: bool
    """Levels number either way from a ladder's zero (written ``+1``); else from 1."""
    codes: bool
    """Levels are D6 die codes (``3D+1``, a skill ``Dexterity+1D``), in pips."""
    typical: str
    """The difficulty a sheet's page measures each trait against (`` vs Fair``)."""
    absent: str
    """What a trait not on the sheet is, for the hint of a name not found."""
    penalised: str
    """What a wound's penalty is taken from."""
    levels_help: str
    """How a new sheet says its levels are written."""
    keys: tuple[str, ...]
    """The sheet's own keys, beside those every sheet has."""
    spendable: Mapping[str, str]
    """The points ``sheet spend`` takes, by name, and the key each is kept under."""
    state: State
    """The state of the sheets' rules it keeps (none: its sheets are edited by hand)."""
    stress: Stress | None
    """Fate's stress, consequences and spread, for a sheet whose ``state`` is ``stress``."""
    template: str
    """A new sheet's keys after ``system``, ``name`` and ``player``, commented for
    a player to fill in (``fudgedice sheet new``); none: a ``[traits]`` table."""

    def __init__(
        self,
        said: Callable[[int], str],
        named: Callable[[int], str],
        written: Callable[[int], str],
        *,
        words: Mapping[str, int] = _NONE,
        signed: bool = False,
        codes: bool = False,
        typical: str = "",
        absent: str = "",
        penalised: str = "every trait",
        levels_help: str = "whole numbers",
        keys: tuple[str, ...] = (),
        spendable: Mapping[str, str] = _NONE,
        state: State = "",
        stress: Stress | None = None,
        template: str = "",
    ) -> None:
        self.said, self.named, self.written, self.words = said, named, written, words
        self.signed, self.codes, self.typical, self.absent = signed, codes, typical, absent
        self.penalised, self.levels_help, self.keys = penalised, levels_help, keys
        self.spendable, self.state, self.template = spendable, state, template
        self.stress = stress
        if (state == "stress") != (stress is not None):
            raise ValueError("a sheet that keeps Fate's stress says how, and only such a sheet")


def numbered(roll: str) -> SheetLevels:
    """Sheets whose traits are whole numbers from 1, each rolled as ``roll``
    says with ``{level}`` in it (``{level}d6``: a trait of 4 rolls ``4d6``)."""
    return SheetLevels(said=lambda level: roll.format(level=level), named=str, written=str)
