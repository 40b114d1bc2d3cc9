"""A stranger at the duplicate sessions' routes (``/dup``, ``/api/dup``): guessed keys,
another session's keys, reports for boards not in that round, huge bodies, odd names,
a board's page before every table has played it, formulas in the CSV. Each is refused
in one line (or harmless), never a 500, and the session loses nothing."""

from __future__ import annotations

import csv
import io
import json
import secrets
from typing import Any

import pytest
from starlette.testclient import TestClient

from .conftest import refused

PAIRS = [{"name": n} for n in ("Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal")]


def made(client: TestClient, **more: Any) -> dict[str, Any]:
    r = client.post("/api/dup", json={"game": "auction-45", "boards": 4,
                                      "partnerships": PAIRS, **more})
    assert r.status_code == 200, r.text[:300]
    out = dict(r.json())
    out["tables"] = out["report"].split("#key=")[1] if "report" in out else None
    return out


def results(client: TestClient, sid: str) -> list[Any]:
    v = client.get(f"/api/dup/{sid}").json()
    return [v["rounds"][0]["tables"], v["complete"], v["results"]]


def test_guessed_and_other_sessions_keys_are_refused(client: TestClient) -> None:
    a, b = made(client), made(client)
    sid = a["session"]
    report = {"board": 1, "table": 1, "ns": 20, "ew": 10}
    before = results(client, sid)
    for key in (secrets.token_urlsafe(12), secrets.token_urlsafe(18), b["tables"], b["key"],
                "", None, 7, ["x"], {"k": 1}, "é" * 30, "a" * 5000):
        assert "director" in refused(client.post(f"/api/dup/{sid}/report",
                                                 json={**report, "key": key}), 403)
        assert "director" in refused(client.post(f"/api/dup/{sid}/correct",
                                                 json={**report, "key": key}), 403)
        assert "director" in refused(client.post(f"/api/dup/{sid}/slips",
                                                 json={"key": key}), 403)
        assert "director" in refused(client.post(f"/api/dup/{sid}/director",
                                                 json={"key": key}), 403)
    # the tables' key reports but neither corrects nor prints the boards' cards
    assert "director" in refused(client.post(f"/api/dup/{sid}/correct",
                                             json={**report, "key": a["tables"]}), 403)
    assert "director" in refused(client.post(f"/api/dup/{sid}/slips",
                                             json={"key": a["tables"]}), 403)
    assert results(client, sid) == before
    # the director's key is kept hashed: the document never holds it
    got = client.app.state.store  # type: ignore[attr-defined]
    import asyncio

    doc = asyncio.run(got.get_doc("duplicate", sid))[1]
    assert a["key"] not in json.dumps(doc)


def test_reports_for_boards_not_in_that_round_or_table(client: TestClient) -> None:
    a = made(client)
    sid, key = a["session"], a["tables"]
    url = f"/api/dup/{sid}/report"
    # 4 pairs: round 1 plays boards 1 and 2, round 2 board 3, round 3 board 4; 2 tables
    for bad, words in (({"round": 2, "board": 1}, "not played in round 2"),
                       ({"round": 9, "board": 1}, "round"),
                       ({"board": 5}, "board"), ({"board": 0}, "board"),
                       ({"board": -1}, "board"), ({"board": "1"}, "board"),
                       ({"board": 1.0}, "board"), ({"board": True}, "board"),
                       ({"board": 10**40}, "board"), ({"table": 3}, "tables 1 to 2"),
                       ({"table": 0}, "table"), ({"table": None}, "table"),
                       ({"ns": 10**30}, "whole number"), ({"ns": 25.0}, "whole number"),
                       ({"ns": 30, "ew": 30}, "cannot both be scored"),
                       ({"ns": None}, "whole number")):
        body = {"key": key, "board": 1, "table": 1, "ns": 20, "ew": 10, **bad}
        assert words in refused(client.post(url, json=body)), bad
    assert results(client, sid)[1:] == [[], {}]


