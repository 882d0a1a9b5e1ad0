"""The D6 System: die codes and the Wild Die (issue in progress)."""

from __future__ import annotations
