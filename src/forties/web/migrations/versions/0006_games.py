"""An account's games: the seats it sat in, each finished game indexed once, each
player's part of it, the running totals of the statistics, the ratings and their history,
and the games flagged for the operator (repeated pairings).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_accounts",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(24), nullable=False, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("counted", sa.Boolean, nullable=False),
        sa.Column("why", sa.String(300), nullable=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
    )
    op.create_table(
        "game_players",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(24), nullable=False),
        sa.Column("family", sa.String(40), nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("partners", sa.String(200), nullable=False, server_default=""),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("stats", sa.Text, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=True),
        sa.Column("rating_after", sa.Float, nullable=True),
    )
    op.create_index("game_players_account", "game_players", ["account_id", "finished"])
    op.create_table(
        "account_stats",
        sa.Column("account_id", sa.String(24), primary_key=True),
        sa.Column("family", sa.String(40), primary_key=True),
        sa.Column("partner_id", sa.String(24), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(60), primary_key=True),
        sa.Column("family", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("last_rated", sa.Float, nullable=False),
    )
    op.create_index("ratings_board", "ratings", ["family", "last_rated"])
    op.create_table(
        "rating_history",
        sa.Column("subject", sa.String(60), primary_key=True),
        sa.Column("family", sa.String(40), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("shown", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_flags",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("accounts", sa.String(300), nullable=False),
        sa.Column("why", sa.String(300), nullable=False),
    )


def downgrade() -> None:
    for name in ("rating_flags", "rating_history", "ratings", "account_stats",
                 "game_players", "games", "seat_accounts"):
        op.drop_table(name)
