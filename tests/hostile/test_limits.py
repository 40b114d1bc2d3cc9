"""Hostile clients against the application's limits (issue 32, point 1): work that one
request amplifies (the replay), one client that locks everyone out (one budget for every
address), one seat's connections and hints that slow the other tables.

Each test plays the stranger against ``forties serve`` as its own process on 127.0.0.1;
other addresses are other loopback addresses (127.0.0.2, ...), which Linux routes to the
same server. The limits are small (FORTIES_LIMITS) so that every test is quick.
"""

from __future__ import annotations

import asyncio
import json
import random
import select
import socket
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import websockets

from forties import new_game
from forties.record import Recorder
from forties.rules import build_rules
from forties.web.limits import Limits, PerMinute, RateLimited, Rates
from forties.web.service import Service
from forties.web.store import Store
from tests.client import SeatClient
from tests.helpers_web import ServerProcess, expect

# the limits a minute of every kind, from one address and in total, for the rates' tests
# (the tables' three: the fixture's table takes one)
RATES = {f"{kind}_per_minute": 1 for kind in Rates.KINDS} | \
    {f"{kind}_per_minute_total": 2 for kind in Rates.KINDS} | {"tables_per_minute_total": 3}


def long_record(hands: int, seed: int = 1) -> dict[str, Any]:
    """A finished record of ``hands`` hands of Merrimack Valley to 10,000 (random legal
    play), written by forties' own ``Recorder``."""
    st = new_game(build_rules("merrimack-valley", {"target": 10000}), seed=seed)
    rec = Recorder(st, ["Ann", "Bob", "Cy", "Di"])
    rng = random.Random(seed)
    while True:
        if st.hand_over:
            if len(rec.record.hands) == hands:
                return rec.record.to_json()
            rec.next_hand()
        else:
            rec.apply(rng.choice(st.legal_actions()))


