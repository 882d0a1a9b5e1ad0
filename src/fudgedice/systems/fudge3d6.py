"""3d6 Fudge: roll-under with triples (issue in progress)."""

from __future__ import annotations
