"""Duplicate sessions in the hall, without a browser: the director makes a session, prints
the board slips, the tables report each board's scores from a phone (checked against
what one hand of the game can score), the standings follow every complete board by the
test's own matchpoint arithmetic, the director corrects, and the results export."""

from __future__ import annotations

import asyncio
import csv
import io
import random
from collections import Counter
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.bots import play_hand
from forties.duplicate import (
    Session,
    board_slip,
    make_boards,
    possible_scores,
    scores_of_hand,
)
from forties.players import make_bot
from forties.rules import build_rules
from forties.state import DealKey
from forties.web import duplicate_sessions as dup_web

from .web_stand_ins import FakeService, tiny_app


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def client(service: FakeService) -> Any:
    with TestClient(tiny_app(service, dup_web)) as c:
        yield c


def one_line(resp: Any, status: int) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) <= {"error", "code"}, body  # (a code: a word the page translates)
    assert isinstance(body["error"], str) and body["error"]
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])


def new_session(client: Any, pairs: int = 5, boards: int = 6, game: str = "auction-45",
                **more: Any) -> dict[str, Any]:
    r = client.post("/api/dup", json={
        "game": game, "boards": boards, "title": "Tuesday pairs",
        "partnerships": [{"name": f"Ann {i} & Bob {i}"} for i in range(1, pairs + 1)],
        **more})
    assert r.status_code == 200, r.text
    made = dict(r.json())
    assert made["url"] == f"/dup/{made['session']}/director#key={made['key']}"
    made["tables"] = made["report"].split("#key=")[1]
    return made


def stored(service: FakeService, sid: str) -> Session:
    got = asyncio.run(service.store.get_doc("duplicate", sid))
    assert got is not None
    return Session.from_json(got[1]["session"])


def view(client: Any, sid: str) -> dict[str, Any]:
    r = client.get(f"/api/dup/{sid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def own_standings(results: dict[tuple[int, int], tuple[int, int, int, int]]
                  ) -> dict[int, tuple[int, int]]:
    """The test's own arithmetic over complete boards: (matchpoints, top) per pair."""
    by_board: dict[int, list[tuple[int, int, int]]] = {}
    for (b, _t), (ns, ew, ns_score, ew_score) in results.items():
        by_board.setdefault(b, []).append((ns, ew, ns_score - ew_score))
    mp: Counter[int] = Counter()
    top: Counter[int] = Counter()
    for rows in by_board.values():
        for ns, ew, net in rows:
            for ns2, _ew2, net2 in rows:
                if ns2 != ns:
                    mp[ns] += 2 if net > net2 else 1 if net == net2 else 0
                    mp[ew] += 2 if net < net2 else 1 if net == net2 else 0
            top[ns] += 2 * (len(rows) - 1)
            top[ew] += 2 * (len(rows) - 1)
    return {p: (mp[p], top[p]) for p in top}


def test_possible_scores_hold_every_hand_played_and_no_more() -> None:
    """Every hand the engine plays scores a pair ``possible_scores`` holds; pairs that
    no hand can give are not in it."""
    rng = random.Random(3)
    for preset in ("merrimack-valley", "auction-45", "forty-one"):
        rules = build_rules(preset)
        allowed = possible_scores(rules)
        for n in range(1, 9):
            board = make_boards(rules, n, DealKey(bytes([n] * 32)))[-1]
            state = board.game(rules)
            play_hand(state, [make_bot("random", rng) for _ in range(4)])
            assert scores_of_hand(state) in allowed, (preset, scores_of_hand(state))
    a45 = possible_scores(build_rules("auction-45"))
    assert (20, 10) in a45 and (-20, 15) in a45 and (0, 0) in a45  # (all pass: thrown in)
    assert (-20, 10) not in a45  # (set on 20: the other side took 15 or more)
    assert (30, 30) not in a45 and (35, 0) not in a45 and (20, 20) not in a45
    mv = possible_scores(build_rules("merrimack-valley"))
    assert (0, 0) not in mv  # (the dealer is bagged: someone always bids)
    assert (25, 5) in mv and (-15, 20) in mv and (15, 20) not in mv
    f41 = possible_scores(build_rules("forty-one"))
    assert (0, 0) in f41 and (14, -2) in f41 and (52, 52) in f41  # (two seats bid 13)
    assert (53, 0) not in f41 and (0, -53) not in f41


