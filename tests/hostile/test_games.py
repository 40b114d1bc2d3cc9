"""The games' index against a hostile client (``forties.web.games``): another person's
hidden games and statistics, claims of seats forged (another account's key, a stranger's
key, a cross-site request, odd bodies), odd text in the filters and the players' ids,
a huge ``limit``, the rated setting by someone else or after the start. Every refusal is
one line of JSON; nothing is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web.account_schema import game_players_t, seat_accounts_t
from forties.web.games import CLAIM_MAX, PAGE_MAX
from tests.accounts_helpers import accounts, make_account
from tests.games_helpers import app_of, as_, play_out, settled, sqlite_url

from .conftest import refused

ODD = ["\x00", "\ud800", "a\nb", "%", "_", "'; drop table games; --", "ﷺ" * 30, "x" * 5000,
       "", " ", "NaN", "1e999", "-1", "0"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app over a SQLite file of its own, as the hostile tests' (every rate lifted),
    its computers and reviews without a pause (the games are played to their end)."""
    with app_of(sqlite_url(tmp_path)) as c:
        yield c


def post(client: TestClient, url: str, body: Any, **headers: str) -> Any:
    """POST ``body`` as Python writes JSON: a lone surrogate stays a ``\\ud800`` escape."""
    return client.post(url, content=json.dumps(body),
                       headers={"content-type": "application/json", **headers})


def count(client: TestClient, table: sa.Table) -> int:
    store: Any = client.app.state.store  # type: ignore[attr-defined]
    return int(client.portal.call(store.run, lambda conn: conn.execute(  # type: ignore[union-attr]
        sa.select(sa.func.count()).select_from(table)).scalar()))


def a_guests_game(client: TestClient) -> dict[str, Any]:
    """A game played to its end by a guest (Play now against computers)."""
    made: dict[str, Any] = as_(client, None).post("/api/play", json={
        "preset": "nova-scotia", "level": "random"}).json()
    play_out(client, made["table"], {0: made["token"]})
    settled(client)
    return made


def test_another_persons_hidden_games_stay_hidden(client: TestClient) -> None:
    owner, owner_key = make_account(client, "Cachée")
    made = as_(client, owner_key).post("/api/play", json={"preset": "nova-scotia",
                                                         "level": "random"}).json()
    play_out(client, made["table"], {0: made["token"]})
    settled(client)
    client.portal.call(accounts(client).set_hidden, owner.id, True)  # type: ignore[union-attr]
    _, stranger_key = make_account(client, "Curieux")
    for key in (stranger_key, None):
        as_(client, key)
        for url in (f"/api/players/{owner.id}/games",
                    f"/api/players/{owner.id}/games?limit=100&family=nova-scotia"):
            assert "private" in refused(client.get(url), 403)
        stats = client.get(f"/api/players/{owner.id}/stats").json()
        assert stats["hidden"] is True and stats["stats"]["partnerships"] == []
    assert len(as_(client, owner_key).get(f"/api/players/{owner.id}/games")
               .json()["games"]) == 1


def test_a_claim_with_someone_elses_or_a_made_up_key_claims_nothing(
        client: TestClient) -> None:
    _, owner_key = make_account(client, "Owner")
    theirs = as_(client, owner_key).post("/api/play", json={"preset": "forty-one"}).json()
    guest = a_guests_game(client)
    _, thief_key = make_account(client, "Thief")
    as_(client, thief_key)
    forged = [{"table": theirs["table"], "token": theirs["token"]},  # another account's
              {"table": guest["table"], "token": theirs["token"]},  # a key of another table
              {"table": guest["table"], "token": "A" * 32},  # made up
              {"table": "nope", "token": guest["token"]},
              {"table": "\ud800", "token": "\ud800"},
              {"table": guest["table"], "token": guest["token"] + "x"}]
    r = post(client, "/api/account/claim", {"seats": forged})
    assert r.status_code == 200 and r.json()["claimed"] == 0
    assert count(client, seat_accounts_t) == 1 and count(client, game_players_t) == 0


