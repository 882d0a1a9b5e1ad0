"""The load test's checks, run once the load is over: no accepted roll lost,
no gap or duplicate in any room's ``seq``, every room's log verifies."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol

import httpx

import fudgedice
from fudgedice.server import fair


class Accepted(Protocol):
    accepted: dict[tuple[str, int], dict[str, Any]]


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def verify_log(log: dict[str, Any]) -> str | None:
    """The first fault of a log, or None: the chain, every placeholder, every roll."""
    prev = "0" * 64
    seeds = {seed["commitment"]: seed["server_seed"] for seed in log["seeds"]}
    for index, item in enumerate(log["entries"], 1):
        chained = {k: v for k, v in item.items() if k not in {"prev", "hash", "salt", "entry"}}
        if item["seq"] != index or item["prev"] != prev:
            return f"entry {index}: out of order or unchained"
        if item["hash"] != hashlib.sha256(prev.encode() + _canonical(chained)).hexdigest():
            return f"entry {index}: wrong hash"
        entry = item.get("entry", item)
        if item.get("hidden"):
            digest = hashlib.sha256(bytes.fromhex(item["salt"]) + _canonical(entry)).hexdigest()
            if digest != item["digest"]:
                return f"entry {index}: placeholder does not match"
        seed = seeds[entry["commitment"]]
        context = fair.context(log["room"], entry["client_seed"], entry["nonce"])
        again = fair.roll(fudgedice.api.DICE.compile(entry["text"]), bytes.fromhex(seed), context)
        if fair.faces(again.to_dict()) != entry["result"]["faces"]:
            return f"entry {index}: the roll does not follow from its seed"
        prev = item["hash"]
    return None


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
            for (name, seq), roll in load.accepted.items():
                if name == room["room"] and hashes.get(seq) != roll["hash"]:
                    lost.append(f"{name}#{seq}")
            fault = verify_log(log)
            if fault is not None:
                unverified.append(f"{room['room']}: {fault}")
    return {"lost": lost, "gaps": gaps, "unverified": unverified}
