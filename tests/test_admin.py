"""``forties admin``: a backup taken while a server serves and takes moves, restored into
a new file that a second server serves from where the backup stood; a table closed and a
chat name silenced while a server plays them; old finished tables pruned; and every
mistake answered in one line.

The servers are ``forties serve`` processes (tests/helpers_web.py) and the commands the
installed ``forties`` script, as an operator runs them."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from forties.web.store import Store

from .client import SeatClient
from .helpers_engine import run_forties, run_many
from .helpers_web import (
    ServerProcess,
    basic_player,
    expect,
    pinged,
    private_table,
    serving,
    stop_all,
)

pytestmark = pytest.mark.asyncio
LONG_GAME = {"options": {"target": 10000}}  # a game that goes on for the whole test
WATCH = {"watch_seconds": 0.1}  # the servers look for the operator's changes at once


def admin(*args: str, db: Path) -> Any:
    return run_forties("admin", *args, "--db", f"sqlite:///{db}")


async def admin_async(*args: str, db: Path) -> Any:
    """``forties admin ARGS --db`` run while this process's clients go on playing."""
    return await asyncio.to_thread(admin, *args, db=db)


def version(c: SeatClient) -> int:
    return int((c.view or {}).get("version", 0))


def views_by_version(c: SeatClient) -> dict[int, dict[str, Any]]:
    return {f["view"]["version"]: f["view"] for f in c.frames if "view" in f}


async def test_a_backup_taken_while_serving_is_served_again_from_where_it_stood(
        tmp_path: Path) -> None:
    backup = tmp_path / "backup.db"
    restored = tmp_path / "restored.db"
    with serving(ServerProcess(tmp_path, **WATCH)) as a:
        async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
            people, tokens = await private_table(api, "merrimack-valley", **LONG_GAME)
            solo = (await api.post("/api/play", json={"preset": "auction-45",
                                                      "name": "Solo"})).json()
            waiting = (await api.post("/api/tables", json={"preset": "forty-one",
                                                           "name": "Host"})).json()
            clients = [SeatClient(a.ws, people, tokens[s]).autoplay(basic_player).start()
                       for s in sorted(tokens)]
            try:
                await expect(clients[0], lambda c: version(c) >= 40,
                             "a finished hand or more at the people's table")
                before = version(clients[0])
                done = await admin_async("backup", str(backup), db=a.db)
                assert done.returncode == 0 and "backed up 3 tables" in done.stdout, done
                after = version(clients[0])
                assert after > before, "no move was taken while the backup ran"
            finally:
                await stop_all(clients)
            solo_record = (await api.get(f"/api/tables/{solo['table']}/record")).json()
            waiting_summary = (await api.get(f"/api/tables/{waiting['table']}")).json()
    seen = views_by_version(clients[0])

    done = admin("restore", str(backup), db=restored)
    assert done.returncode == 0 and "restored 3 tables" in done.stdout, done
    listed = admin("tables", "--json", db=restored)
    assert listed.returncode == 0, listed
    assert {json.loads(line)["id"] for line in listed.stdout.splitlines()} == \
        {people, solo["table"], waiting["table"]}

    with serving(ServerProcess(tmp_path, db=restored, **WATCH)) as b:
        async with httpx.AsyncClient(base_url=b.http, timeout=30) as api:
            again = [SeatClient(b.ws, people, tokens[s]).start() for s in sorted(tokens)]
            try:
                await expect(again[0], lambda c: c.view is not None, "the restored table")
                at = version(again[0])
                assert before <= at <= after, (before, at, after)
                assert again[0].view == seen[at], "the restored table is not as it stood"
                record = (await api.get(f"/api/tables/{people}/record")).json()
                assert record["hands"], "no finished hand was restored"
                # the people play on from where the backup stood
                for c in again:
                    c.autoplay(basic_player)
                    await c.play_now()
                await expect(again[0], lambda c: version(c) >= at + 20,
                             "twenty moves more on the restored table")
                assert not [e for c in again for e in c.errors if e["code"] != "stale"]
            finally:
                await stop_all(again)
            later = (await api.get(f"/api/tables/{people}/record")).json()
            assert later["hands"][:len(record["hands"])] == record["hands"]
            assert (await api.get(f"/api/tables/{solo['table']}/record")).json() == \
                solo_record
            assert (await api.get(f"/api/tables/{waiting['table']}")).json() == \
                waiting_summary
            # the table against computers goes on too: the person plays, the computers answer
            me = SeatClient(b.ws, solo["table"], solo["token"]).autoplay(basic_player).start()
            try:
                await expect(me, lambda c: c.view is not None, "the computers' table")
                start = version(me)
                await expect(me, lambda c: version(c) >= start + 8,
                             "the computers answering the person")
            finally:
                await me.stop()


