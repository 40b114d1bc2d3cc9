"""An operator's tools: ``/metrics`` (Prometheus) whose figures move with a game, JSON logs
whose lines carry the request id the answer's ``X-Request-Id`` names, and ``/readyz``,
503 in one line while the database or Redis is gone or the server drains."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import tempfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from forties.web import logs
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits
from tests.client import SeatClient

from .helpers_web import (
    TEST_LIMITS,
    ServerProcess,
    basic_player,
    expect,
    launch_serve,
    pinged,
    private_table,
    serving_port,
    stop_all,
)
from .services import redis

NAMES = ("forties_requests_total", "forties_websockets_open", "forties_live_tables",
         "forties_actions_total", "forties_action_seconds_bucket",
         "forties_action_seconds_count", "forties_commit_seconds_bucket",
         "forties_commit_seconds_count", "forties_refusals_total", "forties_errors_total")


def figures(text: str) -> dict[str, float]:
    """The samples of a Prometheus text page: {'name{labels}': value}."""
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def named(text: str) -> set[str]:
    return {re.sub(r"\{.*", "", k) for k in figures(text)} | set(
        re.findall(r"^# TYPE (\S+)", text, re.M))


@pytest.mark.asyncio
async def test_metrics_from_loopback_name_everything_and_move_with_a_game(
        live_server: ServerProcess, api: httpx.AsyncClient) -> None:
    r = await api.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert set(NAMES) <= named(r.text) | {"forties_refusals_total", "forties_errors_total"}
    before = figures(r.text)
    table, tokens = await private_table(api, "merrimack-valley", options={"target": 50})
    seats = [SeatClient(live_server.ws, table, tokens[s]).autoplay(basic_player).start()
             for s in sorted(tokens)]
    try:
        await expect(seats[0], lambda c: c.seq > 24, "twenty-four events")
        seats[0].chooser = None  # (then a message refused: an action out of turn, "bad")
        assert await seats[0].send({"type": "act", "action": "nonsense", "version": 0})
        await pinged(seats[0])
        after = figures((await api.get("/metrics")).text)
    finally:
        await stop_all(seats)

    def moved(key: str) -> float:
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert moved("forties_actions_total") >= 20
    assert moved("forties_action_seconds_count") >= 20
    assert moved("forties_commit_seconds_count") >= 24
    assert after["forties_commit_seconds_sum"] > 0
    assert after["forties_websockets_open"] == 4
    assert after["forties_live_tables"] >= 1
    assert moved('forties_requests_total{route="/api/tables",status="2xx"}') == 1
    assert moved('forties_requests_total{route="/api/tables/{id}/join",status="2xx"}') == 3
    assert moved('forties_requests_total{route="/metrics",status="2xx"}') == 1
    assert sum(moved(k) for k in after if k.startswith("forties_refusals_total")) >= 1


def test_metrics_count_a_requests_refusal_and_an_error_by_kind(tmp_path: Path) -> None:
    app = create_app(ServerSettings(f"sqlite:///{tmp_path / 't.db'}", Limits(**TEST_LIMITS)))

    async def crash(request: Any) -> Any:
        raise KeyError("boom")

    from starlette.routing import Route
    app.router.routes.insert(0, Route("/crash", crash))
    with TestClient(app, raise_server_exceptions=False, client=("127.0.0.1", 5000)) as client:
        before = figures(client.get("/metrics").text)
        assert client.post("/api/tables", content=b"{", headers={
            "content-type": "application/json"}).status_code == 400
        assert client.get("/crash").status_code == 500
        after = figures(client.get("/metrics").text)
    key = 'forties_refusals_total{code="400"}'
    assert after[key] - before.get(key, 0) == 1
    key = 'forties_errors_total{kind="KeyError"}'
    assert after[key] - before.get(key, 0) == 1
    key = 'forties_requests_total{route="/crash",status="5xx"}'
    assert after[key] - before.get(key, 0) == 1


def test_a_request_is_counted_before_its_last_byte_leaves() -> None:
    """A client that has its whole answer and then scrapes ``/metrics`` finds the request
    counted, whichever process answers the scrape (counting after the answer had gone let a
    scrape on the other process come first, seen in a whole run)."""
    from forties.web import metrics
    from forties.web.observe import Observe

    async def route(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"a", "more_body": True})
        await send({"type": "http.response.body", "body": b"b"})

    key = metrics.REQUESTS.labels("none", "2xx")
    seen: list[tuple[str, float]] = []

    async def send(message: Any) -> None:
        seen.append((message["type"] + str(message.get("more_body", "")), key._value.get()))

    async def receive() -> Any:
        return {"type": "http.request", "body": b""}

    before = key._value.get()
    asyncio.run(Observe(route, None)({"type": "http", "method": "GET", "path": "/x"},
                                     receive, send))
    assert seen == [("http.response.start", before), ("http.response.bodyTrue", before),
                    ("http.response.body", before + 1)]
    assert key._value.get() == before + 1  # (once, not again when it ends)


# ----- logs ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_json_logs_a_line_for_each_request_and_websocket_with_its_id(
        tmp_path: Path) -> None:
    proc = launch_serve(tmp_path, TEST_LIMITS, ["--port", "0", "--log-format", "json"])
    port = serving_port(proc)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            made = await http.post("/api/tables", json={"preset": "merrimack-valley"})
            missing = await http.get("/api/tables/nosuch")
            assert made.status_code == 200 and missing.status_code == 404
            ids = {made.headers["x-request-id"], missing.headers["x-request-id"]}
            assert len(ids) == 2 and all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)
            token = made.json()["token"]
            seat = SeatClient(f"ws://127.0.0.1:{port}", made.json()["table"], token).start()
            await expect(seat, lambda c: c.view is not None, "the snapshot")
            await seat.stop()
            # (the session's line is written once the server has seen it end)
            await asyncio.wait_for(_closed(http), 10)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    lines = [json.loads(x) for x in err.splitlines() if x.strip()]  # every line is JSON
    by_id = {x.get("request_id"): x for x in lines}
    line = by_id[made.headers["x-request-id"]]
    assert line["level"] == "info" and line["kind"] == "request"
    assert (line["method"], line["route"], line["status"], line["client"]) == \
        ("POST", "/api/tables", 200, "127.0.0.1")
    assert isinstance(line["duration_ms"], float) and re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    line = by_id[missing.headers["x-request-id"]]
    assert (line["route"], line["status"]) == ("/api/tables/{id}", 404)
    sessions = [x for x in lines if x.get("kind") == "websocket"]
    assert sessions and sessions[0]["route"] == "/ws/{id}" and sessions[0]["close_code"]
    assert token not in err  # (a seat's key is in the websocket's query: never logged)


async def _closed(http: httpx.AsyncClient) -> None:
    """Until the server counts no open websocket."""
    while figures((await http.get("/metrics")).text)["forties_websockets_open"] != 0:
        await asyncio.sleep(0.05)


def test_an_error_is_logged_with_the_id_its_answer_names(tmp_path: Path) -> None:
    app = create_app(ServerSettings(f"sqlite:///{tmp_path / 't.db'}", Limits(**TEST_LIMITS)))

    async def crash(request: Any) -> Any:
        raise RuntimeError("boom")

    from starlette.routing import Route
    app.router.routes.insert(0, Route("/crash", crash))
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))  # (formatted as it is logged: in its request)

    keep = Keep()
    keep.setFormatter(logs.JsonFormatter())
    logging.getLogger("forties").addHandler(keep)
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            r = client.get("/crash")
    finally:
        logging.getLogger("forties").removeHandler(keep)
    assert r.status_code == 500 and r.json() == {
        "error": "something went wrong on the server (it has been logged)"}
    rid = r.headers["x-request-id"]
    errors = [json.loads(x) for x in lines if json.loads(x)["level"] == "error"]
    assert len(errors) == 1
    assert errors[0]["request_id"] == rid and "RuntimeError: boom" in errors[0]["exception"]


def test_serve_refuses_a_log_format_it_does_not_know(tmp_path: Path) -> None:
    proc = launch_serve(tmp_path, TEST_LIMITS, ["--port", "0", "--log-format", "xml"])
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in err
    assert "'xml' is not one of 'text', 'json'" in err


# ----- readiness ------------------------------------------------------------------------------


def test_readyz_503_when_the_database_file_is_gone_or_the_server_drains(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    app = create_app(ServerSettings(f"sqlite:///{db}", Limits(**TEST_LIMITS)))
    with TestClient(app) as client:
        assert client.get("/readyz").json() == {"ok": True}
        app.state.service.draining = True
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json()["code"] == "restarting"
        app.state.service.draining = False
        db.rename(tmp_path / "moved.db")
        r = client.get("/readyz")
        assert r.status_code == 503
        assert r.json() == {"error": "the database does not answer", "code": "database"}
        assert client.get("/healthz").json() == {"ok": True}  # (alive, not ready)


def test_readyz_503_when_redis_is_gone(tmp_path: Path) -> None:
    with redis() as server:
        app = create_app(ServerSettings(f"sqlite:///{tmp_path / 't.db'}",
                                        Limits(**TEST_LIMITS), redis_url=server.url))
        with TestClient(app) as client:
            assert client.get("/readyz").json() == {"ok": True}
            os.kill(server.pid, signal.SIGKILL)
            r = client.get("/readyz")
            assert r.status_code == 503
            assert r.json() == {"error": "Redis does not answer", "code": "redis"}


def test_with_workers_every_scrape_counts_every_process(tmp_path: Path, db: str,
                                                        rd: Any) -> None:
    """``--workers 2``: a scrape lands on either process, and says what both did (their
    figures shared through prometheus-client's multiprocess mode, in a folder of the
    command's own, removed when it stops)."""
    import urllib.request

    before = set(Path(tempfile.gettempdir()).glob("forties-metrics-*"))
    proc = launch_serve(tmp_path, TEST_LIMITS, ["--port", "0", "--db", db, "--redis",
                                                rd.url, "--workers", "2"], new_session=True)
    try:
        base = f"http://127.0.0.1:{serving_port(proc)}"
        for _ in range(30):  # (the system hands them to both processes)
            with urllib.request.urlopen(base + "/api/presets", timeout=10) as r:
                r.read()
        seen = set()
        for _ in range(8):
            with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
                seen.add(figures(r.read().decode())[
                    'forties_requests_total{route="/api/presets",status="2xx"}'])
        assert seen == {30.0}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert set(Path(tempfile.gettempdir()).glob("forties-metrics-*")) == before


@pytest.mark.asyncio
async def test_a_handed_over_websocket_is_counted_open_once(tmp_path: Path, db: str,
                                                             rd: Any) -> None:
    """Two processes over one PostgreSQL and one Redis, a table's four seats two on each
    port: one process runs the table and the other hands its two over whole
    (``web.relay``). The processes' open websockets add up to the four clients, all
    counted where they are held, at the process that runs the table."""
    from .helpers_scale import Serve

    a = Serve(tmp_path / "a", db, rd.url).launch()
    b = Serve(tmp_path / "b", db, rd.url).launch()
    a.ready()
    b.ready()
    seats: list[SeatClient] = []
    try:
        async with httpx.AsyncClient(base_url=a.http, timeout=10) as api:
            table, tokens = await private_table(api, "merrimack-valley")
        seats = [SeatClient((a, b)[s % 2].ws, table, tokens[s]).start() for s in sorted(tokens)]
        for c in seats:
            await expect(c, lambda c: c.view is not None, "the snapshot")
        counts = []
        for server in (a, b):
            async with httpx.AsyncClient(base_url=server.http, timeout=10) as api:
                counts.append(figures((await api.get("/metrics")).text)[
                    "forties_websockets_open"])
        assert counts == [4.0, 0.0]  # (a ran the table: its host started it there)
    finally:
        await stop_all(seats)
        for s in (a, b):
            code, err = s.stop()
            assert code == 0 and "Traceback" not in err, err[-3000:]
