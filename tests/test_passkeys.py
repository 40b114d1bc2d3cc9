"""Signing up and in with passkeys (``forties.web.passkeys``), in process, with the tests'
software authenticator (``tests.passkey_soft``): sign-up in one step, sign-in by any
passkey of the site and its counter, the recovery codes, a second device by its code, the
list of passkeys and the rule on removing the last, a suspended account, the limits a
minute, and the site a passkey belongs to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web.account_schema import challenges_t, credentials_t, recovery_t
from forties.web.accounts import COOKIE, SUSPENDED
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from forties.web.passkeys import CHALLENGE_SECONDS, LINK_SECONDS, RECOVERY_COUNT, Passkeys
from tests.accounts_helpers import accounts
from tests.passkey_soft import SoftAuthenticator, b64, origin_of, sign_in, sign_up


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def app_client(tmp_path: Path, public_url: str | None = None, base_url: str | None = None,
               **limits: Any) -> TestClient:
    lim = Limits(par=False, **(Rates.lifted() | limits))
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}", limits=lim,
                                    public_url=public_url))
    return TestClient(app, raise_server_exceptions=False,
                      base_url=base_url or public_url or "http://testserver")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


@pytest.fixture
def clock(client: TestClient) -> Clock:
    """The passkeys' clock of ``client``'s app, set by the test."""
    at = Clock()
    app: Any = client.app
    app.state.passkeys = Passkeys(app.state.store, at)
    return at


def rows(client: TestClient, table: sa.Table) -> list[Any]:
    store: Any = client.app.state.store  # type: ignore[attr-defined]
    return list(client.portal.call(store.run, lambda conn: conn.execute(
        sa.select(table)).all()))


def me(client: TestClient) -> Any:
    return client.get("/api/account").json()["account"]


def error_of(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text[:300])
    body: dict[str, Any] = r.json()
    assert isinstance(body["error"], str) and "\n" not in body["error"]
    return body


def second_client(client: TestClient) -> TestClient:
    """Another browser of the same app (no cookie of the first)."""
    return TestClient(client.app, raise_server_exceptions=False,
                      base_url=str(client.base_url))


# ----- sign-up ----------------------------------------------------------------------------


def test_signing_up_makes_the_account_its_passkey_a_session_and_ten_codes(
        client: TestClient) -> None:
    device = SoftAuthenticator()
    r = sign_up(client, "Marie-Claire", device)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["account"]["name"] == "Marie-Claire"
    assert COOKIE in r.headers["set-cookie"] and "httponly" in r.headers["set-cookie"].lower()
    assert me(client)["id"] == got["account"]["id"]
    codes = got["recovery_codes"]
    assert len(codes) == RECOVERY_COUNT == len(set(codes))
    assert all(len(c) == 11 and c[5] == "-" for c in codes)
    kept = rows(client, recovery_t)
    assert len(kept) == RECOVERY_COUNT  # kept, and only hashed
    assert not {c.replace("-", "") for c in codes} & {r.code_hash for r in kept}
    assert all(c.replace("-", "") not in r.code_hash for c in codes for r in kept)
    (cred,) = rows(client, credentials_t)
    assert cred.account_id == got["account"]["id"]
    assert cred.id == b64(device.passkeys[0].id)
    assert cred.user_handle == b64(device.passkeys[0].user_handle)
    assert rows(client, challenges_t) == []  # the challenge used up


def test_the_registration_asks_a_resident_key_and_names_the_site(client: TestClient) -> None:
    r = client.post("/api/account/signup/begin", json={"name": "Ann"})
    options = r.json()["options"]
    assert options["rp"]["id"] == "testserver"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert options["attestation"] == "none"
    assert options["user"]["name"] == "Ann"
    # the browser's id of the challenge is not the challenge, and is kept hashed only
    (row,) = rows(client, challenges_t)
    assert r.json()["challenge"] not in (row.key_hash, row.body)
    assert options["challenge"] in row.body


def test_a_taken_name_is_refused_before_and_after_the_passkey(client: TestClient) -> None:
    assert sign_up(client, "Yusuf").status_code == 200
    other = second_client(client)
    r = other.post("/api/account/signup/begin", json={"name": "yusuf"})
    assert error_of(r, 409)["code"] == "name_taken"
    # two sign-ups begun with one name: the second to finish is refused, nothing made
    a, b = second_client(client), second_client(client)
    began = [c.post("/api/account/signup/begin", json={"name": "Zoé"}).json() for c in (a, b)]
    device = SoftAuthenticator()
    for c, got, status in ((a, began[0], 200), (b, began[1], 409)):
        r = c.post("/api/account/signup/finish", json={
            "challenge": got["challenge"],
            "credential": device.register(got["options"], origin_of(c))})
        assert r.status_code == status, r.text
    assert len(rows(client, credentials_t)) == 2  # Yusuf's and the first Zoé's


def test_a_bad_name_is_refused_with_its_reason(client: TestClient) -> None:
    for name, words in (("A", "characters"), ("guest", "site's own"), (3, "text"),
                        ("x<script>", "letters")):
        r = client.post("/api/account/signup/begin", json={"name": name})
        assert words in error_of(r, 400)["error"]
    assert rows(client, challenges_t) == []


# ----- sign-in ------------------------------------------------------------------------------


def test_signing_in_with_the_passkey_moves_its_counter_on(client: TestClient) -> None:
    device = SoftAuthenticator()
    account = sign_up(client, "Léa", device).json()["account"]
    client.cookies.clear()
    assert me(client) is None
    for count in (1, 2):
        r = sign_in(client, device)
        assert r.status_code == 200, r.text
        assert r.json()["account"]["id"] == account["id"] and me(client)["id"] == account["id"]
        (cred,) = rows(client, credentials_t)
        assert cred.sign_count == count and cred.last_used is not None
        client.cookies.clear()
    # a copy of the passkey whose counter is behind is refused, and signs nobody in
    begun = client.post("/api/account/signin/begin", json={}).json()
    answer = device.sign_in(begun["options"], origin_of(client), counter=2)
    r = client.post("/api/account/signin/finish", json={"challenge": begun["challenge"],
                                                        "credential": answer})
    assert "counter" in error_of(r, 401)["error"]
    assert me(client) is None and rows(client, credentials_t)[0].sign_count == 2


def test_signing_in_again_ends_the_browsers_last_session(client: TestClient) -> None:
    device = SoftAuthenticator()
    first = sign_up(client, "Rania", device).json()["account"]
    old_key = client.cookies.get(COOKIE)
    other_device = SoftAuthenticator()
    sign_up(second_client(client), "Samir", other_device)
    assert sign_in(client, other_device).json()["account"]["name"] == "Samir"
    assert client.portal.call(accounts(client).sessions_of, first["id"]) == []
    assert client.portal.call(accounts(client).session, old_key) is None
    assert len(client.get("/api/account/sessions").json()["sessions"]) == 2  # Samir's two


def test_signin_options_ask_for_any_passkey_of_the_site(client: TestClient) -> None:
    options = client.post("/api/account/signin/begin", json={}).json()["options"]
    assert options["rpId"] == "testserver" and options["allowCredentials"] == []
    assert options["userVerification"] == "preferred"


def test_a_suspended_account_cannot_sign_in(client: TestClient) -> None:
    device = SoftAuthenticator()
    got = sign_up(client, "Omar", device).json()
    client.cookies.clear()
    client.portal.call(accounts(client).set_status, got["account"]["id"], SUSPENDED)
    r = sign_in(client, device)
    assert "suspended" in error_of(r, 403)["error"] and me(client) is None
    r = client.post("/api/account/recover",
                    json={"name": "Omar", "code": got["recovery_codes"][0]})
    assert "suspended" in error_of(r, 403)["error"] and me(client) is None
    # the code was not used up by the refusal
    assert all(row.used is None for row in rows(client, recovery_t))
    client.portal.call(accounts(client).set_status, got["account"]["id"], "active")
    assert sign_in(client, device).status_code == 200


def test_an_expired_challenge_is_refused(client: TestClient, clock: Clock) -> None:
    device = SoftAuthenticator()
    begun = client.post("/api/account/signup/begin", json={"name": "Late"}).json()
    clock.now += CHALLENGE_SECONDS + 1
    r = client.post("/api/account/signup/finish", json={
        "challenge": begun["challenge"],
        "credential": device.register(begun["options"], origin_of(client))})
    assert error_of(r, 400)["code"] == "challenge"
    assert rows(client, credentials_t) == [] and me(client) is None


# ----- recovery -----------------------------------------------------------------------------


def test_a_recovery_code_signs_in_once(client: TestClient) -> None:
    got = sign_up(client, "Ann Marie").json()
    codes = got["recovery_codes"]
    client.cookies.clear()
    typed = codes[3].upper().replace("-", " ")  # as read off paper
    r = client.post("/api/account/recover", json={"name": "ann  marie", "code": typed})
    assert r.status_code == 200, r.text
    assert r.json()["codes_left"] == RECOVERY_COUNT - 1
    assert me(client)["id"] == got["account"]["id"]
    client.cookies.clear()
    r = client.post("/api/account/recover", json={"name": "Ann Marie", "code": codes[3]})
    assert error_of(r, 401)["code"] == "recovery" and me(client) is None
    r = client.post("/api/account/recover", json={"name": "Someone", "code": codes[4]})
    assert error_of(r, 401)["code"] == "recovery"


def test_new_recovery_codes_end_the_old_ones(client: TestClient) -> None:
    old = sign_up(client, "Nadia").json()["recovery_codes"]
    assert error_of(second_client(client).post("/api/account/recovery/new", json={}),
                    401)["code"] == "signin"
    new = client.post("/api/account/recovery/new", json={}).json()["recovery_codes"]
    assert len(new) == RECOVERY_COUNT and not set(new) & set(old)
    client.cookies.clear()
    r = client.post("/api/account/recover", json={"name": "Nadia", "code": old[0]})
    assert r.status_code == 401
    r = client.post("/api/account/recover", json={"name": "Nadia", "code": new[0]})
    assert r.status_code == 200


# ----- more passkeys: this device, another device ---------------------------------------------


def add_here(client: TestClient, device: SoftAuthenticator) -> Any:
    begun = client.post("/api/account/passkeys/begin", json={})
    assert begun.status_code == 200, begun.text
    got = begun.json()
    return client.post("/api/account/passkeys/finish", json={
        "challenge": got["challenge"], "label": "Tablet",
        "credential": device.register(got["options"], origin_of(client))})


def test_a_passkey_added_on_this_device_signs_in_too(client: TestClient) -> None:
    first, second = SoftAuthenticator(), SoftAuthenticator()
    account = sign_up(client, "Jean", first).json()["account"]
    begun = client.post("/api/account/passkeys/begin", json={}).json()
    # the account's own passkeys excluded, its user handle kept
    assert [c["id"] for c in begun["options"]["excludeCredentials"]] == \
        [rows(client, credentials_t)[0].id]
    assert begun["options"]["user"]["id"] == rows(client, credentials_t)[0].user_handle
    r = add_here(client, second)
    assert r.status_code == 200 and r.json()["passkey"]["label"] == "Tablet"
    listed = client.get("/api/account/passkeys").json()["passkeys"]
    assert [p["label"] for p in listed] == ["passkey", "Tablet"]
    client.cookies.clear()
    assert sign_in(client, second).json()["account"]["id"] == account["id"]


def test_another_device_joins_by_its_code_once(client: TestClient, clock: Clock) -> None:
    account = sign_up(client, "Fatima").json()["account"]
    made = client.post("/api/account/link/new", json={}).json()
    assert made["url"] == f"/account/link#{made['code']}" and made["seconds"] == LINK_SECONDS
    phone, device = second_client(client), SoftAuthenticator()
    begun = phone.post("/api/account/link/begin", json={"code": made["code"]})
    assert begun.status_code == 200, begun.text
    assert begun.json()["name"] == "Fatima"
    got = begun.json()
    r = phone.post("/api/account/link/finish", json={
        "challenge": got["challenge"],
        "credential": device.register(got["options"], origin_of(phone))})
    assert r.status_code == 200, r.text
    assert me(phone)["id"] == account["id"]
    assert len(client.get("/api/account/passkeys").json()["passkeys"]) == 2
    # the code is used up
    again = phone.post("/api/account/link/begin", json={"code": made["code"]})
    assert error_of(again, 404)["code"] == "link"
    # a code is good for ten minutes
    late = client.post("/api/account/link/new", json={}).json()["code"]
    clock.now += LINK_SECONDS + 1
    assert second_client(client).post("/api/account/link/begin",
                                      json={"code": late}).status_code == 404
    phone.cookies.clear()
    assert sign_in(phone, device).json()["account"]["id"] == account["id"]


def test_a_refused_answer_leaves_the_device_code_for_another_try(client: TestClient) -> None:
    sign_up(client, "Hugo")
    code = client.post("/api/account/link/new", json={}).json()["code"]
    phone, device = second_client(client), SoftAuthenticator()
    got = phone.post("/api/account/link/begin", json={"code": code}).json()
    wrong = device.register(got["options"], "https://evil.example")
    r = phone.post("/api/account/link/finish", json={"challenge": got["challenge"],
                                                     "credential": wrong})
    assert error_of(r, 400)["code"] == "passkey" and me(phone) is None
    got = phone.post("/api/account/link/begin", json={"code": code}).json()
    r = phone.post("/api/account/link/finish", json={
        "challenge": got["challenge"],
        "credential": device.register(got["options"], origin_of(phone))})
    assert r.status_code == 200, r.text
    assert me(phone)["name"] == "Hugo"


def test_a_device_code_is_kept_hashed_and_a_new_one_ends_the_last(client: TestClient) -> None:
    sign_up(client, "Karim")
    first = client.post("/api/account/link/new", json={}).json()["code"]
    second = client.post("/api/account/link/new", json={}).json()["code"]
    kept = [r for r in rows(client, challenges_t) if r.purpose == "link"]
    assert len(kept) == 1 and second.replace("-", "") not in kept[0].key_hash
    other = second_client(client)
    assert other.post("/api/account/link/begin", json={"code": first}).status_code == 404
    assert other.post("/api/account/link/begin", json={"code": second}).status_code == 200


# ----- the list, renaming, removing ------------------------------------------------------------


def test_passkeys_are_renamed_and_removed_but_never_the_last_way_in(
        client: TestClient) -> None:
    first, second = SoftAuthenticator(), SoftAuthenticator()
    got = sign_up(client, "Paul", first).json()
    add_here(client, second)
    listed = client.get("/api/account/passkeys").json()
    assert listed["codes_left"] == RECOVERY_COUNT
    one, two = (p["id"] for p in listed["passkeys"])
    r = client.post("/api/account/passkeys/rename", json={"id": one, "label": " My  phone "})
    assert r.json() == {"ok": True, "label": "My phone"}
    assert error_of(client.post("/api/account/passkeys/rename",
                                json={"id": one, "label": "  "}), 400)
    assert client.post("/api/account/passkeys/remove", json={"id": two}).json() == {"ok": True}
    # the last passkey with no recovery code left: refused
    for code in got["recovery_codes"]:
        r = client.post("/api/account/recover", json={"name": "Paul", "code": code})
        assert r.status_code == 200
    r = client.post("/api/account/passkeys/remove", json={"id": one})
    assert error_of(r, 409)["code"] == "last_passkey"
    # with new codes it may go: the account then signs in by a code
    codes = client.post("/api/account/recovery/new", json={}).json()["recovery_codes"]
    assert client.post("/api/account/passkeys/remove", json={"id": one}).status_code == 200
    assert client.get("/api/account/passkeys").json()["passkeys"] == []
    client.cookies.clear()
    assert error_of(sign_in(client, first), 401)["code"] == "unknown_passkey"
    assert client.post("/api/account/recover",
                       json={"name": "Paul", "code": codes[0]}).status_code == 200


def test_nobody_renames_or_removes_another_accounts_passkey(client: TestClient) -> None:
    sign_up(client, "Victim")
    theirs = client.get("/api/account/passkeys").json()["passkeys"][0]["id"]
    other = second_client(client)
    sign_up(other, "Stranger")
    assert error_of(other.post("/api/account/passkeys/rename",
                               json={"id": theirs, "label": "mine"}), 404)
    assert error_of(other.post("/api/account/passkeys/remove", json={"id": theirs}), 404)
    assert client.get("/api/account/passkeys").json()["passkeys"][0]["label"] == "passkey"
    guest = second_client(client)
    assert guest.get("/api/account/passkeys").status_code == 401
    assert guest.post("/api/account/link/new", json={}).status_code == 401


# ----- limits and the site -------------------------------------------------------------------


def test_signups_and_signins_are_limited_a_minute(tmp_path: Path) -> None:
    with app_client(tmp_path, signups_per_minute=2, signins_per_minute=3) as c:
        for _ in range(2):
            assert c.post("/api/account/signup/begin", json={"name": "Ann"}).status_code == 200
        r = c.post("/api/account/signup/begin", json={"name": "Ann"})
        assert error_of(r, 429)["code"] == "rate" and "accounts" in r.json()["error"]
        assert c.post("/api/account/signin/begin", json={}).status_code == 200
        assert c.post("/api/account/recover",
                      json={"name": "Ann", "code": "abcde-fghjk"}).status_code == 401
        assert c.post("/api/account/link/begin",
                      json={"code": "abcd-efgh-jkmn"}).status_code == 404
        r = c.post("/api/account/signin/begin", json={})
        assert error_of(r, 429)["code"] == "rate" and "sign-ins" in r.json()["error"]


def test_the_site_is_the_public_address(tmp_path: Path) -> None:
    with app_client(tmp_path, public_url="https://forties.example.org") as c:
        options = c.post("/api/account/signup/begin", json={"name": "Ann"}).json()["options"]
        assert options["rp"]["id"] == "forties.example.org"
        device = SoftAuthenticator()
        r = sign_up(c, "Bea", device)
        assert r.status_code == 200, r.text
        assert "secure" in r.headers["set-cookie"].lower()


def test_a_loopback_site_is_the_name_the_page_was_opened_by(tmp_path: Path) -> None:
    with app_client(tmp_path, public_url="http://127.0.0.1:8045",
                    base_url="http://localhost:8045") as c:
        options = c.post("/api/account/signup/begin", json={"name": "Ann"}).json()["options"]
        assert options["rp"]["id"] == "localhost"
        assert sign_up(c, "Bea").status_code == 200


# ----- PostgreSQL ------------------------------------------------------------------------------


def test_signing_up_in_and_back_on_postgresql(db: str) -> None:
    app = create_app(ServerSettings(db_url=db, limits=Limits(par=False, **Rates.lifted())))
    with TestClient(app, raise_server_exceptions=False) as c:
        device = SoftAuthenticator()
        got = sign_up(c, "Ann", device).json()
        c.cookies.clear()
        assert sign_in(c, device).json()["account"]["id"] == got["account"]["id"]
        c.cookies.clear()
        r = c.post("/api/account/recover", json={"name": "ann", "code": got["recovery_codes"][0]})
        assert r.json()["codes_left"] == RECOVERY_COUNT - 1
        code = c.post("/api/account/link/new", json={}).json()["code"]
        phone = second_client(c)
        begun = phone.post("/api/account/link/begin", json={"code": code}).json()
        r = phone.post("/api/account/link/finish", json={
            "challenge": begun["challenge"],
            "credential": SoftAuthenticator().register(begun["options"], origin_of(phone))})
        assert r.status_code == 200 and me(phone)["id"] == got["account"]["id"]
        assert len(c.get("/api/account/passkeys").json()["passkeys"]) == 2


def test_a_challenge_taken_by_two_processes_at_once_goes_to_one(db: str) -> None:
    """Two stores (as two server processes) take the same challenges at the same moment:
    each is had by exactly one of them."""
    import asyncio

    from forties.web.store import Store

    stores = [Store(db), Store(db)]
    try:
        keepers = [Passkeys(s) for s in stores]

        async def race() -> list[int]:
            won = [0, 0]
            for _ in range(20):
                key = await keepers[0].keep("signin", {"challenge": "AA"})
                got = await asyncio.gather(*(k.take(key, "signin") for k in keepers))
                assert sum(g is not None for g in got) == 1, got
                won[[g is not None for g in got].index(True)] += 1
            return won

        won = asyncio.run(race())
        assert sum(won) == 20
    finally:
        for s in stores:
            s.close()


# ----- a live server -----------------------------------------------------------------------------


def test_the_soft_authenticator_signs_up_and_in_at_a_live_server(tmp_path: Path) -> None:
    """``forties serve`` as its own process (its public address its own, 127.0.0.1): the
    tests' authenticator signs up and in over HTTP, at that address and as localhost."""
    import httpx

    from tests.helpers_web import ServerProcess

    server = ServerProcess(tmp_path).start()
    try:
        for base in (server.http, server.http.replace("127.0.0.1", "localhost")):
            with httpx.Client(base_url=base, timeout=30) as http:
                device = SoftAuthenticator()
                name = "Live " + ("local" if "localhost" in base else "ip")
                made = sign_up(http, name, device)
                assert made.status_code == 200, made.text
                options = http.post("/api/account/signin/begin", json={}).json()["options"]
                assert options["rpId"] == ("localhost" if "localhost" in base else "127.0.0.1")
                http.cookies.clear()
                r = sign_in(http, device)
                assert r.status_code == 200 and r.json()["account"]["name"] == name
                assert http.get("/api/account").json()["account"]["name"] == name
    finally:
        code, _, err = server.stop()
    assert code == 0 and "Traceback" not in err, err[-2000:]
