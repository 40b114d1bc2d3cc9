"""The score pad's routes: a pad made, hands entered and corrected by the scorekeeper's
key only, watched by anyone with its address, exported; every refusal one line."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web import pad as pad_web

from .web_stand_ins import FakeService
from .web_stand_ins import pad_app as tiny_app


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def client(service: FakeService) -> Any:
    with TestClient(tiny_app(service)) as c:
        yield c


def one_line(resp: Any, status: int) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) in ({"error"}, {"error", "code"}, {"error", "code", "words"}), body
    assert body["error"] and "\n" not in body["error"]
    return str(body["error"])


def new_pad(client: Any, **kw: Any) -> tuple[str, str]:
    r = client.post("/api/pads", json={"preset": "auction-45",
                                       "names": ["Ann", "Bob", "Cy", "Di"], **kw})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["url"] == f"/pad/{body['pad']}#key={body['key']}"
    assert body["watch"] == f"/pad/{body['pad']}" and body["rows"] == []
    return body["pad"], body["key"]


def test_a_game_kept_watched_corrected_and_exported(client: Any, service: FakeService) -> None:
    pid, key = new_pad(client)
    assert ("pad", pid) in service.store.docs
    assert key not in str(service.store.docs)  # only its digest is kept
    url = f"/api/pads/{pid}/hands"
    r = client.post(url, json={"key": key, "hand": {"bidder": 1, "bid": "20",
                                                    "points": [10, 20]}})
    assert r.status_code == 200 and r.json()["scores"] == [10, 20] and r.json()["dealer"] == 1
    client.post(url, json={"key": key, "hand": {"bidder": 0, "bid": "30", "points": [30, 0]}})
    watched = client.get(f"/api/pads/{pid}").json()
    assert watched["scores"] == [70, 20]
    assert watched["rows"][1]["notes"] == [["made", -1], ["made-30-60", -1]]
    assert client.get(f"/api/pads/{pid}?since={watched['version']}").json()["same"] is True
    r = client.put(f"{url}/1", json={"key": key, "hand": {"bidder": 1, "bid": "20",
                                                          "points": [15, 15]}})
    assert r.json()["scores"] == [75, -20]  # Bob was set: every hand after scored again
    r = client.post(url, json={"key": key, "hand": {"bidder": 0, "bid": "30",
                                                    "points": [30, 0]}})
    assert r.json()["over"] and r.json()["result"] == "Ann and Cy win: first to 120"
    assert r.json()["winner"] == [0, 2] and r.json()["reason"] == "first"
    rows = list(csv.reader(io.StringIO(client.get(f"/api/pads/{pid}/export.csv").text)))
    assert rows[-1][-3:-1] == ["135", "-20"]
    assert client.get(f"/api/pads/{pid}/export.json").json()["format"] == "forties-pad/1"
    r = client.post(f"/api/pads/{pid}/undo", json={"key": key})
    assert not r.json()["over"] and len(r.json()["rows"]) == 2


def test_only_the_scorekeeper_changes_it(client: Any) -> None:
    pid, _ = new_pad(client)
    hand = {"bidder": 1, "bid": "20", "points": [10, 20]}
    for body in ({"hand": hand}, {"key": "guess", "hand": hand}, {"key": 7, "hand": hand}):
        assert "scorekeeper" in one_line(client.post(f"/api/pads/{pid}/hands", json=body), 403)
    assert client.get(f"/api/pads/{pid}").json()["rows"] == []


def test_a_write_that_loses_a_race_is_tried_again(client: Any, service: FakeService) -> None:
    pid, key = new_pad(client)
    service.store.race = 2
    r = client.post(f"/api/pads/{pid}/hands", json={"key": key, "hand": {
        "bidder": 1, "bid": "20", "points": [10, 20]}})
    assert r.status_code == 200 and len(r.json()["rows"]) == 1
    service.store.race = 100
    one_line(client.post(f"/api/pads/{pid}/undo", json={"key": key}), 409)


@pytest.mark.parametrize(("body", "message"), [
    ({"preset": "whist"}, "unknown preset"),
    ({"preset": "auction-45", "options": {"target": 0}}, "option target"),
    ({"preset": "auction-45", "names": "Ann"}, "names must be a list"),
    ({"preset": "auction-45", "names": ["A", "A"]}, "same name"),
    ({"preset": "auction-45", "names": ["Eve", "Fay", "Di"]},
     "the names give 3 players; auction-45 has 4"),
    ({"preset": "auction-45", "names": ["A", "B", "C", "D", "E"]},
     "the names give 5 players; auction-45 has 4"),
    ({"preset": "auction-45", "first_dealer": 9}, "first dealer must be a seat"),
    ({"preset": "auction-45", "colour": "red"}, "a new pad has no 'colour'"),
])
def test_bad_new_pads(client: Any, body: dict[str, Any], message: str) -> None:
    assert message in one_line(client.post("/api/pads", json=body), 400)


def test_bad_hands_and_requests(client: Any) -> None:
    pid, key = new_pad(client)
    url = f"/api/pads/{pid}/hands"
    assert "add up to 40" in one_line(client.post(url, json={"key": key, "hand": {
        "bidder": 0, "bid": "20", "points": [20, 20]}}), 400)
    assert "15 is not a bid here" in one_line(client.post(url, json={"key": key, "hand": {
        "bidder": 0, "bid": "15", "points": [20, 10]}}), 400)
    assert "send the hand" in one_line(client.post(url, json={"key": key}), 400)
    assert "not JSON" in one_line(client.post(url, content=b"{oops"), 400)
    assert "too large" in one_line(client.post(url, content=b"[" * 20000), 413)
    assert "no hand to correct yet" in one_line(client.put(f"{url}/3", json={
        "key": key, "hand": {"bidder": 0, "bid": "20", "points": [20, 10]}}), 400)
    assert "no such pad" in one_line(client.get("/api/pads/nothere1"), 404)
    assert "no such pad" in one_line(client.get("/api/pads/bad!id"), 404)
    assert client.get(f"/api/pads/{pid}/export.xml").status_code == 404


def test_new_pads_are_limited_across_requests(client: Any) -> None:
    for _ in range(pad_web.CREATE_PER_MINUTE):
        new_pad(client)
    assert "too many new pads" in one_line(client.post("/api/pads", json={}), 429)


def test_the_pages_and_presets(client: Any) -> None:
    for path in ("/pad", "/pad/abc123"):
        r = client.get(path)
        assert r.status_code == 200 and 'src="/static/pad.js"' in r.text
    presets = {p["name"]: p for p in client.get("/api/pads/presets").json()}
    assert presets["call-your-partner"]["players"] == 5
    assert presets["forty-one"]["game"] == "forty-one" and presets["forty-one"]["bids"] == []
    assert presets["auction-45"]["bids"] == ["20", "25", "30"]


def test_the_server_mounts_the_pad_and_keeps_it_in_its_database(tmp_path: Any) -> None:
    """forties serve's own app: the page, the API, the catalogs; a pad written by one
    server is read by the next on the same database."""
    from forties.web.app import ServerSettings, create_app

    db = f"sqlite:///{tmp_path / 'tables.db'}"
    with TestClient(create_app(ServerSettings(db_url=db))) as c:
        r = c.post("/api/pads", json={"preset": "forty-one", "names": ["Ann", "Bob", "Cy", "Di"]})
        assert r.status_code == 200, r.text
        assert r.json()["game"] == "forty-one"
        pid, key = r.json()["pad"], r.json()["key"]
        r = c.post(f"/api/pads/{pid}/hands", json={"key": key, "hand": {
            "bids": [3, 3, 3, 3], "tricks": [4, 3, 3, 3]}})
        assert r.json()["scores"] == [3, 3, 3, 3]
        for path in ("/pad", f"/pad/{pid}", "/static/pad.js", "/static/pad.css",
                     "/static/style.css", "/static/i18n.js"):
            assert c.get(path).status_code == 200, path
        assert c.get("/i18n/ar.json").json()["messages"]["pad.ui.title"] == "ورقة النقاط"
        one_line(c.post(f"/api/pads/{pid}/undo", json={"key": "wrong"}), 403)
    with TestClient(create_app(ServerSettings(db_url=db))) as c:
        assert c.get(f"/api/pads/{pid}").json()["scores"] == [3, 3, 3, 3]
