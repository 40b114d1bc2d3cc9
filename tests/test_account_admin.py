"""An account's data (``forties.web.account_admin``, ``web.account_data``): the download
holds every row about the account and no secret; deleting it leaves its name nowhere in
the database while its games stay, replayable, with "a former player" in its seat; every
table that names an account is covered by both; the sweep forgets what expired; and
``forties admin accounts`` finds, suspends, exports and deletes on SQLite and PostgreSQL.

The games' index (``web.games``) is written here by hand, as its rows are described in
``web.account_schema``: the seats, the game, the statistics and ratings of one finished
hand that the table itself played and stored."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web import account_admin, account_schema
from forties.web.account_admin import ACCOUNT_COLUMNS, EXPORTED, NOT_EXPORTED, ON_DELETE
from forties.web.accounts import COOKIE, FORMER_PLAYER, accounts_t, key_hash, sessions_t
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from forties.web.store import Store, meta
from tests.accounts_helpers import make_account, sign_in

from .helpers_engine import run_forties, run_many

NAME = "Marie-Claire"


def app_client(db: Path) -> TestClient:
    app = create_app(ServerSettings(db_url=f"sqlite:///{db}",
                                    limits=Limits(par=False, **Rates.lifted())))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "app.db") as c:
        yield c


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def run(client: TestClient, fn: Any) -> Any:
    return client.portal.call(store_of(client).run, fn)


async def play_one_hand(service: Any, table_id: str, index: bool = True) -> None:
    """Every seat a person: the first legal action of whoever's turn it is, until the
    hand is over (stored as the server stores moves); a game over is then indexed as the
    server indexes it when its game ends (``Turns.on_game_over``: ``web.games``)."""
    live = await service.live(table_id)
    t = live.table
    while not t.state.hand_over:
        action = t.state.legal_actions()[0]
        async with live.lock:
            await service.live_tables.commit(live, t.act(action.seat, str(action),
                                                         t.version))
    if index and t.status == "over" and service.turns.on_game_over is not None:
        await service.turns.on_game_over(live)


def a_finished_hand(client: TestClient, names: list[str]) -> str:
    """A table of four people named ``names``, the first saying a chat line, a game to
    5 played (one hand) and stored: its id."""
    service = client.app.state.service  # type: ignore[attr-defined]

    async def make() -> str:
        made = await service.create_table("merrimack-valley", {"target": 5}, [
            {"kind": "person", "name": n} for n in names], public=False, start=True)
        live = await service.live(made["table"])
        async with live.lock:  # a chat line of the first seat, stored with its name
            await service.live_tables.commit(live, [
                {"kind": "chat", "seat": 0, "name": names[0], "text": "good luck"}])
        await play_one_hand(service, made["table"], index=False)  # (``index_game``'s)
        return str(made["table"])
    table_id: str = client.portal.call(make)
    return table_id


def index_game(client: TestClient, table_id: str, ids: list[str | None],
               names: list[str]) -> None:
    """The games' index of ``table_id`` as ``web.games`` writes it: the seats of
    accounts, the game, each account's place, statistics and ratings, a flag."""
    now = time.time()
    people = [i for i in ids if i]

    def work(conn: Any) -> None:
        for seat, a in enumerate(ids):
            if a:
                conn.execute(account_schema.seat_accounts_t.insert(),
                             {"table_id": table_id, "seat": seat, "account_id": a, "at": now})
        conn.execute(account_schema.games_t.insert(), {
            "table_id": table_id, "family": "45s", "preset": "merrimack-valley",
            "finished": now, "rated": True, "counted": True, "why": None, "hands": 1,
            "seats": json.dumps([{"name": n, "kind": "person", "account": a}
                                 for n, a in zip(names, ids, strict=True)]),
            "result": json.dumps({"scores": [5, 0], "winner": [names[0], names[2]]})})
        for seat, a in enumerate(ids):
            if not a:
                continue
            partner = ids[(seat + 2) % 4]
            conn.execute(account_schema.game_players_t.insert(), {
                "table_id": table_id, "seat": seat, "account_id": a, "family": "45s",
                "finished": now, "side": seat % 2, "partners": partner or "", "won": True,
                "stats": json.dumps({"hands": 1}), "rating_before": 25.0,
                "rating_after": 26.0})
            conn.execute(account_schema.account_stats_t.insert(), [
                {"account_id": a, "family": "45s", "partner_id": "", "games": 1,
                 "body": "{}", "updated": now},
                {"account_id": a, "family": "45s", "partner_id": partner or "guest",
                 "games": 1, "body": "{}", "updated": now}])
            conn.execute(account_schema.ratings_t.insert(), {
                "subject": a, "family": "45s", "mu": 26.0, "sigma": 8.0, "games": 1,
                "last_rated": now})
            conn.execute(account_schema.rating_history_t.insert(), {
                "subject": a, "family": "45s", "table_id": table_id, "at": now,
                "mu": 26.0, "sigma": 8.0, "shown": 2.0})
        pair = "+".join(sorted(people[:2]))
        conn.execute(account_schema.ratings_t.insert(), {
            "subject": pair, "family": "45s", "mu": 26.0, "sigma": 8.0, "games": 1,
            "last_rated": now})
        conn.execute(account_schema.rating_flags_t.insert(), {
            "table_id": table_id, "at": now, "accounts": " ".join(people),
            "why": "the same two accounts, 6 games in a day"})
    run(client, work)



