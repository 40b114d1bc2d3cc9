"""A stranger's page, and a stranger who says it is someone else: another site's page may
not open a seat's websocket (even with the seat's own token) nor change anything, a body
that is not sent as JSON is not read as JSON, and an X-Forwarded-For header is believed
only from a proxy the operator named (else every request could be a new address to the
limit on new tables)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.sync.client import connect as ws_connect

from ..helpers_web import launch_serve, serving_port
from .doors import Door, doors, new_table

EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Door]]:
    # the second: three new tables a minute from each address, and 127.0.0.2 a proxy
    with doors(tmp_path_factory.mktemp("origin"), ({}, []),
               ({"tables_per_minute": 3}, ["--trusted-proxy", "127.0.0.2"])) as both:
        yield both


@pytest.fixture
def door(servers: list[Door]) -> Door:
    return servers[0]


def first_frame(door: Door, table: dict[str, str], origin: str | None) -> dict[str, str]:
    url = f"{door.ws}/ws/{table['table']}?token={table['token']}"
    with ws_connect(url, origin=origin, open_timeout=10) as w:  # type: ignore[arg-type]
        w.send(json.dumps({"type": "hello", "seq": 0}))
        return dict(json.loads(w.recv(timeout=10)))


@pytest.mark.parametrize("origin", [EVIL, "null", "http://127.0.0.1.evil.example"])
def test_another_sites_page_cannot_open_a_seat(door: Door, origin: str) -> None:
    table = new_table(door)
    with pytest.raises(websockets.InvalidStatus) as refused:
        first_frame(door, table, origin)
    assert refused.value.response.status_code == 403
    assert "other sites" in json.loads(refused.value.response.body)["error"]


@pytest.mark.parametrize("origin", [None, "own", "localhost"])
def test_the_sites_own_pages_and_clients_without_a_page_open_a_seat(door: Door,
                                                                     origin: str | None) -> None:
    table = new_table(door)
    given = {"own": door.http, "localhost": f"http://localhost:{door.port}"}.get(origin or "")
    assert first_frame(door, table, given)["type"] == "snapshot"


@pytest.mark.parametrize("headers", [{"Origin": EVIL}, {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"}],
                         ids=["origin", "null", "fetch-site"])
def test_another_sites_page_cannot_change_anything(door: Door, headers: dict[str, str]) -> None:
    table = new_table(door)
    for path, body in [("/api/tables", {"preset": "auction-45"}),
                       (f"/api/tables/{table['table']}/start", {"token": table["token"]}),
                       ("/api/pads", {"preset": "auction-45"})]:
        r = httpx.post(door.http + path, json=body, headers=headers)
        assert r.status_code == 403 and "other sites" in r.json()["error"], (path, r.text)
    r = httpx.put(f"{door.http}/api/pads/abcdefgh/hands/1", json={}, headers=headers)
    assert r.status_code == 403
    # reading is not changing: a GET from anywhere is answered
    assert httpx.get(f"{door.http}/api/presets", headers=headers).status_code == 200


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x"])
def test_a_body_not_sent_as_json_is_refused(door: Door, kind: str) -> None:
    r = httpx.post(f"{door.http}/api/tables", content=b'{"preset": "auction-45"}',
                   headers={"Content-Type": kind})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    r = httpx.post(f"{door.http}/api/tables", json={"preset": "auction-45"},
                   headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 200


def test_a_spoofed_forwarded_address_is_not_believed(servers: list[Door]) -> None:
    counted = servers[1]
    answers = [httpx.post(f"{counted.http}/api/tables", json={"preset": "auction-45"},
                          headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
               for i in range(4)]
    assert answers == [200, 200, 200, 429]


def test_a_named_proxys_forwarded_address_is_believed(servers: list[Door]) -> None:
    counted = servers[1]
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as proxy:
        answers = [proxy.post(f"{counted.http}/api/tables", json={"preset": "auction-45"},
                              headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
                   for i in range(5)]
    assert answers == [200] * 5


@pytest.mark.parametrize("args, words", [
    (["--public-url", "ftp://forties.example.org"], "--public-url must be"),
    (["--trusted-proxy", "the-proxy"], "--trusted-proxy must be"),
])
def test_the_door_options_refuse_what_they_cannot_use(tmp_path: Path, args: list[str],
                                                      words: str) -> None:
    proc = launch_serve(tmp_path, {}, ["--port", "0", *args])
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and words in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_a_door_limit_of_nothing_is_refused(tmp_path: Path) -> None:
    proc = launch_serve(tmp_path, {"connections_per_address": 0}, ["--port", "0"])
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "connections_per_address must be above 0" in err, err


def test_a_refused_websocket_logs_no_error(tmp_path: Path) -> None:
    """Refusing another site's websocket is the door working, not the server failing: no
    ERROR line in its log and nothing in forties_errors_total (else any stranger could
    fill the journal with errors), the refusal still a 403 with its reason."""
    proc = launch_serve(tmp_path, {}, ["--port", "0", "--log-format", "json"])
    try:
        door = Door(proc.pid, serving_port(proc))
        table = new_table(door)
        for _ in range(3):
            with pytest.raises(websockets.InvalidStatus) as refused:
                first_frame(door, table, EVIL)
            assert refused.value.response.status_code == 403
        # a request after the refusals, on its own connection: the server has handled them
        scraped = httpx.get(f"{door.http}/metrics", timeout=10).text
        assert "forties_errors_total{" not in scraped, scraped
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    lines = [json.loads(x) for x in err.splitlines() if x.startswith("{")]
    assert not [x for x in lines if x["level"] in ("error", "critical")], err[-3000:]
    assert "ERROR" not in err and "handshake" not in err, err[-3000:]
