"""Hostile clients against signing up and in (``forties.web.passkeys``): a challenge
answered twice, a passkey's answer made on another site or for another site, a forged
signature, another account's passkey or handle, odd text and lone surrogates in every
field, fields and bodies too large, and a cross-site POST. Each is one line of JSON, and
nothing is made, signed in or used up that should not be."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web.account_schema import challenges_t, credentials_t, recovery_t
from forties.web.accounts import accounts_t, sessions_t
from forties.web.passkeys import BODY_MAX
from tests.passkey_soft import SoftAuthenticator, b64, origin_of, sign_in, sign_up, unb64

from .conftest import refused

SURROGATE = "\ud800"
ODD_TEXT = [SURROGATE, "a\x00b", "\u202eabc", "é" * 50, "abc def", "a+b/c", "====", "",
            "x" * 7000, 12, None, ["a"], {"a": 1}, True, -1.5]


def post(client: TestClient, url: str, body: Any, **headers: str) -> Any:
    """POST ``body`` as Python writes JSON: a lone surrogate stays a ``\\ud800`` escape."""
    return client.post(url, content=json.dumps(body),
                       headers={"content-type": "application/json", **headers})


def count(client: TestClient, table: sa.Table) -> int:
    store: Any = client.app.state.store  # type: ignore[attr-defined]
    return int(client.portal.call(store.run, lambda conn: conn.execute(
        sa.select(sa.func.count()).select_from(table)).scalar()))


def me(client: TestClient) -> Any:
    return client.get("/api/account").json()["account"]


def other(client: TestClient) -> TestClient:
    return TestClient(client.app, raise_server_exceptions=False, base_url=str(client.base_url))


def signup_answer(client: TestClient, name: str, **kw: Any) -> tuple[str, dict[str, Any]]:
    begun = client.post("/api/account/signup/begin", json={"name": name}).json()
    answer = SoftAuthenticator().register(begun["options"], kw.pop("origin", None)
                                          or origin_of(client), **kw)
    return begun["challenge"], answer


def test_a_challenge_answered_twice_is_refused_the_second_time(client: TestClient) -> None:
    key, answer = signup_answer(client, "Ann")
    assert post(client, "/api/account/signup/finish",
                {"challenge": key, "credential": answer}).status_code == 200
    client.cookies.clear()
    r = post(client, "/api/account/signup/finish", {"challenge": key, "credential": answer})
    assert "expired or was used" in refused(r, 400)
    assert count(client, accounts_t) == 1 and me(client) is None
    # a sign-in's answer too
    device = SoftAuthenticator()
    sign_up(other(client), "Bob", device)
    begun = client.post("/api/account/signin/begin", json={}).json()
    signed = device.sign_in(begun["options"], origin_of(client))
    body = {"challenge": begun["challenge"], "credential": signed}
    assert post(client, "/api/account/signin/finish", body).status_code == 200
    client.cookies.clear()
    refused(post(client, "/api/account/signin/finish", body), 400)
    assert me(client) is None


@pytest.mark.parametrize("wrong", ["origin", "rp_id"])
def test_an_answer_for_another_site_makes_nothing(client: TestClient, wrong: str) -> None:
    kw = {"origin": "https://evil.example"} if wrong == "origin" else {"rp_id": "evil.example"}
    key, answer = signup_answer(client, "Ann", **kw)
    r = post(client, "/api/account/signup/finish", {"challenge": key, "credential": answer})
    assert "another site" in refused(r, 400)
    assert count(client, accounts_t) == 0 and count(client, credentials_t) == 0
    assert me(client) is None
    # and a sign-in's
    device = SoftAuthenticator()
    sign_up(other(client), "Bob", device)
    begun = client.post("/api/account/signin/begin", json={}).json()
    signed = device.sign_in(begun["options"], kw.get("origin") or origin_of(client),
                            rp_id=kw.get("rp_id"))
    r = post(client, "/api/account/signin/finish",
             {"challenge": begun["challenge"], "credential": signed})
    assert "another site" in refused(r, 401) and me(client) is None


def test_a_forged_signature_signs_nobody_in(client: TestClient) -> None:
    device = SoftAuthenticator()
    sign_up(other(client), "Ann", device)
    begun = client.post("/api/account/signin/begin", json={}).json()
    signed = device.sign_in(begun["options"], origin_of(client))
    sig = bytearray(unb64(signed["response"]["signature"]))
    sig[-1] ^= 1
    signed["response"]["signature"] = b64(bytes(sig))
    r = post(client, "/api/account/signin/finish",
             {"challenge": begun["challenge"], "credential": signed})
    assert "signature" in refused(r, 401) and me(client) is None
    # signed by a key of its own under the victim's passkey id
    thief = SoftAuthenticator()
    thief.register({"rp": {"id": "testserver"}, "user": {"id": b64(b"x")},
                    "challenge": "AA"}, origin_of(client))
    thief.passkeys[0].id = device.passkeys[0].id
    thief.passkeys[0].user_handle = device.passkeys[0].user_handle
    begun = client.post("/api/account/signin/begin", json={}).json()
    r = post(client, "/api/account/signin/finish", {"challenge": begun["challenge"],
             "credential": thief.sign_in(begun["options"], origin_of(client))})
    assert "signature" in refused(r, 401) and me(client) is None


def test_another_accounts_handle_or_passkey_is_refused(client: TestClient) -> None:
    ann, bob = SoftAuthenticator(), SoftAuthenticator()
    sign_up(other(client), "Ann", ann)
    sign_up(other(client), "Bob", bob)
    begun = client.post("/api/account/signin/begin", json={}).json()
    signed = ann.sign_in(begun["options"], origin_of(client),
                         user_handle=bob.passkeys[0].user_handle)
    r = post(client, "/api/account/signin/finish",
             {"challenge": begun["challenge"], "credential": signed})
    assert "does not belong" in refused(r, 401) and me(client) is None
    # Bob's passkey added to Ann's account: refused, it is Bob's
    owner = other(client)
    assert sign_in(owner, ann).status_code == 200
    got = owner.post("/api/account/passkeys/begin", json={}).json()
    bob_again = bob.register(got["options"], origin_of(owner))
    bob_again["id"] = bob_again["rawId"] = b64(bob.passkeys[0].id)  # Bob's id, claimed
    r = post(owner, "/api/account/passkeys/finish",
             {"challenge": got["challenge"], "credential": bob_again})
    refused(r, 400)
    assert count(client, credentials_t) == 2


def test_odd_text_in_every_field_is_one_line_and_changes_nothing(client: TestClient) -> None:
    sign_up(client, "Ann")
    client.cookies.clear()
    before = {t.name: count(client, t) for t in (accounts_t, credentials_t, recovery_t)}
    good_key, good = signup_answer(client, "Bob")
    made = ("clientDataJSON", "attestationObject", "userHandle")
    fields = {"/api/account/signup/finish": made, "/api/account/link/finish": made,
              "/api/account/signin/finish": ("clientDataJSON", "authenticatorData",
                                             "signature", "userHandle")}
    for odd in ODD_TEXT:
        for url, read in fields.items():
            refused(post(client, url, {"challenge": odd, "credential": good}), 400)
            for field in ("id", "rawId", "type", "response"):
                bad = dict(good, **{field: odd})
                refused(post(client, url, {"challenge": good_key, "credential": bad}), 400)
            for field in read:
                if field == "userHandle" and odd in ("", None, SURROGATE):
                    continue  # (none given, a lone surrogate cleaned away: may be left out)
                bad = dict(good, response=dict(good["response"], **{field: odd}))
                refused(post(client, url, {"challenge": good_key, "credential": bad}), 400)
        for url, field in (("/api/account/signup/begin", "name"),
                           ("/api/account/recover", "name"), ("/api/account/recover", "code"),
                           ("/api/account/link/begin", "code")):
            body = {"name": "Ann", "code": "abcde-fghjk"} | {field: odd}
            r = post(client, url, body)
            if r.status_code == 200:  # a name that is one once cleaned ("a\x00b": "ab")
                assert url.endswith("signup/begin"), r.text
                name = r.json()["options"]["user"]["name"]
                assert name.isprintable() and name == " ".join(name.split())
                continue
            assert r.status_code in (400, 401, 404), r.text
            refused(r, r.status_code)
    # well-formed base64url that is not what it should be
    junk = b64(b"\xff" * 40)
    for field in ("clientDataJSON", "attestationObject"):
        key, answer = signup_answer(client, "Cy")
        answer["response"][field] = junk
        r = post(client, "/api/account/signup/finish", {"challenge": key, "credential": answer})
        assert "could not be read" in refused(r, 400)
    device = SoftAuthenticator()
    sign_up(other(client), "Dee", device)
    for field in ("clientDataJSON", "authenticatorData", "signature"):
        begun = client.post("/api/account/signin/begin", json={}).json()
        signed = device.sign_in(begun["options"], origin_of(client))
        signed["response"][field] = junk
        r = post(client, "/api/account/signin/finish",
                 {"challenge": begun["challenge"], "credential": signed})
        refused(r, 401)
    after = {t.name: count(client, t) for t in (accounts_t, credentials_t, recovery_t)}
    assert after == before | {"accounts": before["accounts"] + 1,
                              "credentials": before["credentials"] + 1,
                              "recovery_codes": before["recovery_codes"] + 10}  # (Dee)
    assert me(client) is None


def test_a_refused_answer_uses_its_challenge_up(client: TestClient) -> None:
    key, good = signup_answer(client, "Ann")
    bad = dict(good, response=dict(good["response"], clientDataJSON=b64(b"{}")))
    refused(post(client, "/api/account/signup/finish", {"challenge": key, "credential": bad}))
    r = post(client, "/api/account/signup/finish", {"challenge": key, "credential": good})
    assert "expired or was used" in refused(r, 400)
    assert count(client, challenges_t) == 0 and count(client, accounts_t) == 0


def test_huge_fields_and_bodies_are_refused_before_work(client: TestClient) -> None:
    key, good = signup_answer(client, "Ann")
    for field in ("clientDataJSON", "attestationObject"):
        bad = dict(good, response=dict(good["response"], **{field: "A" * 6500}))
        r = post(client, "/api/account/signup/finish", {"challenge": key, "credential": bad})
        assert "too long" in refused(r, 400)
    bad = dict(good, id="A" * 401, rawId="A" * 401)
    assert "too long" in refused(post(client, "/api/account/signup/finish",
                                      {"challenge": key, "credential": bad}))
    r = post(client, "/api/account/signup/finish",
             {"challenge": key, "credential": good, "pad": "x" * BODY_MAX})
    refused(r, 413)
    r = post(client, "/api/account/signup/begin", {"name": "N" * 300})
    assert "characters" in refused(r, 400)
    # the challenge was never taken by any of them: the good answer still signs up
    r = post(client, "/api/account/signup/finish", {"challenge": key, "credential": good})
    assert r.status_code == 200, r.text


def test_a_cross_site_post_changes_nothing(client: TestClient) -> None:
    device = SoftAuthenticator()
    got = sign_up(client, "Ann", device).json()
    pid = client.get("/api/account/passkeys").json()["passkeys"][0]["id"]
    evil = {"origin": "https://evil.example"}
    for url, body in (("/api/account/passkeys/remove", {"id": pid}),
                      ("/api/account/passkeys/rename", {"id": pid, "label": "pwned"}),
                      ("/api/account/recovery/new", {}),
                      ("/api/account/link/new", {}),
                      ("/api/account/passkeys/begin", {}),
                      ("/api/account/signup/begin", {"name": "Evil"}),
                      ("/api/account/signin/begin", {}),
                      ("/api/account/recover", {"name": "Ann",
                                                "code": got["recovery_codes"][0]})):
        assert "other sites" in refused(post(client, url, body, **evil), 403)
        assert "other sites" in refused(post(client, url, body,
                                             **{"sec-fetch-site": "cross-site"}), 403)
    listed = client.get("/api/account/passkeys").json()
    assert [p["label"] for p in listed["passkeys"]] == ["passkey"]
    assert listed["codes_left"] == 10
    assert count(client, challenges_t) == 0 and count(client, sessions_t) == 1
    # and a form's body (not JSON) is refused too
    r = client.post("/api/account/passkeys/remove", content=f"id={pid}",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    refused(r, 415)
    assert len(client.get("/api/account/passkeys").json()["passkeys"]) == 1


def test_odd_labels_are_kept_clean_or_refused(client: TestClient) -> None:
    sign_up(client, "Ann")
    pid = client.get("/api/account/passkeys").json()["passkeys"][0]["id"]
    for odd in ODD_TEXT:
        r = post(client, "/api/account/passkeys/rename", {"id": pid, "label": odd})
        if r.status_code == 200:
            label = client.get("/api/account/passkeys").json()["passkeys"][0]["label"]
            assert label == r.json()["label"] and label.isprintable() and len(label) <= 40
            assert SURROGATE not in label and "\u202e" not in label and "\x00" not in label
        else:
            assert "characters" in refused(r, 400)
        for url, body in (("rename", {"id": odd, "label": "x"}), ("remove", {"id": odd})):
            r = post(client, f"/api/account/passkeys/{url}", body)
            assert r.status_code in (400, 404), r.text  # (odd text cleaned may be an id)
            refused(r, r.status_code)
    assert len(client.get("/api/account/passkeys").json()["passkeys"]) == 1
