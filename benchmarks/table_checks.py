"""The load test's checks, run once the load is over: no accepted roll lost,
no gap or duplicate in any room's ``seq``, every room's log verifies."""

from __future__ import annotations

from typing import Any, Protocol

import httpx

import fudgedice


class Accepted(Protocol):
    accepted: dict[tuple[str, int], str]
    """The hash of each roll answered 201, by room and seq."""


def verify_log(log: dict[str, Any]) -> str | None:
    """The first fault of a log, or None: ``fudgedice verify``, which checks the
    chain, every placeholder and every roll from its revealed seed."""
    report = fudgedice.verify(log)
    if report.failure is not None:
        return str(report.failure)
    return None if report.complete else f"{report.pending} rolls could not be checked"


def check_rooms(url: str, rooms: list[dict[str, Any]], load: Accepted) -> dict[str, list[str]]:
    """Reveal each room's seed, read its whole history and log, and check them."""
    lost, gaps, unverified = [], [], []
    with httpx.Client(base_url=url, timeout=60) as client:
        for room in rooms:
            gm = {"Authorization": f"Bearer {room['gm']}"}
            client.post(f"/api/rooms/{room['room']}/reveal", headers=gm)
            stored: dict[int, dict[str, Any]] = {}
            after = 0
            while page := client.get(
                f"/api/rooms/{room['room']}/rolls",
                params={"after": after, "limit": 500},
                headers=gm,
            ).json()["rolls"]:
                for roll in page:
                    stored[roll["seq"]] = roll
                after = page[-1]["seq"]
            log = client.get(f"/api/rooms/{room['room']}/log", headers=gm).json()
            hashes = {entry["seq"]: entry["hash"] for entry in log["entries"]}
            in_order = sorted(stored) == list(range(1, len(stored) + 1))
            if not in_order or sorted(hashes) != sorted(stored):
                gaps.append(room["room"])
            for (name, seq), accepted_hash in load.accepted.items():
                if name == room["room"] and hashes.get(seq) != accepted_hash:
                    lost.append(f"{name}#{seq}")
            fault = verify_log(log)
            if fault is not None:
                unverified.append(f"{room['room']}: {fault}")
    return {"lost": lost, "gaps": gaps, "unverified": unverified}
