"""Signing in to an account: its passkeys, the challenges given to browsers (each used
once), and the printed recovery codes (kept hashed).

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
    op.create_table(
        "credentials",
        sa.Column("id", sa.String(400), primary_key=True),
        sa.Column("account_id", sa.String(24), nullable=False, index=True),
        sa.Column("user_handle", sa.String(100), nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("transports", sa.String(200), nullable=True),
        sa.Column("label", sa.String(80), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_table(
        "challenges",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(24), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "recovery_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(24), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("recovery_codes")
    op.drop_table("challenges")
    op.drop_table("credentials")