def test_a_cross_site_claim_changes_nothing(client: TestClient) -> None:
    guest = a_guests_game(client)
    make_account(client, "Victim")
    _, key = make_account(client, "Victim2")
    as_(client, key)
    body = {"seats": [{"table": guest["table"], "token": guest["token"]}]}
    for headers in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"}):
        assert "other sites" in refused(post(client, "/api/account/claim", body, **headers),
                                        403)
    refused(client.post("/api/account/claim", content="seats=1",
                        headers={"content-type": "application/x-www-form-urlencoded"}), 415)
    assert count(client, seat_accounts_t) == 0


def test_odd_claims_are_refused_in_one_line(client: TestClient) -> None:
    guest = a_guests_game(client)
    assert "sign in" in refused(post(client, "/api/account/claim", {"seats": []}), 401)
    _, key = make_account(client, "Odd")
    as_(client, key)
    for body in ({}, {"seats": "all"}, {"seats": {"table": "x"}}, {"seats": [1]},
                 {"seats": [{"table": 1, "token": 2}]}, {"seats": [None]},
                 {"seats": [{"table": ["x"], "token": "y"}]}):
        refused(post(client, "/api/account/claim", body))
    many = [{"table": guest["table"], "token": guest["token"]}] * (CLAIM_MAX + 1)
    assert r_status(post(client, "/api/account/claim", {"seats": many})) in (400, 413)
    refused(client.post("/api/account/claim", content=b"{\"seats\": [",
                        headers={"content-type": "application/json"}))
    refused(client.post("/api/account/claim", content=b"x" * 100_000,
                        headers={"content-type": "application/json"}), 413)
    assert count(client, seat_accounts_t) == 0


def r_status(r: Any) -> int:
    refused(r, r.status_code)
    return int(r.status_code)


@pytest.mark.parametrize("odd", ODD)
def test_odd_text_in_the_filters_is_one_line(client: TestClient, odd: str) -> None:
    _, key = make_account(client, "Filtre")
    as_(client, key)
    raw = quote(odd.encode("utf-8", "surrogatepass"), safe="")  # (a lone surrogate's bytes)
    for name in ("family", "partner", "before", "limit"):
        r = client.get(f"/api/me/games?{name}={raw}")
        assert r.status_code in (200, 400), (name, odd, r.status_code, r.text[:200])
        if r.status_code == 400:
            refused(r)
        else:
            assert r.json() == {"games": []}
    for url in (f"/api/players/{raw}/games", f"/api/players/{raw}/stats",
                f"/api/leaderboard/{raw}"):
        r = client.get(url)
        assert r.status_code in (400, 404), (url, r.status_code, r.text[:200])
        refused(r, r.status_code)


@pytest.mark.parametrize("limit", ["0", str(PAGE_MAX + 1), "1000000000000000000000",
                                   "-5", "2.5", "1e3", " 3"])
def test_a_huge_or_odd_limit_is_refused(client: TestClient, limit: str) -> None:
    _, key = make_account(client, "Limite")
    as_(client, key)
    assert "limit" in refused(client.get("/api/me/games", params={"limit": limit}))


def test_the_rated_setting_is_the_hosts_before_the_start_only(client: TestClient) -> None:
    made = post(client, "/api/tables", {"preset": "forty-one", "name": "Hôte"}).json()
    invite = made["invites"][0]["url"].split("#invite=")[1]
    joined = post(client, f"/api/tables/{made['table']}/join",
                  {"invite": invite, "name": "Bob"}).json()
    url = f"/api/tables/{made['table']}/rated"
    for body in ({"token": joined["token"], "rated": True}, {"token": "A" * 32, "rated": True},
                 {"rated": True}, {"token": "\ud800", "rated": True}):
        refused(post(client, url, body), 403)
    for value in ("true", 1, None, [True], {"a": 1}):
        refused(post(client, url, {"token": made["token"], "rated": value}))
    assert "other sites" in refused(post(client, url, {"token": made["token"],
                                                        "rated": True},
                                         origin="https://evil.example"), 403)
    assert client.get(f"/api/tables/{made['table']}").json()["settings"]["rated"] is False
    refused(post(client, "/api/tables/nope/rated", {"token": made["token"], "rated": True}),
            404)
