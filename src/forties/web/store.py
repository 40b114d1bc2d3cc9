"""The web server's database: tables and their events, seat keys, documents.

SQLAlchemy 2 Core with Alembic migrations (``web/migrations``), applied at start. The
default is an embedded SQLite file (WAL, synchronous=NORMAL) reached from one thread; a
PostgreSQL URL is a configuration change. The table's version in the database is the
authority, not a process's memory: each event is an INSERT and an
``UPDATE tables ... WHERE id=? AND seq=? AND version=?`` in one transaction; when no row
changes, another process moved the table first and ``Conflict`` is raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..errors import FortiesError

T = TypeVar("T")
MIGRATIONS = Path(__file__).parent / "migrations"


class Conflict(FortiesError):
    """The row moved under us (another process or request got there first)."""


class StoreError(FortiesError):
    """A database that cannot be opened: says why in one line."""


meta = sa.MetaData()
tables_t = sa.Table(
    "tables", meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("preset", sa.String(40)),
    sa.Column("rules", sa.Text),
    sa.Column("seed", sa.BigInteger),
    sa.Column("first_dealer", sa.Integer),
    sa.Column("version", sa.Integer),
    sa.Column("seq", sa.Integer),
    sa.Column("status", sa.String(16)),
    sa.Column("settings", sa.Text),
    sa.Column("public", sa.Boolean),
    sa.Column("created", sa.Float),
    sa.Column("updated", sa.Float),
    sa.Column("rematch_of", sa.String(32)),  # unique: a table has one rematch at most
    sa.Column("deal_key", sa.String(128)),  # a DealKey's hex (then seed is 0); None: the seed
    sa.Column("board", sa.Text),  # a duplicate board's JSON (``Table.board``); None: none
)
events_t = sa.Table(
    "events", meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16)),
    sa.Column("body", sa.Text),
)
keys_t = sa.Table(
    "seat_keys", meta,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("invite_hash", sa.String(64)),
    sa.Column("name", sa.String(80)),
)
docs_t = sa.Table(
    "documents", meta,
    sa.Column("kind", sa.String(40), primary_key=True),
    sa.Column("id", sa.String(80), primary_key=True),
    sa.Column("version", sa.Integer),
    sa.Column("body", sa.Text),
    sa.Column("created", sa.Float),
    sa.Column("updated", sa.Float),
)

# The statements of every action, built once.
_INSERT_EVENT = events_t.insert()
_MOVE_TABLE = (
    tables_t.update()
    .where(tables_t.c.id == sa.bindparam("b_id"), tables_t.c.seq == sa.bindparam("b_seq"),
           tables_t.c.version == sa.bindparam("b_version"))
    .values(seq=sa.bindparam("n_seq"), version=sa.bindparam("n_version"),
            status=sa.bindparam("n_status"), updated=sa.bindparam("n_updated"))
)
_EVENTS_AFTER = (sa.select(events_t.c.seq, events_t.c.body)
                 .where(events_t.c.table_id == sa.bindparam("t"),
                        events_t.c.seq > sa.bindparam("s"))
                 .order_by(events_t.c.seq))
_TABLE_ROW = sa.select(tables_t).where(tables_t.c.id == sa.bindparam("t"))
_SEAT_OF_TOKEN = sa.select(keys_t.c.seat).where(keys_t.c.table_id == sa.bindparam("t"),
                                                keys_t.c.token_hash == sa.bindparam("h"))


class _Compiled:
    """A statement compiled once for a driver: its SQL and how to pass it parameters."""

    def __init__(self, stmt: Any, dialect: Any, keys: list[str] | None = None) -> None:
        c = stmt.compile(dialect=dialect, column_keys=keys)
        self.sql = c.string
        self.order: tuple[str, ...] | None = tuple(c.positiontup) if c.positiontup else None

    def params(self, named: dict[str, Any]) -> Any:
        return named if self.order is None else tuple(named[k] for k in self.order)


@dataclass(eq=False)
class _Move:
    """One table's events waiting for the writer."""

    table_id: str
    params: dict[str, Any]
    rows: list[dict[str, Any]]
    done: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop
    error: BaseException | None = None