def personal_rows(client: TestClient, me: str, other: str) -> dict[str, str]:
    """A passkey, recovery codes (one used), a challenge, follows, a block and invitations
    of ``me``; the secrets' hashes they keep, by name."""
    now = time.time()
    hashes = {"recovery": key_hash("code-1"), "recovery_used": key_hash("code-2"),
              "challenge": key_hash("challenge-key")}

    def work(conn: Any) -> None:
        conn.execute(account_schema.credentials_t.insert(), {
            "id": "cred-" + me, "account_id": me, "public_key": "pQECAyYgASFY",
            "sign_count": 3, "transports": "internal", "label": "my phone",
            "user_handle": "aGFuZGxl",
            "created": now, "last_used": now})
        conn.execute(account_schema.recovery_t.insert(), [
            {"code_hash": hashes["recovery"], "account_id": me, "created": now,
             "used": None},
            {"code_hash": hashes["recovery_used"], "account_id": me, "created": now,
             "used": now}])
        conn.execute(account_schema.challenges_t.insert(), {
            "key_hash": hashes["challenge"], "purpose": "device", "account_id": me,
            "body": json.dumps({"challenge": "c2VjcmV0"}), "created": now})
        conn.execute(account_schema.follows_t.insert(), [
            {"follower": me, "followed": other, "at": now},
            {"follower": other, "followed": me, "at": now}])
        conn.execute(account_schema.blocks_t.insert(), [
            {"blocker": me, "blocked": "someone", "at": now},
            {"blocker": other, "blocked": me, "at": now}])
        conn.execute(account_schema.account_invites_t.insert(), [
            {"id": "inv-1", "from_account": me, "to_account": other, "table_id": "t",
             "seat": 1, "created": now, "answered": None},
            {"id": "inv-2", "from_account": other, "to_account": me, "table_id": "t",
             "seat": 2, "created": now, "answered": "yes"}])
    run(client, work)
    return hashes


def everything(db: Path) -> str:
    """Every value of every table of the database, as one text."""
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            names = sa.inspect(conn).get_table_names()
            return "\n".join(repr(tuple(r)) for n in names
                             for r in conn.execute(sa.text(f'SELECT * FROM "{n}"')))
    finally:
        engine.dispose()


# ----- the download -------------------------------------------------------------------------


