"""One IPv6 host holds a whole /64 (2^64 addresses: a home or a server is given one), so
a stranger can ask from a new address each time: the limits per address count an IPv6
address by its /64, the one network a single host can spread over (an IPv4-mapped one by
its IPv4), or they limit nobody."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, counted_as
from forties.web.transport import Doorman

from .conftest import refused


def test_tables_from_one_ipv6_network_share_the_minute_of_one_address(tmp_path: Path) -> None:
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, tables_per_minute=2)))
    source = ["2001:db8:7:1::1"]

    async def from_source(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            scope = {**scope, "client": (source[0], 50000)}
        await app(scope, receive, send)

    with TestClient(from_source) as c:
        made = []
        for n in range(3):  # three addresses of one /64
            source[0] = f"2001:db8:7:1:{n:x}::{n + 1:x}"
            made.append(c.post("/api/tables", json={"preset": "auction-45"}))
        assert [r.status_code for r in made[:2]] == [200, 200], made[1].text
        assert "from this address" in refused(made[2], 429)
        source[0] = "2001:db8:7:2::1"  # another network: let in
        assert c.post("/api/tables", json={"preset": "auction-45"}).status_code == 200


def test_connections_from_one_ipv6_network_count_as_one_address() -> None:
    door = Doorman(per_address=2, total=100)
    assert door.enter("2001:db8:7:1::1") is None
    assert door.enter("2001:db8:7:1:ffff::2") is None
    refusal = door.enter("2001:db8:7:1:abcd::3")
    assert refusal is not None and refusal[0] == 429, refusal
    assert door.enter("2001:db8:7:2::1") is None
    door.leave("2001:db8:7:1::1")
    assert door.enter("2001:db8:7:1::9") is None  # its network's count went down with it


def test_what_an_address_counts_as() -> None:
    assert counted_as("2001:db8:7:1:2:3:4:5") == "2001:db8:7:1::/64"
    assert counted_as("::ffff:192.0.2.7") == "192.0.2.7"
    assert counted_as("192.0.2.7") == "192.0.2.7"
    assert counted_as("unknown") == "unknown"  # (a test client, a unix socket: as it is)


def test_websockets_from_one_ipv6_network_count_as_one_address() -> None:
    """The guard's cap on open websockets (2 here): a third from the same /64 refused."""
    import asyncio

    from forties.web.guard import Door, Guard

    async def play() -> list[Any]:
        release = asyncio.Event()

        async def inner(scope: Any, receive: Any, send: Any) -> None:
            await release.wait()  # (the websocket stays open till the test lets it go)

        guard = Guard(inner, Door(None, (), lambda path: 1024, 2))
        sent: list[Any] = []

        async def send(msg: Any) -> None:
            sent.append(msg)

        async def receive() -> Any:
            return {"type": "websocket.connect"}

        def scope(host: str) -> Any:
            return {"type": "websocket", "path": "/ws/x", "headers": [], "client": (host, 1),
                    "query_string": b"", "extensions": {}}

        held = [asyncio.create_task(guard.websocket(scope(f"2001:db8:7:1::{n}"), receive,
                                                    send)) for n in (1, 2)]
        for _ in range(100):  # the two in the guard (each counted before it awaits)
            if sum(guard.websockets.values()) == 2:
                break
            await asyncio.sleep(0)
        assert sum(guard.websockets.values()) == 2, guard.websockets
        await asyncio.wait_for(guard.websocket(scope("2001:db8:7:1:9::3"), receive, send), 5)
        release.set()
        await asyncio.wait_for(asyncio.gather(*held), 5)
        return sent

    assert asyncio.run(play()) == [{"type": "websocket.close", "code": 1008}]