def engine_url(url: str) -> str:
    """The SQLAlchemy URL for ``url``: PostgreSQL through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def migrate(engine: Engine) -> None:
    """Bring the database up to the newest migration (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # processes starting together: one at a time
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(4545)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


# A list of ids asked at once (``Store.seqs``, every few seconds for every table in play)
# is cut into runs of at most IN_MAX and each run made up to a multiple of IN_STEP: each
# length of list is a statement of its own, which the driver keeps prepared (SQLite's 128
# a connection, some 60 KB each at 300 ids), so a few lengths keep a few statements.
IN_MAX = 512
IN_STEP = 64


class Store:
    """The database, reached from worker threads so that the event loop never waits on
    it (one thread for SQLite, which writes from one connection at a time)."""

    Conflict: ClassVar[type[Exception]] = Conflict  # what a compare-and-set that lost raises

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        try:
            if self.sqlite:
                self.engine = sa.create_engine(url, connect_args={"timeout": 30})
                sa.event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = sa.create_engine(engine_url(url), pool_size=8,
                                               pool_pre_ping=True)
            migrate(self.engine)
        except (sa.exc.SQLAlchemyError, OSError, ImportError, ValueError) as e:
            # (ValueError: a URL SQLAlchemy cannot read, such as a port that is no number)
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise StoreError(f"cannot open the database {_safe(url)}: {first}") from None
        self.pool = ThreadPoolExecutor(1 if self.sqlite else 8, thread_name_prefix="store")
        dialect = self.engine.dialect
        self._move_sql = _Compiled(_MOVE_TABLE, dialect)
        self._insert_sql = _Compiled(_INSERT_EVENT, dialect,
                                     ["table_id", "seq", "kind", "body"])
        self._waiting: list[_Move] = []
        self._waiting_lock = threading.Lock()
        self._writing = False
        self._writer: Connection | None = None  # the writer's own connection
        self.batches = 0  # transactions of moves committed, and the moves in them
        self.moves = 0

    @classmethod
    def sqlite_file(cls, path: Path) -> Store:
        path.parent.mkdir(parents=True, exist_ok=True)
        return cls(f"sqlite:///{path}")

    def close(self) -> None:
        self.pool.shutdown(wait=True)
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
            self._writer = None
        self.engine.dispose()

    async def reachable(self) -> None:
        """Raises if the database does not answer now (``/readyz``): a query through the
        store's own thread, after what waits there; an SQLite file must still be where
        it was (one moved or deleted under the server would lose every later move)."""
        path = self.engine.url.database if self.sqlite else None
        if path and path != ":memory:" and not Path(path).is_file():
            raise StoreError(f"the database file {path} is gone")
        await self._run(lambda conn: conn.execute(sa.text("SELECT 1")).scalar())

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        def work() -> T:
            with self.engine.begin() as conn:
                return fn(conn)
        return await asyncio.get_running_loop().run_in_executor(self.pool, work)

    async def run(self, fn: Callable[[Connection], T]) -> T:
        """``fn(conn)`` in one transaction on the store's thread (the accounts, the
        games' index and the other modules that keep their own tables use this)."""
        return await self._run(fn)

    # ----- tables -------------------------------------------------------------------

    async def create_table(self, row: dict[str, Any], keys: list[dict[str, Any]],
                           events: Sequence[Mapping[str, Any]]) -> None:
        """A new table with its seat keys and first events, all or nothing. Raises
        Conflict when ``row["rematch_of"]`` already has its rematch (made by another
        process or request at the same moment)."""
        now = time.time()
        full = {**row, "seq": len(events), "created": now, "updated": now}

        def work(conn: Connection) -> None:
            conn.execute(tables_t.insert(), full)
            if keys:
                conn.execute(keys_t.insert(), [{"table_id": row["id"], **k} for k in keys])
            if events:
                conn.execute(_INSERT_EVENT, [
                    {"table_id": row["id"], "seq": i + 1, "kind": e["kind"],
                     "body": json.dumps(e)} for i, e in enumerate(events)])
        try:
            await self._run(work)
        except sa.exc.IntegrityError:
            if row.get("rematch_of") is None:
                raise
            raise Conflict(row["rematch_of"]) from None

    async def rematch_of(self, table_id: str) -> str | None:
        """The table made as the rematch of ``table_id`` (None: none yet)."""
        def work(conn: Connection) -> str | None:
            r = conn.execute(sa.select(tables_t.c.id).where(
                tables_t.c.rematch_of == table_id)).first()
            return None if r is None else str(r[0])
        return await self._run(work)

    async def token_hashes(self, table_id: str) -> dict[int, str]:
        """The seats of ``table_id`` that have a person's key: {seat: token hash}."""
        def work(conn: Connection) -> dict[int, str]:
            q = sa.select(keys_t.c.seat, keys_t.c.token_hash).where(
                keys_t.c.table_id == table_id, keys_t.c.token_hash.is_not(None))
            return {int(r[0]): str(r[1]) for r in conn.execute(q).all()}
        return await self._run(work)

    async def append(self, table_id: str, seq: int, version: int,
                     events: Sequence[Mapping[str, Any]], new_version: int,
                     status: str) -> None:
        """Store ``events`` after event ``seq`` of a table at ``version``; raises Conflict
        when the table is no longer there (another process moved it). Returns once the
        events are committed (with whatever other tables' moves were waiting too)."""
        loop = asyncio.get_running_loop()
        move = _Move(table_id,
                     {"b_id": table_id, "b_seq": seq, "b_version": version,
                      "n_seq": seq + len(events), "n_version": new_version,
                      "n_status": status, "n_updated": time.time()},
                     [{"table_id": table_id, "seq": seq + i + 1, "kind": e["kind"],
                       "body": json.dumps(e)} for i, e in enumerate(events)],
                     loop.create_future(), loop)
        with self._waiting_lock:
            self._waiting.append(move)
            start = not self._writing
            self._writing = True
        if start:
            self.pool.submit(self._write_waiting)
        await move.done

    def _write_waiting(self) -> None:
        """(The store's thread.) Commit every move waiting now in one transaction, tell
        their callers, and come back for the moves that queued up meanwhile (after
        whatever other work the store's thread has)."""
        with self._waiting_lock:
            batch, self._waiting = self._waiting, []
        try:
            if batch and not self._commit_batch(batch):
                self._commit_each(batch)
        finally:
            with self._waiting_lock:
                more = bool(self._waiting)
                self._writing = more
            if more:
                self.pool.submit(self._write_waiting)
        by_loop: dict[asyncio.AbstractEventLoop, list[_Move]] = {}
        for m in batch:
            by_loop.setdefault(m.loop, []).append(m)
        for loop, moves in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a loop that has closed meanwhile
                loop.call_soon_threadsafe(_settle, moves)

    def _commit_batch(self, batch: list[_Move]) -> bool:
        """One transaction on the writer's connection through the driver (each move's
        Conflict noted); False if anything went wrong (nothing is committed then)."""
        # the same order of rows in every process: two batches never wait on each other
        batch.sort(key=lambda m: m.table_id)
        try:
            if self._writer is None:
                self._writer = self.engine.connect()
            driver = self._writer.connection.driver_connection
            assert driver is not None
            cur = driver.cursor()
            try:
                move_sql, move_p = self._move_sql.sql, self._move_sql.params
                insert_sql, insert_p = self._insert_sql.sql, self._insert_sql.params
                for m in batch:
                    cur.execute(move_sql, move_p(m.params))
                    if cur.rowcount != 1:
                        m.error = Conflict(m.table_id)
                        continue
                    cur.executemany(insert_sql, [insert_p(r) for r in m.rows])
                driver.commit()
            finally:
                cur.close()
        except Exception:
            writer, self._writer = self._writer, None
            if writer is not None:
                with contextlib.suppress(Exception):
                    writer.invalidate()
                    writer.close()
            return False
        self.batches += 1
        self.moves += len(batch)
        return True

    def _commit_each(self, batch: list[_Move]) -> None:
        """(The store's thread.) Each move in a transaction of its own through
        SQLAlchemy, so that one bad move fails alone, with the error it gives."""
        for m in batch:
            m.error = None
            try:
                with self.engine.begin() as conn:
                    if conn.execute(_MOVE_TABLE, m.params).rowcount != 1:
                        raise Conflict(m.table_id)
                    conn.execute(_INSERT_EVENT, m.rows)
            except sa.exc.IntegrityError:
                m.error = Conflict(m.table_id)
            except Exception as e:  # told to the caller, as if it had run the work itself
                m.error = e

    async def load(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A table's row and all its events in order; None if there is no such table."""
        def work(conn: Connection) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
            row = conn.execute(_TABLE_ROW, {"t": table_id}).mappings().first()
            if row is None:
                return None
            evs = conn.execute(_EVENTS_AFTER, {"t": table_id, "s": 0}).all()
            return dict(row), [json.loads(b) for _, b in evs]
        return await self._run(work)

    async def row(self, table_id: str) -> dict[str, Any] | None:
        def work(conn: Connection) -> dict[str, Any] | None:
            r = conn.execute(_TABLE_ROW, {"t": table_id}).mappings().first()
            return None if r is None else dict(r)
        return await self._run(work)

    async def events_after(self, table_id: str, seq: int) -> list[dict[str, Any]]:
        def work(conn: Connection) -> list[dict[str, Any]]:
            return [json.loads(b) for _, b in
                    conn.execute(_EVENTS_AFTER, {"t": table_id, "s": seq}).all()]
        return await self._run(work)

    async def set_status(self, table_id: str, status: str) -> None:
        def work(conn: Connection) -> None:
            conn.execute(tables_t.update().where(tables_t.c.id == table_id)
                         .values(status=status, updated=time.time()))
        await self._run(work)

    async def seqs(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The stored event number of each of ``table_ids`` (those that are there)."""
        ids = list(table_ids)

        def work(conn: Connection) -> dict[str, int]:
            out: dict[str, int] = {}
            for first in range(0, len(ids), IN_MAX):
                part = ids[first:first + IN_MAX]
                part += part[-1:] * (-len(part) % IN_STEP)  # (the last id again)
                q = sa.select(tables_t.c.id, tables_t.c.seq).where(tables_t.c.id.in_(part))
                out.update({str(r[0]): int(r[1]) for r in conn.execute(q).all()})
            return out
        return await self._run(work)

    async def ids_with_status(self, *status: str) -> list[str]:
        def work(conn: Connection) -> list[str]:
            q = sa.select(tables_t.c.id).where(tables_t.c.status.in_(status))
            return [r[0] for r in conn.execute(q).all()]
        return await self._run(work)

    async def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        def work(conn: Connection) -> list[dict[str, Any]]:
            q = (sa.select(tables_t.c.id, tables_t.c.created)
                 .where(tables_t.c.status == "waiting", tables_t.c.public.is_(True))
                 .order_by(tables_t.c.created.desc()).limit(limit))
            return [dict(r) for r in conn.execute(q).mappings().all()]
        return await self._run(work)

    async def expire(self, before: float) -> list[str]:
        """Mark the tables still waiting since before ``before`` as expired."""
        def work(conn: Connection) -> list[str]:
            q = sa.select(tables_t.c.id).where(tables_t.c.status == "waiting",
                                               tables_t.c.updated < before)
            ids = [r[0] for r in conn.execute(q).all()]
            if ids:
                conn.execute(tables_t.update().where(tables_t.c.id.in_(ids),
                                                     tables_t.c.status == "waiting")
                             .values(status="expired", updated=time.time()))
            return ids
        return await self._run(work)

    # ----- seat keys ------------------------------------------------------------------

    async def seat_of_token(self, table_id: str, token_hash: str) -> int | None:
        def work(conn: Connection) -> int | None:
            r = conn.execute(_SEAT_OF_TOKEN, {"t": table_id, "h": token_hash}).first()
            return None if r is None else int(r[0])
        return await self._run(work)

    async def claim_invite(self, table_id: str, invite_hash: str, token_hash: str,
                           name: str) -> int | None:
        """The seat of invite ``invite_hash``, now keyed by ``token_hash``; None if no seat
        has that invite (wrong code, or the seat was taken)."""
        def work(conn: Connection) -> int | None:
            r = conn.execute(sa.select(keys_t.c.seat).where(
                keys_t.c.table_id == table_id, keys_t.c.invite_hash == invite_hash,
                keys_t.c.token_hash.is_(None))).first()
            if r is None:
                return None
            done = conn.execute(keys_t.update().where(
                keys_t.c.table_id == table_id, keys_t.c.seat == r[0],
                keys_t.c.token_hash.is_(None)).values(token_hash=token_hash, name=name))
            return int(r[0]) if done.rowcount == 1 else None
        return await self._run(work)

    async def claim_open_seat(self, table_id: str, seat: int, token_hash: str,
                              name: str) -> bool:
        """Seat ``seat`` of a public table, still waiting for a guest, now keyed by
        ``token_hash``; False if someone took it first."""
        def work(conn: Connection) -> bool:
            done = conn.execute(keys_t.update().where(
                keys_t.c.table_id == table_id, keys_t.c.seat == seat,
                keys_t.c.invite_hash.is_not(None), keys_t.c.token_hash.is_(None))
                .values(token_hash=token_hash, name=name))
            return done.rowcount == 1
        return await self._run(work)

    async def invite_taken(self, table_id: str, invite_hash: str) -> bool:
        def work(conn: Connection) -> bool:
            r = conn.execute(sa.select(keys_t.c.token_hash).where(
                keys_t.c.table_id == table_id, keys_t.c.invite_hash == invite_hash)).first()
            return r is not None and r[0] is not None
        return await self._run(work)

    async def set_key(self, table_id: str, seat: int, token_hash: str | None,
                      name: str | None) -> None:
        """Seat ``seat``'s token (None: the seat has no person's key)."""
        def work(conn: Connection) -> None:
            done = conn.execute(keys_t.update().where(
                keys_t.c.table_id == table_id, keys_t.c.seat == seat).values(
                token_hash=token_hash, name=name))
            if done.rowcount == 0:
                conn.execute(keys_t.insert(), {"table_id": table_id, "seat": seat,
                                               "token_hash": token_hash, "name": name,
                                               "invite_hash": None})
        await self._run(work)

    # ----- documents (score pads, hall evenings) --------------------------------------

    async def get_doc(self, kind: str, doc_id: str) -> tuple[int, dict[str, Any]] | None:
        def work(conn: Connection) -> tuple[int, dict[str, Any]] | None:
            r = conn.execute(sa.select(docs_t.c.version, docs_t.c.body).where(
                docs_t.c.kind == kind, docs_t.c.id == doc_id)).first()
            return None if r is None else (int(r[0]), json.loads(r[1]))
        return await self._run(work)

    async def put_doc(self, kind: str, doc_id: str, body: dict[str, Any],
                      expected_version: int) -> int:
        """Write a document if its version is still ``expected_version`` (0: create it);
        the new version. Raises Conflict when it moved."""
        text = json.dumps(body)

        def work(conn: Connection) -> int:
            now = time.time()
            if expected_version == 0:
                conn.execute(docs_t.insert(), {"kind": kind, "id": doc_id, "version": 1,
                                               "body": text, "created": now, "updated": now})
                return 1
            done = conn.execute(docs_t.update().where(
                docs_t.c.kind == kind, docs_t.c.id == doc_id,
                docs_t.c.version == expected_version).values(
                version=expected_version + 1, body=text, updated=now))
            if done.rowcount != 1:
                raise Conflict(f"{kind}/{doc_id}")
            return expected_version + 1
        try:
            return await self._run(work)
        except sa.exc.IntegrityError:
            raise Conflict(f"{kind}/{doc_id}") from None

    async def list_docs(self, kind: str, limit: int = 100) -> list[tuple[str, int, dict[str, Any]]]:
        """The newest documents of ``kind``: (id, version, body)."""
        def work(conn: Connection) -> list[tuple[str, int, dict[str, Any]]]:
            q = (sa.select(docs_t.c.id, docs_t.c.version, docs_t.c.body)
                 .where(docs_t.c.kind == kind).order_by(docs_t.c.updated.desc()).limit(limit))
            return [(r[0], int(r[1]), json.loads(r[2])) for r in conn.execute(q).all()]
        return await self._run(work)


def _settle(moves: list[_Move]) -> None:
    """(The moves' event loop.) Each caller hears that its move is committed, or why not."""
    for m in moves:
        if m.done.done():  # the caller gave up waiting (cancelled)
            continue
        if m.error is None:
            m.done.set_result(None)
        else:
            m.done.set_exception(m.error)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def _safe(url: str) -> str:
    """``url`` without its password."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return "(unreadable URL)"