def test_the_download_holds_every_row_and_no_secret(client: TestClient) -> None:
    other, _ = make_account(client, "Yusuf")
    me = sign_in(client, NAME)
    key = client.cookies.get(COOKIE)
    assert key
    names = [NAME, "Ann", "Yusuf", "Léo"]
    table = a_finished_hand(client, names)
    index_game(client, table, [me.id, None, other.id, None], names)
    hashes = personal_rows(client, me.id, other.id)
    r = client.get("/api/account/export")
    assert r.status_code == 200, r.text
    assert r.headers["content-disposition"] == \
        f'attachment; filename="forties-{me.id}.json"'
    assert r.headers["cache-control"] == "no-store"
    data = r.json()
    assert data["format"] == account_admin.FORMAT
    assert set(EXPORTED) <= set(data)
    assert data["accounts"][0]["name"] == NAME and data["accounts"][0]["id"] == me.id
    assert [s["agent"] for s in data["sessions"]] == ["tests"]
    assert data["credentials"][0]["label"] == "my phone"
    assert data["recovery_codes"] == {"left": 1, "used": 1}
    assert data["challenges"] == [{"purpose": "device", "created": pytest.approx(
        data["challenges"][0]["created"])}]
    assert [g["table_id"] for g in data["games"]] == [table]
    assert data["games"][0]["seats"][0]["name"] == NAME  # (JSON read as what it says)
    assert [(p["table_id"], p["seat"]) for p in data["game_players"]] == [(table, 0)]
    assert [(s["table_id"], s["seat"]) for s in data["seat_accounts"]] == [(table, 0)]
    assert {r["subject"] for r in data["ratings"]} == {me.id, "+".join(sorted(
        [me.id, other.id]))}
    assert [h["subject"] for h in data["rating_history"]] == [me.id]
    assert {s["partner_id"] for s in data["account_stats"]} == {"", other.id}
    assert len(data["rating_flags"]) == 1
    assert {(f["follower"], f["followed"]) for f in data["follows"]} == \
        {(me.id, other.id), (other.id, me.id)}
    assert [b["blocked"] for b in data["blocks"]] == ["someone"]  # not who blocks me
    assert {i["id"] for i in data["account_invites"]} == {"inv-1", "inv-2"}
    text = r.text
    for secret in [key_hash(key), *hashes.values(), "c2VjcmV0"]:
        assert secret not in text
    assert "token_hash" not in text and "code_hash" not in text and "key_hash" not in text
    # another account's rows are not in it
    assert all(p["account_id"] == me.id for p in data["game_players"])


def test_a_deleted_partners_name_is_not_in_a_download(client: TestClient) -> None:
    """A game indexed after its player's account was deleted (by force, while the table
    played) keeps the name in its seats: the partner's download says "a former player"."""
    gone, _ = make_account(client, "Bob Gone")
    me = sign_in(client, NAME)
    names = [NAME, "Ann", "Bob Gone", "Léo"]
    table = a_finished_hand(client, names)
    run(client, lambda conn: account_admin.delete(conn, gone.id, force=True))
    index_game(client, table, [me.id, None, gone.id, None], names)  # (after: the race)
    data = client.get("/api/account/export").json()
    assert [s["name"] for s in data["games"][0]["seats"]] == \
        [NAME, "Ann", FORMER_PLAYER, "Léo"]
    assert gone.id not in json.dumps(data["games"])


def test_every_table_that_names_an_account_is_downloaded_and_deleted() -> None:
    """A table added to the database that names an account (a column of an account's
    id, or ids in text) must be listed with its columns, in the download (or said why
    not) and in what deleting does; and nothing is listed that is not there."""
    import forties.web.app  # noqa: F401  (every module of the web, and its tables)

    naming = {"follower", "followed", "blocker", "blocked", "subject", "partners"}
    for table in meta.sorted_tables:
        found = {c.name for c in table.columns
                 if "account" in c.name or c.name in naming
                 or (c.name.endswith("_id") and c.name != "table_id")}
        if table.name == "accounts":
            found = {"id"}
        if found:
            assert table.name in ACCOUNT_COLUMNS, (table.name, found)
            assert found <= set(ACCOUNT_COLUMNS[table.name]), (table.name, found)
    for name in ACCOUNT_COLUMNS:
        assert name in meta.tables, name
        assert set(ACCOUNT_COLUMNS[name]) <= set(meta.tables[name].columns.keys()), name
        assert name in ON_DELETE, name
        assert (name in EXPORTED) != (name in NOT_EXPORTED), name
        assert all(NOT_EXPORTED.values())


