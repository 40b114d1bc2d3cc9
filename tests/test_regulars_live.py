"""Regulars against ``forties serve`` as its own process (and as two processes over
PostgreSQL and Redis, the websockets spread over both): an account is online while its
websocket is open, whichever process holds it and whichever is asked, and offline soon
after it closes; a blocked account's chat lines reach the blocker's connection as their
number only, while every other seat hears them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio

from forties.web.accounts import COOKIE, Accounts, accounts_t
from forties.web.store import Store
from tests.client import SeatClient

from .helpers_web import BACKENDS, ServerProcess, expect, serving, stop_all, web_server

ASYNC = pytest.mark.asyncio(loop_scope="module")
ONLINE_SECONDS = 6.0  # the servers' online_seconds here (seen_seconds: 1)


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving(web_server(request, tmp_path_factory.mktemp("regulars"),
                            online_seconds=ONLINE_SECONDS, seen_seconds=1.0)) as srv:
        yield srv


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def store(server: Any) -> AsyncIterator[Store]:
    """The servers' own database, opened by the test to make accounts in."""
    url = server.db if isinstance(server.db, str) else f"sqlite:///{server.db}"
    st = Store(url)
    try:
        yield st
    finally:
        await asyncio.get_running_loop().run_in_executor(None, st.close)


class Person:
    """An account made in the servers' database, and a browser signed in to it."""

    def __init__(self, server: Any, store: Store) -> None:
        self.server, self.store = server, store
        self.id = self.key = ""

    async def made(self, name: str) -> Person:
        accounts = Accounts(self.store)
        account = await accounts.create(f"{name} {time.monotonic_ns() % 10**6}")
        self.id, self.key = account.id, await accounts.new_session(account.id, "tests")
        self.http = httpx.AsyncClient(base_url=self.server.http, timeout=30,
                                      headers={"Cookie": f"{COOKIE}={self.key}"})
        return self

    @property
    def cookie(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.key}"}

    async def post(self, path: str, body: dict[str, Any]) -> Any:
        r = await self.http.post(path, json=body)
        assert r.status_code == 200, r.text
        return r.json()

    async def following(self, other: Person) -> dict[str, Any]:
        r = await self.http.get("/api/regulars")
        assert r.status_code == 200, r.text
        return dict(next(x for x in r.json()["following"] if x["id"] == other.id))

    async def until(self, other: Person, online: bool, seconds: float = 30.0) -> None:
        """Wait until ``other`` shows as ``online`` to this account."""
        end = time.monotonic() + seconds
        while (await self.following(other))["online"] is not online:
            assert time.monotonic() < end, f"{other.id} never showed online={online}"
            await asyncio.sleep(0.2)

    async def close(self) -> None:
        await self.http.aclose()


async def set_last_seen(store: Store, who: Person, at: float) -> None:
    await store.run(lambda conn: conn.execute(accounts_t.update().where(
        accounts_t.c.id == who.id).values(last_seen=at)))


@ASYNC
async def test_a_regular_is_online_while_a_websocket_is_open_and_offline_after(
        server: Any, store: Store) -> None:
    ann, bob = await Person(server, store).made("Ann"), await Person(server, store).made("Bob")
    try:
        await ann.post("/api/regulars/follow", {"account": bob.id})
        await set_last_seen(store, bob, time.time() - 60)
        assert (await ann.following(bob))["online"] is False
        made = await bob.post("/api/tables", {"preset": "merrimack-valley", "name": "Bob"})
        page = SeatClient(server.ws, made["table"], made["token"], headers=bob.cookie).start()
        await expect(page, lambda c: c.view is not None, "the table's snapshot")
        await ann.until(bob, True)
        # it stays online for longer than ONLINE_SECONDS: the open websocket is seen again
        # and again (by the process that holds it)
        await asyncio.sleep(ONLINE_SECONDS + 2)
        assert (await ann.following(bob))["online"] is True
        await page.stop()
        await ann.until(bob, False)
    finally:
        await ann.close()
        await bob.close()


def chat_lines(c: SeatClient) -> list[dict[str, Any]]:
    return [f for f in c.frames if f["type"] == "chat"]


@ASYNC
async def test_a_blocked_accounts_chat_reaches_the_blocker_as_its_number_only(
        server: Any, store: Store) -> None:
    ann, bob = await Person(server, store).made("Ann"), await Person(server, store).made("Bob")
    made = await ann.post("/api/tables", {"preset": "merrimack-valley", "name": "Ann"})
    table = made["table"]
    codes = [inv["url"].split("#invite=")[1] for inv in made["invites"]]
    seated = await bob.post(f"/api/tables/{table}/join", {"invite": codes[0], "name": "Bob"})
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as guest:
        r = await guest.post(f"/api/tables/{table}/join", json={"invite": codes[1],
                                                                "name": "Cy"})
        cy_token = r.json()["token"]
    a = SeatClient(server.ws, table, made["token"], headers=ann.cookie).start()
    b = SeatClient(server.ws, table, seated["token"], headers=bob.cookie).start()
    c = SeatClient(server.ws, table, cy_token).start()
    clients = [a, b, c]
    try:
        for x in clients:
            await expect(x, lambda x: x.view is not None, "the table's snapshot")
        assert await b.send({"type": "chat", "text": "before the block"})
        for x in clients:
            await expect(x, lambda x: any(f.get("text") == "before the block"
                                          for f in chat_lines(x)), "Bob's first line")
        await ann.post("/api/regulars/block", {"account": bob.id})
        # Ann's page comes again (the block is read at its connect, whichever process)
        await a.stop()
        a = SeatClient(server.ws, table, made["token"], headers=ann.cookie).start()
        clients[0] = a
        await expect(a, lambda x: x.view is not None, "the table's snapshot")
        snap = next(f for f in a.frames if f["type"] == "snapshot")
        assert [m.get("text") for m in snap["chat"]] == []  # Bob's line is not in it
        assert await b.send({"type": "chat", "text": "after the block"})
        for x in (b, c):
            await expect(x, lambda x: any(f.get("text") == "after the block"
                                          for f in chat_lines(x)), "Bob's second line")
        # then Cy speaks: once Ann's page has Cy's line, it has had everything before it
        assert await c.send({"type": "chat", "text": "Cy speaks"})
        await expect(a, lambda x: any(f.get("text") == "Cy speaks" for f in chat_lines(x)),
                     "Cy's line at Ann's")
        muted = [f for f in chat_lines(a) if "text" not in f and "phrase" not in f]
        assert len(muted) == 1 and set(muted[0]) == {"type", "seq"}
        assert not any(f.get("seat") == 1 for f in chat_lines(a))
        assert a.gaps == 0 and a.connections == 1  # numbered on: no gap, no reconnection
    finally:
        await stop_all(clients)
        await ann.close()
        await bob.close()
