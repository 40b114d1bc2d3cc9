"""The hall director's routes: creating an evening, the director's key, registering,
reporting from the tables (checked against the seating), corrections, exports and
printed cards, the ties on screen, and an online evening whose tables are web tables."""

from __future__ import annotations

import csv
import functools
import io
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from forties.hall import Hall, Settings
from forties.web import hall as hall_web

from .web_stand_ins import FakeService
from .web_stand_ins import hall_app as tiny_app


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
    assert set(body) == ({"error", "code"} if status == 429 else {"error"})
    assert isinstance(body["error"], str) and body["error"]
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])


def new_evening(client: Any, couples: int = 0, **settings: Any) -> tuple[str, str, str]:
    """An evening with ``couples`` couples: (evening, director's key, tables' key)."""
    r = client.post("/api/hall", json={"games": 4, **settings})
    assert r.status_code == 200, r.text
    eid, key = r.json()["evening"], r.json()["key"]
    assert r.json()["url"] == f"/hall/{eid}/director#key={key}"
    tables = r.json()["report"].split("#key=")[1]
    for i in range(1, couples + 1):
        r = client.post(f"/api/hall/{eid}/register", json={"key": key,
                                                          "names": [f"Ann {i}", f"Bob {i}"]})
        assert r.status_code == 200, r.text
        assert r.json()["couple"] == i
    return eid, key, tables


def board(client: Any, eid: str) -> dict[str, Any]:
    r = client.get(f"/api/hall/{eid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_create_refuses_bad_settings_in_one_line(client: Any) -> None:
    assert "games" in one_line(client.post("/api/hall", json={"games": 0}), 400)
    assert "preset" in one_line(client.post("/api/hall", json={"preset": "bridge"}), 400)
    assert "four players" in one_line(client.post("/api/hall",
                                                  json={"preset": "call-your-partner"}), 400)
    assert "target" in one_line(client.post("/api/hall", json={"options": {"target": 1}}), 400)
    assert "tie_break" in one_line(client.post("/api/hall", json={"tie_break": "dice"}), 400)
    assert "unknown setting" in one_line(client.post("/api/hall", json={"colour": 1}), 400)
    assert "JSON" in one_line(client.post("/api/hall", content=b"{nope"), 400)
    assert "object" in one_line(client.post("/api/hall", json=[1, 2]), 400)
    assert "too large" in one_line(client.post("/api/hall", content=b" " * 20000), 413)
    # nested too deep for the JSON reader, an integer too long for Python: one line too
    assert "not JSON" in one_line(client.post("/api/hall", content=b"[" * 10000), 400)
    assert "digits" in one_line(client.post("/api/hall", content=b'{"games": ' + b"9" * 5000
                                            + b"}"), 400)


def test_the_director_key_is_needed_to_change_anything(client: Any) -> None:
    eid, key, tables = new_evening(client, 2)
    for path, body in (("register", {"names": ["X", "Y"]}), ("begin", {}),
                       ("leave", {"couple": 1}), ("close", {}),
                       ("rename", {"couple": 1, "names": ["X", "Y"]})):
        for wrong in (None, "", "guess", tables, key[:-1] + ("A" if key[-1] != "A" else "B")):
            msg = one_line(client.post(f"/api/hall/{eid}/{path}", json={"key": wrong, **body}),
                           403)
            assert "director" in msg
    assert len(board(client, eid)["couples"]) == 2
    assert client.post(f"/api/hall/{eid}/director", json={"key": key}).json()["role"] == \
        "director"
    assert client.post(f"/api/hall/{eid}/director", json={"key": tables}).json()["role"] == \
        "tables"
    one_line(client.post(f"/api/hall/{eid}/director", json={"key": "x"}), 403)
    # the key is not kept anywhere anyone can read it
    assert key not in client.get(f"/api/hall/{eid}").text
    assert key not in client.get(f"/api/hall/{eid}/export/json").text


def test_unknown_evening_and_bad_paths(client: Any) -> None:
    assert "no evening" in one_line(client.get("/api/hall/nosuchone"), 404)
    assert one_line(client.post("/api/hall/nosuchone/begin", json={"key": "k"}), 404)
    eid, _, _ = new_evening(client, 2)
    one_line(client.get(f"/api/hall/{eid}/export/xml"), 404)
    one_line(client.get(f"/hall/{eid}/print/posters"), 404)
    one_line(client.get(f"/hall/{eid}/print/cards?lang=de"), 400)
    one_line(client.get(f"/hall/{eid}/print/tables?game=3"), 400)


def test_register_start_report_correct(client: Any) -> None:
    eid, key, tables = new_evening(client, 5, games=3, booby=True)
    assert "two names" in one_line(client.post(f"/api/hall/{eid}/register",
                                               json={"key": key, "names": ["Solo"]}), 400)
    assert "printable" in one_line(client.post(f"/api/hall/{eid}/register",
                                               json={"key": key, "names": ["", "Y"]}), 409)
    b = board(client, eid)
    assert b["status"]["phase"] == "registration"
    assert b["current"]["game"] == 1 and not b["current"]["begun"]
    r = client.post(f"/api/hall/{eid}/begin", json={"key": key})
    assert r.status_code == 200 and r.json()["game"] == 1
    b = board(client, eid)
    assert b["current"]["begun"]
    t1 = b["current"]["tables"][0]
    a, h = t1["deals_first"], t1["other"]
    sitting = b["current"]["sitting_out"]
    assert sitting is not None
    # a couple not seated at that table is refused, and so is a table that does not exist
    msg = one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 1, "winner": sitting}), 409)
    assert f"couple {sitting} is not at table 1" in msg
    assert "tables 1 to 2" in one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 3, "winner": a}), 409)
    assert "winner" in one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 1, "winner": "first"}), 400)
    assert "winner" in one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 1}), 400)
    assert "game" in one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": "one", "table": 1, "winner": a}), 400)
    one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": "nope", "game": 1, "table": 1, "winner": a}), 403)
    # the tables' key reports; a second report of the same table is refused
    assert client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 1, "winner": a}).status_code == 200
    assert "correct it" in one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 1, "winner": h}), 409)
    won = {s["couple"]: s["score"] for s in board(client, eid)["standings"]}
    assert won[a] == 1 and won[h] == 0
    # only the director corrects, and the standings follow the correction
    one_line(client.post(f"/api/hall/{eid}/correct", json={
        "key": tables, "game": 1, "table": 1, "winner": h}), 403)
    assert client.post(f"/api/hall/{eid}/correct", json={
        "key": key, "game": 1, "table": 1, "winner": h}).status_code == 200
    won = {s["couple"]: s["score"] for s in board(client, eid)["standings"]}
    assert won[a] == 0 and won[h] == 1
    # the game is not over until table 2 reports: the next cannot begin
    assert "waiting for table(s) 2" in one_line(client.post(f"/api/hall/{eid}/begin",
                                                            json={"key": key}), 409)
    t2 = board(client, eid)["current"]["tables"][1]
    client.post(f"/api/hall/{eid}/report", json={"key": tables, "game": 1, "table": 2,
                                                 "winner": None})
    b = board(client, eid)
    assert b["status"]["phase"] == "between games"
    assert b["current"]["game"] == 2 and not b["current"]["begun"]
    # table 1's winner moves to table 2 and deals first; no game: the first dealers move
    moves = {m["couple"]: m for m in b["moves"]}
    assert moves[h]["to"] == 2 and moves[h]["deals_first"] and moves[h]["from"] == 1
    assert moves[a]["to"] == 1 and moves[a]["stays"]
    assert moves[t2["deals_first"]]["to"] == 1 and moves[t2["deals_first"]]["deals_first"]
    assert moves[sitting]["from"] is None and moves[sitting]["to"] is not None


