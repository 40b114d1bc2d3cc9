"""The operator's work on the web server's database (``forties admin``), safe while a
server serves it:

- ``backup``: a consistent copy of an SQLite database through SQLite's online backup API
  (the server goes on writing meanwhile); PostgreSQL is backed up with ``pg_dump``;
- ``restore``: a backup copied into a new or empty SQLite database (one that holds
  tables only with ``force``), brought up to the newest migration;
- ``tables``: every table with its game, players, status and last change;
- ``close`` and ``silence``: an event appended to the table's own events, as a server's
  move is (compare-and-set on the table's event number), so that every server process
  playing the table takes it as it takes another process's move (``Service.watch``
  looks for such changes every ``watch_seconds``) and tells the pages; being events, they
  survive a restart and travel with the table;
- ``prune``: finished tables (over, closed, expired) not changed for some days removed,
  with their events and seat keys.

Every refusal is an ``AdminError`` with one line that says why.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import FortiesError
from .store import Store, StoreError, events_t, keys_t, tables_t

LIVE = ("waiting", "playing")  # the stored statuses of a table in play
FINISHED = ("over", "closed", "expired")
RETRIES = 20  # tries of an operator's event that a server's moves got before


class AdminError(FortiesError):
    """What the operator asked cannot be done: one line saying why, and the exit status
    (2: a file given that is not what it should be; 1: anything else)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class TableRow:
    """One table as ``forties admin tables`` lists it."""

    id: str
    preset: str
    status: str
    created: float
    updated: float
    players: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.preset, "status": self.status,
                "players": self.players, "created": self.created, "updated": self.updated}


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (None: another database, or SQLite in memory)."""
    try:
        u = sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError):
        raise AdminError(f"--db {url}: not a database URL (sqlite:///FILE or "
                         f"postgresql://...)") from None
    if not u.drivername.startswith("sqlite"):
        return None
    if not u.database or u.database == ":memory:":
        raise AdminError(f"--db {url}: an SQLite database needs a file: sqlite:///FILE")
    return Path(u.database).expanduser()


@contextlib.contextmanager
def opened(url: str, make: bool = False) -> Iterator[Store]:
    """The database at ``url``, as the server opens it (brought up to the newest
    migration); an SQLite file that is not there is refused, not made (``make``: made,
    as ``forties serve`` makes its default one)."""
    path = sqlite_path(url)
    if path is not None and not path.is_file() and not make:
        raise AdminError(f"no database at {path} (forties serve makes it; --db names "
                         f"another)")
    try:
        store = Store(url)
    except StoreError as e:
        raise AdminError(str(e)) from None
    try:
        yield store
    except sa.exc.SQLAlchemyError as e:
        raise AdminError(f"the database failed: {_first_line(e)}") from None
    finally:
        store.close()


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


# ----- backup and restore ---------------------------------------------------------------


def _sqlite_only(url: str, what: str, instead: str) -> Path:
    path = sqlite_path(url)
    if path is None:
        raise AdminError(f"{what} copies SQLite databases; this one is PostgreSQL: {instead} "
                         f"(see docs/deploy.md)")
    return path


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """``source`` copied whole into the SQLite file ``target`` in one step of the online
    backup API: one read of a consistent moment, whatever writes go on meanwhile."""
    dest = sqlite3.connect(target, timeout=30)
    try:
        source.backup(dest)  # (pages=-1: every page in one step)
    finally:
        dest.close()


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    """(tables, events) in an SQLite database of ours."""
    tables = conn.execute("SELECT count(*) FROM tables").fetchone()[0]
    events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    return int(tables), int(events)


def backup(url: str, path: Path) -> tuple[int, int]:
    """Copy the SQLite database at ``url`` to ``path`` (a new file) while servers may be
    writing to it: (tables, events) copied."""
    source_path = _sqlite_only(url, "backup", "back it up with pg_dump -Fc -f "
                                              "forties.dump DBNAME")
    if not source_path.is_file():
        raise AdminError(f"no database at {source_path}")
    if path.exists():
        raise AdminError(f"{path} is there already: back up to a new file")
    part = path.with_name(f".{path.name}.part-{os.getpid()}")
    try:
        source = sqlite3.connect(source_path, timeout=30)  # (it only reads)
        try:
            _copy(source, part)
        finally:
            source.close()
        check = sqlite3.connect(part)
        try:
            ok = check.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise AdminError(f"the copy failed its check: {ok}")
            counts = _counts(check)
        finally:
            check.close()
        os.replace(part, path)
    except sqlite3.Error as e:
        raise AdminError(f"the backup failed: {_first_line(e)}") from None
    except OSError as e:
        raise AdminError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        with contextlib.suppress(OSError):
            part.unlink()
    return counts


def _read_backup(path: Path) -> sqlite3.Connection:
    """The backup at ``path``, opened to be read, checked to be a database of ours."""
    if not path.is_file():
        raise AdminError(f"{path}: no such file")
    conn = sqlite3.connect(path, timeout=30)  # (it only reads)
    try:
        names = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as e:
        conn.close()
        raise AdminError(f"{path} is not an SQLite database: {_first_line(e)}", 2) from None
    if not {"tables", "events", "seat_keys", "documents"} <= names:
        conn.close()
        raise AdminError(f"{path} is not a backup of forties serve's database (it has no "
                         f"tables of games)", 2)
    return conn


def _held(path: Path) -> int:
    """How many tables and documents the SQLite file ``path`` holds (0: new or empty)."""
    if not path.is_file() or path.stat().st_size == 0:
        return 0
    try:
        conn = sqlite3.connect(path, timeout=30)  # (it only reads)
        try:
            names = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            held = 0
            for name in ("tables", "documents"):
                if name in names:
                    held += int(conn.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
            if not held and names - {"tables", "events", "seat_keys", "documents",
                                     "alembic_version"}:
                held = len(names)  # someone else's database: not ours to overwrite
            return held
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise AdminError(f"{path} is there and is not an SQLite database "
                         f"({_first_line(e)}): restore into a new file") from None


def restore(path: Path, url: str, force: bool = False) -> tuple[int, int]:
    """Copy the backup ``path`` into the SQLite database at ``url``, which must be new or
    empty unless ``force``; (tables, events) restored."""
    target = _sqlite_only(url, "restore", "restore a pg_dump backup with pg_restore")
    source = _read_backup(path)
    try:
        if target.resolve() == path.resolve():
            raise AdminError(f"{path} is the database itself: restore into another file")
        held = _held(target)
        if held and not force:
            raise AdminError(f"{target} is not empty (it holds {held} tables and documents): "
                             f"restore into a new file, or add --force to replace it (stop "
                             f"its server first)")
        if not target.parent.is_dir():
            raise AdminError(f"no folder {target.parent} to write {target.name} in")
        try:
            _copy(source, target)
        except sqlite3.Error as e:
            raise AdminError(f"the restore failed: {_first_line(e)}") from None
        except OSError as e:
            raise AdminError(f"cannot write {target}: {e.strerror or e}") from None
    finally:
        source.close()
    # (opened as the server opens it: an older backup is brought up to the newest migration)
    with opened(url) as store, store.engine.connect() as conn:
        tables = conn.execute(sa.select(sa.func.count()).select_from(tables_t)).scalar()
        events = conn.execute(sa.select(sa.func.count()).select_from(events_t)).scalar()
    return int(tables or 0), int(events or 0)


# ----- the tables -----------------------------------------------------------------------


def _players(conn: Connection, ids: list[str]) -> dict[str, list[str]]:
    """Each table's seats' names, from its "sit" events (the last one of each seat)."""
    seats: dict[str, dict[int, str]] = {}
    for first in range(0, len(ids), 500):
        q = (sa.select(events_t.c.table_id, events_t.c.body)
             .where(events_t.c.kind == "sit", events_t.c.table_id.in_(ids[first:first + 500]))
             .order_by(events_t.c.table_id, events_t.c.seq))
        for table_id, body in conn.execute(q).all():
            e = json.loads(body)
            seat = e.get("seat")
            if isinstance(seat, int):
                got = seats.setdefault(str(table_id), {})
                if e.get("as") == "empty":
                    got.pop(seat, None)
                else:
                    got[seat] = str(e.get("name") or f"Seat {seat}")
    return {t: [s[i] for i in sorted(s)] for t, s in seats.items()}


def list_tables(url: str, statuses: tuple[str, ...] | None = None,
                limit: int | None = None) -> list[TableRow]:
    """The tables (of ``statuses``; None: all), the last changed first."""
    with opened(url) as store, store.engine.connect() as conn:
        q = sa.select(tables_t.c.id, tables_t.c.preset, tables_t.c.status,
                      tables_t.c.created, tables_t.c.updated).order_by(
            tables_t.c.updated.desc(), tables_t.c.id)
        if statuses is not None:
            q = q.where(tables_t.c.status.in_(statuses))
        if limit is not None:
            q = q.limit(limit)
        rows = conn.execute(q).all()
        players = _players(conn, [str(r[0]) for r in rows])
    return [TableRow(str(r[0]), str(r[1]), str(r[2]), float(r[3]), float(r[4]),
                     players.get(str(r[0]), [])) for r in rows]


class _Moved(FortiesError):
    """(The table moved between the read and the write: try again.)"""


def append_event(url: str, table_id: str, event: dict[str, Any],
                 status: str | None = None) -> int:
    """Append ``event`` to the table's events as a server process commits a move
    (compare-and-set on its event number, tried again when a server moved the table
    first), its stored status set to ``status`` (None: kept); the event's number."""
    with opened(url) as store:
        for _ in range(RETRIES):
            try:
                with store.engine.begin() as conn:
                    row = conn.execute(sa.select(tables_t.c.seq).where(
                        tables_t.c.id == table_id)).first()
                    if row is None:
                        raise AdminError(f"there is no table {table_id!r}")
                    seq = int(row[0])
                    values: dict[str, Any] = {"seq": seq + 1, "updated": time.time()}
                    if status is not None:
                        values["status"] = status
                    done = conn.execute(tables_t.update().where(
                        tables_t.c.id == table_id, tables_t.c.seq == seq).values(**values))
                    if done.rowcount != 1:
                        raise _Moved
                    conn.execute(events_t.insert(), {"table_id": table_id, "seq": seq + 1,
                                                     "kind": event["kind"],
                                                     "body": json.dumps(event)})
                return seq + 1
            except (_Moved, sa.exc.IntegrityError):
                time.sleep(0.05)
    raise AdminError(f"table {table_id} moved too often to be changed: try again")