def test_a_hall_session_from_slips_to_the_recap(client: Any, service: FakeService) -> None:
    made = new_session(client, pairs=5, boards=6)
    sid, key, tables = made["session"], made["key"], made["tables"]
    assert made["slips"] == f"/dup/{sid}/print/slips"
    session = stored(service, sid)
    # the director's link and the tables' link say who they are; a stranger's nothing
    assert client.post(f"/api/dup/{sid}/director", json={"key": key}).json()["role"] == \
        "director"
    assert client.post(f"/api/dup/{sid}/director", json={"key": tables}).json() == \
        {"role": "tables"}
    # the slips: the director's, every board's cards as the session holds them
    assert "director" in one_line(client.post(f"/api/dup/{sid}/slips",
                                              json={"key": tables}), 403)
    got = client.post(f"/api/dup/{sid}/slips", json={"key": key}).json()
    assert got["slips"] == [board_slip(b) for b in session.boards]
    assert [s["board"] for s in got["slips"]] == [1, 2, 3, 4, 5, 6]
    # 5 pairs: 2 tables a round, one pair sitting out; 6 boards over 5 rounds
    v = view(client, sid)
    assert v["status"] == "playing" and v["round"] == 1 and v["complete"] == []
    assert [len(r["tables"]) for r in v["rounds"]] == [2] * 5
    rng = random.Random(8)
    allowed = sorted(possible_scores(build_rules("auction-45")))
    results: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for rnd in session.movement.rounds:
        for b in rnd.boards:
            for t in rnd.tables:
                ns, ew = rng.choice(allowed)
                r = client.post(f"/api/dup/{sid}/report", json={
                    "key": tables, "round": rnd.number, "board": b, "table": t.table,
                    "ns": ns, "ew": ew})
                assert r.status_code == 200, r.text
                assert (r.json()["ns"], r.json()["ew"]) == (t.ns, t.ew)
                results[(b, t.table)] = (t.ns, t.ew, ns, ew)
                v = view(client, sid)
                done = sorted({x for (x, _) in results
                               if sum(1 for y in results if y[0] == x) == len(rnd.tables)})
                assert v["complete"] == done
                # a board some table has still to play shows nothing of its results
                assert set(v["results"]) == {str(x) for x in done}
                want = own_standings({k: x for k, x in results.items() if k[0] in done})
                for s in v["standings"]:
                    p = s["pair"]["number"]
                    if p not in want:
                        assert s["percent"] is None and s["boards"] == 0
                        continue
                    assert (s["matchpoints"], s["top"]) == want[p]
                    assert s["percent"] == round(100 * want[p][0] / want[p][1], 2)
                pcts = [s["percent"] for s in v["standings"] if s["percent"] is not None]
                assert pcts == sorted(pcts, reverse=True)
    assert v["status"] == "over" and v["round"] is None
    # the board page shows every table's score and matchpoints once all are done
    bp = client.post(f"/api/dup/{sid}/board/1", json={}).json()
    assert bp["shown"] and bp["hands"] == board_slip(session.boards[0])["hands"]
    assert [(r["ns_score"], r["ew_score"]) for r in bp["rows"]] == \
        [results[(1, t)][2:] for t in (1, 2)]
    # exports: every board, every table, the standings
    rows = list(csv.reader(io.StringIO(client.get(f"/api/dup/{sid}/export/csv").text)))
    assert rows[0][:6] == ["board", "table", "N-S pair", "E-W pair", "N-S score", "E-W score"]
    assert len([r for r in rows[1:] if r and r[0].isdigit() and len(r) == 11]) == 12
    assert sum(1 for r in rows if r[:1] == ["rank"]) == 1
    data = client.get(f"/api/dup/{sid}/export/json").json()
    assert data["format"] == "forties-duplicate/1" and len(data["boards"]) == 6
    assert data["standings"] == v["standings"]