# each table with a column naming the account: a row of it made for the account (the
# other account columns naming someone else), by the types of its columns
def generic_row(table: sa.Table, column: str, me: str, other: str) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for c in table.columns:
        if c.name in ACCOUNT_COLUMNS[table.name]:
            row[c.name] = me if c.name == column else other
        elif isinstance(c.type, sa.Float):
            row[c.name] = time.time()
        elif isinstance(c.type, sa.Integer | sa.BigInteger):
            row[c.name] = 1
        elif isinstance(c.type, sa.Boolean):
            row[c.name] = False
        elif isinstance(c.type, sa.Text):
            row[c.name] = "{}"
        else:
            row[c.name] = secrets.token_hex(6)
    return row


# (table, column) whose rows naming the account are not in its download, and why
NOT_DOWNLOADED = {
    ("blocks", "blocked"): "who blocks the account is the blocker's to know",
    ("game_players", "partners"): "a partner's own place in a game (the account's own "
                                  "place in that game is downloaded)",
    ("account_stats", "partner_id"): "a partner's statistics of their games together"}
# (table, column) whose rows naming the account outlive it (besides the tables kept)
OUTLIVE = {("account_stats", "partner_id"): "a partner's statistics of games with it"}


def test_a_row_of_every_table_is_downloaded_and_goes_as_said(client: TestClient) -> None:
    me = sign_in(client, NAME)
    other, _ = make_account(client, "Yusuf")
    made: list[tuple[str, str]] = []
    for name, columns in ACCOUNT_COLUMNS.items():
        if name == "accounts":
            continue
        table = meta.tables[name]
        for column in columns:
            run(client, lambda conn, t=table, c=column: conn.execute(
                t.insert(), generic_row(t, c, me.id, other.id)))
            made.append((name, column))
    data = client.get("/api/account/export").json()

    def naming(rows: Any, column: str) -> bool:
        return isinstance(rows, list) and any(me.id in str(r.get(column)) for r in rows)

    for name, column in made:
        if name == "recovery_codes":
            assert data[name]["left"] + data[name]["used"] == 1
        elif name in NOT_EXPORTED or (name, column) in NOT_DOWNLOADED:
            assert not naming(data.get(name), column), (name, column)
        elif name == "challenges":
            assert len(data[name]) == 1
        else:
            assert naming(data[name], column), (name, column)
    r = client.post("/api/account/delete", json={"confirm": NAME})
    assert r.json() == {"ok": True, "deleted": True}, r.text

    def left(conn: Any) -> dict[tuple[str, str], int]:
        return {(n, c): int(conn.execute(sa.select(sa.func.count()).select_from(
            meta.tables[n]).where(meta.tables[n].c[c].contains(me.id, autoescape=True)))
            .scalar() or 0) for n, c in made}
    for (name, column), count in run(client, left).items():
        if ON_DELETE[name][0] == account_admin.KEPT or (name, column) in OUTLIVE:
            assert count == 1, (name, column)
        else:
            assert count == 0, (name, column)


# ----- deleting ----------------------------------------------------------------------------


