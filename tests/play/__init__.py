"""Tests of play at the table."""
