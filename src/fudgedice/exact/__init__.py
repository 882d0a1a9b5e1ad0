"""Exact arithmetic on integer distributions: polynomial kernels, the
distribution algebra, keep/drop, and Odds (Fractions at the edge)."""
