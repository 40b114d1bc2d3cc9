"""A table made for one duplicate board: the ``board`` column.

A board table (``Table.board``) deals one given hand, its dealer dealing, and ends with
it. Its board (``forties.duplicate.Board.to_json``: number, dealer and deal) is kept here
as JSON, so that any process that loads the table (after a restart, another server over
the same database) deals the same cards. Every other table leaves it empty. The board
never leaves the server while the table is played: no page, frame or record shows it.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("board", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "board")