def test_a_deleted_accounts_name_is_nowhere_and_its_games_stay(tmp_path: Path) -> None:
    db = tmp_path / "app.db"
    names = [NAME, "Ann", "Yusuf", "Léo"]
    with app_client(db) as client:
        other, _ = make_account(client, "Yusuf")
        me = sign_in(client, NAME)
        key = client.cookies.get(COOKIE)
        second = client.portal.call(client.app.state.accounts.new_session,  # type: ignore
                                    me.id, "a phone")
        table = a_finished_hand(client, names)
        record_before = client.get(f"/api/tables/{table}/record").json()
        index_game(client, table, [me.id, None, other.id, None], names)
        personal_rows(client, me.id, other.id)
        assert client.get(f"/api/tables/{table}").json()["status"] == "over"
        r = client.post("/api/account/delete", json={"confirm": "  marie-CLAIRE "})
        assert r.status_code == 200 and r.json() == {"ok": True, "deleted": True}, r.text
        gone = r.headers["set-cookie"].lower()
        assert gone.startswith(f"{COOKIE}=") and "max-age=0" in gone
        for k in (key, second):  # every session ended
            client.cookies.set(COOKIE, str(k))
            assert client.get("/api/account").json() == {"account": None}
    text = everything(db)
    assert NAME.casefold() not in text.casefold()
    assert "Yusuf" in text and "Léo" in text  # the others' names stay
    assert FORMER_PLAYER in text
    # a new server (the table loaded from the database) shows the game with its seat
    with app_client(db) as client:
        record = client.get(f"/api/tables/{table}/record").json()
        assert record["players"] == [FORMER_PLAYER, *names[1:]]
        assert record["hands"] == record_before["hands"] and record["hands"]
        replayed = client.post("/api/replay", json={"record": record})
        assert replayed.status_code == 200, replayed.text
        assert NAME not in replayed.text
        # the name stays taken: nobody poses as the deleted player
        with pytest.raises(Exception, match="taken"):
            make_account(client, "marie-claire")

        def rows(conn: Any) -> dict[str, Any]:
            return {
                "games": conn.execute(sa.select(account_schema.games_t)).all(),
                "players": conn.execute(sa.select(account_schema.game_players_t)).all(),
                "account": conn.execute(sa.select(accounts_t).where(
                    accounts_t.c.id == me.id)).one(),
                "sessions": conn.execute(sa.select(sessions_t).where(
                    sessions_t.c.account_id == me.id)).all(),
                "ratings": conn.execute(sa.select(account_schema.ratings_t)).all()}
        got = run(client, rows)
    assert len(got["games"]) == 1 and len(got["players"]) == 2
    seats = json.loads(got["games"][0].seats)
    assert [s["name"] for s in seats] == [FORMER_PLAYER, *names[1:]]
    assert json.loads(got["games"][0].result)["winner"] == [FORMER_PLAYER, "Yusuf"]
    assert got["account"].status == "deleted" and got["account"].name == FORMER_PLAYER
    assert got["sessions"] == []
    assert [r.subject for r in got["ratings"]] == [other.id]  # the pair's went too


def test_a_chat_line_after_the_game_leaves_the_table_over(client: TestClient) -> None:
    """A game over, then "good game" said at its table: the table is stored over still
    (it was stored as playing again, so that its players could not delete their accounts
    for an hour, ``forties admin tables --live`` listed it and ``prune`` never took it)."""
    me = sign_in(client, NAME)
    table = a_finished_hand(client, [NAME, "Ann", "Yusuf", "Léo"])
    run(client, lambda conn: conn.execute(account_schema.seat_accounts_t.insert(), {
        "table_id": table, "seat": 0, "account_id": me.id, "at": time.time()}))
    service = client.app.state.service  # type: ignore[attr-defined]

    async def chat() -> None:
        live = await service.live(table)
        async with live.lock:
            await service.live_tables.commit(live, [
                {"kind": "chat", "seat": 0, "name": NAME, "text": "good game"}])
    client.portal.call(chat)
    stored = run(client, lambda conn: conn.execute(sa.text(
        "SELECT status FROM tables WHERE id = :id"), {"id": table}).scalar())
    assert stored == "over"
    assert run(client, lambda conn: account_admin.in_play(conn, me.id, time.time())) == []


def test_an_account_at_a_table_in_play_is_not_deleted(client: TestClient) -> None:
    me = sign_in(client, NAME)
    service = client.app.state.service  # type: ignore[attr-defined]

    async def make() -> str:
        made = await service.create_table("merrimack-valley", {}, [
            {"kind": "person", "name": NAME}], public=False, start=False)
        return str(made["table"])
    table = client.portal.call(make)
    run(client, lambda conn: conn.execute(account_schema.seat_accounts_t.insert(), {
        "table_id": table, "seat": 0, "account_id": me.id, "at": time.time()}))
    r = client.post("/api/account/delete", json={"confirm": NAME})
    assert r.status_code == 409 and r.json()["code"] == "in_play", r.text
    assert table in r.json()["error"]
    assert client.get("/api/account").json()["account"]["name"] == NAME
    # the operator may force it: the stored seat renamed at once
    done = run(client, lambda conn: account_admin.delete(conn, me.id, force=True))
    assert done["events"] >= 1
    stored = run(client, lambda conn: conn.execute(sa.text(
        "SELECT body FROM events WHERE kind = 'sit'")).all())
    assert any(FORMER_PLAYER in b for (b,) in stored)
    assert not any(NAME in b for (b,) in stored)


# ----- the sweep -----------------------------------------------------------------------------


