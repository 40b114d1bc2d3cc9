"""The account page's "Your data" in Chromium (an account signed up with a passkey on a
virtual authenticator, as tests/web/test_browser_passkeys.py does): "Download my data"
gives the account's JSON as a file; "Delete my account" refuses without the name typed
again, in the reader's words (en, fr, ar), and with it signs the browser out and says so;
axe finds nothing in the section, and it fits a 360-pixel phone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .pages import PHONE
from .test_axe import findings
from .test_browser_passkeys import NO_SIDEWAYS, device, local, open_account, said

WORDS = {
    "en": ("Type your account's name, as it is shown above, to delete it.",
           "Your account is deleted, and every device signed out. Your games stay, under "
           "\"a former player\"."),
    "fr": ("Tapez le nom de votre compte, tel qu'il est écrit plus haut, pour le supprimer.",
           "Votre compte est supprimé, et chaque appareil déconnecté. Vos parties restent, "
           "sous « un ancien joueur »."),
    "ar": ("اكتب اسم حسابك كما يظهر في الأعلى لحذفه.",
           "حُذف حسابك وخرج كل جهاز منه. تبقى مبارياتك باسم «لاعب سابق»."),
}


def account_json(page: Any) -> Any:
    return page.evaluate("fetch('/api/account').then((r) => r.json())")


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_download_and_delete_from_the_account_page(server: str, browser: Any, lang: str,
                                                   tmp_path: Path) -> None:
    page = device(browser, lang)
    open_account(page, f"{local(server)}/account?lang={lang}")
    name = f"Data {lang}"
    page.fill("#signup-name", name)
    page.click("#signup")
    page.wait_for_selector("#codes li")
    page.click("#codes-done")
    me = account_json(page)["account"]
    assert me["name"] == name
    # the download: a file, the account's own data
    with page.expect_download() as got:
        page.click("#data-export")
    saved = tmp_path / "data.json"
    got.value.save_as(saved)
    assert got.value.suggested_filename == f"forties-{me['id']}.json"
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["accounts"][0]["name"] == name
    assert data["recovery_codes"] == {"left": 10, "used": 0}
    assert len(data["credentials"]) == 1
    # axe over the section, signed in, and a phone's width
    found = findings(page)
    page.set_viewport_size(PHONE)
    assert page.evaluate(NO_SIDEWAYS)
    # nothing typed, then another name: refused in the reader's words, nothing deleted
    refused, deleted = WORDS[lang]
    page.click("#data-delete")
    page.wait_for_function("(t) => document.getElementById('data-error').textContent === t",
                           arg=refused)
    page.fill("#data-confirm", "Someone Else")
    page.click("#data-delete")
    page.wait_for_function("(t) => document.getElementById('data-error').textContent === t",
                           arg=refused)
    found += findings(page)  # (the refusal on show)
    assert account_json(page)["account"]["id"] == me["id"]
    # the name, by keyboard: deleted, signed out, and said
    page.fill("#data-confirm", name.upper())
    page.focus("#data-confirm")
    page.keyboard.press("Enter")
    said(page, deleted)
    assert page.is_visible("#guest") and not page.is_visible("#signed")
    assert account_json(page) == {"account": None}
    assert not found, "\n".join(found)
    assert page.errors == []
    assert page.evaluate("window.__violations") == []  # (the Content-Security-Policy)
    page.context.close()
