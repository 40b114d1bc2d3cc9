"""A table may be the rematch of one other table, and of one only.

Two server processes asked for a rematch of the same table at the same moment must make
one new table: the database refuses a second table that names the same first one.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("rematch_of", sa.String(32), nullable=True))
    op.create_index("tables_rematch_of", "tables", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("tables_rematch_of", "tables")
    op.drop_column("tables", "rematch_of")