def table_row(url: str, table_id: str) -> TableRow:
    """One table, as ``list_tables`` gives it; AdminError when there is none."""
    with opened(url) as store, store.engine.connect() as conn:
        r = conn.execute(sa.select(tables_t.c.id, tables_t.c.preset, tables_t.c.status,
                                   tables_t.c.created, tables_t.c.updated)
                         .where(tables_t.c.id == table_id)).first()
        if r is None:
            raise AdminError(f"there is no table {table_id!r} (forties admin tables lists "
                             f"them)")
        players = _players(conn, [table_id]).get(table_id, [])
    return TableRow(str(r[0]), str(r[1]), str(r[2]), float(r[3]), float(r[4]), players)


def close_table(url: str, table_id: str) -> None:
    """End a table: no more moves, chat or seats; the servers playing it tell its pages."""
    row = table_row(url, table_id)
    if row.status == "closed":
        raise AdminError(f"table {table_id} is closed already")
    if row.status in ("over", "expired"):
        raise AdminError(f"table {table_id} is {row.status} already: nothing to close")
    append_event(url, table_id, {"kind": "close"}, status="closed")


def silence(url: str, table_id: str, name: str) -> bool:
    """Drop the chat of the seat called ``name`` at the table from now on (kept in the
    table's events: a restart keeps it). False if it was silenced already."""
    from ..table import name_key  # (the one comparison of names, the table's)

    wanted = name_key(name)
    if not wanted:
        raise AdminError("the name to silence is empty")
    row = table_row(url, table_id)
    if wanted not in {name_key(p) for p in row.players}:
        raise AdminError(f"no one at table {table_id} is called {name!r} (its seats: "
                         f"{', '.join(row.players) or 'none yet'})")
    with opened(url) as store, store.engine.connect() as conn:
        done = {name_key(json.loads(b).get("name")) for (b,) in conn.execute(
            sa.select(events_t.c.body).where(events_t.c.table_id == table_id,
                                             events_t.c.kind == "silence")).all()}
    if wanted in done:
        return False
    append_event(url, table_id, {"kind": "silence", "name": " ".join(name.split())})
    return True