def test_huge_bodies_and_odd_requests_are_refused_in_one_line(client: TestClient) -> None:
    a = made(client)
    sid = a["session"]
    big = b'{"key": "' + b"x" * 40_000 + b'"}'
    for url in ("/api/dup", f"/api/dup/{sid}/report", f"/api/dup/{sid}/board/1",
                f"/api/dup/{sid}/slips", f"/api/dup/{sid}/correct"):
        r = client.post(url, content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413, (url, r.status_code)
        assert "too large" in refused(client.post(url, content=b"{" + b" " * 17_000 + b"}",
                                                  headers={"content-type":
                                                           "application/json"}), 413)
        assert "JSON" in refused(client.post(url, content=b"{nope",
                                             headers={"content-type": "application/json"}))
        assert "JSON" in refused(client.post(url, content=b"[" * 10_000,
                                             headers={"content-type": "application/json"}))
    for path in (f"/api/dup/{sid[:-1]}", "/api/dup/..%2f..%2fetc", "/api/dup/a",
                 f"/api/dup/{'x' * 300}", f"/api/dup/{sid}/export/xls"):
        assert client.get(path).status_code == 404, path
    for n in ("0", "5", "-1", "x", "1e3", "99999999999999", "%00"):
        r = client.post(f"/api/dup/{sid}/board/{n}", json={})
        assert r.status_code in (404, 400), (n, r.status_code)
    assert client.get(f"/dup/{'x' * 300}").status_code == 404
    assert client.get("/dup/a%20b/recap").status_code == 404


@pytest.mark.parametrize("name", ["=HYPERLINK(\"http://x\",\"y\")", "<script>alert(1)</script>",
                                  "\u202eevil", "a\x00b", "Ann\nBob\tCy", "💥" * 30])
def test_odd_names_are_kept_as_text_and_csv_quotes_formulas(client: TestClient,
                                                             name: str) -> None:
    a = made(client, partnerships=[{"name": name}, *PAIRS[1:]])
    sid, key = a["session"], a["tables"]
    v = client.get(f"/api/dup/{sid}").json()
    got = v["partnerships"][0]["name"]
    assert "\n" not in got and "\x00" not in got and 0 < len(got) <= 60
    for t, (ns, ew) in ((1, (20, 10)), (2, (25, 5))):
        assert client.post(f"/api/dup/{sid}/report", json={
            "key": key, "board": 1, "table": t, "ns": ns, "ew": ew}).status_code == 200
    text = client.get(f"/api/dup/{sid}/export/csv").text
    for row in csv.reader(io.StringIO(text)):
        for c in row:
            if c[:1] in ("=", "+", "-", "@"):
                float(c)


def test_the_board_page_before_every_table_has_played(client: TestClient) -> None:
    a = made(client)
    sid, key = a["session"], a["tables"]
    assert client.post(f"/api/dup/{sid}/report", json={
        "key": key, "board": 1, "table": 1, "ns": 20, "ew": 10}).status_code == 200
    # nobody, not even the director or the tables' phone, sees the cards or the score
    for who in ({}, {"key": a["key"]}):
        text = client.post(f"/api/dup/{sid}/board/1", json=who).text
        for slip_card in client.post(f"/api/dup/{sid}/slips",
                                     json={"key": a["key"]}).json()["slips"][0]["hands"]:
            assert json.dumps(slip_card["cards"]) not in text
        assert '"ns_score"' not in text and '"hands"' not in text
    assert "not one of this session's" in refused(
        client.post(f"/api/dup/{sid}/board/1", json={"key": key}), 403)
    # nor the session page, nor the exports
    assert client.get(f"/api/dup/{sid}").json()["results"] == {}
    assert client.get(f"/api/dup/{sid}/export/json").json()["boards"] == []
    rows = list(csv.reader(io.StringIO(client.get(f"/api/dup/{sid}/export/csv").text)))
    assert not [r for r in rows[1:] if r and r[0] == "1"]


# ----- online sessions ------------------------------------------------------------------------


def online(client: TestClient) -> dict[str, Any]:
    return made(client, mode="online", partnerships=[
        {"name": "Ann & Bob"}, {"name": "Cy & Di", "one_computer": "basic"},
        {"name": "Bots", "computer": "basic"}, {"name": "Ed & Flo"}])


def test_a_stranger_finds_no_board_table_and_cannot_watch_one(client: TestClient) -> None:
    a, b = online(client), online(client)
    sid = a["session"]
    keys = [p["url"].split("#key=")[1] for p in a["players"]]
    other = [p["url"].split("#key=")[1] for p in b["players"]]
    url = f"/api/dup/{sid}/seat"
    for key in (secrets.token_urlsafe(12), other[0], a["key"], a["tables"], None, 5, "",
                "x" * 5000):
        assert "not a player's" in refused(client.post(url, json={"key": key}), 403)
    # what anyone reads of the session names no board table
    seat = client.post(url, json={"key": keys[0]}).json()
    assert seat["status"] == "playing"
    table = seat["url"].removeprefix("/t/").split("#")[0]
    for text in (client.get(f"/api/dup/{sid}").text,
                 client.post(f"/api/dup/{sid}/board/1", json={}).text,
                 client.get(f"/api/dup/{sid}/export/json").text,
                 client.get(f"/api/dup/{sid}/export/csv").text):
        assert table not in text
    # and a stranger who has the table's address is refused at it, as a player of
    # another table of the same board is: nobody watches a board table
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "seq": 0})
        frame = ws.receive_json()
    assert frame["type"] == "error" and frame["code"] == "board"
    assert client.get(f"/api/tables/{table}/record").status_code == 403
    # online, no link for the tables' phones is given out, and a guessed key reports nothing
    assert a["tables"] is None and "slips" not in a
    assert "director" in refused(client.post(f"/api/dup/{sid}/report", json={
        "key": secrets.token_urlsafe(12), "board": 1, "table": 1, "ns": 20, "ew": 10}), 403)


def test_a_partnership_sees_a_board_only_once_it_has_played_it(client: TestClient) -> None:
    a = online(client)
    sid = a["session"]
    key = a["players"][0]["url"].split("#key=")[1]  # pair 1: boards 1 and 2 first
    got = client.post(f"/api/dup/{sid}/board/1", json={"key": key}).json()
    assert got["shown"] is False and "hands" not in got and "rows" not in got
    assert "once you have played it" in got["why"]