def test_the_sweep_forgets_expired_sessions_challenges_and_invitations(
        client: TestClient) -> None:
    me = sign_in(client, NAME)
    now = time.time()
    old, new = now - 100 * 86400, now - 60

    def work(conn: Any) -> None:
        conn.execute(sessions_t.insert(), [
            {"token_hash": key_hash(f"k{i}"), "id": f"s{i}", "account_id": me.id,
             "created": at, "last_seen": at, "agent": None}
            for i, at in enumerate((old, new))])
        conn.execute(account_schema.challenges_t.insert(), [
            {"key_hash": f"c{i}", "purpose": "signin", "account_id": None, "body": "{}",
             "created": at}
            for i, at in enumerate((now - account_admin.CHALLENGE_SECONDS - 1, new))])
        conn.execute(account_schema.account_invites_t.insert(), [
            {"id": f"i{i}", "from_account": me.id, "to_account": "x", "table_id": "t",
             "seat": 1, "created": at, "answered": None}
            for i, at in enumerate((now - account_admin.INVITE_SECONDS - 1, new))])
    run(client, work)
    service = client.app.state.service  # type: ignore[attr-defined]
    client.portal.call(service.sweep)

    def left(conn: Any) -> dict[str, set[str]]:
        return {"sessions": {r[0] for r in conn.execute(sa.select(sessions_t.c.id))},
                "challenges": {r[0] for r in conn.execute(sa.select(
                    account_schema.challenges_t.c.key_hash))},
                "invites": {r[0] for r in conn.execute(sa.select(
                    account_schema.account_invites_t.c.id))}}
    got = run(client, left)
    assert got["challenges"] == {"c1"} and got["invites"] == {"i1"}
    assert {"s1"} <= got["sessions"] and "s0" not in got["sessions"]
    # the signed-in session (made just now) is kept
    assert client.get("/api/account").json()["account"]["id"] == me.id


