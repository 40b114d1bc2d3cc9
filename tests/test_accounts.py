"""Accounts and sessions (``forties.web.accounts``, ``web.account_api``): names, the
session cookie, signing out, ending another device's session, suspension, expiry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.accounts import COOKIE, SESSION_SECONDS, check_name, name_key
from forties.web.app import ServerSettings, create_app
from forties.web.http import Refused
from forties.web.limits import Limits, Rates
from tests.accounts_helpers import accounts, make_account, sign_in


def app_client(tmp_path: Path, public_url: str | None = None) -> TestClient:
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **Rates.lifted()),
                                    public_url=public_url))
    return TestClient(app, raise_server_exceptions=False,
                      base_url=public_url or "http://testserver")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


def test_a_guest_has_no_account(client: TestClient) -> None:
    r = client.get("/api/account")
    assert r.status_code == 200 and r.json() == {"account": None}
    assert client.get("/api/account/sessions").status_code == 401


def test_a_signed_in_browser_sees_its_account_and_signs_out(client: TestClient) -> None:
    account = sign_in(client, "Marie-Claire")
    got = client.get("/api/account").json()["account"]
    assert got["id"] == account.id and got["name"] == "Marie-Claire"
    listed = client.get("/api/account/sessions").json()["sessions"]
    assert len(listed) == 1 and listed[0]["current"] is True
    r = client.post("/api/account/signout")
    assert r.json() == {"ok": True, "signed_out": True}
    gone = r.headers["set-cookie"].lower()  # the browser told to forget its cookie
    assert gone.startswith(f"{COOKIE}=") and "max-age=0" in gone
    client.cookies.clear()
    assert client.get("/api/account").json() == {"account": None}


def test_signing_out_ends_the_session_in_the_database(client: TestClient) -> None:
    account, key = make_account(client, "Léo")
    client.cookies.set(COOKIE, key)
    client.post("/api/account/signout")
    client.cookies.set(COOKIE, key)  # the same key, kept by someone: signs nobody in
    assert client.get("/api/account").json() == {"account": None}
    assert client.portal.call(accounts(client).sessions_of, account.id) == []


def test_another_devices_session_is_ended_from_this_one(client: TestClient) -> None:
    account = sign_in(client, "Yusuf")
    other = client.portal.call(accounts(client).new_session, account.id, "a phone")
    listed = client.get("/api/account/sessions").json()["sessions"]
    phone = next(s for s in listed if not s["current"])
    assert phone["agent"] == "a phone"
    assert client.post("/api/account/sessions/end", json={"id": phone["id"]}).json() == \
        {"ok": True}
    assert client.portal.call(accounts(client).session, other) is None
    assert client.get("/api/account").json()["account"]["id"] == account.id


def test_nobody_ends_another_accounts_session(client: TestClient) -> None:
    victim, _ = make_account(client, "Victim")
    theirs = client.portal.call(accounts(client).sessions_of, victim.id)[0]
    sign_in(client, "Stranger")
    r = client.post("/api/account/sessions/end", json={"id": theirs.id})
    assert r.status_code == 404 and "\n" not in r.json()["error"]
    assert len(client.portal.call(accounts(client).sessions_of, victim.id)) == 1


def test_a_suspended_accounts_sessions_sign_nobody_in(client: TestClient) -> None:
    account = sign_in(client, "Tricky")
    assert client.portal.call(accounts(client).set_status, account.id, "suspended")
    assert client.get("/api/account").json() == {"account": None}
    client.portal.call(accounts(client).set_status, account.id, "active")
    assert client.get("/api/account").json()["account"]["id"] == account.id


def test_a_session_ends_after_its_days(client: TestClient) -> None:
    store_accounts = accounts(client)
    account, key = make_account(client, "Old Timer")
    real = store_accounts.clock
    try:
        store_accounts.clock = lambda: real() + SESSION_SECONDS + 60
        assert client.portal.call(store_accounts.session, key) is None
    finally:
        store_accounts.clock = real
    assert client.portal.call(store_accounts.sessions_of, account.id) == []


def test_names_are_unique_as_a_reader_tells_them_apart(client: TestClient) -> None:
    make_account(client, "Marie Claire")
    for same in ("marie claire", "MARIE  CLAIRE", "ＭＡＲＩＥ Claire"):
        with pytest.raises(Refused) as e:
            make_account(client, same)
        assert e.value.status == 409
    assert name_key("Élise") != name_key("Elise")  # different letters stay different


@pytest.mark.parametrize("bad", ["", "a", "x" * 25, "<script>", "a\ud800b", "🂡🂡🂡",
                                 "Guest", "a former player", "   ", 42, None, ["Bob"],
                                 "Bob\nAlice", "Bob\u202eevil"])
def test_a_name_that_cannot_be_an_accounts_is_refused_in_one_line(bad: Any) -> None:
    try:
        got = check_name(bad)
    except Refused as e:
        assert "\n" not in e.message and e.message
    else:  # what cleaning leaves must still be a good name
        assert got != bad and 2 <= len(got) <= 24 and "\n" not in got


def test_names_in_french_and_arabic_are_accounts_names() -> None:
    assert check_name("Éloïse O'Brien") == "Éloïse O'Brien"
    assert check_name("يوسف") == "يوسف"


def test_the_cookie_is_httponly_lax_and_secure_on_https(tmp_path: Path) -> None:
    with app_client(tmp_path, "https://forties.example") as c:
        _, key = make_account(c, "Secure Sam")
        from starlette.responses import Response
        answer = Response()
        accounts(c).set_cookie(answer, key)
        cookie = answer.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" in cookie
    (tmp_path / "plain").mkdir()
    with app_client(tmp_path / "plain") as c:
        answer = Response()
        accounts(c).set_cookie(answer, "k" * 40)
        assert "secure" not in answer.headers["set-cookie"].lower()