def play_evening(client: Any, eid: str, key: str, rng: random.Random) -> Hall:
    """Report every table of every game through the routes (winners at random, the
    first report of each game begins it), correcting about one result in five, and the
    same steps on a Hall of the pure module: returns the pure one."""
    b = board(client, eid)
    pure = Hall(Settings(games=b["games"]))
    for c in b["couples"]:
        pure.register(c["names"])
    while True:
        b = board(client, eid)
        cur = b["current"]
        if b["status"]["phase"] not in ("registration", "playing", "between games"):
            return pure
        g = cur["game"]
        for t in cur["tables"]:
            if t["reported"]:
                continue
            pick = rng.choice([t["deals_first"], t["other"], t["deals_first"], t["other"],
                               None])
            r = client.post(f"/api/hall/{eid}/report", json={
                "key": key, "game": g, "table": t["table"], "winner": pick})
            assert r.status_code == 200, r.text
            pure.report(g, t["table"], pick)
            if rng.random() < 0.2:
                other = rng.choice([t["deals_first"], t["other"], None])
                r = client.post(f"/api/hall/{eid}/correct", json={
                    "key": key, "game": g, "table": t["table"], "winner": other})
                assert r.status_code == 200, r.text
                pure.correct(g, t["table"], other)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(couples=st.integers(2, 9), games=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_reported_evenings_match_the_pure_module(couples: int, games: int, seed: int) -> None:
    """An evening reported table by table through the routes (with corrections) ends
    with the same seatings, punch cards, standings and prizes as the pure module given
    the same results."""
    with TestClient(tiny_app(FakeService())) as client:
        eid, key, _ = new_evening(client, couples, games=games)
        pure = play_evening(client, eid, key, random.Random(seed))
        b = board(client, eid)
        assert pure.over and b["status"]["phase"] in ("prizes", "finished")
        got = [(s["couple"], s["place"], s["won"], s["byes"]) for s in b["standings"]]
        want = [(s.couple, s.place, list(s.won), list(s.byes)) for s in pure.standings()]
        assert got == want
        exported = client.get(f"/api/hall/{eid}/export/json").json()
        assert [[(x["deals_first"], x["other"], x["winner"]) for x in g["tables"]]
                for g in exported["games"]] == \
            [[(a, h, pure.results[i][t].winner) for t, (a, h) in enumerate(s.tables, 1)]
             for i, s in enumerate(pure.seatings)]
        assert [(a["prize"], a["couples"]) for a in b["awards"]] == \
            [(a.prize, list(a.couples)) for a in pure.awards()]


def test_ties_are_worked_through_on_screen_and_exported(client: Any) -> None:
    """Two couples on the same score for first: the vote, the cut of the deck (its cards
    shown) and the awards; then the exports."""
    eid, key, tables = new_evening(client, 4, games=1, prizes=2, tie_break="vote")
    play = board(client, eid)["current"]["tables"]
    for t in play:  # both visitors win: two couples on 1 game, two on 0
        client.post(f"/api/hall/{eid}/report", json={"key": tables, "game": 1,
                                                     "table": t["table"],
                                                     "winner": t["deals_first"]})
    b = board(client, eid)
    assert b["status"]["phase"] == "prizes"
    # the seed is shown once the evening is over: 128 bits of secrets, in digits too
    assert b["draws"]["seed"] >= 2**64 and b["draws"]["seed_text"] == str(b["draws"]["seed"])
    (ct,) = b["contests"]
    assert ct["key"] == "prize-1" and ct["to_vote"] == [1, 3]
    assert "vote" in one_line(client.post(f"/api/hall/{eid}/tie", json={
        "key": key, "event": {"type": "begin", "game": 2}}), 400)
    assert "not in the tie" in one_line(client.post(f"/api/hall/{eid}/tie", json={
        "key": key, "event": {"type": "vote", "contest": "prize-1", "couple": 2,
                              "choice": "cut"}}), 409)
    one_line(client.post(f"/api/hall/{eid}/tie", json={
        "key": tables, "event": {"type": "cut", "contest": "prize-1"}}), 403)
    for c, choice in ((1, "split"), (3, "cut")):
        assert client.post(f"/api/hall/{eid}/tie", json={
            "key": key, "event": {"type": "vote", "contest": "prize-1", "couple": c,
                                  "choice": choice}}).status_code == 200
    (ct,) = board(client, eid)["contests"]
    assert ct["method"] == "cut" and not ct["decided"]
    assert client.post(f"/api/hall/{eid}/tie", json={
        "key": key, "event": {"type": "cut", "contest": "prize-1"}}).status_code == 200
    b = board(client, eid)
    (ct,) = b["contests"]
    assert ct["decided"] and set(ct["cut"]["cards"]) == {"1", "3"}
    first = ct["order"][0]
    assert b["awards"][0] == {"prize": 1, "couples": [first], "how": "cut"}
    assert b["status"]["phase"] == "finished"
    # corrections are closed once the ties are being broken
    assert "no longer" in one_line(client.post(f"/api/hall/{eid}/correct", json={
        "key": key, "game": 1, "table": 1, "winner": play[0]["other"]}), 409)
    data = client.get(f"/api/hall/{eid}/export/json")
    assert data.headers["content-type"].startswith("application/json")
    assert data.json()["awards"][0]["couples"] == [first]
    Hall.from_json({k: data.json()[k] for k in ("format", "settings", "events")})
    rows = list(csv.reader(io.StringIO(client.get(f"/api/hall/{eid}/export/standings").text)))
    assert rows[0][:4] == ["place", "couple", "name 1", "name 2"] and len(rows) == 5
    rows = list(csv.reader(io.StringIO(client.get(f"/api/hall/{eid}/export/results").text)))
    assert len(rows) == 3 and rows[1][:5] == ["1", "1", "1", "2", "1"]


def test_printed_cards_and_pages(client: Any) -> None:
    eid, _, _ = new_evening(client, 3, title="Saint Joseph's hall")
    cards = client.get(f"/hall/{eid}/print/cards?lang=fr").text
    assert "Couple 3" in cards and "Saint Joseph" in cards and "poinçonnées" in cards
    tables = client.get(f"/hall/{eid}/print/tables").text
    assert "Winners move to table 1" in tables  # one table, with couple 3 sitting out
    for path in ("/hall", f"/hall/{eid}", f"/hall/{eid}/director", f"/hall/{eid}/report",
                 f"/hall/{eid}/play"):
        r = client.get(path)
        assert r.status_code == 200 and r.text.startswith("<!DOCTYPE html>"), path
    assert client.get("/hall/a%20b/director").status_code == 404


def test_the_board_says_when_nothing_changed(client: Any) -> None:
    eid, key, _ = new_evening(client, 2)
    v = board(client, eid)["version"]
    assert client.get(f"/api/hall/{eid}?since={v}").json() == {"version": v, "same": True}
    client.post(f"/api/hall/{eid}/register", json={"key": key, "names": ["C", "D"]})
    assert len(client.get(f"/api/hall/{eid}?since={v}").json()["couples"]) == 3


def test_a_moved_version_is_retried_not_lost(client: Any, service: FakeService) -> None:
    """Compare-and-set: a write that finds the document changed reads it again."""
    eid, key, _ = new_evening(client, 2)
    store = service.store
    real = store.put_doc
    calls = {"n": 0}

    async def racing_put(kind: str, id: str, body: dict[str, Any], expected: int) -> int:
        calls["n"] += 1
        if calls["n"] == 1:  # another process registers a couple first
            v, other = store.docs[(kind, id)]
            h = Hall.from_json(other["hall"])
            h.register(["Eve", "Fay"])
            await real(kind, id, {**other, "hall": h.to_json()}, v)
        return await real(kind, id, body, expected)

    store.put_doc = racing_put  # type: ignore[method-assign]
    r = client.post(f"/api/hall/{eid}/register", json={"key": key, "names": ["Gus", "Hal"]})
    assert r.status_code == 200 and r.json()["couple"] == 4
    assert [c["names"][0] for c in board(client, eid)["couples"]] == ["Ann 1", "Ann 2", "Eve",
                                                                      "Gus"]


def test_online_evening_rotates_by_itself(client: Any, service: FakeService) -> None:
    """Web tables: people's couples sit in their seats, computers fill the others; the
    couple dealing first holds seats 0 and 2 and deals; when a table's game ends the
    result goes in, and the next game's tables are made once the game is complete."""
    r = client.post("/api/hall", json={"games": 2, "online": True})
    eid, key = r.json()["evening"], r.json()["key"]
    links = []
    for i, players in enumerate(("people", "people", "computer", "computer"), 1):
        r = client.post(f"/api/hall/{eid}/register", json={
            "key": key, "names": [f"P{i}a", f"P{i}b"], "players": players, "level": "basic"})
        assert r.status_code == 200, r.text
        links += r.json().get("players", [])
    assert len(links) == 4 and all(u.startswith(f"/hall/{eid}/play#key=") for u in links)
    assert "players" in one_line(client.post(f"/api/hall/{eid}/register", json={
        "key": key, "names": ["X", "Y"], "players": "ghosts"}), 400)
    pkey = links[0].split("#key=")[1]
    seat = client.post(f"/api/hall/{eid}/seat", json={"key": pkey}).json()
    assert seat["status"] == "waiting" and seat["url"] is None
    one_line(client.post(f"/api/hall/{eid}/seat", json={"key": "wrong"}), 403)
    client.post(f"/api/hall/{eid}/begin", json={"key": key})
    assert len(service.tables) == 2
    t1, t2 = service.tables["T1"], service.tables["T2"]
    assert t1["dealer"] == 0
    assert [s.get("name") for s in t1["seats"]] == ["P1a", "P2a", "P1b", "P2b"]
    assert [s["kind"] for s in t2["seats"]] == ["computer"] * 4
    seat = client.post(f"/api/hall/{eid}/seat", json={"key": pkey}).json()
    assert seat["status"] == "playing" and seat["url"] == "/t/T1#token=tok-T1-0"
    # the tables cannot report an online table by hand
    one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": client.post(f"/api/hall/{eid}/director", json={"key": key}).json()["report"]
        .split("#key=")[1], "game": 1, "table": 1, "winner": 1}), 403)
    # table 1 ends: couple 2 (seats 1 and 3) won; the service calls back
    client.portal.call(service.finish, "T1", 1)
    client.portal.call(_settle)
    b = board(client, eid)
    assert b["current"]["tables"][0]["winner"] == 2
    assert len(service.tables) == 2  # game 2 waits for table 2
    # table 2 ends without a callback (another process): a poll of the board finds it
    client.portal.call(service.finish, "T2", 0, False)
    hall_web.POLL_SECONDS = 0.0
    try:
        b = board(client, eid)
    finally:
        hall_web.POLL_SECONDS = 3.0
    assert b["status"]["game"] == 2 and b["current"]["begun"]
    assert len(service.tables) == 4
    assert {t["url"] for t in b["online"]["tables"]} == {"/t/T3", "/t/T4"}
    # couple 2 won at table 1: it moved to table 2 and deals first there (seats 0 and 2)
    assert service.tables["T4"]["seats"][0] == {"name": "P2a", "kind": "person"}
    seat = client.post(f"/api/hall/{eid}/seat", json={"key": links[2].split("#key=")[1]})
    assert seat.json()["url"] == "/t/T4#token=tok-T4-0"
    for tid in ("T3", "T4"):
        client.portal.call(service.finish, tid, 0)
    client.portal.call(_settle)
    b = board(client, eid)
    assert b["status"]["phase"] in ("prizes", "finished")
    assert sum(s["score"] for s in b["standings"]) == 4
    # what anyone can read holds no key: no seat's token, no player's or director's key
    director = client.post(f"/api/hall/{eid}/director", json={"key": key}).json()
    public = client.get(f"/api/hall/{eid}").text + \
        client.get(f"/api/hall/{eid}/export/json").text + \
        client.get(f"/api/hall/{eid}/export/results").text
    assert "tok-" not in public and key not in public
    for secret in [director["report"], *(p["url"] for p in director["players"])]:
        assert secret.split("#key=")[1] not in public
    assert len(director["players"]) == 4


