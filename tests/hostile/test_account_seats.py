"""Accounts never change what a seat may see at the table: a rated game played by four
signed-in seats through ``forties serve``, with a spectator whose browser is signed in to
a seated account, a seat whose browser is signed in to another seated account, an account
suspended and a session ended in the middle of the game. Every frame each seat and the
spectator received is the engine's view of that seat (``Table.seat_view``) at the frame's
version and names no card it may not know (``helpers_web.check_frames``)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from forties.web.accounts import COOKIE, SUSPENDED, Accounts
from forties.web.store import Store
from tests.client import SeatClient

from ..helpers_engine import FORTIES
from ..helpers_web import (
    ServerProcess,
    basic_player,
    check_frames,
    expect,
    knowledge_by_version,
    stop_all,
)

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def accounts(live_server: ServerProcess) -> AsyncIterator[Accounts]:
    """The accounts of the server's own database, opened by the test."""
    store = Store(f"sqlite:///{live_server.db}")
    try:
        yield Accounts(store)
    finally:
        await asyncio.get_running_loop().run_in_executor(None, store.close)


async def signed_in(accounts: Accounts, name: str) -> tuple[str, dict[str, str]]:
    account = await accounts.create(name)
    key = await accounts.new_session(account.id, "tests")
    return account.id, {"Cookie": f"{COOKIE}={key}"}


async def test_signed_in_seats_and_a_signed_in_spectator_see_only_their_views(
        live_server: ServerProcess, api: httpx.AsyncClient, accounts: Accounts,
        tmp_path: Path) -> None:
    names = ("Anne", "Bashir", "Chloe", "Dara")
    people = [await signed_in(accounts, n) for n in names]
    cookie = [c for _, c in people]
    r = await api.post("/api/tables", json={"preset": "merrimack-valley", "name": "Anne"},
                       headers=cookie[0])
    assert r.status_code == 200, r.text
    made = r.json()
    table, tokens = made["table"], {0: made["token"]}
    for i, inv in enumerate(made["invites"]):
        j = await api.post(f"/api/tables/{table}/join", headers=cookie[i + 1], json={
            "invite": inv["url"].split("#invite=")[1], "name": names[i + 1]})
        assert j.status_code == 200, j.text
        tokens[j.json()["seat"]] = j.json()["token"]
    r = await api.post(f"/api/tables/{table}/rated", json={"token": tokens[0], "rated": True})
    assert r.status_code == 200, r.text
    r = await api.post(f"/api/tables/{table}/start", json={"token": tokens[0]})
    assert r.status_code == 200, r.text  # (a rated start: every seat has its account)
    # seat 2's browser is signed in to seat 0's account; the spectator's to seat 0's too
    headers = {0: cookie[0], 1: cookie[1], 2: cookie[0], 3: cookie[3]}
    seats = [SeatClient(live_server.ws, table, tokens[s], headers=headers[s])
             .autoplay(basic_player).start() for s in sorted(tokens)]
    watcher = SeatClient(live_server.ws, table, headers=cookie[0]).start()
    try:
        await expect(seats[0], lambda c: (c.view or {}).get("version", 0) >= 12,
                     "the first tricks played")
        # in the middle of the game: seat 1's account suspended, seat 3's session ended
        assert await accounts.set_status(people[1][0], SUSPENDED)
        r = await api.post("/api/account/signout", json={}, headers=cookie[3])
        assert r.json() == {"ok": True, "signed_out": True}
        for c in seats:
            await c.drop()  # (each page reconnects, with its cookie as it is now)
        for c in seats:
            await expect(c, lambda c: c.over, "the game over", timeout=180)
        await expect(watcher, lambda c: c.over, "the game over")
    finally:
        await stop_all([*seats, watcher])
    record = (await api.get(f"/api/tables/{table}/record")).json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    res = subprocess.run([str(FORTIES), "check", str(path)], capture_output=True, text=True,
                         timeout=120, check=False)
    assert res.returncode == 0 and json.loads(res.stdout)["over"], res.stdout[-500:]
    known = knowledge_by_version(record)
    for s, c in enumerate(seats):
        assert c.connections >= 2
        assert check_frames(c.frames, s, known) > 20
    assert check_frames(watcher.frames, None, known) > 20
