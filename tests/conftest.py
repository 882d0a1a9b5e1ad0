"""Fixtures shared by the test folders: data transcribed from the seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def seed_chart() -> list[tuple[int, int]]:
    """Seed 002's dice-reduction chart, transcribed verbatim ("Die Code | 5D |
    Wild Die"), as (5D bonus, Wild Die bonus) for 1D..50D."""
    rows = (DATA / "seed002_reduction_chart.txt").read_text("utf-8").splitlines()
    return [
        (int(five), int(wild))
        for _, five, wild in ([cell.strip() for cell in row.split("|")[:3]] for row in rows)
    ]
