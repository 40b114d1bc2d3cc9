"""The accounts' migrations (0004 to 0009) make exactly the tables and columns that the
code reads and writes (``web.accounts``, ``web.account_schema``), on SQLite and on
PostgreSQL, and undo cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from forties.web import account_schema
from forties.web.accounts import accounts_t, sessions_t
from forties.web.store import Store

ACCOUNT_TABLES = [accounts_t, sessions_t, *(getattr(account_schema, n)
                                          for n in account_schema.__all__)]


def check_tables(store: Store) -> None:
    found = sa.inspect(store.engine)
    names = set(found.get_table_names())
    for table in ACCOUNT_TABLES:
        assert table.name in names, table.name
        columns = {c["name"] for c in found.get_columns(table.name)}
        assert columns == {c.name for c in table.columns}, table.name
        keys = set(found.get_pk_constraint(table.name)["constrained_columns"])
        assert keys == {c.name for c in table.primary_key.columns}, table.name


def test_sqlite_has_the_accounts_tables(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        check_tables(store)
    finally:
        store.close()


def test_postgresql_has_the_accounts_tables(db: str) -> None:
    store = Store(db)
    try:
        check_tables(store)
    finally:
        store.close()


@pytest.mark.parametrize("target", ["0003", "0004", "0006", "0008"])
def test_the_migrations_go_down_and_up_again(tmp_path: Path, target: str) -> None:
    from alembic import command
    from alembic.config import Config

    from forties.web.store import MIGRATIONS

    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, target)
        left = set(sa.inspect(store.engine).get_table_names())
        assert ("accounts" in left) == (target >= "0004")
        assert ("follows" in left) == (target >= "0007")
        for club_table in ("clubs", "club_members", "club_invites", "club_events",
                           "club_seasons"):  # (0009)
            assert club_table not in left
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        check_tables(store)
    finally:
        store.close()
