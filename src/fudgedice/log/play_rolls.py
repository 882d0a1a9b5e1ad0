"""The play entries made from rolls, checked against the rolls they name
(docs/fairness.md, "Play"): an advantage's free invokes as its roll's shifts
give them, a D6 order as its rolls' totals give it. :mod:`.play_checks`
replays the rest of the arithmetic of play."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..play import advantage_free
from ..play.initiative import read_initiative, ties_of
from ..render.numbers import counted
from .document import whole
from .entries import roll_label

Earlier = Mapping[int, tuple[Mapping[str, Any], Mapping[str, Any] | None]]
"""Each roll and spend so far, by seq: its link of the chain and its own fields."""


class PlayFailed(Exception):
    """What is wrong with an entry's play: :mod:`.kinds` names its entry."""


def advantage_made(
    seq: int,
    args: Mapping[str, Any],
    fields: Mapping[str, Any],
    earlier: Earlier,
    margins: Mapping[int, int | None],
) -> None:
    """A create-an-advantage: made with a roll of its actor's, its free
    invokes as that roll's shifts give them."""
    of, shifts, free = args.get("of"), args.get("shifts"), args.get("free")
    rolled = earlier.get(of) if whole(of) else None
    if rolled is None or not whole(of) or rolled[0].get("member") != fields["member"]:
        raise PlayFailed(f"its advantage names seq {of!r}, which is no roll of its actor's")
    if not whole(shifts):
        raise PlayFailed("its advantage names no shifts")
    if of in margins and margins[of] != shifts:
        raise PlayFailed(
            f"its advantage has {counted(shifts, 'shift')}, and seq {of} rolled {margins[of]}"
        )
    wanted = advantage_free(shifts)
    kind = "boost" if shifts == 0 else "situation"
    if wanted is None or free != wanted or args.get("kind") != kind:
        raise PlayFailed(
            f"an advantage of {counted(shifts, 'shift')} gives "
            + ("nothing" if wanted is None else f"a {kind} with {wanted} free invoke(s)")
        )


def ordered(seq: int, args: Mapping[str, Any], earlier: Earlier, gm: object) -> None:
    """A D6 order: every roll it lists is an initiative roll of the round
    with the total it says, and the order runs from the highest."""
    order, since = args.get("order"), args.get("since")
    if not isinstance(order, list) or not whole(since):
        raise PlayFailed("its order does not list the round's rolls")
    keys: list[list[int]] = []
    for place in order:
        rolls = place.get("rolls") if isinstance(place, dict) else None
        totals = place.get("totals") if isinstance(place, dict) else None
        if not isinstance(rolls, list) or not isinstance(totals, list) or not rolls:
            raise PlayFailed("each place of its order lists its rolls and their totals")
        if len(rolls) != len(totals) or not all(whole(total) for total in totals):
            raise PlayFailed("each place of its order lists a whole total for each roll")
        for roll, total in zip(rolls, totals, strict=True):
            _initiative_roll(roll, total, since, earlier, (place.get("who"), gm))
        keys.append(totals)
    if any(keys[i] < keys[i + 1] for i in range(len(keys) - 1)):
        raise PlayFailed("its order does not run from the highest total down")
    listed = [
        {"who": place.get("who"), "totals": key} for place, key in zip(order, keys, strict=True)
    ]
    named = ties_of(listed, "totals")
    if args.get("ties") != named:
        raise PlayFailed(f"its ties are not those of its totals: {named}")


def _initiative_roll(
    roll: object, total: object, since: int, earlier: Earlier, place: tuple[object, object]
) -> None:
    """One roll of a place of a D6 order: of the round, its total as logged,
    rolled by who the place names (a member's own roll, labelled ``initiative``;
    a character's by name, ``initiative: NAME``, rolled by the GM who orders)."""
    who, gm = place
    logged = earlier.get(roll) if whole(roll) else None
    if logged is None or not whole(roll) or roll <= since:
        raise PlayFailed(f"its order lists seq {roll!r}, which is no roll of the round")
    own = logged[1]
    if own is None:
        return  # hidden and not opened yet: its total waits for its opening
    counts, named = read_initiative(roll_label(own.get("text"), own.get("label")))
    if not counts:
        raise PlayFailed(f"its order lists seq {roll}, which is no initiative roll")
    if named is not None and own.get("member") != gm:
        raise PlayFailed(f"its order lists seq {roll}, a character's roll by name not the GM's")
    whose = " ".join(named.split()) if named is not None else own.get("member")
    if whose != who:
        raise PlayFailed(f"its order lists seq {roll}, which is {whose}'s roll, not {who}'s")
    if own.get("total") != total:
        raise PlayFailed(
            f"its order lists seq {roll} with {total!r}, and it rolled {own.get('total')}"
        )