def test_new_evenings_are_limited_per_address(client: Any) -> None:
    for _ in range(hall_web.CREATE_PER_MINUTE):
        assert client.post("/api/hall", json={"games": 1}).status_code == 200
    assert "wait a minute" in one_line(client.post("/api/hall", json={"games": 1}), 429)


async def _settle() -> None:
    """Let the hall's report tasks run."""
    import asyncio
    for _ in range(20):
        await asyncio.sleep(0.01)


def test_leave_swap_and_close(client: Any) -> None:
    eid, key, tables = new_evening(client, 6, games=4)
    client.post(f"/api/hall/{eid}/begin", json={"key": key})
    # a couple at the wrong table: swap two couples' places before either table reports
    assert client.post(f"/api/hall/{eid}/swap", json={"key": key, "couples": [2, 3]}
                       ).status_code == 200
    cur = board(client, eid)["current"]["tables"]
    assert (cur[0]["deals_first"], cur[0]["other"], cur[1]["deals_first"]) == (1, 3, 2)
    assert "two couple numbers" in one_line(client.post(f"/api/hall/{eid}/swap", json={
        "key": key, "couples": [2]}), 400)
    assert "must be two couples" in one_line(client.post(f"/api/hall/{eid}/swap", json={
        "key": key, "couples": [2, 9]}), 409)
    # couple 6 leaves from game 2; the leaving is refused for a game in play
    assert client.post(f"/api/hall/{eid}/leave", json={"key": key, "couple": 6}
                       ).status_code == 200
    assert "already left" in one_line(client.post(f"/api/hall/{eid}/leave", json={
        "key": key, "couple": 6}), 409)
    assert "no couple 9" in one_line(client.post(f"/api/hall/{eid}/leave", json={
        "key": key, "couple": 9}), 409)
    assert "couple" in one_line(client.post(f"/api/hall/{eid}/leave", json={
        "key": key, "couple": "six"}), 400)
    for t in cur:
        client.post(f"/api/hall/{eid}/report", json={"key": tables, "game": 1,
                                                     "table": t["table"],
                                                     "winner": t["other"]})
    b = board(client, eid)
    assert b["current"]["game"] == 2 and b["current"]["sitting_out"] is not None
    assert 6 not in [c for t in b["current"]["tables"] for c in (t["deals_first"], t["other"])]
    # time is up: the evening closes after game 1, the prizes on the games played
    assert client.post(f"/api/hall/{eid}/close", json={"key": key}).status_code == 200
    b = board(client, eid)
    assert b["games"] == 1 and b["status"]["phase"] in ("prizes", "finished")
    # once the evening is over, nobody joins and nobody leaves: the prizes stand
    assert one_line(client.post(f"/api/hall/{eid}/register", json={
        "key": key, "names": ["Too", "Late"]}), 409) == \
        "the last game has begun: no couple can join now"
    assert "no couple can leave now" in one_line(client.post(f"/api/hall/{eid}/leave", json={
        "key": key, "couple": 1}), 409)
    after = board(client, eid)
    assert after["couples"] == b["couples"] and after["awards"] == b["awards"]


