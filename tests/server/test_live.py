"""The live feed: every roll to every member watching, hidden ones as placeholders."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fudgedice.log.canonical import Visibility
from fudgedice.server import connect, store
from fudgedice.server.feed import _chunks
from fudgedice.server.kept import Member, RollRecord, RollRequest, Shown
from fudgedice.server.live import Event, Hub
from fudgedice.server.writer import append_rolls

PLACEHOLDER = {"seq", "member", "name", "visibility", "hidden", "at", "verified"}


def test_watchers_see_each_roll_as_they_may(served: Any) -> None:
    created = served.room("live")
    room, gm_token = created["room"], created["gm_token"]
    ann = served.join(room, "Ann")
    bob = served.join(room, "<img src=x onerror=alert(1)>")
    with served.live(room, gm_token) as gm_feed, served.live(room, ann["token"]) as ann_feed:
        assert served.until(gm_feed, "ready") == {"last_seq": 0}
        assert served.until(ann_feed, "ready") == {"last_seq": 0}
        made = [
            served.roll(room, bob["token"], "4dF+2", label="public").json(),
            served.roll(room, bob["token"], "3d6", visibility="self", label="LBL-self").json(),
            served.roll(room, gm_token, "Good vs Great", visibility="secret", label="LBL-s").json(),
            served.roll(room, bob["token"], "2d6", visibility="gm", label="LBL-gm").json(),
        ]
        seen_by_gm = [served.until(gm_feed, "roll") for _ in made]
        seen_by_ann = [served.until(ann_feed, "roll") for _ in made]
    assert [r["seq"] for r in seen_by_gm] == [r["seq"] for r in seen_by_ann] == [1, 2, 3, 4]
    assert seen_by_ann[0] == made[0] and seen_by_gm[0] == made[0]
    assert made[0]["name"] == "<img src=x onerror=alert(1)>"
    for hidden in seen_by_ann[1:]:
        assert set(hidden) == PLACEHOLDER and hidden["hidden"] is True
    assert set(seen_by_gm[1]) == PLACEHOLDER  # "self": the roller only
    assert seen_by_gm[2] == made[2] and seen_by_gm[3] == made[3]


def test_a_watcher_catches_up_from_where_it_was(served: Any) -> None:
    created = served.room("catch up")
    room, token = created["room"], created["gm_token"]
    for _ in range(3):
        served.roll(room, token, "4dF")
    with served.live(room, token, after=1) as feed:
        missed = [served.until(feed, "roll")["seq"] for _ in range(2)]
        assert served.until(feed, "ready") == {"last_seq": 3}
        served.roll(room, token, "4dF")
        assert served.until(feed, "roll")["seq"] == 4
    assert missed == [2, 3]


def test_the_feed_takes_no_token_in_the_query(served: Any) -> None:
    # the page sends its token in the Authorization header; one in a URL
    # would be kept by proxies' logs and the browser's history
    created = served.room("event source")
    path = f"/api/rooms/{created['room']}/live"
    assert served.client.get(path, params={"token": created["gm_token"]}).status_code == 401


def test_a_reveal_is_announced(served: Any) -> None:
    created = served.room("reveal")
    room, token = created["room"], created["gm_token"]
    with served.live(room, token) as feed:
        served.until(feed, "ready")
        answer = served.client.post(
            f"/api/rooms/{room}/reveal", headers={"Authorization": f"Bearer {token}"}
        )
        seeds = served.until(feed, "reveal")["seeds"]
    assert seeds[0]["server_seed"] == answer.json()["server_seed"]
    assert seeds[1]["commitment"] == answer.json()["next_commitment"]


def _record(seq: int, member: str, visibility: Visibility) -> RollRecord:
    return RollRecord(
        "room", seq, member, member.upper(), visibility, 0, "c" * 64, seq, "", "4dF",
        f"label of {seq}", None, {"total": seq}, "2026-11-22T00:00:00.000Z", None, "h", None,
    )  # fmt: skip


def test_readers_who_see_alike_share_one_chunk_and_no_other() -> None:
    """The feed makes an event's chunk once for all readers alike
    (records.Shown): each reader still gets exactly the rolls it may see."""
    rolled: list[tuple[str, Visibility]] = [
        ("ann", "public"), ("ann", "self"), ("gm", "secret"), ("bob", "gm"), ("bob", "self"),
    ]  # fmt: skip
    records = [_record(seq, *roll) for seq, roll in enumerate(rolled, start=1)]
    readers = [
        Member("gm", "room", "GM", True),
        Member("ann", "room", "Ann", False),
        Member("bob", "room", "Bob", False),
        Member("cy", "room", "Cy", False),
        Member("dee", "room", "Dee", False),
    ]
    shown = Shown(records)
    for reader in [*readers, *reversed(readers)]:  # the second time from what was made
        expected = b"".join(record.frame_for(reader) for record in records)
        assert shown.frames_for(reader) == expected
    assert shown.frames_for(readers[3]) is shown.frames_for(readers[4])
    seen = shown.frames_for(readers[3])
    assert b"label of 1" in seen and not any(b"label of %d" % n in seen for n in range(2, 6))
    assert b"label of 4" in shown.frames_for(readers[0]) and b"label of 5" not in seen


def test_a_feed_sends_each_roll_once_in_order_however_it_is_told(tmp_path: Path) -> None:
    """Rolls can reach the hub late and out of order (committed on a worker
    thread, or a sheet's change told after the rolls that followed it): each
    reader still gets every roll once, in ``seq`` order, the missed ones read
    from the database."""
    db = connect(str(tmp_path / "table.sqlite3"))
    room, gm, _ = store.create_room(db, "feed", "fudge", "GM")
    request = RollRequest(room.id, gm, "4dF", "fudge", "public", None, "", None)

    def rolled(count: int) -> list[RollRecord]:
        made = append_rolls(db, [request] * count)
        return [roll for roll in made if isinstance(roll, RollRecord)]

    async def read() -> list[int]:
        rolled(6)
        hub = Hub()
        watcher = hub.watch(room.id)
        chunks = _chunks(db, watcher, gm, 6)
        assert b"ready" in await anext(chunks)
        r7, r8, r9, r10, r11, r12 = rolled(6)
        for told in ([r9, r10], [r7, r8], [r12, r11], [r10, r11, r12]):
            watcher.put(Event("rolls", told))
        sent = (await anext(chunks)).decode()  # what was told while the reader was away
        await chunks.aclose()  # type: ignore[attr-defined]
        return [int(line[4:]) for line in sent.split("\n") if line.startswith("id: ")]

    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, read()).result() == list(range(7, 13))
    db.dispose()


def test_a_member_joining_is_told_at_once(served: Any) -> None:
    created = served.room("who joins")
    room, gm_token = created["room"], created["gm_token"]
    with served.live(room, gm_token) as feed:
        assert served.until(feed, "ready") == {"last_seq": 0}
        ann = served.join(room, "Ann")
        # the feed names who joined; the room's members say the rest
        assert served.until(feed, "member") == {"member": ann["member"]}
        served.roll(room, gm_token, "4dF")
        assert served.until(feed, "roll")["seq"] == 1  # an event of its own, taking no seq
