"""Clubs: a club and its house rules, its members and directors, its invite links (kept
hashed), its calendar of evenings and sessions, and its seasons (``web.clubs``).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(24), nullable=True, index=True),
    )
    op.create_table(
        "club_members",
        sa.Column("club", sa.String(24), primary_key=True),
        sa.Column("account_id", sa.String(24), primary_key=True, index=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        "club_invites",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("club", sa.String(24), nullable=False, index=True),
        sa.Column("account_id", sa.String(24), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("uses", sa.Integer, nullable=False),
        sa.Column("max_uses", sa.Integer, nullable=False),
    )
    op.create_table(
        "club_events",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("club", sa.String(24), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("ref", sa.String(40), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("place", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("club_events_club_at", "club_events", ["club", "at"])
    op.create_index("club_events_ref", "club_events", ["kind", "ref"])
    op.create_table(
        "club_seasons",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("club", sa.String(24), nullable=False, index=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("starts", sa.Date, nullable=False),
        sa.Column("ends", sa.Date, nullable=False),
        sa.Column("rule", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("club_seasons")
    op.drop_index("club_events_ref", table_name="club_events")
    op.drop_index("club_events_club_at", table_name="club_events")
    op.drop_table("club_events")
    op.drop_table("club_invites")
    op.drop_table("club_members")
    op.drop_table("clubs")
