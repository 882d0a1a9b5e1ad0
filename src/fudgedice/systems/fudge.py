"""Fudge and Power Fudge: ladders, checks, techniques (issue in progress)."""

from __future__ import annotations

from ..engine import Program, register_system

register_system("fudge", Program)
