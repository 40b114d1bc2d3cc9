"""Names that pose as another's: a name is compared in its NFKC, case-folded form (width,
ligatures, case and spaces never make a second "Anne"), holds no invisible or direction
character, and mixes no Latin letter with a Cyrillic or Greek one (the look-alikes:
"Аnne" with a Cyrillic А). The limit, written in docs/accounts.md: a name wholly in
another alphabet that happens to look Latin (Cyrillic "Аеро") is a name of its own."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from forties.web.accounts import check_name, name_key
from tests.accounts_helpers import sign_in

from .conftest import refused

BEGIN = "/api/account/signup/begin"


@pytest.mark.parametrize("posing", [
    "anne", "ANNE", "Ａｎｎｅ", " Anne ", "An\u202ene", "An\u200bne", "\u2066Anne\u2069",
    "Anne\u200e"])
def test_the_same_name_in_another_form_is_taken(client: TestClient, posing: str) -> None:
    client.portal.call(client.app.state.accounts.create, "Anne")  # type: ignore
    r = client.post(BEGIN, json={"name": posing})
    assert r.status_code in (400, 409), r.text
    refused(r, r.status_code)


@pytest.mark.parametrize("posing", [
    "\u0410nne",  # Cyrillic capital A
    "Ann\u0435",  # Cyrillic small ie
    "\u0391nne",  # Greek capital alpha
    "Bashir \u0422",  # a Cyrillic Te after a Latin name
    "An\u200dne",  # a zero-width joiner
])
def test_a_look_alike_of_latin_letters_is_refused(client: TestClient, posing: str) -> None:
    r = client.post(BEGIN, json={"name": posing})
    refused(r, 400)
    assert r.json()["code"] in ("name", "name_scripts")


@pytest.mark.parametrize("name", ["Анна", "Ἀλέξανδρος", "Nour نور", "Chloé", "Zoë O'Neil",
                                  "李雷", "Marie-Claire", "Ø. Ødegård"])
def test_names_in_one_alphabet_or_latin_beside_others_are_kept(name: str) -> None:
    assert check_name(name) == name


def test_names_are_compared_in_nfkc_case_folded_form() -> None:
    assert name_key("ＭＡＲＩＥ  Claire") == name_key("marie claire")
    assert name_key("Straße") == name_key("STRASSE")


def test_a_deleted_accounts_name_is_refused_before_a_passkey_is_made(
        client: TestClient) -> None:
    """A deleted account's name stays taken (docs/accounts.md): the sign-up says so at its
    start, not after the browser has made a passkey that no account will keep."""
    bea = sign_in(client, "Bea Ó")
    r = client.post("/api/account/delete", json={"confirm": bea.name})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    for name in ("Bea Ó", "bea ó", "BEA  Ó"):
        r = client.post(BEGIN, json={"name": name})
        assert refused(r, 409) == "that name is taken: choose another"
        assert r.json()["code"] == "name_taken"
