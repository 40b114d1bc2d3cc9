"""Accounts and the sessions that sign a browser in to one.

An account is optional: a guest plays as before. ``accounts.name_key`` is the name in the
form two names are compared in (``web.accounts.name_key``), unique, so that no two players
go by names a reader cannot tell apart. A session's key (the cookie's value) is kept only
as its SHA-256.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="active"),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("last_seen", sa.Float, nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(24), nullable=False, unique=True),  # shown, to end it
        sa.Column("account_id", sa.String(24), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("agent", sa.String(120), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("sessions")
    op.drop_table("accounts")