def test_the_director_corrects_a_couples_names(client: Any) -> None:
    eid, key, tables = new_evening(client, 3, games=1)
    r = client.post(f"/api/hall/{eid}/register", json={"key": key, "names": ["Jonh", "Mary"]})
    assert r.json()["couple"] == 4

    def rename(couple: Any, names: Any, k: Any = key) -> Any:
        return client.post(f"/api/hall/{eid}/rename",
                           json={"key": k, "couple": couple, "names": names})

    assert "director" in one_line(rename(4, ["John", "Mary"], tables), 403)
    assert "no couple 9" in one_line(rename(9, ["John", "Mary"]), 409)
    assert "two names of 1 to 60" in one_line(rename(4, ["", "Mary"]), 409)
    assert "two names of 1 to 60" in one_line(rename(4, ["  ", "Mary"]), 409)
    assert "two names" in one_line(rename(4, ["John"]), 400)
    assert "couple" in one_line(rename("four", ["John", "Mary"]), 400)
    assert board(client, eid)["couples"][3]["names"] == ["Jonh", "Mary"]
    # the evening plays out, then the names are put right: no result moves
    client.post(f"/api/hall/{eid}/begin", json={"key": key})
    for t in board(client, eid)["current"]["tables"]:
        client.post(f"/api/hall/{eid}/report", json={"key": key, "game": 1,
                                                     "table": t["table"], "winner": 4
                                                     if 4 in (t["deals_first"], t["other"])
                                                     else t["other"]})
    b = board(client, eid)
    assert rename(4, [" John ", "Mary"]).status_code == 200
    after = board(client, eid)
    assert [c["names"] for c in after["couples"] if c["couple"] == 4] == [["John", "Mary"]]
    assert [s["names"] for s in after["standings"] if s["couple"] == 4] == [["John", "Mary"]]
    assert [(s["couple"], s["score"], s["place"]) for s in after["standings"]] == \
        [(s["couple"], s["score"], s["place"]) for s in b["standings"]]
    assert after["awards"] == b["awards"] and after["status"] == b["status"]
    for path in ("/api/hall/{}/export/standings", "/api/hall/{}/export/json",
                 "/hall/{}/print/cards?lang=en", "/hall/{}/print/cards?lang=fr"):
        text = client.get(path.format(eid)).text
        assert "John" in text and "Jonh" not in text.replace('"Jonh"', ""), path
    events = client.get(f"/api/hall/{eid}/export/json").json()["events"]
    assert {"type": "rename", "couple": 4, "names": ["John", "Mary"]} in events


