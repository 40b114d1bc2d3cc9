"""What an online duplicate session must not tell before its time, tried as its director
and as a player: nobody, the director neither, sees a board's cards before every table has
played it (no board slips online), and a result the director puts in by hand for a table
still playing the board would show that board to the people playing it, so it is refused
while the board table plays."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient

from .conftest import refused


def online(client: TestClient) -> dict[str, Any]:
    """4 partnerships, 2 boards a round; pair 1 (two people) and pair 4 (two people) sit
    at table 1 in round 1; pair 3, computers, and pair 2 at table 2."""
    r = client.post("/api/dup", json={
        "game": "auction-45", "boards": 4, "mode": "online", "partnerships": [
            {"name": "Ann & Bob"}, {"name": "Cy & Di", "one_computer": "basic"},
            {"name": "Bots", "computer": "basic"}, {"name": "Ed & Flo"}]})
    assert r.status_code == 200, r.text[:300]
    return dict(r.json())


def test_no_board_slips_online_not_even_for_the_director(client: TestClient) -> None:
    a = online(client)
    sid = a["session"]
    assert "slips" not in a  # (the director's links name none)
    assert "slips" not in client.post(f"/api/dup/{sid}/director", json={"key": a["key"]}).json()
    words = refused(client.post(f"/api/dup/{sid}/slips", json={"key": a["key"]}), 403)
    assert "online" in words
    # the hall's director still prints them
    hall = client.post("/api/dup", json={"game": "auction-45", "boards": 4, "partnerships": [
        {"name": n} for n in ("A", "B", "C", "D")]}).json()
    got = client.post(f"/api/dup/{hall['session']}/slips", json={"key": hall["key"]})
    assert got.status_code == 200 and len(got.json()["slips"]) == 4


def test_a_result_by_hand_for_a_table_still_playing_is_refused(client: TestClient) -> None:
    a = online(client)
    sid, key = a["session"], a["key"]
    play = a["players"][0]["url"].split("#key=")[1]
    seat = client.post(f"/api/dup/{sid}/seat", json={"key": play}).json()
    assert seat["status"] == "playing" and seat["board"] == 1
    table = seat["table"]
    before = client.get(f"/api/dup/{sid}").json()["rounds"][0]
    # every other table of board 1 in by hand, then this one: refused while it plays
    for t in (1, 2):
        if t == table:
            continue
        client.post(f"/api/dup/{sid}/report",
                    json={"key": key, "board": 1, "table": t, "ns": 20, "ew": 10})
    words = refused(client.post(f"/api/dup/{sid}/report", json={
        "key": key, "board": 1, "table": table, "ns": 20, "ew": 10}), 409)
    assert "being played" in words
    after = client.get(f"/api/dup/{sid}").json()
    assert [x["done"] for x in after["rounds"][0]["tables"] if x["table"] == table] == \
        [x["done"] for x in before["tables"] if x["table"] == table] == [[]]
    assert "1" not in after["results"]
    # so the people at that table, on the board's public page, see no card of it
    shown = client.post(f"/api/dup/{sid}/board/1", json={}).json()
    assert shown["shown"] is False and "hands" not in shown
    mine = client.post(f"/api/dup/{sid}/board/1", json={"key": play}).json()
    assert mine["shown"] is False and "hands" not in json.dumps(mine)
