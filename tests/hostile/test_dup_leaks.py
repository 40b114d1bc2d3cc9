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


def test_the_tables_phone_learns_nothing_of_a_boards_cards(client: TestClient) -> None:
    """A player with the tables' phone reports a made-up contract for a board nobody has
    played: the answer is the same whether the bidder holds the trump or not (a refusal
    "North may not name that trump" told him North holds no spade). The director, who
    printed the slips, is still told."""
    from forties.advice import contract_start
    from forties.duplicate import Session
    from forties.rules import build_rules

    pairs = [{"name": n} for n in "ABCDEFGH"]  # (4 tables: a board at each of them)
    store = client.app.state.store  # type: ignore[attr-defined]
    rules = build_rules("auction-45")
    import asyncio

    for _ in range(200):  # (a seat lacks a suit on some board of a few sessions)
        made = client.post("/api/dup", json={"game": "auction-45", "boards": 4,
                                             "partnerships": pairs}).json()
        sid = made["session"]
        session = Session.from_json(asyncio.run(store.get_doc("duplicate", sid))[1]["session"])

        def may(b: Any, seat: int, suit: str) -> bool:
            try:
                contract_start(rules, b.deal, b.dealer, {"bidder": seat, "bid": "20",
                                                         "trump": suit})
            except ValueError:
                return False
            return True
        found = [(b.number, s, x) for b in session.boards for s in range(4) for x in "CDHS"
                 if not may(b, s, x)]
        if found:
            break
    n, seat, suit = found[0]
    ok = next(x for x in "CDHS" if may(session.boards[n - 1], seat, x))
    tables = made["report"].split("#key=")[1]
    ns, ew = (20, 10) if seat % 2 == 0 else (10, 20)
    answers = []
    for table, trump in ((1, suit), (2, ok)):
        r = client.post(f"/api/dup/{sid}/report", json={
            "key": tables, "board": n, "table": table, "ns": ns, "ew": ew,
            "contract": {"bidder": seat, "bid": "20", "trump": trump}})
        assert r.status_code == 200, r.text
        got = r.json()
        mine = ("table", "version", "ns", "ew")  # (the table and its pairs)
        answers.append({k: v for k, v in got.items() if k not in mine}
                       | {"contract": {**got["contract"], "trump": None}})
    assert answers[0] == answers[1]
    # the director is told (his correction of it is refused)
    words = refused(client.post(f"/api/dup/{sid}/correct", json={
        "key": made["key"], "board": n, "table": 2, "ns": ns, "ew": ew,
        "contract": {"bidder": seat, "bid": "20", "trump": suit}}))
    assert "may not name that trump" in words