def test_an_online_players_page_says_the_corrected_name(client: Any) -> None:
    r = client.post("/api/hall", json={"games": 2, "online": True})
    eid, key = r.json()["evening"], r.json()["key"]
    links = client.post(f"/api/hall/{eid}/register", json={
        "key": key, "names": ["Jonh", "Mary"], "players": "people"}).json()["players"]
    assert client.post(f"/api/hall/{eid}/rename", json={
        "key": key, "couple": 1, "names": ["John", "Mary"]}).status_code == 200
    mine = links[0].split("#key=")[1]
    assert client.post(f"/api/hall/{eid}/seat", json={"key": mine}).json()["name"] == "John"
    players = client.post(f"/api/hall/{eid}/director", json={"key": key}).json()["players"]
    assert [p["name"] for p in players] == ["John", "Mary"]


def test_nobody_registers_during_the_last_game(client: Any) -> None:
    eid, key, tables = new_evening(client, 4, games=2)
    client.post(f"/api/hall/{eid}/begin", json={"key": key})
    for t in board(client, eid)["current"]["tables"]:
        client.post(f"/api/hall/{eid}/report", json={"key": tables, "game": 1,
                                                     "table": t["table"],
                                                     "winner": t["other"]})
    client.post(f"/api/hall/{eid}/begin", json={"key": key})
    assert board(client, eid)["status"]["phase"] == "playing"
    assert one_line(client.post(f"/api/hall/{eid}/register", json={
        "key": key, "names": ["Jo", "Al"]}), 409) == \
        "the last game has begun: no couple can join now"
    assert len(board(client, eid)["couples"]) == 4


