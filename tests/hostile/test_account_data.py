"""A stranger against an account's data (``web.account_data``): nobody downloads another's
data or deletes another's account, a deletion needs the account's own name typed again,
another site's page cannot delete (its forged request changes nothing), odd text and
bodies are answered in one line, and both routes are counted a minute before any work."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.accounts import COOKIE
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from tests.accounts_helpers import accounts, make_account, sign_in

from .conftest import refused

NAME = "Marie-Claire"


def still_there(client: TestClient, account_id: str) -> bool:
    got = client.portal.call(accounts(client).get, account_id)
    return got is not None and got.status == "active" and got.name == NAME


def test_nobody_downloads_anothers_data(client: TestClient) -> None:
    victim, _ = make_account(client, NAME)
    assert refused(client.get("/api/account/export"), 401)  # a guest
    client.cookies.set(COOKIE, "x" * 43)  # a key that is no session's
    assert refused(client.get("/api/account/export"), 401)
    client.cookies.clear()
    me = sign_in(client, "Stranger")
    for url in ("/api/account/export", f"/api/account/export?id={victim.id}",
                f"/api/account/export?account={victim.id}"):
        r = client.get(url)
        assert r.status_code == 200
        assert r.json()["accounts"][0]["id"] == me.id
        assert victim.id not in r.text and NAME not in r.text


def test_nobody_deletes_anothers_account(client: TestClient) -> None:
    victim, _ = make_account(client, NAME)
    assert refused(client.post("/api/account/delete", json={"confirm": NAME}), 401)
    sign_in(client, "Stranger")
    # the victim's name is not the signed-in account's: refused, and nothing deleted
    assert "type the account's name" in refused(
        client.post("/api/account/delete", json={"confirm": NAME, "id": victim.id}))
    assert still_there(client, victim.id)


@pytest.mark.parametrize("body", [
    {}, {"confirm": None}, {"confirm": 1}, {"confirm": [NAME]}, {"confirm": {"name": NAME}},
    {"confirm": True}, {"confirm": ""}, {"confirm": "Marie"}, {"confirm": NAME + "x"},
    {"confirm": "\u202eerialC-eiraM"}, {"confirm": "\ud800"}, {"confirm": "M" * 3000},
    {"confirm": "Marie\nClaire"},
])
def test_a_deletion_without_the_name_is_refused(client: TestClient, body: Any) -> None:
    me = sign_in(client, NAME)
    raw = json.dumps(body)  # (a lone surrogate as JSON's own escape)
    r = client.post("/api/account/delete", content=raw,
                    headers={"content-type": "application/json"})
    refused(r, 400)
    assert still_there(client, me.id)
    assert client.get("/api/account").json()["account"]["id"] == me.id


@pytest.mark.parametrize("odd", ["Marie\ud800-Claire", "Marie\x00-Claire"])
def test_the_name_with_odd_characters_is_read_as_any_text_is(client: TestClient,
                                                            odd: str) -> None:
    """A lone surrogate or a control in the name typed is dropped, as from every text a
    request sends (``text.clean_json``): what is left is the name, and it is the account's
    own, so the deletion is done, answered in one line of JSON."""
    me = sign_in(client, NAME)
    r = client.post("/api/account/delete", content=json.dumps({"confirm": odd}),
                    headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json() == {"ok": True, "deleted": True}, r.text
    assert client.portal.call(accounts(client).get, me.id).status == "deleted"


@pytest.mark.parametrize("raw,status", [
    (b"{", 400), (b"[]", 400), (b'"confirm"', 400), (b"\xff\xfe", 400),
    (b'{"confirm": 1e999999}', 400), (b'{"confirm": ' + b"9" * 5000 + b"}", 413),
    (b'{"confirm": "' + b"a" * 5000 + b'"}', 413),
])
def test_odd_bodies_are_one_line(client: TestClient, raw: bytes, status: int) -> None:
    me = sign_in(client, NAME)
    r = client.post("/api/account/delete", content=raw,
                    headers={"content-type": "application/json"})
    refused(r, status)
    assert still_there(client, me.id)


@pytest.mark.parametrize("headers,status", [
    ({"origin": "http://evil.example"}, 403),
    ({"origin": "null"}, 403),
    ({"sec-fetch-site": "cross-site"}, 403),
    ({"content-type": "text/plain"}, 415),
    ({"content-type": "application/x-www-form-urlencoded"}, 415),
])
def test_another_sites_forged_deletion_changes_nothing(client: TestClient,
                                                        headers: dict[str, str],
                                                        status: int) -> None:
    me = sign_in(client, NAME)
    sent = {"content-type": "application/json", **headers}
    r = client.post("/api/account/delete", content=json.dumps({"confirm": NAME}),
                    headers=sent)
    refused(r, status)
    assert still_there(client, me.id)
    assert client.get("/api/account").json()["account"]["id"] == me.id  # still signed in


def test_the_wrong_methods_are_one_line(client: TestClient) -> None:
    sign_in(client, NAME)
    refused(client.get("/api/account/delete"), 405)
    refused(client.post("/api/account/export", json={}), 405)


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    """Two downloads or deletions a minute from an address (every other rate lifted)."""
    lifted = Rates.lifted() | {"account_data_per_minute": 2}
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **lifted)))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_downloads_and_deletions_are_counted_a_minute(strict: TestClient) -> None:
    me = sign_in(strict, NAME)
    assert strict.get("/api/account/export").status_code == 200
    refused(strict.post("/api/account/delete", json={"confirm": "nope"}), 400)
    # the third in the minute is refused before anything is read or done
    assert "too many" in refused(strict.post("/api/account/delete", json={"confirm": NAME}),
                                 429)
    assert still_there(strict, me.id)
    strict.cookies.clear()
    refused(strict.get("/api/account/export"), 429)  # a guest is counted too
