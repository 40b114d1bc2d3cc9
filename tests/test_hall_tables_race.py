"""Two server processes opening an online hall evening's web tables at once make each
table once (``web.hall``: the table is reserved in the evening's document with
compare-and-set before it is made, as a duplicate session's board tables are): no spare
table playing on that nobody is sent to. Two ``Evenings`` over one store stand in for
the two processes; both read the evening before either writes."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.testclient import TestClient

from forties.web.hall import Evenings
from forties.web.limits import Limits, Rates

from .test_dup_tables_race import RacingStore, Service
from .web_stand_ins import FakeService, hall_app


def evening_without_tables(store: RacingStore) -> str:
    """An online evening of four couples, begun, whose first game's two tables could not
    be made when it began (the service refused them)."""
    service = FakeService()
    service.store = store  # type: ignore[assignment]
    service.refuse = 1000  # (the begin and the board page's poll after it: all refused)
    with TestClient(hall_app(service)) as client:
        r = client.post("/api/hall", json={"games": 2, "online": True})
        eid, key = r.json()["evening"], r.json()["key"]
        for i, players in enumerate(("people", "people", "computer", "computer"), 1):
            assert client.post(f"/api/hall/{eid}/register", json={
                "key": key, "names": [f"P{i}a", f"P{i}b"], "players": players,
                "level": "basic"}).status_code == 200
        assert client.post(f"/api/hall/{eid}/begin", json={"key": key}).status_code == 200
    assert service.tables == {}
    return str(eid)


def process(name: str, store: RacingStore) -> tuple[Evenings, Service]:
    service = Service(name, store)
    return Evenings(service, Rates(Limits(**Rates.lifted()))), service  # type: ignore[arg-type]


def test_two_processes_polling_an_evening_at_once_make_each_table_once() -> None:
    store = RacingStore("hall")
    eid = evening_without_tables(store)

    async def race() -> tuple[dict[str, Any], int]:
        a, made_a = process("A", store)
        b, made_b = process("B", store)
        _, body, hall = await a.load(eid)
        assert body["online"]["tables"] == {}  # (nothing left reserved by the refusals)
        store.armed = True
        await asyncio.gather(a.poll_online(eid, body, hall), b.poll_online(eid, body, hall))
        assert store.readers == 2  # (both read the evening before either wrote)
        got = await store.get_doc("hall", eid)
        assert got is not None
        return got[1]["online"]["tables"], len(made_a.made) + len(made_b.made)

    tables, made = asyncio.run(race())
    assert sorted(tables) == ["1/1", "1/2"]
    assert all("table" in info for info in tables.values())
    assert made == 2  # (each table once: none spare)