def test_the_sweep_of_two_processes_at_once_is_safe(tmp_path: Path) -> None:
    """Two stores (two processes) pruning the same rows at the same moment: no error,
    each row gone once."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    stores = [Store(url), Store(url)]
    try:
        old = time.time() - 100 * 86400
        with stores[0].engine.begin() as conn:
            conn.execute(account_schema.challenges_t.insert(), [
                {"key_hash": f"c{i}", "purpose": "signin", "account_id": None,
                 "body": "{}", "created": old} for i in range(50)])

        async def both() -> list[dict[str, int]]:
            return list(await asyncio.gather(*(s.run(account_admin.prune) for s in stores)))
        got = asyncio.run(both())
        assert sum(g["challenges"] for g in got) == 50
    finally:
        for s in stores:
            s.close()


# ----- forties admin accounts ---------------------------------------------------------------


def admin_db(url: str) -> dict[str, str]:
    """A database with three accounts (one with a finished game and a flag): their ids."""
    store = Store(url)
    try:
        now = time.time()
        ids = {"marie": "MarieId000000001", "mario": "MarioId000000002",
               "yusuf": "YusufId000000003"}
        with store.engine.begin() as conn:
            for n, (key, name) in enumerate((("marie", NAME), ("mario", "Mario_Rossi"),
                                             ("yusuf", "Yusuf"))):
                conn.execute(accounts_t.insert(), {
                    "id": ids[key], "name": name, "name_key": name.casefold(),
                    "created": now - 86400 * (n + 1), "status": "active", "hidden": False,
                    "last_seen": now - n})
            conn.execute(sessions_t.insert(), {
                "token_hash": key_hash("marie-key"), "id": "sess1",
                "account_id": ids["marie"], "created": now, "last_seen": now, "agent": "x"})
            conn.execute(account_schema.game_players_t.insert(), {
                "table_id": "T1", "seat": 0, "account_id": ids["marie"], "family": "45s",
                "finished": now, "side": 0, "partners": ids["yusuf"], "won": True,
                "stats": "{}", "rating_before": None, "rating_after": None})
            conn.execute(account_schema.rating_flags_t.insert(), {
                "table_id": "T1", "at": now, "accounts": f"{ids['marie']} {ids['yusuf']}",
                "why": "the same two accounts, 6 games in a day"})
        return ids
    finally:
        store.close()


def check_admin(url: str, folder: Path) -> None:
    ids = admin_db(url)
    out = folder / "account.json"
    jobs = [
        ["find", "mari", "--json"],
        ["find", ids["yusuf"]],
        ["suspend", ids["marie"]],
        ["suspend", ids["marie"]],
        ["find", "marie", "--json"],
        ["unsuspend", ids["marie"]],
        ["export", ids["marie"], "--out", str(out)],
        ["flags"],
        ["delete", ids["marie"]],
        ["find", ids["marie"], "--json"],
        ["delete", ids["marie"]],
        ["suspend", "nobody"],
        ["find", "  "],
    ]
    runs = run_many([(["admin", "accounts", *a, "--db", url], None, None, None)
                     for a in jobs])
    text = [(r.returncode, r.stdout.decode(), r.stderr.decode()) for r in runs]
    found = [json.loads(line) for line in text[0][1].splitlines()]
    assert [f["name"] for f in found] == [NAME, "Mario_Rossi"]  # the last seen first
    assert found[0]["games"] == 1 and found[0]["status"] == "active"
    assert text[1][0] == 0 and ids["yusuf"] in text[1][1] and "Yusuf" in text[1][1]
    assert text[2] == (0, f"suspended account {ids['marie']} (1 sessions ended)\n", "")
    assert text[3][0] == 1 and "suspended already" in text[3][2]
    assert json.loads(text[4][1])["status"] == "suspended"
    assert text[5] == (0, f"account {ids['marie']} is active again\n", "")
    assert text[6][0] == 0, text[6]
    data = json.loads(out.read_text())
    assert data["accounts"][0]["name"] == NAME and data["sessions"] == []
    assert text[7][0] == 0 and f"{NAME} ({ids['marie']})" in text[7][1]
    assert "6 games in a day" in text[7][1]
    assert text[8][0] == 0 and text[8][1].startswith(f"deleted account {ids['marie']}")
    after = json.loads(text[9][1])
    assert after["name"] == FORMER_PLAYER and after["status"] == "deleted"
    for (code, stdout, err), words in zip(text[10:], ("deleted already",
                                                      "there is no account 'nobody'",
                                                      "say what to look for"), strict=True):
        assert code == 1 and stdout == "" and err.count("\n") == 1, (code, stdout, err)
        assert err.startswith("forties: ") and words in err, err


def test_admin_accounts_on_sqlite(tmp_path: Path) -> None:
    check_admin(f"sqlite:///{tmp_path / 'admin.db'}", tmp_path)


def test_admin_accounts_on_postgresql(db: str, tmp_path: Path) -> None:
    check_admin(db, tmp_path)


def test_the_installed_command_says_the_same(tmp_path: Path) -> None:
    """One command through the installed script, as an operator runs it."""
    url = f"sqlite:///{tmp_path / 'one.db'}"
    ids = admin_db(url)
    done = run_forties("admin", "accounts", "find", "marie", "--db", url)
    assert done.returncode == 0 and ids["marie"] in done.stdout and NAME in done.stdout


# ----- docs/accounts.md ----------------------------------------------------------------------

DOC = Path(__file__).parents[1] / "docs" / "accounts.md"
PLACEHOLDER = "Xa12bc3dEf456789"  # the account id the page's examples use


def doc_commands() -> list[list[str]]:
    import re
    import shlex

    out = []
    for block in re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command:
                out.append(shlex.split(command))
    return out


def test_every_command_in_docs_accounts_runs(tmp_path: Path) -> None:
    """Every ``forties`` line of docs/accounts.md, in order, on a database with the
    page's example account (its id for the page's placeholder): exit status 0."""
    commands = doc_commands()
    assert commands, "docs/accounts.md shows no command"
    url = f"sqlite:///{tmp_path / 'doc.db'}"
    ids = admin_db(url)
    jobs = []
    for args in commands:
        assert args[0] == ".venv/bin/forties", args
        assert "--db" not in args, args
        args = [ids["marie"] if a == PLACEHOLDER else a for a in args[1:]]
        jobs.append(([*args, "--db", url], None, None, tmp_path))
    for (args, *_), got in zip(jobs, run_many(jobs), strict=True):
        assert got.returncode == 0, (args, got.stdout, got.stderr)
        assert b"Traceback" not in got.stdout + got.stderr
    admin_subcommands = {a[3] for a in commands if a[1:3] == ["admin", "accounts"]}
    assert admin_subcommands == {"find", "suspend", "unsuspend", "export", "delete",
                                 "flags"}


def test_a_game_indexed_by_the_site_and_its_rematch_lose_the_name(tmp_path: Path) -> None:
    """The site's own flow: a signed-in host makes the table (its seat linked to the
    account), three guests join, the game is played to its end and indexed by the site;
    a rematch keeps the host's seat's key. Deleting the account is refused while the
    rematch is in play; once it is not, the name is nowhere, in either table."""
    db = tmp_path / "app.db"
    with app_client(db) as client:
        me = sign_in(client, NAME)
        made = client.post("/api/tables", json={"preset": "merrimack-valley", "name": NAME,
                                                "options": {"target": 5}}).json()
        table = made["table"]
        key = client.cookies.get(COOKIE)
        client.cookies.clear()  # (the guests' browsers are signed in to nothing)
        for invite, guest in zip(made["invites"], ("Ann", "Yusuf", "Léo"), strict=True):
            code = invite["url"].split("#invite=")[1]
            joined = client.post(f"/api/tables/{table}/join",
                                 json={"invite": code, "name": guest})
            assert joined.status_code == 200, joined.text
        client.cookies.set(COOKIE, str(key))
        started = client.post(f"/api/tables/{table}/start", json={"token": made["token"]})
        assert started.status_code == 200, started.text
        service = client.app.state.service  # type: ignore[attr-defined]
        client.portal.call(play_one_hand, service, table)
        mine = client.get("/api/me/games").json()
        assert [(g["table"], g["seat"]) for g in mine["games"]] == [(table, 0)], mine

        class Seat0:  # (the host's connection asking for the rematch)
            seat, token = 0, made["token"]

        async def rematch() -> str:
            live = await service.live(table)
            await service.rematches.ask(Seat0(), live)
            return str(live.rematch)
        again = client.portal.call(rematch)
        assert client.get(f"/api/tables/{again}").json()["seats"][0]["name"] == NAME
        r = client.post("/api/account/delete", json={"confirm": NAME})
        assert r.status_code == 409 and again in r.json()["error"], r.text
        run(client, lambda conn: conn.execute(sa.text(
            "UPDATE tables SET updated = :at WHERE id = :id"),
            {"at": time.time() - account_admin.IN_PLAY_SECONDS - 60, "id": again}))
        r = client.post("/api/account/delete", json={"confirm": NAME})
        assert r.status_code == 200, r.text
    assert NAME.casefold() not in everything(db).casefold()
    with app_client(db) as client:
        for t in (table, again):
            assert client.get(f"/api/tables/{t}/record").json()["players"][0] == \
                FORMER_PLAYER
        sign_in(client, "Yusuf2")
        theirs = client.get(f"/api/players/{me.id}/games")
        assert NAME not in theirs.text


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_sweep_finds_old_rows_by_an_index(backend: str, tmp_path: Path,
                                              request: pytest.FixtureRequest) -> None:
    """Each table the sweep prunes by age has an index on its age (migration 0008 for
    sessions and invitations), and the query plan of SQLite uses it."""
    url = f"sqlite:///{tmp_path / 'i.db'}" if backend == "sqlite" else \
        request.getfixturevalue("db")
    store = Store(url)
    try:
        found = sa.inspect(store.engine)
        for table in ("sessions", "challenges", "account_invites"):
            indexed = [i["column_names"] for i in found.get_indexes(table)]
            assert ["created"] in indexed, (table, indexed)
        if backend == "sqlite":
            with store.engine.connect() as conn:
                plan = " ".join(str(r[-1]) for r in conn.execute(sa.text(
                    "EXPLAIN QUERY PLAN DELETE FROM sessions WHERE created < 1")))
            assert "USING INDEX sessions_created" in plan or \
                "USING COVERING INDEX sessions_created" in plan, plan
    finally:
        store.close()