def test_reports_are_checked_and_the_director_corrects(client: Any) -> None:
    made = new_session(client, pairs=4, boards=4, game="merrimack-valley")
    sid, key, tables = made["session"], made["key"], made["tables"]
    # 4 pairs: 3 rounds at 2 tables; boards 1-2 in round 1, 3 in round 2, 4 in round 3
    url = f"/api/dup/{sid}/report"
    ok = {"key": tables, "board": 1, "table": 1, "ns": 25, "ew": 5}
    assert "cannot both be scored" in one_line(client.post(url, json={**ok, "ns": 30,
                                                                      "ew": 30}), 400)
    assert "cannot both be scored" in one_line(client.post(url, json={**ok, "ns": 0,
                                                                      "ew": 0}), 400)
    assert "round 2" in one_line(client.post(url, json={**ok, "round": 2}), 400)
    assert "tables 1 to 2" in one_line(client.post(url, json={**ok, "table": 3}), 400)
    assert "board" in one_line(client.post(url, json={**ok, "board": 5}), 400)
    assert "whole number" in one_line(client.post(url, json={**ok, "ns": "25"}), 400)
    assert "director" in one_line(client.post(url, json={**ok, "key": "guess"}), 403)
    assert client.post(url, json={**ok, "round": 1}).status_code == 200
    assert "in already" in one_line(client.post(url, json={**ok, "ns": -15, "ew": 20}), 409)
    # the tables cannot correct; the director can, and can take a result out
    fix = f"/api/dup/{sid}/correct"
    assert "director" in one_line(client.post(fix, json={**ok, "ns": -15, "ew": 20}), 403)
    assert client.post(fix, json={**ok, "key": key, "ns": -15, "ew": 20}).status_code == 200
    assert client.post(url, json={**ok, "table": 2, "ns": 15, "ew": 15}).status_code == 200
    v = view(client, sid)
    assert v["results"]["1"][0]["ns_score"] == -15 and v["complete"] == [1]
    assert [r["ns_matchpoints"] for r in v["results"]["1"]] == [0, 2]
    assert client.post(fix, json={**ok, "key": key, "ns": None, "ew": None}).json()["removed"]
    assert view(client, sid)["complete"] == []
    assert "not in yet" in one_line(client.post(fix, json={**ok, "key": key}), 409)


def test_the_board_page_hides_a_board_until_every_table_played_it(client: Any) -> None:
    made = new_session(client, pairs=4, boards=3)
    sid, tables, key = made["session"], made["tables"], made["key"]
    url = f"/api/dup/{sid}/board/1"
    assert client.post(f"/api/dup/{sid}/report", json={
        "key": tables, "board": 1, "table": 1, "ns": 20, "ew": 10}).status_code == 200
    for who in ({}, {"key": key}):  # the director too waits for every table
        bp = client.post(url, json=who).json()
        assert not bp["shown"] and "hands" not in bp and "rows" not in bp
        assert [t["done"] for t in bp["tables"]] == [True, False]
    assert "not one of this session's" in one_line(client.post(url, json={"key": "abc"}),
                                                   403)
    assert client.post(f"/api/dup/{sid}/report", json={
        "key": tables, "board": 1, "table": 2, "ns": -20, "ew": 15}).status_code == 200
    bp = client.post(url, json={}).json()
    assert bp["shown"] and len(bp["hands"]) == 4 and len(bp["rows"]) == 2


def test_create_refuses_in_one_line(client: Any) -> None:
    base = {"game": "auction-45", "boards": 4,
            "partnerships": [{"name": f"P{i}"} for i in range(4)]}
    post = lambda **kw: client.post("/api/dup", json={**base, **kw})  # noqa: E731
    assert "game" in one_line(post(game="bridge"), 400)
    assert "game" in one_line(post(game="call-your-partner"), 400)
    assert "boards" in one_line(post(boards=0), 400)
    assert "boards" in one_line(post(boards=10**30), 400)
    assert "partnerships" in one_line(post(partnerships=[{"name": "x"}] * 2), 400)
    assert "three partnerships" in one_line(post(partnerships=[{"name": "x"}] * 3), 400)
    assert "name" in one_line(post(partnerships=[{"name": "  \n "}] * 4), 400)
    assert "name" in one_line(post(partnerships=[{"name": 7}] * 4), 400)
    assert "hall" in one_line(post(partnerships=[{"name": "a", "computer": "basic"}] * 4),
                              400)
    assert "hall" in one_line(post(fill="basic"), 400)
    assert "mode" in one_line(post(mode="moon"), 400)
    assert "unknown" in one_line(post(colour="red"), 400)
    assert "target" in one_line(post(options={"target": 1}), 400)
    made = new_session(client, pairs=4, boards=2)
    v = view(client, made["session"])
    assert [p["name"] for p in v["partnerships"]] == [f"Ann {i} & Bob {i}" for i in
                                                      range(1, 5)]

