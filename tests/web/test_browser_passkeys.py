"""The account's page in Chromium with a virtual authenticator (the DevTools protocol's
WebAuthn domain: a platform authenticator with resident keys and user verification):
sign up with a passkey, see the recovery codes, sign out, sign in again, add a second
device by its link in another browser, sign in by a recovery code; the home page's link;
nothing the Content-Security-Policy refuses;
axe finds nothing on the page, signed out and in, in English, French and Arabic, and it
fits a 360-pixel phone.

WebAuthn refuses an IP address's origin, so the page is opened as ``localhost`` (the
server listens on 127.0.0.1; the guard takes ``localhost`` as one of its own names)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .pages import PHONE, post
from .test_axe import findings
from .test_csp import WATCH

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def local(server: str) -> str:
    return server.replace("127.0.0.1", "localhost")


def device(browser: Any, lang: str = "en", viewport: dict[str, int] = PHONE) -> Any:
    """A new browser (context) with a passkey authenticator of its own, and its page."""
    ctx = browser.new_context(viewport=viewport, has_touch=True,
                              locale={"en": "en-US", "fr": "fr-CA", "ar": "ar-SY"}[lang])
    page = ctx.new_page()
    page.add_init_script(WATCH)  # (the Content-Security-Policy's violations, kept)
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    cdp = ctx.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    page.authenticator = (cdp, made["authenticatorId"])
    return page


def kept_passkeys(page: Any) -> list[dict[str, Any]]:
    cdp, aid = page.authenticator
    return list(cdp.send("WebAuthn.getCredentials", {"authenticatorId": aid})["credentials"])


def said(page: Any, text: str) -> None:
    """Wait until the page's status line says ``text``."""
    page.wait_for_function("(text) => document.getElementById('status').textContent === text",
                           arg=text)


