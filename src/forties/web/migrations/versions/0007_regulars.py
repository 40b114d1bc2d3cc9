"""Regulars: the players an account follows and blocks, and its invitations to a seat.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower", sa.String(24), primary_key=True),
        sa.Column("followed", sa.String(24), primary_key=True, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "blocks",
        sa.Column("blocker", sa.String(24), primary_key=True),
        sa.Column("blocked", sa.String(24), primary_key=True, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_invites",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("from_account", sa.String(24), nullable=False),
        sa.Column("to_account", sa.String(24), nullable=False, index=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("answered", sa.String(16), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("account_invites")
    op.drop_table("blocks")
    op.drop_table("follows")
