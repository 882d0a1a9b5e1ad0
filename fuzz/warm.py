"""Imported by the pool's fork server only: the imports and first calls every
worker would otherwise pay for itself (NumPy, matplotlib's fonts, the parser's
tables), paid once, before any worker is forked."""

from __future__ import annotations

import fudgedice

from .worker import warm_up

warm_up(fudgedice)