def one_line(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, r.text[:300]
    body = r.json()
    assert isinstance(body.get("error"), str) and "\n" not in body["error"], body
    return str(body["error"])


def client_from(server: ServerProcess, address: str) -> httpx.AsyncClient:
    """An HTTP client of ``server`` whose connections come from ``address`` (127.0.0.X)."""
    return httpx.AsyncClient(base_url=server.http, timeout=30,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


def started(folder: Path, **limits: Any) -> Iterator[ServerProcess]:
    """A server with ``limits`` for a module's tests; stopped cleanly after them."""
    srv = ServerProcess(folder, **limits).start()
    try:
        yield srv
    finally:
        code, _, err = srv.stop()
        assert code == 0 and "Traceback" not in err, err[-3000:]


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from started(tmp_path_factory.mktemp("replays"), replay_hands=200,
                       replay_answer_bytes=5_000_000, replays_waiting=2,
                       replays_per_minute=100)


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Each kind 1 a minute from an address and 2 in all (``RATES``)."""
    yield from started(tmp_path_factory.mktemp("rated"), **RATES)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from started(tmp_path_factory.mktemp("server"), seat_connections=2,
                       chats_per_minute=2, evening_tables_per_minute=2)


# ----- work amplified: the replay -----------------------------------------------------------


def post_raw(port: int, path: str, body: bytes, send: int | None = None) -> socket.socket:
    """A POST sent on a socket of its own (``send``: only that many bytes of the body,
    the rest left to the caller), answered on that socket with ``Connection: close``."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
                 b"application/json\r\nContent-Length: %d\r\n\r\n%s"
                 % (path.encode(), len(body), body[:send]))
    return sock


def answered(sock: socket.socket) -> bool:
    """Whether the server has begun to answer on ``sock`` (without waiting)."""
    return bool(select.select([sock], [], [], 0)[0])


def answer(sock: socket.socket) -> bytes:
    """The whole answer on ``sock`` (the server closes it after)."""
    parts = []
    while chunk := sock.recv(1 << 20):
        parts.append(chunk)
    return b"".join(parts)


@pytest.mark.asyncio
async def test_healthz_answers_while_replays_run_and_more_are_busy(
        replays: ServerProcess) -> None:
    """Replays are worked out away from the event loop: /healthz answers while two long
    ones run; another while they run is answered busy (503), not queued in memory."""
    record = json.dumps({"record": long_record(120)}).encode()
    running = [post_raw(replays.port, "/api/replay", record) for _ in range(2)]
    try:
        async with httpx.AsyncClient(base_url=replays.http, timeout=60) as http:
            for _ in range(2):  # (the second after the first: the replays have begun)
                assert (await http.get("/healthz")).json() == {"ok": True}
            assert not any(answered(r) for r in running), "replays done before /healthz"
            busy = await http.post("/api/replay", json={"record": long_record(1)})
            assert not any(answered(r) for r in running), "replays done meanwhile"
            assert "busy" in one_line(busy, 503)
            for r in running:
                got = answer(r)
                assert got.startswith(b"HTTP/1.1 200") and got.count(b'"text"') > 120 * 9
            # done: the next one is worked out again
            assert (await http.post("/api/replay", json={"record": long_record(1)})
                    ).status_code == 200
    finally:
        for r in running:
            r.close()


@pytest.mark.asyncio
async def test_a_replay_over_its_hands_or_its_answer_is_refused(
        replays: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=replays.http, timeout=60) as http:
        words = one_line(await http.post("/api/replay", json={"record": long_record(201)}),
                         413)
        assert "201 hands" in words and "at most 200" in words
        ok = await http.post("/api/replay", json={"record": long_record(1)})
        assert ok.status_code == 200 and ok.headers["content-type"] == "application/json"
        assert ok.json()["steps"][0]["text"] == "hand 1: the deal"
        # 180 hands pass the count, but their answer is over its bytes
        words = one_line(await http.post("/api/replay", json={"record": long_record(180)}),
                         413)
        assert "more than 4882 KiB" in words


@pytest.mark.asyncio
async def test_replays_held_open_count_as_at_work(replays: ServerProcess) -> None:
    """Replays whose bodies never come still count: another is answered busy at once."""
    body = b'{"record": null}'
    held = [post_raw(replays.port, "/api/replay", body, send=5) for _ in range(2)]
    try:
        async with httpx.AsyncClient(base_url=replays.http, timeout=30) as http:
            for _ in range(2):  # (the second after the first: the held ones have begun)
                assert (await http.get("/healthz")).json() == {"ok": True}
            assert "busy" in one_line(await http.post("/api/replay", json={
                "record": long_record(1)}), 503)
        for h in held:
            h.sendall(body[5:])  # the held ones end: "not a record", in one line
            got = answer(h)
            assert got.startswith(b"HTTP/1.1 400") and b"not a record" in got, got
    finally:
        for h in held:
            h.close()


# ----- one client locks everyone out: per address, and a ceiling in total -------------------


async def _make(http: httpx.AsyncClient, kind: str, table: dict[str, Any],
                seat: int = 1) -> httpx.Response:
    """One request that makes (or asks for) one ``kind`` (a join takes ``seat``)."""
    if kind == "tables":
        return await http.post("/api/play", json={"preset": "mv"})
    if kind == "pads":
        return await http.post("/api/pads", json={})
    if kind == "evenings":
        return await http.post("/api/hall", json={"games": 1})
    if kind == "joins":
        return await http.post(f"/api/tables/{table['table']}/join",
                               json={"name": "Bo", "seat": seat})
    if kind == "records":
        return await http.get(f"/api/tables/{table['table']}/record")
    assert kind == "replays"
    return await http.post("/api/replay", json={"record": long_record(1)})


@pytest.mark.asyncio
async def test_each_address_has_its_own_limit_and_all_together_a_ceiling(
        rated: ServerProcess) -> None:
    srv = rated
    async with client_from(srv, "127.0.0.9") as http:  # (this table takes a tables' one)
        table = (await http.post("/api/tables", json={"preset": "mv", "public": True})).json()
    for kind in ["tables", "pads", "evenings", "joins", "records", "replays"]:
        await _each_address(srv, table, kind)


async def _each_address(srv: ServerProcess, table: dict[str, Any], kind: str) -> None:
    async with client_from(srv, "127.0.0.2") as a, client_from(srv, "127.0.0.3") as b, \
            client_from(srv, "127.0.0.4") as c:
        first = await _make(a, kind, table, 1)
        assert first.status_code == 200, first.text
        assert "from this address" in one_line(await _make(a, kind, table, 2), 429)
        # another address is not locked out by the first
        first_b = await _make(b, kind, table, 2)
        assert first_b.status_code == 200, first_b.text
        # but every address together has a ceiling
        assert "on this server" in one_line(await _make(c, kind, table, 3), 429)
        assert (await _make(c, kind, table, 3)).json()["code"] == "busy"
        assert (await _make(a, kind, table, 3)).json()["code"] == "rate"


@pytest.mark.asyncio
async def test_chat_is_limited_per_address(server: ServerProcess) -> None:
    srv = server
    async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
        made = (await http.post("/api/play", json={"preset": "mv"})).json()
    me = SeatClient(srv.ws, made["table"], made["token"]).start()
    try:
        await expect(me, lambda c: c.view is not None, "the snapshot")
        for i in range(3):
            await me.send({"type": "chat", "text": f"line {i}"})
        await expect(me, lambda c: any(e["code"] == "rate" for e in c.errors),
                     "the third line refused")
        assert "too many chat lines from this address" in me.errors[-1]["message"]
    finally:
        await me.stop()


@pytest.mark.asyncio
async def test_an_online_evenings_tables_count_against_its_maker(
        server: ServerProcess) -> None:
    """An online evening of 8 couples wants 4 web tables at once; its maker's address
    may make 2 a minute: 2 are made, the board says the rest will come."""
    srv = server
    async with client_from(srv, "127.0.0.5") as http:
        made = (await http.post("/api/hall", json={"games": 1, "online": True})).json()
        eid, key = made["evening"], made["key"]
        for n in range(8):
            r = await http.post(f"/api/hall/{eid}/register",
                                json={"key": key, "names": [f"A{n}", f"B{n}"]})
            assert r.status_code == 200, r.text
        r = await http.post(f"/api/hall/{eid}/begin", json={"key": key})
        assert r.status_code == 200, r.text
        board = (await http.get(f"/api/hall/{eid}")).json()
        assert len(board["online"]["tables"]) == 2, board["online"]
        assert any("not made yet" in n for n in board["notes"]), board["notes"]


def test_per_minute_forgets_empty_keys() -> None:
    now = [1000.0]
    pm = PerMinute(2, clock=lambda: now[0])
    for i in range(500):
        assert pm.take(f"10.0.{i // 250}.{i % 250}")
    assert pm.held == 500
    now[0] += 61
    assert pm.take("10.9.9.9")
    assert pm.held == 1  # the minute's sweep forgot the 500
    now[0] += 30
    assert not pm.room("10.9.9.8") or pm.held == 1  # (looking keeps nothing)
    assert pm.held == 1
    now[0] += 31
    assert pm.room("10.9.9.9") and pm.held == 0  # a key whose minute is empty is gone
    rates = Rates(Limits(pads_per_minute=1, pads_per_minute_total=1))
    asyncio.run(rates.take("pads", "a"))
    with pytest.raises(RateLimited):
        asyncio.run(rates.take("pads", "b"))  # the ceiling in total
    assert rates.keys() == 1  # (b, refused, is not kept)


# ----- one seat's connections, one table's hints and pars -----------------------------------


async def _frames(ws: Any, n: int) -> list[dict[str, Any]]:
    return [json.loads(await asyncio.wait_for(ws.recv(), 30)) for _ in range(n)]


@pytest.mark.asyncio
async def test_a_seat_has_at_most_its_connections_the_newest_refused(
        server: ServerProcess) -> None:
    srv = server
    async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
        made = (await http.post("/api/play", json={"preset": "mv"})).json()
    url = f"{srv.ws}/ws/{made['table']}?token={made['token']}"
    kw: dict[str, Any] = {"compression": None, "max_size": 2**22, "ping_interval": None}
    async with websockets.connect(url, **kw) as one, websockets.connect(url, **kw) as two:
        for ws in (one, two):
            await ws.send(json.dumps({"type": "hello", "seq": 0}))
            assert (await _frames(ws, 1))[0]["type"] == "snapshot"
        async with websockets.connect(url, **kw) as three:
            (refused,) = await _frames(three, 1)
            assert refused["type"] == "error" and refused["code"] == "connections"
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(three.recv(), 30)
            assert three.close_code == 4429
        # a spectator is no seat's
        async with websockets.connect(f"{srv.ws}/ws/{made['table']}", **kw) as watch:
            await watch.send(json.dumps({"type": "hello", "seq": 0}))
            assert (await _frames(watch, 1))[0]["type"] == "snapshot"
        await two.close()
        # one gone: a new one is let in (the count went down)
        for _ in range(50):
            async with websockets.connect(url, **kw) as again:
                await again.send(json.dumps({"type": "ping"}))
                first = (await _frames(again, 1))[0]
            if first["type"] == "pong":
                break
            assert first["code"] == "connections"
        assert first["type"] == "pong"


@pytest.mark.asyncio
async def test_one_hint_at_a_time_for_each_table(server: ServerProcess) -> None:
    """Two connections of one seat ask hints: while the first is worked out, the other's
    are answered "busy" (one table cannot fill the hints' pool)."""
    srv = server
    async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
        made = (await http.post("/api/tables", json={"preset": "merrimack-valley",
                                                     "hints": True})).json()
        r = await http.post(f"/api/tables/{made['table']}/start",
                            json={"token": made["token"]})
        assert r.status_code == 200, r.text
    me = SeatClient(srv.ws, made["table"], made["token"]).start()
    other = SeatClient(srv.ws, made["table"], made["token"]).start()
    try:
        for c in (me, other):
            await expect(c, lambda c: bool(c.view and c.view["legal"]), "the seat's turn")
        # both at once: the first hint starts the hints' process (seconds), and the other
        # comes while it is worked out
        await asyncio.gather(me.send({"type": "hint"}), other.send({"type": "hint"}))
        for c in (me, other):
            await expect(c, lambda c: bool(c.errors or c.hints), "an answer", timeout=120)
        answers = sorted([("hint" if c.hints else c.errors[0]["code"]) for c in (me, other)])
        assert answers == ["busy", "hint"], (me.errors, other.errors)
    finally:
        await me.stop()
        await other.stop()


@pytest.mark.asyncio
async def test_one_par_at_a_time_for_each_table(tmp_path: Path) -> None:
    """A table whose hands go faster than its pars queues one par, not one a hand: the
    hand under review when that par is done is asked then."""
    service = Service(Store(f"sqlite:///{tmp_path / 't.db'}"), Limits(par_nice=0))
    asked: list[asyncio.Future[Any]] = []

    def run(fn: Any, *args: Any) -> asyncio.Future[Any]:
        asked.append(asyncio.get_running_loop().create_future())
        return asked[-1]

    service.par_pool.run = run  # type: ignore[method-assign]
    table = SimpleNamespace(id="t1", par={}, status="review",
                            state=SimpleNamespace(hand_index=3, clone=lambda: None))
    live: Any = SimpleNamespace(table=table, par_asked=set(), par_lost={}, conns={"Ann"},
                                remote=set(), standby=False, lock=asyncio.Lock(),
                                par_running=False)
    try:
        service.turns.ask_par(live)
        await asyncio.sleep(0)
        assert len(asked) == 1
        table.state.hand_index = 4  # the next hand is under review: its par waits
        service.turns.ask_par(live)
        await asyncio.sleep(0)
        assert len(asked) == 1
        asked[0].set_result(None)
        for _ in range(100):  # (the first par's task ends and asks the next)
            if len(asked) == 2:
                break
            await asyncio.sleep(0)
        assert len(asked) == 2 and live.par_asked == {3, 4}
        asked[1].set_result(None)
    finally:
        await service.close()
        service.store.close()