def said(c: SeatClient, kind: str) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "event" and f["event"]["kind"] == kind]


async def test_close_and_silence_reach_a_running_server_and_outlive_it(
        tmp_path: Path) -> None:
    with serving(ServerProcess(tmp_path, **WATCH)) as a:
        async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
            table, tokens = await private_table(api, "merrimack-valley")
        ann, guest = (SeatClient(a.ws, table, tokens[s]).start() for s in (0, 1))
        watcher = SeatClient(a.ws, table).start()
        try:
            for c in (ann, guest, watcher):
                await expect(c, lambda c: c.view is not None, "the table")
            done = await admin_async("silence", table, "guest 0", db=a.db)
            assert done.returncode == 0 and "silenced" in done.stdout, done
            await expect(watcher, lambda c: bool(said(c, "silence")),
                         "the server to take the silence in")
            await guest.send({"type": "chat", "text": "rude words"})
            await pinged(guest)
            await ann.send({"type": "chat", "text": "hello all"})
            await expect(watcher, lambda c: any(f["type"] == "chat" for f in c.frames),
                         "Ann's line")
            assert [f.get("text") for f in watcher.frames if f["type"] == "chat"] == \
                ["hello all"]
        finally:
            await stop_all([ann, guest, watcher])
    # the silence is the table's: a server started again keeps it
    with serving(ServerProcess(tmp_path, **WATCH)) as a:
        ann, guest = (SeatClient(a.ws, table, tokens[s]).start() for s in (0, 1))
        try:
            for c in (ann, guest):
                await expect(c, lambda c: c.view is not None, "the table")
            await guest.send({"type": "chat", "text": "more rude words"})
            await pinged(guest)
            await ann.send({"type": "chat", "phrase": "thanks"})
            await expect(ann, lambda c: any(f["type"] == "chat" for f in c.frames),
                         "Ann's phrase")
            assert [f.get("phrase") for f in ann.frames if f["type"] == "chat"] == \
                ["thanks"]
            turn = ann.view["to_act"] if ann.view else None
            assert turn is not None
            closed = await admin_async("close", table, db=a.db)
            assert closed.returncode == 0 and "closed table" in closed.stdout, closed
            for c in (ann, guest):
                await expect(c, lambda c: (c.table or {}).get("status") == "closed",
                             "the players told that the table is closed")
                assert c.view is not None and c.view["legal"] == []
            who = SeatClient(a.ws, table, tokens[turn]).start()
            try:
                await expect(who, lambda c: c.view is not None, "the seat to act")
                await who.send({"type": "act", "action": "pass",
                                "version": who.view["version"] if who.view else 0})
                await who.send({"type": "chat", "text": "anyone?"})
                await pinged(who)
                assert [e["code"] for e in who.errors] == ["closed", "closed"], who.errors
            finally:
                await who.stop()
            async with httpx.AsyncClient(base_url=a.http, timeout=30) as api:
                late = await api.post(f"/api/tables/{table}/join",
                                      json={"invite": "whatever", "name": "Late"})
                assert late.status_code == 409 and late.json()["code"] == "closed", late.text
        finally:
            await stop_all([ann, guest])
    listed = admin("tables", "--finished", db=a.db)
    assert listed.returncode == 0 and table in listed.stdout and "closed" in listed.stdout


async def make_tables(db: Path, statuses: dict[str, tuple[str, float]]) -> None:
    """Tables ``{id: (status, days since their last change)}`` with a seat key and an
    event each, in a database as the server makes it."""
    store = Store(f"sqlite:///{db}")
    try:
        for tid, (status, _) in statuses.items():
            await store.create_table(
                {"id": tid, "preset": "auction-45", "rules": "{}", "seed": 1,
                 "first_dealer": 0, "version": 0, "status": status, "settings": "{}",
                 "public": False},
                [{"seat": 0, "token_hash": "x" * 64, "invite_hash": None, "name": "Ann"}],
                [{"kind": "sit", "seat": 0, "as": "person", "name": "Ann"}])
    finally:
        await asyncio.to_thread(store.close)
    with sqlite3.connect(db) as conn:
        for tid, (_, days) in statuses.items():
            conn.execute("UPDATE tables SET updated = ? WHERE id = ?",
                         (time.time() - days * 86400, tid))


