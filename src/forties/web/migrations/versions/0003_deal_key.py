"""A table's deals from a secret key: the ``deal_key`` column.

A table made before this revision deals from its ``seed`` (``state.shuffled_deck``: 48
bits, which its published hands would let anyone search); it keeps dealing so, its column
empty. A table made after holds 32 bytes of ``secrets`` here, in hexadecimal, and deals
from them (``state.keyed_deck``); its ``seed`` is then 0 and unused. The key never leaves
the server: no page, frame, record or lobby line carries it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("deal_key", sa.String(128), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "deal_key")
