"""Version 2 of the dice stream (docs/fairness.md): nonces per member, and
failed rolls kept.

- ``rooms.stream`` and ``seeds.stream``: the version of the stream a seed
  draws with. A seed that has drawn under version 1 keeps it until it is
  revealed (its log must verify as it was made); a room whose seed has drawn
  nothing yet, and every seed committed from now on, draws with version 2.
- ``member_nonces``: each member's next nonce under each seed.
- ``rolls.error``: why a roll failed once its dice were drawn (null: it did not).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.add_column(sa.Column("stream", sa.Integer, nullable=False, server_default="1"))
    with op.batch_alter_table("seeds") as seeds:
        seeds.add_column(sa.Column("stream", sa.Integer, nullable=False, server_default="1"))
    op.add_column("rolls", sa.Column("error", sa.Text, nullable=True))
    op.create_table(
        "member_nonces",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("member_id", sa.String(16), sa.ForeignKey("members.id"), primary_key=True),
        sa.Column("epoch", sa.BigInteger, primary_key=True),
        sa.Column("next_nonce", sa.BigInteger, nullable=False),
    )
    op.execute("UPDATE rooms SET stream = 2 WHERE nonce = 0")
    op.execute(
        "UPDATE seeds SET stream = 2 WHERE EXISTS (SELECT 1 FROM rooms WHERE "
        "rooms.id = seeds.room_id AND rooms.epoch = seeds.epoch AND rooms.stream = 2)"
    )


def downgrade() -> None:
    op.drop_table("member_nonces")
    op.drop_column("rolls", "error")
    with op.batch_alter_table("seeds") as seeds:
        seeds.drop_column("stream")
    with op.batch_alter_table("rooms") as rooms:
        rooms.drop_column("stream")