def held(db: Path) -> dict[str, set[str]]:
    with sqlite3.connect(db) as conn:
        return {name: {r[0] for r in conn.execute(f"SELECT {col} FROM {name}")}
                for name, col in (("tables", "id"), ("events", "table_id"),
                                  ("seat_keys", "table_id"))}


async def test_prune_removes_only_the_old_finished_tables(tmp_path: Path) -> None:
    db = tmp_path / "forties.db"
    await make_tables(db, {"old-over": ("over", 40), "old-closed": ("closed", 31),
                           "old-expired": ("expired", 90), "new-over": ("over", 29),
                           "old-playing": ("playing", 400), "old-waiting": ("waiting", 40)})
    prune = ["admin", "prune", "--days", "30", "--db", f"sqlite:///{db}"]
    # (in one process: a dry run, another that finds the same, then the removal)
    dry, again, done = run_many([([*prune, "--dry-run"], None, None, None)] * 2 +
                                [(prune, None, None, None)])
    for run in (dry, again):
        out = run.stdout.decode()
        assert run.returncode == 0 and "would remove 3 finished tables (3 events)" in out, run
        assert set(out.split(": ")[1].split()) == {"old-over", "old-closed", "old-expired"}
    assert done.returncode == 0 and b"removed 3 finished tables" in done.stdout, done
    kept = {"new-over", "old-playing", "old-waiting"}
    assert held(db) == {"tables": kept, "events": kept, "seat_keys": kept}


async def test_every_mistake_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "forties.db"
    await make_tables(db, {"t1": ("playing", 0), "t2": ("over", 0)})
    other = tmp_path / "other.db"
    await make_tables(other, {"x": ("over", 0)})
    not_db = tmp_path / "notes.txt"
    not_db.write_text("not a database\n" * 100)
    taken = tmp_path / "taken.db"
    taken.write_text("")
    url = f"sqlite:///{db}"
    cases: list[tuple[list[str], int, str]] = [
        (["tables", "--db", f"sqlite:///{tmp_path / 'none.db'}"], 1, "no database at"),
        (["tables", "--live", "--finished", "--db", url], 2, "not both"),
        (["tables", "--db", "nonsense://"], 1, "cannot open the database"),
        (["backup", str(taken), "--db", url], 1, "is there already"),
        (["backup", str(tmp_path), "--db", url], 2, "is a folder"),
        (["backup", str(tmp_path / "b.db"), "--db", "postgresql://u@127.0.0.1:1/x"], 1,
         "pg_dump"),
        (["restore", str(other), "--db", url], 1, "add --force"),
        (["restore", str(not_db), "--db", f"sqlite:///{tmp_path / 'new.db'}"], 2,
         "not an SQLite database"),
        (["restore", str(tmp_path / "missing.db"), "--db", url], 2, "no such file"),
        (["restore", str(db), "--db", url], 1, "is the database itself"),
        (["restore", str(other), "--db", "postgresql://u@127.0.0.1:1/x"], 1, "pg_restore"),
        (["close", "nope", "--db", url], 1, "there is no table 'nope'"),
        (["close", "t2", "--db", url], 1, "over already"),
        (["silence", "t1", "Nobody", "--db", url], 1, "no one at table t1 is called"),
        (["silence", "t1", "  ", "--db", url], 1, "empty"),
        (["prune", "--db", url], 2, "missing the option --days"),
        (["prune", "--days", "0", "--db", url], 2, "--days"),
        (["prune", "--days", "x", "--db", url], 2, "--days"),
        (["close", "--db", url], 2, "missing the TABLE argument"),
    ]
    runs = run_many([(["admin", *args], None, None, None) for args, _, _ in cases])
    for (args, code, words), got in zip(cases, runs, strict=True):
        err = got.stderr.decode()
        assert got.returncode == code, (args, got)
        assert err.count("\n") == 1 and err.startswith("forties: "), (args, err)
        assert words in err, (args, err)
        assert got.stdout == b"", (args, got.stdout)
    assert held(db)["tables"] == {"t1", "t2"}  # nothing was changed by a refusal
