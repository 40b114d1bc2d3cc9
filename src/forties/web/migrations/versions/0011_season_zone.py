"""A club's season's time zone: the ``zone`` column of ``club_seasons``.

A season's first and last days are days of the club's own calendar: an evening at 19:30
in Halifax is that day's, though it is the next day in UTC. ``zone`` is the IANA name of
the time zone the season's days are read in (the director's device's, when the season
was set up); a season set up before it (NULL) reads its days in UTC, as it did.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("club_seasons", sa.Column("zone", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("club_seasons", "zone")
