"""The sweep's pruning of the accounts' tables by age (``web.account_admin.prune``, every
minute in every server process): the sessions and the invitations found by when they were
made, through an index, not by reading every row (the challenges' ``created`` has its
index since 0005).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("sessions_created", "sessions", ["created"])
    op.create_index("account_invites_created", "account_invites", ["created"])


def downgrade() -> None:
    op.drop_index("account_invites_created", table_name="account_invites")
    op.drop_index("sessions_created", table_name="sessions")
