"""The store keeps few statements prepared: the event numbers of every table in play,
asked every few seconds (``Store.seqs``), go in lists of a few lengths only, since each
length is a statement the driver keeps (SQLite's cache: 128 a connection, some 60 KB each
at 300 ids; the count of tables in play takes a new value every few minutes on a site)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from forties.web.store import IN_MAX, IN_STEP, Store


def row(table_id: str) -> dict[str, object]:
    return {"id": table_id, "preset": "merrimack-valley", "rules": "{}", "seed": 1,
            "first_dealer": 0, "version": 0, "status": "playing", "settings": "{}",
            "public": False}


def test_the_event_numbers_of_any_count_of_tables_take_a_few_statements(
        tmp_path: Path) -> None:
    store = Store.sqlite_file(tmp_path / "s.db")
    said: set[str] = set()

    def note(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM tables" in statement and " IN (" in statement:
            said.add(statement)

    async def go() -> None:
        for k in range(3):
            await store.create_table(row(f"t{k}"), [], [])
        await store.append("t1", 0, 0, [{"kind": "chat"}], 1, "playing")
        sa.event.listen(store.engine, "before_cursor_execute", note)
        for n in range(1, 301, 3):
            ids = ["t0", "t1", "t2"][:n] + [f"gone{i}" for i in range(n - 3)]
            got = await store.seqs(ids)
            assert got == {t: s for t, s in {"t0": 0, "t1": 1, "t2": 0}.items() if t in ids}
        assert await store.seqs([]) == {}
        got = await store.seqs([f"x{i}" for i in range(IN_MAX + 5)] + ["t1"])
        assert got == {"t1": 1}

    try:
        asyncio.run(go())
    finally:
        store.close()
    assert 0 < len(said) <= IN_MAX // IN_STEP, f"{len(said)} statements for 100 counts"
