"""Every limit a minute is the site's, not each process's: with several server processes
(they then always share Redis) an address that made its tables or its pads through one
process is refused by the next, which counted nothing of them itself."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from forties.web.limits import Limits, RateLimited, Rates

from ..helpers_scale import Serve
from ..services import Redis

# This test's own addresses: nothing else in the session counts on them (the session's
# Redis counts the minutes of every server a test worker starts on it, and the others'
# clients come from 127.0.0.1)
SOURCE = "127.0.0.77"
OTHER = "127.0.0.78"


def client(server: Serve, source: str = SOURCE) -> httpx.Client:
    return httpx.Client(base_url=server.http, timeout=30,
                        transport=httpx.HTTPTransport(local_address=source))


def test_a_second_process_refuses_what_the_first_counted(tmp_path: Path, db: str,
                                                         rd: Redis) -> None:
    limits = {"tables_per_minute": 2, "pads_per_minute": 1}
    a = Serve(tmp_path / "a", db, rd.url, **limits).launch()
    b = Serve(tmp_path / "b", db, rd.url, **limits).launch()
    try:
        a.ready(), b.ready()
        with client(a) as first, client(b) as second:
            for _ in range(2):
                r = first.post("/api/tables", json={"preset": "auction-45"})
                assert r.status_code == 200, r.text
            r = second.post("/api/tables", json={"preset": "auction-45"})
            assert r.status_code == 429 and r.json()["code"] == "rate", r.text
            assert "from this address" in r.json()["error"]
            assert first.post("/api/pads", json={}).status_code == 200
            r = second.post("/api/pads", json={})
            assert r.status_code == 429 and r.json()["code"] == "rate", r.text
        with client(b, OTHER) as other:  # another address: let in
            assert other.post("/api/tables", json={"preset": "auction-45"}).status_code == 200
    finally:
        for s in (a, b):
            code, err = s.stop()
            assert code == 0 and "Traceback" not in err, err[-3000:]


def test_a_process_whose_redis_does_not_answer_counts_alone() -> None:
    """Redis gone: the process still limits, by its own count, and does not fail."""

    class Gone:
        def register_script(self, text: str) -> Any:
            async def run(**_: Any) -> int:
                raise ConnectionError("Connection refused")
            return run

    rates = Rates(Limits(tables_per_minute=1))
    rates.share(Gone())
    asyncio.run(rates.take("tables", "10.0.0.1"))
    with pytest.raises(RateLimited):
        asyncio.run(rates.take("tables", "10.0.0.1"))
    asyncio.run(rates.take("tables", "10.0.0.2"))


def test_a_redis_that_hangs_costs_one_wait_not_one_a_request() -> None:
    """Redis that accepts and never answers: each ask waits the client's whole timeout
    (5 s) before the process counts alone. A stranger's every request then waited it;
    now one failure lets the process count alone for a while, and it asks Redis again
    after that while (a clock of the test's own: no sleep)."""
    from forties.web.shared_rates import RETRY_SECONDS, SharedMinutes

    asked: list[str] = []

    class Hung:
        def register_script(self, text: str) -> Any:
            async def run(**_: Any) -> int:
                asked.append("take")  # (the client's read timing out, at once here)
                raise TimeoutError("Timeout reading from socket")
            return run

    now = [1000.0]
    rates = Rates(Limits(tables_per_minute=3))
    rates.shared = SharedMinutes(Hung())
    rates.shared.clock = lambda: now[0]

    async def takes() -> None:
        for _ in range(3):
            await rates.take("tables", "10.0.0.3")
        with pytest.raises(RateLimited):  # still limited, by this process's own count
            await rates.take("tables", "10.0.0.3")

    asyncio.run(takes())
    assert asked == ["take"], f"Redis asked {len(asked)} times in one failure's while"
    now[0] += RETRY_SECONDS + 0.1
    asyncio.run(rates.take("tables", "10.0.0.4"))
    assert asked == ["take", "take"], "Redis not asked again after the while"