def prune(url: str, days: float, dry_run: bool = False) -> tuple[list[str], int]:
    """Remove the finished tables (over, closed, expired) unchanged for ``days`` days,
    with their events and seat keys: (their ids, their events). ``dry_run``: only say."""
    before = time.time() - days * 86400
    with opened(url) as store, store.engine.begin() as conn:
        ids = [str(r[0]) for r in conn.execute(
            sa.select(tables_t.c.id).where(tables_t.c.status.in_(FINISHED),
                                           tables_t.c.updated < before)
            .order_by(tables_t.c.updated)).all()]
        events = 0
        for first in range(0, len(ids), 500):
            part = ids[first:first + 500]
            events += int(conn.execute(sa.select(sa.func.count()).select_from(events_t)
                                       .where(events_t.c.table_id.in_(part))).scalar() or 0)
            if not dry_run:
                conn.execute(events_t.delete().where(events_t.c.table_id.in_(part)))
                conn.execute(keys_t.delete().where(keys_t.c.table_id.in_(part)))
                conn.execute(tables_t.delete().where(tables_t.c.id.in_(part),
                                                     tables_t.c.status.in_(FINISHED)))
    return ids, events


__all__ = ["FINISHED", "LIVE", "AdminError", "TableRow", "append_event", "backup",
           "close_table", "list_tables", "prune", "restore", "silence",
           "sqlite_path", "table_row"]