def test_online_tables_made_again_after_a_failure(client: Any, service: FakeService) -> None:
    """A table the service could not make is made at the next poll; the turn timer the
    director chose goes to every table."""
    r = client.post("/api/hall", json={"games": 1, "online": True, "turn_seconds": 30})
    eid, key = r.json()["evening"], r.json()["key"]
    assert "turn_seconds" in one_line(client.post("/api/hall", json={
        "online": True, "turn_seconds": 2}), 400)
    for i in (1, 2):
        client.post(f"/api/hall/{eid}/register", json={"key": key, "names": [f"A{i}", f"B{i}"],
                                                       "players": "computer"})
    service.refuse = 2  # the begin, and the poll just after it
    assert client.post(f"/api/hall/{eid}/begin", json={"key": key}).status_code == 200
    assert service.tables == {}
    b = board(client, eid)
    assert any("could not be made" in n for n in b["notes"])
    hall_web.POLL_SECONDS = 0.0
    try:
        b = board(client, eid)
    finally:
        hall_web.POLL_SECONDS = 3.0
    assert list(service.tables) == ["T1"]
    assert service.tables["T1"]["settings"] == {"turn_seconds": 30}
    assert [t["url"] for t in board(client, eid)["online"]["tables"]] == ["/t/T1"]


