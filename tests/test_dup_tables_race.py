"""Two server processes opening an online duplicate session's board tables at once make
each board table once: the table is reserved in the session's document with
compare-and-set before it is made, and only the process whose reservation was written
makes it (no spare table left playing that nobody is sent to). Two ``Sessions`` over
one store stand in for the two processes, each with its own tables; the store holds
both processes' first reads of the session until both have read it, so both decide
from the same version, as two processes racing do."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from forties.web.duplicate_online import RESERVE_SECONDS, online_of
from forties.web.duplicate_sessions import KIND, Sessions, make_session
from forties.web.limits import Limits, Rates

from .web_stand_ins import MemoryStore

pytestmark = pytest.mark.asyncio
SID = "race1"


class RacingStore(MemoryStore):
    """A store whose next two reads of a document of ``kind`` (a session) wait for each
    other (``armed``)."""

    def __init__(self, kind: str = KIND) -> None:
        super().__init__()
        self.kind = kind
        self.armed = False
        self.readers = 0
        self.both = asyncio.Event()

    async def get_doc(self, kind: str, id: str) -> tuple[int, dict[str, Any]] | None:
        got = await super().get_doc(kind, id)
        if self.armed and kind == self.kind:
            self.readers += 1
            if self.readers == 2:
                self.armed = False
                self.both.set()
            await self.both.wait()
        return got


class Service:
    """A process's tables: each one made is kept (``made``)."""

    def __init__(self, name: str, store: MemoryStore) -> None:
        self.name = name
        self.store = store
        self.made: list[dict[str, Any]] = []
        self.refuse = 0

    async def create_table(self, **kw: Any) -> dict[str, Any]:
        if self.refuse:
            self.refuse -= 1
            raise RuntimeError("the database is busy")
        self.made.append(kw)
        return {"table": f"{self.name}{len(self.made)}",
                "tokens": {s: f"{self.name}{len(self.made)}-{s}" for s in range(4)}}

    async def table_summary(self, table_id: str) -> dict[str, Any]:
        return {"status": "playing"}


def process(name: str, store: MemoryStore) -> tuple[Sessions, Service]:
    service = Service(name, store)
    return Sessions(service, Rates(Limits(**Rates.lifted()))), service  # type: ignore[arg-type]


async def new_session(store: MemoryStore, pairs: int = 4) -> None:
    """An online session of people (``pairs`` partnerships), none of its tables made."""
    rules, session, more = make_session({
        "game": "auction-45", "boards": 2, "mode": "online",
        "partnerships": [{"name": f"Ann {i} & Bob {i}"} for i in range(1, pairs + 1)]})
    await store.put_doc(KIND, SID, {
        "session": session.to_json(), "title": "", "game": rules.preset,
        "rules": rules.to_json(), "mode": "online", "director": "x", "tables": "y",
        "players": {}, "pairs": more, "club": None,
        "online": {"tables": {}, "plays": {}}, "maker": "m", "made": 0}, 0)


async def tables_of(store: MemoryStore) -> dict[str, Any]:
    got = await store.get_doc(KIND, SID)
    assert got is not None
    return dict(got[1]["online"]["tables"])


async def test_two_processes_opening_the_first_round_at_once_make_each_table_once() -> None:
    store = RacingStore()
    await new_session(store, pairs=8)  # (4 tables in round 1)
    a, made_a = process("A", store)
    b, made_b = process("B", store)
    store.armed = True
    await asyncio.gather(online_of(a).begin(SID), online_of(b).begin(SID))
    assert store.readers == 2  # (both read the session before either wrote)
    tables = await tables_of(store)
    assert sorted(tables) == ["1/1", "1/2", "1/3", "1/4"]
    made = [f"A{i}" for i in range(1, len(made_a.made) + 1)] + \
        [f"B{i}" for i in range(1, len(made_b.made) + 1)]
    # every table made is one the session sends its players to: none spare
    assert sorted(info["table"] for info in tables.values()) == sorted(made)
    assert len(made) == 4
    boards = sorted((kw["board"]["number"], kw["seats"][0]["name"])
                    for kw in made_a.made + made_b.made)
    assert len(set(boards)) == 4


async def test_two_processes_polling_at_once_open_the_next_round_once() -> None:
    store = RacingStore()
    await new_session(store)
    a, made_a = process("A", store)
    b, made_b = process("B", store)
    # round 1's tables were never made (say, refused): both processes' polls find them
    # missing at once
    _, body, session = await a.read(SID)
    store.armed = True
    await asyncio.gather(online_of(a).poll(SID, body, session),
                         online_of(b).poll(SID, body, session))
    tables = await tables_of(store)
    assert sorted(tables) == ["1/1", "1/2"]
    assert len(made_a.made) + len(made_b.made) == 2
    assert all("table" in info for info in tables.values())


async def test_a_reservation_whose_process_is_gone_is_taken_over_and_a_failure_freed() -> None:
    store = MemoryStore()
    await new_session(store)
    got = await store.get_doc(KIND, SID)
    assert got is not None
    version, body = got
    # table 1's reservation is old (its process died before making it); table 2's fresh
    body["online"]["tables"] = {
        "1/1": {"reserved": "gone", "at": time.time() - RESERVE_SECONDS - 5},
        "1/2": {"reserved": "busy", "at": time.time()}}
    await store.put_doc(KIND, SID, body, version)
    a, made_a = process("A", store)
    _, body, session = await a.read(SID)
    player = {"pair": session.movement.rounds[0].tables[1].ns, "member": 0}
    assert online_of(a).seat(body, session, player)["status"] == "opening"
    await online_of(a).poll(SID, body, session)
    tables = await tables_of(store)
    assert tables["1/1"]["table"] == "A1" and tables["1/2"]["reserved"] == "busy"
    assert len(made_a.made) == 1
    # a table that could not be made is not left reserved: the next poll makes it
    store2 = MemoryStore()
    await new_session(store2)
    c, made_c = process("C", store2)
    made_c.refuse = 1
    await online_of(c).begin(SID)
    tables = await tables_of(store2)
    assert list(tables) == ["1/2"]  # (1/1 refused: not left reserved)
    _, body, session = await c.read(SID)
    online_of(c).polled.clear()
    await online_of(c).poll(SID, body, session)
    tables = await tables_of(store2)
    assert sorted(tables) == ["1/1", "1/2"] and all("table" in i for i in tables.values())
