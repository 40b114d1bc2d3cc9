"""A hall session against ``forties serve`` with its pars' process: the tables' phone
reports each table's contract with its scores, and once every table has played the
board its page shows each contract's double-dummy par, worked out in the pars' process
(the server's event loop never runs the solver)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from .helpers_web import ServerProcess, serving

pytestmark = pytest.mark.asyncio


async def test_the_hall_board_page_shows_each_contracts_par(tmp_path: Any) -> None:
    with serving(ServerProcess(tmp_path, par=True)) as srv:
        async with httpx.AsyncClient(base_url=srv.http, timeout=30) as api:
            r = await api.post("/api/dup", json={
                "game": "merrimack-valley", "boards": 2, "partnerships": [
                    {"name": f"Ann {i} & Bob {i}"} for i in range(1, 5)]})
            assert r.status_code == 200, r.text
            made = r.json()
            sid, key = made["session"], made["report"].split("#key=")[1]
            for table, contract, ns, ew in ((1, {"bidder": "S", "bid": "20", "trump": "D"},
                                             20, 10),
                                            (2, {"bidder": "W", "bid": "25", "trump": "C"},
                                             5, 25)):
                r = await api.post(f"/api/dup/{sid}/report", json={
                    "key": key, "board": 1, "table": table, "ns": ns, "ew": ew,
                    "contract": contract})
                assert r.status_code == 200, r.text
            deadline = time.monotonic() + 90
            while True:
                b = (await api.post(f"/api/dup/{sid}/board/1", json={})).json()
                if b["shown"] and all(row["par"] for row in b["rows"]):
                    break
                assert time.monotonic() < deadline, f"no par came: {b}"
                await asyncio.sleep(0.3)
    rows = {row["table"]: row for row in b["rows"]}
    assert rows[1]["contract"] == {"bidder": 2, "bid": "20", "trump": "D"}
    assert rows[2]["contract"] == {"bidder": 3, "bid": "25", "trump": "C"}
    assert rows[1]["par"]["side"] == [0, 2] and rows[2]["par"]["side"] == [1, 3]
    for row in rows.values():
        assert 0 <= row["par"]["points"] <= 30 and row["par"]["points"] % 5 == 0
        assert row["par"]["drawn"] is True and row["tricks"] is None