def test_a_duplicate_evening_reports_points(client: Any) -> None:
    assert "duplicate" in one_line(client.post("/api/hall", json={
        "online": True, "duplicate": True}), 400)
    eid, key, tables = new_evening(client, 4, games=1, duplicate=True)
    client.post(f"/api/hall/{eid}/begin", json={"key": key})
    assert "points" in one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 1, "winner": 1}), 409)
    assert "points" in one_line(client.post(f"/api/hall/{eid}/report", json={
        "key": tables, "game": 1, "table": 1, "winner": 1, "points": {"1": "lots"}}), 400)
    for t, w, pts in ((1, 1, {"1": 45, "2": 20}), (2, 3, {"3": 50, "4": 10})):
        assert client.post(f"/api/hall/{eid}/report", json={
            "key": tables, "game": 1, "table": t, "winner": w, "points": pts}).status_code == 200
    b = board(client, eid)
    # couples 1 and 3 held the same cards and won, 3 by more: 3 beats 1; 2 lost by less
    assert {s["couple"]: s["score"] for s in b["standings"]} == {3: 100, 2: 100, 1: 0, 4: 0}


def test_an_online_couple_sitting_out_is_told_so(client: Any, service: FakeService) -> None:
    r = client.post("/api/hall", json={"games": 2, "online": True})
    eid, key = r.json()["evening"], r.json()["key"]
    links = []
    for i, players in enumerate(("computer", "computer", "people"), 1):
        r = client.post(f"/api/hall/{eid}/register", json={
            "key": key, "names": [f"A{i}", f"B{i}"], "players": players})
        links += r.json().get("players", [])
    client.post(f"/api/hall/{eid}/begin", json={"key": key})
    seat = client.post(f"/api/hall/{eid}/seat", json={"key": links[1].split("#key=")[1]}).json()
    assert (seat["status"], seat["couple"], seat["name"], seat["url"]) == \
        ("sitting out", 3, "B3", None)
    assert len(service.tables) == 1
    # the table ends; game 2 seats couple 3 (the couple that sat out comes back)
    client.portal.call(service.finish, "T1", 0)
    client.portal.call(_settle)
    seat = client.post(f"/api/hall/{eid}/seat", json={"key": links[1].split("#key=")[1]}).json()
    assert seat["status"] == "playing" and seat["game"] == 2
    assert seat["url"].startswith("/t/T2#token=")


def test_the_server_mounts_the_hall_on_its_database(tmp_path: Any) -> None:
    """``forties serve``'s app: the hall's routes and pages, its evenings in the server's
    documents (compare-and-set on the real store), a stale write refused by the store
    and retried by the hall."""
    from forties.web.app import ServerSettings, create_app
    from forties.web.http import conflicts

    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'hall.db'}"))
    with TestClient(app) as client:
        eid, key, tables = new_evening(client, 4, games=1)
        assert client.get("/hall").text.startswith("<!DOCTYPE html>")
        assert client.get("/static/hall.js").status_code == 200
        assert client.get("/i18n/fr.json").json()["messages"]["hall.standings.title"] == \
            "Classement"
        client.post(f"/api/hall/{eid}/begin", json={"key": key})
        store = app.state.store
        version, body = client.portal.call(store.get_doc, "hall", eid)
        stale = stale_write_error(client, store, eid, body, version - 1)
        assert stale is not None and stale in conflicts(store)
        for t in board(client, eid)["current"]["tables"]:
            assert client.post(f"/api/hall/{eid}/report", json={
                "key": tables, "game": 1, "table": t["table"],
                "winner": t["other"]}).status_code == 200
        assert board(client, eid)["status"]["phase"] in ("prizes", "finished")
        assert "no evening" in one_line(client.get("/api/hall/nothing-here"), 404)


