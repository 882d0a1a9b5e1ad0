"""The arithmetic of play, replayed along the log (docs/fairness.md, "Play").

:class:`Ledger` walks the entries with the verifier and keeps what the log
says of the table: each character's fate points (as the last play entry or
spend left them), the GM's pool, every aspect's free invokes. Each play
entry and each invoke on a roll must follow from it: no invoke paid without
a point, no free invoke that is not there, no pool below 0, points that go
on from one entry to the next (unless a sheet change of that member lies
between: a hand edit may change them), an advantage's free invokes as its
roll's shifts give them, a D6 order as its rolls' totals give it.

What a hidden spend not yet opened did is not known: the points of its
roller and the GM's pool are taken as the next entry states them, and the
spend is counted in :attr:`Ledger.waiting`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..play import CONSEQUENCE, RECOVER
from .document import whole
from .play_rolls import Earlier, PlayFailed, advantage_made, ordered

GAINS = {"accept": 1, "refuse": -1}
"""The fate points an action's one character gains (an award's is its count)."""


class Ledger:
    """The table as the log has told it so far."""

    def __init__(self) -> None:
        self.points: dict[str, tuple[int, int]] = {}
        """Member id -> (fate points, the seq that left them)."""
        self.pool: tuple[int, int] | None = None
        """The GM's pool and the seq that left it; None: not known."""
        self.aspects: dict[str, dict[str, Any]] = {}
        """Aspect id -> its kind, free invokes left, and (a consequence) its slot."""
        self.compels: dict[str, str] = {}
        """Compel id -> the member compelled, for each compel on offer."""
        self.made: set[str] = set()
        """Every aspect id the log made: none is made twice."""
        self.margins: dict[int, int | None] = {}
        """The shifts of each roll made again from its revealed seed."""
        self.invoked: dict[int, set[str]] = {}
        """The aspects invoked on each roll's chain of spends, by the chain's first roll."""
        self.conflict: dict[str, int] | None = None
        """The consequences each character took in the conflict under way (None: none is)."""
        self.scene = 0
        """The seq of the entry that began the scene (0: the first scene)."""
        self.advantaged: set[int] = set()
        """The rolls (the first of each chain) that made an advantage in the scene."""
        self.replayed = 0
        """Play entries and invokes whose arithmetic was replayed."""
        self.waiting = 0
        """Hidden spends not opened yet: their points wait for their opening."""

    def sheet(self, entry: Mapping[str, Any]) -> None:
        """A sheet change: its owner's points may have been edited by hand."""
        member = entry.get("member")
        if isinstance(member, str):
            self.points.pop(member, None)
        else:  # an old entry that names no member: anyone's may have changed
            self.points.clear()

    def hidden_spend(self, entry: Mapping[str, Any]) -> None:
        """A spend not opened yet: what it paid, and with what, is not known."""
        member = entry.get("member")
        if isinstance(member, str):
            self.points.pop(member, None)
        self.pool = None
        self.waiting += 1

    def _moved(self, member: str, pair: list[int], seq: int) -> None:
        """Fate points going from ``pair[0]`` to ``pair[1]``: from where the log left them."""
        known = self.points.get(member)
        if known is not None and known[0] != pair[0]:
            raise PlayFailed(
                f"it starts {member}'s fate points at {pair[0]}, and seq {known[1]} left "
                f"them at {known[0]}"
            )
        self.points[member] = (pair[1], seq)

    def _pool(self, pair: list[int], seq: int) -> None:
        if self.pool is not None and self.pool[0] != pair[0]:
            raise PlayFailed(
                f"it starts the GM's pool at {pair[0]}, and seq {self.pool[1]} left it at "
                f"{self.pool[0]}"
            )
        self.pool = (pair[1], seq)

    def play(self, seq: int, fields: Mapping[str, Any], earlier: Earlier) -> None:
        """A play entry (its fields' shapes checked): its arithmetic."""
        action, args = fields["action"], fields["args"]
        points: dict[str, list[int]] = fields["points"]
        if action in ("award", "accept", "refuse") and list(points) != [args.get("member")]:
            raise PlayFailed(
                f"{_an(action)} changes the fate points of {args.get('member')!r} alone"
            )
        if action not in ("award", "accept", "refuse", "session", "end_conflict") and points:
            raise PlayFailed(f"{_an(action)} changes no fate points")
        for member, pair in points.items():
            _gained(action, args, member, pair)
            self._moved(member, pair, seq)
        self._gm_pool(seq, action, args, fields["gm_pool"])
        if action in ("aspect", "advantage", CONSEQUENCE):
            self._made(seq, action, args, fields, earlier)
            if action == CONSEQUENCE and self.conflict is not None:
                member = str(args.get("member"))
                self.conflict[member] = self.conflict.get(member, 0) + 1
        elif action == RECOVER:
            self._recovered(args)
        elif action == "initiative" and self.conflict is None:  # again: the same conflict
            self.conflict = {}
        elif action == "end_conflict":
            self._ended(args, points)
        elif action in ("remove", "rename"):
            aspect = args.get("aspect")
            if not isinstance(aspect, str) or aspect not in self.aspects:
                raise PlayFailed(f"it names the aspect {aspect!r}, which the log has not")
            if action == "remove":
                del self.aspects[aspect]
        elif action in ("compel", "accept", "refuse"):
            self._compel(action, args, fields)
        elif action in ("scene", "session"):
            self.scene, self.advantaged, self.compels = seq, set(), {}
            self.aspects = {
                key: value for key, value in self.aspects.items() if value["kind"] == CONSEQUENCE
            }
        elif action == "order":
            ordered(seq, args, earlier, fields["member"])
        self.replayed += 1

    def _recovered(self, args: Mapping[str, Any]) -> None:
        """Consequences healed on a sheet: each an aspect the log made for that slot."""
        member, aspects, slots = args.get("member"), args.get("aspects"), args.get("slots")
        if not isinstance(aspects, list) or not isinstance(slots, list) or not aspects:
            raise PlayFailed("it heals no consequence")
        if len(aspects) != len(slots):
            raise PlayFailed("it names a slot for each consequence it heals")
        for aspect, slot in zip(aspects, slots, strict=True):
            held = self.aspects.get(aspect) if isinstance(aspect, str) else None
            if held is None or held["kind"] != CONSEQUENCE or held["slot"] != [member, slot]:
                raise PlayFailed(
                    f"it heals the consequence {aspect!r} of {member!r} ({slot!r}), which the "
                    "log has not"
                )
            del self.aspects[aspect]

    def _ended(self, args: Mapping[str, Any], points: Mapping[str, list[int]]) -> None:
        """A conflict's end: a fate point per consequence taken in it (as the
        log has them since it began), and one for conceding."""
        logged, self.conflict = self.conflict or {}, None
        if not args and not points:
            return  # an end as tables logged it before ends paid: no point, nothing to count
        taken, conceded, awarded = args.get("taken"), args.get("conceded"), args.get("awarded")
        if taken != logged:
            raise PlayFailed(
                f"it counts the consequences taken in the conflict as {taken!r}, and the log "
                f"has {logged}"
            )
        if not isinstance(conceded, list) or not all(isinstance(who, str) for who in conceded):
            raise PlayFailed("its conceded are not member ids")
        if len(set(conceded)) < len(conceded):
            raise PlayFailed("its conceded name one twice")
        if not isinstance(awarded, dict) or set(awarded) != set(points):
            raise PlayFailed("its awarded points are not those of its characters' points")
        for member, count in awarded.items():
            wanted = logged.get(member, 0) + int(member in conceded)
            if count != wanted or not wanted:
                raise PlayFailed(f"it awards {member} {count!r} fate points, and the conflict "
                                 f"gives {wanted}")  # fmt: skip
        if any(member not in awarded for member in conceded):
            raise PlayFailed("it awards no fate point to one who conceded")

    def _gm_pool(self, seq: int, action: str, args: Mapping[str, Any], pool: Any) -> None:
        if action in ("scene", "session"):
            after = args.get("pool")
            if not whole(after) or after < 0:
                raise PlayFailed("a new scene names the GM's pool it begins with")
            if pool is not None and pool[1] != after:
                raise PlayFailed(f"its GM's pool ends at {pool[1]}, and the scene's is {after}")
            if pool is not None:
                self._pool(pool, seq)
            elif self.pool is not None and self.pool[0] != after:
                raise PlayFailed(f"the GM's pool was {self.pool[0]}, and it says it stays {after}")
            self.pool = (after, seq)
        elif action == "gm_spend":
            count = args.get("count")
            if pool is None or not whole(count) or pool[1] != pool[0] - count:
                raise PlayFailed("a GM's spend takes its count off the GM's pool")
            self._pool(pool, seq)
        elif pool is not None:
            raise PlayFailed(f"{_an(action)} does not change the GM's pool")

    def _made(
        self,
        seq: int,
        action: str,
        args: Mapping[str, Any],
        fields: Mapping[str, Any],
        earlier: Earlier,
    ) -> None:
        """An aspect made: its free invokes as the rules give them."""
        aspect, free, kind = args.get("aspect"), args.get("free"), args.get("kind")
        if not isinstance(aspect, str) or aspect in self.made:
            raise PlayFailed(f"it makes the aspect {aspect!r}, whose id is taken or none")
        if not whole(free):
            raise PlayFailed("its aspect's free invokes are not a whole number")
        if action == "aspect":
            if kind not in ("situation", "boost") or not 0 <= free <= 2:
                raise PlayFailed("the GM's aspect is a situation aspect with 0 to 2 free invokes")
            if kind == "boost" and free != 1:
                raise PlayFailed("a boost has 1 free invoke")
        elif action == "advantage":
            advantage_made(seq, args, fields, earlier, self.margins)
            self._once(args["of"], earlier)
        elif free != 1 or kind != CONSEQUENCE:
            raise PlayFailed("a consequence is an aspect with 1 free invoke")
        elif args.get("holder") == args.get("member"):
            raise PlayFailed("a consequence's free invoke is held by its own character's player")
        if action == CONSEQUENCE:
            for key, value in list(self.aspects.items()):  # one consequence a slot
                if value["kind"] == CONSEQUENCE and value["slot"] == [
                    args.get("member"),
                    args.get("slot"),
                ]:
                    del self.aspects[key]
        self.made.add(aspect)
        slot = [args.get("member"), args.get("slot")]
        holder = args.get("holder")
        self.aspects[aspect] = {"kind": kind, "free": free, "slot": slot, "holder": holder}

    def _compel(self, action: str, args: Mapping[str, Any], fields: Mapping[str, Any]) -> None:
        """A compel offered, then answered once, by the member compelled."""
        compel, member = args.get("compel"), args.get("member")
        if not isinstance(compel, str) or not isinstance(member, str):
            raise PlayFailed(f"{_an(action)} names no compel and member")
        if action == "compel":
            if compel in self.compels:
                raise PlayFailed(f"it offers the compel {compel!r}, whose id is on offer")
            self.compels[compel] = member
            return
        if self.compels.get(compel) != member or fields["member"] != member:
            raise PlayFailed(
                f"it answers the compel {compel!r}, which the log offers not to {member!r} "
                "(or offered once, answered already)"
            )
        del self.compels[compel]

    def _once(self, of: int, earlier: Earlier) -> None:
        """An advantage's roll (with the spends on it) makes one, in its own scene."""
        root = of
        for _ in range(len(earlier)):
            entry = earlier[root][0]
            back = entry.get("of")
            if entry.get("kind") != "spend" or not whole(back) or back not in earlier:
                break
            root = back
        if root < self.scene:
            raise PlayFailed(f"its advantage's roll {root} was made before the scene began")
        if root in self.advantaged:
            raise PlayFailed(f"its advantage's roll {root} made an advantage already")
        self.advantaged.add(root)

    def spend(self, seq: int, fields: Mapping[str, Any], root: int) -> None:
        """A point spent on a roll (opened or public): an invoke that names an
        aspect pays with a free invoke that is there, or with a point."""
        member = fields.get("member")
        member = member if isinstance(member, str) else ""
        if "aspect" not in fields:  # an unnamed invoke, as older logs hold
            if fields.get("point") in ("invoke", "reroll"):
                self._paid(seq, member, fields, required=False)
            return
        name, aspect_id, free = fields["aspect"], fields.get("aspect_id"), fields.get("free")
        if not isinstance(name, str) or not isinstance(free, bool):
            raise PlayFailed("its invoke names no aspect, or its free is not true or false")
        used = self.invoked.setdefault(root, set())
        if free:
            self._free(aspect_id, fields, member)
        elif name in used:
            raise PlayFailed(f"it pays to invoke {name} again on the same roll")
        else:
            self._paid(seq, member, fields, required=True)
        used.add(name)
        self.replayed += 1

    def _free(self, aspect_id: object, fields: Mapping[str, Any], member: str) -> None:
        held = self.aspects.get(aspect_id) if isinstance(aspect_id, str) else None
        if held is None:
            raise PlayFailed(f"it uses a free invoke of {aspect_id!r}, an aspect the log has not")
        if held["holder"] is not None and held["holder"] != member:
            raise PlayFailed(
                f"it uses a free invoke of {aspect_id}, which is {held['holder']}'s, not {member}'s"
            )
        if held["free"] < 1:
            raise PlayFailed(f"it uses a free invoke of {aspect_id}, which has none left")
        if fields.get("points") is not None or fields.get("gm_pool") is not None:
            raise PlayFailed("a free invoke costs no fate point")
        held["free"] -= 1
        if held["kind"] == "boost" and held["free"] == 0:
            del self.aspects[aspect_id]  # type: ignore[arg-type]

    def _paid(self, seq: int, member: str, fields: Mapping[str, Any], *, required: bool) -> None:
        points, pool = fields.get("points"), fields.get("gm_pool")
        if points is None and pool is None:
            if required:
                raise PlayFailed("it invokes with a fate point and names none paid")
            self.points.pop(member, None)  # a point went off the sheet, unrecorded
            return
        for pair in (points, pool):
            if pair is None:
                continue
            if not _pair(pair) or pair[1] != pair[0] - 1:
                raise PlayFailed(
                    f"its points {pair!r} are not [before, after] with one point paid: a "
                    "spend without a point"
                )
        if points is not None:
            self._moved(member, points, seq)
        if pool is not None:
            self._pool(pool, seq)


def _an(action: str) -> str:
    """``an accept``, ``a compel``: an action named in a sentence."""
    return f"{'an' if action[0] in 'aeiou' else 'a'} {action}"


def _pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(whole(n) and n >= 0 for n in value)


def _gained(action: str, args: Mapping[str, Any], member: str, pair: list[int]) -> None:
    """The fate points of one character, as the action changes them."""
    before, after = pair
    if action == "session":
        refresh = args.get("refresh")
        wanted = refresh.get(member) if isinstance(refresh, dict) else None
        if not whole(wanted) or after != max(before, wanted):
            raise PlayFailed(f"a session refreshes {member}'s fate points to their refresh")
        return
    count = args.get("count") if action == "award" else GAINS.get(action)
    if action == "end_conflict":
        awarded = args.get("awarded")
        count = awarded.get(member) if isinstance(awarded, dict) else None
    if not whole(count) or after != before + count:
        raise PlayFailed(f"its points of {member} go from {before} to {after} on {_an(action)}")
