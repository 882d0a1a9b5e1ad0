"""A log kept before a rule was corrected still verifies: its texts roll as
they rolled when they were logged (errors.ChangedRule)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import fudgedice
from fudgedice.errors import ChangedRule
from fudgedice.log.entries import chained

LOG = Path(__file__).parent.parent / "data" / "logs" / "fate_point_on_weapon_damage.json"
"""Three D6 rolls with a Fate Point on a damage code alone (``d6: 5D+1 fp dmg
3D+2``), logged by the table when a Fate Point still doubled a weapon's dice."""


def _log() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(LOG.read_text())
    return loaded


def test_the_refused_text_reads_as_unarmed_for_a_log_kept_before() -> None:
    with pytest.raises(ChangedRule) as refused:
        fudgedice.roll("d6: 5D+1 fp dmg 3D+2")
    assert refused.value.formerly == "d6: 5D+1 unarmed fp dmg 3D+2"
    report = fudgedice.verify(_log())
    assert report.ok, report
    assert report.to_dict()["checked"] == 3


def test_a_roll_of_the_old_rule_is_still_checked_against_its_dice() -> None:
    log = _log()
    entries = log["entries"]
    first = {k: v for k, v in entries[0].items() if k != "hash"}
    first["total"] += 1
    entries[0] = chained({k: v for k, v in first.items() if k != "prev"}, first["prev"])
    for position in range(1, len(entries)):
        fields = {k: v for k, v in entries[position].items() if k not in ("hash", "prev")}
        entries[position] = chained(fields, entries[position - 1]["hash"])
    log["head"] = {**log["head"], "hash": entries[-1]["hash"]}
    report = fudgedice.verify(log)
    assert not report.ok
    assert "total" in str(report.to_dict()["failure"])
