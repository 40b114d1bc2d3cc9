"""Hostile clients against the pages of an account's games (``web.history``): another
account's hidden games asked for every way, odd ids and filters (a lone surrogate, control
characters, LIKE's wildcards, very long text), huge and malformed page numbers, a body sent
where none is read. Each gets one line of JSON, never a traceback, a 500 or another
account's games."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from forties.web.accounts import COOKIE
from tests.accounts_helpers import make_account, sign_in
from tests.history_helpers import add_game

from .conftest import refused


def hidden_owner(client: TestClient) -> Any:
    owner, key = make_account(client, "Private Pat")
    add_game(client, "secret-table", "merrimack-valley", 5.0,
             [{"name": "x", "kind": "person", "account": owner.id, "side": 0},
              {"name": "Q", "kind": "person", "account": None, "side": 1},
              {"name": "R", "kind": "person", "account": None, "side": 0},
              {"name": "S", "kind": "person", "account": None, "side": 1}], [120, 0], [0])
    client.cookies.set(COOKIE, key)
    assert client.post("/api/account/privacy", json={"hidden": True}).status_code == 200
    client.cookies.clear()
    return owner


def test_another_accounts_hidden_games_never_come_out(client: TestClient) -> None:
    owner = hidden_owner(client)
    sign_in(client, "Stranger")
    asked = [f"/api/history/players/{owner.id}", f"/api/history/players/{owner.id}/games",
             f"/api/history/players/{owner.id}/games?before=10&family=merrimack-valley",
             f"/api/history/me/games?partner={owner.id}", "/api/history/me/games"]
    for path in asked:
        r = client.get(path)
        assert r.status_code == 200, path
        assert "secret-table" not in r.text, path
    # the owner's id as the partner filter shows the stranger's own games with them: none
    assert client.get(f"/api/history/me/games?partner={owner.id}").json()["games"] == []


def test_odd_player_ids_are_refused_in_one_line(client: TestClient) -> None:
    for raw in ("%ED%A0%80", "%00", "a%0Ab", "..", "x" * 25, "%F0%9F%83%8F", "a%20b",
                "%25", "_", "a'b", "1;drop"):
        for path in (f"/api/history/players/{raw}", f"/api/history/players/{raw}/games"):
            refused(client.get(path), 404)


def test_odd_filters_and_pages_are_refused_in_one_line(client: TestClient) -> None:
    sign_in(client, "Marie")
    for query in ("family=chess", "family=forty-fives", "family=%ED%A0%80",
                  "family=" + "m" * 5000, "partner=%ED%A0%80", "partner=a%25b",
                  "partner=" + "p" * 25, "partner=%00", "before=-1", "before=1e3",
                  "before=nan", "before=inf", "before=" + "9" * 400, "before=%D9%A3",
                  "before=1.2.3", "before=.", "before=0x10", "before=%ED%A0%80",
                  "before=100000000000"):
        message = refused(client.get(f"/api/history/me/games?{query}"), 400)
        assert "\ufffd" not in message and "\udc80" not in message, query
    # the earliest and the latest marks are answered, empty
    for before in ("0", "0.5", "99999999999.9"):
        r = client.get(f"/api/history/me/games?before={before}")
        assert r.status_code == 200 and r.json()["games"] == [], before
    # LIKE's wildcards as a partner: refused, never a match of anyone's games
    assert client.get("/api/history/me/games?partner=%25").status_code == 400


def test_odd_leaderboards_are_refused_in_one_line(client: TestClient) -> None:
    for raw in ("chess", "forty-fives", "%ED%A0%80", "x" * 3000, "%00", "forty-one%20"):
        refused(client.get(f"/api/history/leaderboard/{raw}"), 404)


def test_a_body_where_none_is_read_is_refused_before_it_is(client: TestClient) -> None:
    r = client.request("GET", "/api/history/leaderboard/forty-one", content=b"x" * 5000,
                       headers={"content-type": "application/json"})
    refused(r, 413)


def test_the_pages_do_not_answer_other_methods(client: TestClient) -> None:
    for path in ("/api/history/me/games", "/api/history/leaderboard/forty-one"):
        r = client.post(path, json={})
        assert r.status_code in (403, 405) and "error" in r.json()
