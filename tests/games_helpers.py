"""What the games' index tests share: the app in process over a database of its own, its
accounts signed in by their session keys (``accounts_helpers``), a table whose seats
those accounts take through the API, and a whole game played through the service's
message handler (what a websocket's messages go through), each person's action chosen
as a basic computer player would, the computers playing their own turns."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from forties import Action
from forties.table import OVER, PERSON, PLAYING, computer_choice
from forties.web.accounts import COOKIE
from forties.web.app import ServerSettings, create_app
from forties.web.games import Games
from forties.web.limits import Limits, Rates
from forties.web.service import Service

SHORT = {"target": 40}  # a short game of Forty-Fives: a few hands


def app_of(db_url: str, **limits: Any) -> TestClient:
    """A TestClient of the app over ``db_url``: no pars, the rates lifted, computers and
    reviews without a pause."""
    lim = Limits(par=False, bot_delay=0.0, review_seconds=0.0, messages_per_second=1e6,
                 message_burst=1e6, **{**Rates.lifted(), **limits})
    app = create_app(ServerSettings(db_url=db_url, limits=lim))
    return TestClient(app, raise_server_exceptions=False)


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'app.db'}"


def service(client: TestClient) -> Service:
    got: Service = client.app.state.service  # type: ignore[attr-defined]
    return got


def games(client: TestClient) -> Games:
    got: Games = client.app.state.games  # type: ignore[attr-defined]
    return got


def as_(client: TestClient, key: str | None) -> TestClient:
    """``client`` signed in by the session ``key`` (None: a guest) for its next requests."""
    client.cookies.clear()
    if key is not None:
        client.cookies.set(COOKIE, key)
    return client


def table_of(client: TestClient, keys: list[str | None], preset: str = "merrimack-valley",
             options: dict[str, Any] | None = None, rated: bool = False,
             names: list[str] | None = None) -> tuple[str, dict[int, str]]:
    """A table made by the browser of ``keys[0]`` (its host, at seat 0), each other seat
    taken through its invite by the browser of ``keys[i]`` (None: a guest), not started:
    (its id, {seat: seat's key})."""
    names = names or [f"P{i}" for i in range(len(keys))]
    made = as_(client, keys[0]).post("/api/tables", json={
        "preset": preset, "options": options if options is not None else SHORT,
        "name": names[0], "rated": rated})
    assert made.status_code == 200, made.text
    body = made.json()
    table, tokens = body["table"], {0: body["token"]}
    invites = {x["seat"]: x["url"].split("#invite=")[1] for x in body["invites"]}
    for seat in range(1, len(keys)):
        got = as_(client, keys[seat]).post(f"/api/tables/{table}/join", json={
            "invite": invites[seat], "name": names[seat]})
        assert got.status_code == 200, got.text
        tokens[got.json()["seat"]] = got.json()["token"]
    return table, tokens


def start(client: TestClient, table: str, token: str) -> Any:
    return client.post(f"/api/tables/{table}/start", json={"token": token})


async def _play_out(svc: Service, table: str, tokens: dict[int, str],
                    seconds: float) -> None:
    live = await svc.live(table)
    assert live is not None
    conns = {}
    for seat, token in tokens.items():
        conn = svc.connect(seat, token)
        await svc.receive(conn, live, json.dumps({"type": "hello", "seq": 0}))
        conns[seat] = conn
    t = live.table
    moves = 0
    until = time.monotonic() + seconds
    while t.status != OVER:
        assert time.monotonic() < until, "the game did not end"
        turn = t.state.turn
        if t.status == PLAYING and turn is not None and turn in conns and \
                t.controller(turn) == PERSON:
            view = dict(t.view(turn))
            legal = [Action.parse(a) for a in view["legal"]]
            choice = computer_choice("basic", f"{table}:{moves}", view, legal)
            moves += 1
            version = t.version
            await svc.receive(conns[turn], live, json.dumps(
                {"type": "act", "action": str(choice), "version": version}))
            if t.version == version:  # refused: say why
                frames = []
                while not conns[turn].queue.empty():
                    frames.append(conns[turn].queue.get_nowait())
                raise AssertionError(f"{choice} was refused: {frames[-3:]}")
        else:
            await asyncio.sleep(0.005)  # (a computer's turn, or the next deal)
    for conn in conns.values():
        svc.leave(conn)


def play_out(client: TestClient, table: str, tokens: dict[int, str],
             seconds: float = 120.0) -> None:
    """The table's game played to its end: each person's seat by its key."""
    client.portal.call(_play_out, service(client), table, tokens, seconds)  # type: ignore[union-attr]


def rows(client: TestClient, sql: str, **params: Any) -> list[Any]:
    """``sql``'s rows in the app's database."""
    import sqlalchemy as sa

    engine = service(client).store.engine
    with engine.connect() as conn:
        return list(conn.execute(sa.text(sql), params).all())


async def _settled(svc: Service) -> None:
    for _ in range(100):
        pending = [t for t in svc.live_tables.tasks if t is not asyncio.current_task()
                   and not t.done()]
        if not pending:
            return
        await asyncio.gather(*pending, return_exceptions=True)


def settled(client: TestClient) -> None:
    """Wait for the work the service does after the last move (a game's indexing)."""
    client.portal.call(_settled, service(client))  # type: ignore[union-attr]


async def _rematch(svc: Service, table: str, seat: int, token: str) -> str:
    live = await svc.live(table)
    assert live is not None
    conn = svc.connect(seat, token)
    await svc.receive(conn, live, json.dumps({"type": "hello", "seq": 0}))
    await svc.receive(conn, live, json.dumps({"type": "rematch"}))
    svc.leave(conn)
    assert live.rematch is not None
    return live.rematch


def rematch(client: TestClient, table: str, seat: int, token: str) -> str:
    """The rematch of a finished table, asked by ``seat`` through its message: its id."""
    got: str = client.portal.call(_rematch, service(client), table, seat, token)  # type: ignore[union-attr]
    return got
