"""The store's group commit on SQLite: the moves of many tables waiting at once go in one
transaction, each caller hears of its own move only once it is committed, a stale move
is refused alone, and a move the database refuses fails alone."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from forties.web.store import Conflict, Store

pytestmark = pytest.mark.asyncio


def row(table_id: str) -> dict[str, object]:
    return {"id": table_id, "preset": "merrimack-valley", "rules": "{}", "seed": 1,
            "first_dealer": 0, "version": 0, "status": "playing", "settings": "{}",
            "public": False}


def stored(path: Path, table_id: str) -> list[int]:
    with sqlite3.connect(path) as db:
        return [json.loads(b)["n"] for (b,) in db.execute(
            "SELECT body FROM events WHERE table_id = ? ORDER BY seq", (table_id,))]


async def test_moves_waiting_together_are_committed_together_before_anyone_hears(
        tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store.sqlite_file(path)
    try:
        for k in range(12):
            await store.create_table(row(f"t{k}"), [], [])
        heard_late: list[str] = []

        async def play(k: int) -> None:
            for i in range(15):
                await store.append(f"t{k}", i, i, [{"kind": "chat", "n": i}], i + 1,
                                   "playing")
                if stored(path, f"t{k}")[-1:] != [i]:  # committed before we are told
                    heard_late.append(f"t{k}:{i}")

        await asyncio.gather(*(play(k) for k in range(12)))
        assert heard_late == []
        for k in range(12):
            assert stored(path, f"t{k}") == list(range(15))
        assert store.moves == 12 * 15
        assert store.batches < store.moves  # moves of several tables shared a commit
    finally:
        store.close()


async def test_a_stale_move_is_refused_alone(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store.sqlite_file(path)
    try:
        for t in ("a", "b"):
            await store.create_table(row(t), [], [])
        await store.append("a", 0, 0, [{"kind": "chat", "n": 0}], 1, "playing")
        got = await asyncio.gather(
            store.append("a", 0, 0, [{"kind": "chat", "n": 99}], 1, "playing"),  # stale
            store.append("b", 0, 0, [{"kind": "chat", "n": 0}], 1, "playing"),
            return_exceptions=True)
        assert isinstance(got[0], Conflict) and got[1] is None
        assert stored(path, "a") == [0] and stored(path, "b") == [0]
    finally:
        store.close()


async def test_a_move_the_database_refuses_fails_alone(tmp_path: Path) -> None:
    """An event row already there (a table edited behind the server's back): the group's
    transaction fails, and each move is tried again alone."""
    path = tmp_path / "s.db"
    store = Store.sqlite_file(path)
    try:
        for t in ("a", "b", "c"):
            await store.create_table(row(t), [], [])
        with sqlite3.connect(path) as db:
            db.execute("INSERT INTO events (table_id, seq, kind, body) VALUES "
                       "('b', 1, 'chat', '{\"n\": -1}')")
        got = await asyncio.gather(*(
            store.append(t, 0, 0, [{"kind": "chat", "n": 0}], 1, "playing")
            for t in ("a", "b", "c")), return_exceptions=True)
        assert got[0] is None and isinstance(got[1], Conflict) and got[2] is None
        assert stored(path, "a") == [0] and stored(path, "b") == [-1]
        assert stored(path, "c") == [0]
        await store.append("a", 1, 1, [{"kind": "chat", "n": 1}], 2, "playing")
        assert stored(path, "a") == [0, 1]  # the writer carries on after the failure
    finally:
        store.close()