def test_an_online_evenings_computer_couples_sit_under_their_own_names(tmp_path: Any) -> None:
    """On the real server, a couple the director registered as computer players sits at
    its web table under the names it was registered with, as computer players of its
    level; a table made with a computer seat and no name still calls it "Computer
    (basic)", and a name given is cleaned as a person's is."""
    from forties.web.app import ServerSettings, create_app

    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'hall.db'}"))
    with TestClient(app) as client:
        r = client.post("/api/hall", json={"games": 1, "online": True})
        eid, key = r.json()["evening"], r.json()["key"]
        for names, players in ((["Ann", "Bob"], "people"), (["Bot", "Cee"], "computer")):
            assert client.post(f"/api/hall/{eid}/register", json={
                "key": key, "names": names, "players": players,
                "level": "basic"}).status_code == 200
        client.post(f"/api/hall/{eid}/begin", json={"key": key})
        [table] = board(client, eid)["online"]["tables"]
        seats = client.get(f"/api/tables/{table['url'].split('/t/')[1]}").json()["seats"]
        sat = {(a["name"], b["name"]): (a["kind"], b["kind"], a.get("level"), b.get("level"))
               for a, b in ((seats[0], seats[2]), (seats[1], seats[3]))}
        assert sat == {("Ann", "Bob"): ("person", "person", None, None),
                       ("Bot", "Cee"): ("computer", "computer", "basic", "basic")}, seats

        service = app.state.service
        made = client.portal.call(functools.partial(
            service.create_table, "merrimack-valley",
            seats=[{"kind": "computer", "level": "basic"},
                   {"kind": "computer", "level": "expert", "name": " Dee\u0007\n"},
                   {"kind": "computer", "level": "basic", "name": ""}]))
        seats = client.get(f"/api/tables/{made['table']}").json()["seats"]
        assert [(s["name"], s["kind"], s["level"]) for s in seats] == [
            ("Computer (basic)", "computer", "basic"), ("Dee", "computer", "expert"),
            ("Computer (basic)", "computer", "basic"),
            ("Computer (basic)", "computer", "basic")]


def stale_write_error(client: Any, store: Any, eid: str, body: dict[str, Any],
                      version: int) -> type[BaseException] | None:
    """The exception the store raises for a write with a stale version."""
    try:
        client.portal.call(store.put_doc, "hall", eid, body, version)
    except Exception as e:
        return type(e)
    return None


def test_a_play_off_the_cookie_jar_and_a_cut_anyone_can_redo(client: Any) -> None:
    """Four couples, one game: two tie on 1 for first and second, two on 0 for the booby
    prize. The tie for first is played off (one couple asks, the other agrees to play);
    the booby is cut for, and the cut is redone from the seed the board shows at the end
    and the method it prints. The cookie jar draws its game."""
    import random

    from forties.cards import CARD_NAMES

    eid, key, tables = new_evening(client, 4, games=1, prizes=2, booby=True, cookie_jar=1)
    for t in board(client, eid)["current"]["tables"]:
        client.post(f"/api/hall/{eid}/report", json={"key": tables, "game": 1,
                                                     "table": t["table"],
                                                     "winner": t["deals_first"]})
    b = board(client, eid)
    assert b["cookie_jar"] == {"games": [1], "winners": [1, 3], "best": 1, "rule": "all"}
    contests = {c["key"]: c for c in b["contests"]}
    assert set(contests) == {"prize-1", "booby"}

    def step(event: dict[str, Any]) -> dict[str, Any]:
        r = client.post(f"/api/hall/{eid}/tie", json={"key": key, "event": event})
        assert r.status_code == 200, r.text
        return {c["key"]: c for c in board(client, eid)["contests"]}

    step({"type": "vote", "contest": "prize-1", "couple": 1, "choice": "play-off"})
    contests = step({"type": "vote", "contest": "prize-1", "couple": 3, "choice": "split"})
    assert contests["prize-1"]["method"] == "play-off"
    assert contests["prize-1"]["to_answer"] == [3]
    contests = step({"type": "answer", "contest": "prize-1", "couple": 3, "plays": True})
    assert contests["prize-1"]["play_off"]["pending"] == [[1, 3]]
    assert "no play-off game" in one_line(client.post(f"/api/hall/{eid}/tie", json={
        "key": key, "event": {"type": "play-off", "contest": "booby", "couple": 2}}), 409)
    contests = step({"type": "play-off", "contest": "prize-1", "couple": 3})
    assert contests["prize-1"]["order"] == [3, 1]
    assert contests["prize-1"]["play_off"]["games"] == [{"couples": [1, 3], "winner": 3}]
    step({"type": "vote", "contest": "booby", "couple": 2, "choice": "cut"})
    contests = step({"type": "vote", "contest": "booby", "couple": 4, "choice": "cut"})
    contests = step({"type": "cut", "contest": "booby"})
    b = board(client, eid)
    assert [(a["prize"], a["couples"], a["how"]) for a in b["awards"]] == [
        (1, [3], "play-off"), (2, [1], "play-off"),
        (0, [contests["booby"]["order"][0]], "cut")]
    # redo the cut as the board explains it: the seed, the deck, the couples in order
    seed = b["draws"]["seed"]
    assert "random.Random" in b["draws"]["method"]
    deck = list(CARD_NAMES)
    random.Random(f"{seed}/{contests['booby']['cut']['draw']}/0").shuffle(deck)
    cards = contests["booby"]["cut"]["cards"]
    drawn = [c for pair in zip(*(cards[k] for k in sorted(cards, key=int)), strict=False)
             for c in pair]
    assert drawn == deck[:len(drawn)]