def open_account(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("document.body?.dataset.ready === '1'")


def test_sign_up_sign_out_sign_in_and_a_second_device(server: str, browser: Any) -> None:
    base = local(server)
    page = device(browser)
    # a guest's game on this device, and a seat's key that is no longer any table's
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    open_account(page, base + "/account")
    page.evaluate("([t, k]) => { localStorage.setItem('forties.seat.' + t, k);"
                  " localStorage.setItem('forties.seat.gone', 'no-such-key'); }",
                  [made["table"], made["token"]])
    assert page.is_visible("#signup") and not page.is_visible("#signed")
    page.fill("#signup-name", "Marie-Claire")
    with page.expect_response("**/api/account/claim") as claimed:
        page.click("#signup")
    page.wait_for_selector("#codes li")
    codes = page.locator("#codes li").all_inner_texts()
    assert len(codes) == 10 and all(len(c) == 11 for c in codes)
    said(page, "Welcome, Marie-Claire.")
    assert page.inner_text("#me-name") == "Marie-Claire"
    (kept,) = kept_passkeys(page)
    assert kept["isResidentCredential"] is True and kept["rpId"] == "localhost"
    # the device's seats went to the claim: the game's seat is the account's now
    sent = json.loads(claimed.value.request.post_data or "null")
    answer = claimed.value.json()
    assert sorted(sent["seats"], key=lambda s: s["table"]) == sorted(
        [{"table": made["table"], "token": made["token"]},
         {"table": "gone", "token": "no-such-key"}], key=lambda s: s["table"])
    assert answer["claimed"] == 1
    page.click("#codes-done")
    assert not page.is_visible("#codes-box")
    assert page.evaluate(NO_SIDEWAYS)
    assert page.locator("#keys li").count() == 1
    # the home page's header names the account
    page.goto(base + "/")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.inner_text("#account-link") == "Your account (Marie-Claire)"
    page.click("#account-link")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    # signed out, then in again with the same passkey (its counter moved on)
    page.click("#signout")
    said(page, "You are signed out on this device.")
    assert page.is_visible("#signin") and page.is_hidden("#signed")
    page.click("#signin")
    said(page, "Welcome, Marie-Claire.")
    assert page.inner_text("#me-name") == "Marie-Claire"
    assert kept_passkeys(page)[0]["signCount"] >= 1
    # a second device by the link the first one shows
    page.click("#device-new")
    page.wait_for_selector("#device-made", state="visible")
    link = page.input_value("#device-link")
    code = page.inner_text("#device-code")
    assert link == f"{base}/account/link#{code}"
    phone = device(browser)
    open_account(phone, link)
    assert phone.is_visible("#link-box") and phone.input_value("#link-code") == code
    phone.click("#link-go")
    said(phone, "This device is added to Marie-Claire's account, and signed in.")
    assert phone.inner_text("#me-name") == "Marie-Claire"
    assert len(kept_passkeys(phone)) == 1
    page.reload()
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.locator("#keys li").count() == 2
    assert page.locator("#sessions li").count() == 2
    # a third browser with no passkey signs in by a recovery code, then adds one
    third = device(browser)
    open_account(third, base + "/account")
    third.fill("#recover-name", "marie-claire")
    third.fill("#recover-code", codes[0].upper())
    third.click("#recover")
    third.wait_for_selector("#keys-add-note", state="visible")
    assert "9 recovery codes are left" in third.inner_text("#status")
    third.click("#keys-add")
    third.wait_for_function("document.querySelectorAll('#keys li').length === 3")
    assert third.is_hidden("#keys-add-note") and len(kept_passkeys(third)) == 1
    for p in (page, phone, third):
        assert p.errors == [] and p.evaluate("window.__violations") == []
        p.context.close()


def test_a_refusal_is_said_in_the_readers_words(server: str, browser: Any) -> None:
    page = device(browser, "fr")
    open_account(page, local(server) + "/account?lang=fr")
    page.fill("#signup-name", "x")
    page.click("#signup")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert page.inner_text("#error").startswith("Choisissez un nom de 2 à 24")
    page.fill("#signup-name", "\u0410nne")  # (a Cyrillic А beside Latin letters)
    page.click("#signup")
    page.wait_for_function(
        "document.getElementById('error').textContent.includes('un seul alphabet')")
    page.fill("#recover-name", "personne")
    page.fill("#recover-code", "abcde-fghjk")
    page.click("#recover")
    page.wait_for_function(
        "document.getElementById('error').textContent.includes('code de secours')")
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_axe_finds_nothing_on_the_account_page(server: str, browser: Any, lang: str) -> None:
    page = device(browser, lang)
    open_account(page, f"{local(server)}/account?lang={lang}")
    assert page.evaluate("document.documentElement.lang") == lang
    found = findings(page)
    page.set_viewport_size(PHONE)
    assert page.evaluate(NO_SIDEWAYS)
    page.fill("#signup-name", f"Axe {lang}")
    page.click("#signup")
    page.wait_for_selector("#codes li")
    page.click("#device-new")
    page.wait_for_selector("#device-made", state="visible")
    found += findings(page)  # signed in, the codes on show, a device's code made
    page.set_viewport_size(PHONE)
    assert page.evaluate(NO_SIDEWAYS)
    # the home page's header with its link to the account, a long name in it
    page.goto(f"{local(server)}/?lang={lang}")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert f"Axe {lang}" in page.inner_text("#account-link")
    found += findings(page)
    page.set_viewport_size(PHONE)
    assert page.evaluate(NO_SIDEWAYS)
    assert not found, "\n".join(found)
    assert page.errors == []
    page.context.close()


def test_opened_by_its_address_of_numbers_the_page_offers_its_name(server: str,
                                                                  browser: Any) -> None:
    page = device(browser)
    open_account(page, server + "/account#x")
    assert page.is_visible("#by-name")
    assert page.get_attribute("#by-name-link", "href") == local(server) + "/account#x"
    page.click("#by-name-link")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.url.startswith(local(server)) and page.is_hidden("#by-name")
    page.fill("#signup-name", "Numbers")
    page.click("#signup")
    page.wait_for_selector("#codes li")
    assert page.errors == []
    page.context.close()


def test_signing_up_by_keyboard_alone(server: str, browser: Any) -> None:
    """Tab to the name, type it, Tab to the button, Enter: the passkey is made, and the
    focus goes to the recovery codes' heading (a screen reader reads them next)."""
    page = device(browser)
    open_account(page, local(server) + "/account")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "signup-name":
            break
    assert page.evaluate("document.activeElement.id") == "signup-name"
    page.keyboard.type("Keyboard Kate")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "signup"
    page.keyboard.press("Enter")
    page.wait_for_selector("#codes li")
    page.wait_for_function("document.activeElement.id === 'codes-h'")
    said(page, "Welcome, Keyboard Kate.")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "codes-print"
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # I have kept them
    page.wait_for_function("document.activeElement.id === 'me-h'")
    assert page.is_hidden("#codes-box")
    assert page.errors == []
    page.context.close()
