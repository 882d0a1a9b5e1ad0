"""Alembic's migrations of the table's database, run by :func:`..db.migrate` at start."""
