"""A newcomer finds the account from the home page and from a table, and comes back to the
table once signed up; a link to another site in the account page's address is not
followed; the empty pages of a new account say what fills them; French says "cote" for a
rating wherever it speaks of one.

Passkeys need the site's name: the pages are opened as ``localhost`` with a virtual
authenticator (test_browser_passkeys.device)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.history_helpers import set_rating

from .pages import new_page, over, play_until, post, wait_ready
from .test_browser_history import Site, signed_in, site
from .test_browser_passkeys import NO_SIDEWAYS, device, local, open_account

__all__ = ["site"]  # (the history pages' site, with its rated player, a fixture here too)
LOCALE = Path(__file__).resolve().parents[2] / "src" / "forties" / "web" / "locale"


def open_more(page: Any) -> None:
    page.click("#b-more")
    page.wait_for_selector("#b-account", state="visible")


def test_a_guest_makes_an_account_from_the_table_and_comes_back_to_it(
        server: str, browser: Any) -> None:
    base = local(server)
    page = device(browser)
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                      "name": "Gérard"})
    page.goto(base + made["url"])
    page.wait_for_selector("body[data-conn='open']", state="attached")
    open_more(page)
    page.wait_for_function("document.getElementById('b-account').textContent"
                           " === 'Make an account'")
    assert page.get_attribute("#b-account", "href") == (
        f"/account?back=%2Ft%2F{made['table']}")
    page.click("#b-account")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.inner_text("#home-link") == "Back to your table"
    assert page.get_attribute("#home-link", "href") == f"/t/{made['table']}"
    page.fill("#signup-name", "Gérard LeBlanc")
    with page.expect_response("**/api/account/claim") as claimed:
        page.click("#signup")
    page.wait_for_selector("#codes li")
    assert claimed.value.json()["claimed"] == 1  # this table's seat is the account's now
    assert page.url.startswith(base + "/account")  # the codes are read before leaving
    page.click("#codes-done")
    page.wait_for_url(f"{base}/t/{made['table']}")
    # back in the same seat, and the link now names the account
    page.wait_for_selector("body[data-conn='open']", state="attached")
    page.wait_for_function("document.body?.dataset.mine !== undefined")
    open_more(page)
    page.wait_for_function("document.getElementById('b-account').textContent"
                           " === 'Your account'")
    # signed out, then in again from the table: back at the table at once
    page.goto(base + "/account")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    page.click("#signout")
    page.goto(f"{base}/account?back=/t/{made['table']}")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    page.click("#signin")
    page.wait_for_url(f"{base}/t/{made['table']}")
    assert page.errors == []
    page.context.close()


def test_a_finished_game_offers_a_guest_an_account(server: str, browser: Any) -> None:
    """A guest's game over (a game to 5: a hand or two) offers to make an account, coming
    back to this table."""
    page = new_page(browser, {"width": 360, "height": 740}, "fr")
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                      "options": {"target": 5}})
    page.goto(f"{server}{made['url'].replace('#', '?lang=fr#')}")
    wait_ready(page)
    for _ in range(6):
        play_until([page], lambda: over(page), limit=90, bidder=True)
        page.wait_for_selector("#review:not([hidden])")
        if page.evaluate("document.body.dataset.phase === 'game-over'"
                         " || !!document.getElementById('summary')"):
            break
        page.click("#ready")
        page.wait_for_function("document.body?.dataset.phase === 'auction'")
    page.wait_for_selector("#account-keep")
    assert page.inner_text("#account-keep") == "Créez un compte pour garder cette partie"
    assert page.get_attribute("#account-keep", "href") == (
        f"/account?back=%2Ft%2F{made['table']}")
    page.context.close()


@pytest.mark.parametrize("n, back", list(enumerate(["https://example.com/t/x", "//example.com/t/x",
                                               "/t/../../account", "javascript:alert(1)",
                                               "/t/a%20b"])))
def test_the_way_back_goes_only_to_a_table_of_this_site(server: str, browser: Any, n: int,
                                                        back: str) -> None:
    page = device(browser)
    open_account(page, f"{local(server)}/account?back={back}")
    assert page.get_attribute("#home-link", "href") == "/"
    assert page.inner_text("#home-link") == "Back to the games"
    page.fill("#signup-name", f"Nowhere Else {n}")
    page.click("#signup")
    page.wait_for_selector("#codes li")
    page.click("#codes-done")
    page.wait_for_function("document.activeElement.id === 'me-h'")
    assert page.url.startswith(local(server) + "/account")
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_the_home_page_offers_to_make_an_account_on_a_phone(server: str, browser: Any,
                                                           lang: str) -> None:
    page = device(browser, lang)
    page.goto(f"{local(server)}/?lang={lang}")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.inner_text("#account-link") == {
        "en": "Sign in or make an account", "fr": "Se connecter ou créer un compte",
        "ar": "الدخول أو إنشاء حساب"}[lang]
    assert page.evaluate(NO_SIDEWAYS)
    assert page.is_hidden("#games-link")  # a guest has no games of an account
    page.click("#account-link")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.is_visible("#signup")
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_my_games_is_called_the_same_wherever_it_is_offered(server: str, browser: Any,
                                                           lang: str) -> None:
    """Signed in, the home page and the account page offer My games by the name its own
    page bears (in Arabic, matches played: not "games" as in kinds of game)."""
    base = local(server)
    page = device(browser, lang)
    open_account(page, f"{base}/account?lang={lang}")
    page.fill("#signup-name", f"Habitué {lang}")
    page.click("#signup")
    page.wait_for_selector("#codes li")
    page.click("#codes-done")
    on_account = page.inner_text("#signed a[href='/me/games']")
    hide = page.inner_text("label.check:has(#privacy)")
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.is_visible("#games-link")
    on_home = page.inner_text("#games-link")
    assert page.evaluate(NO_SIDEWAYS)
    page.click("#games-link")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    heading = page.inner_text("h1")
    assert on_account == on_home == heading == {
        "en": "My games", "fr": "Mes parties", "ar": "مبارياتي"}[lang]
    assert {"en": "my games", "fr": "mes parties", "ar": "مبارياتي"}[lang] in hide
    page.context.close()


def test_a_new_accounts_empty_pages_say_what_fills_them(server: str, browser: Any) -> None:
    page = device(browser, "fr")
    open_account(page, f"{local(server)}/account?lang=fr")
    page.fill("#signup-name", "Rose Doucet")
    page.click("#signup")
    page.wait_for_selector("#codes li")
    page.goto(f"{local(server)}/me/games?lang=fr")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.is_visible("#empty")
    assert "les parties que vous terminez une fois connecté" in page.inner_text("#empty")
    me = page.evaluate("fetch('/api/account').then((r) => r.json())")["account"]["id"]
    page.goto(f"{local(server)}/players/{me}?lang=fr")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert "l'hôte coche « Partie classée » avant le début" in page.inner_text("main")
    assert page.evaluate(NO_SIDEWAYS)
    page.context.close()


def test_french_calls_a_rating_a_cote() -> None:
    """The history pages say "cote" for a rating and "classement" for a leaderboard; the
    waiting panel, a rated table's refusal and the account's deletion say the same."""
    text = (LOCALE / "fr.po").read_text(encoding="utf-8")
    entries = dict(re.findall(r'^msgid "(.*)"\nmsgstr "(.*)"$', text, flags=re.M))
    for key in ("waiting.rated_yes", "waiting.rated_no", "error.code.rated_house_rules",
                "account.data.delete_help"):
        assert "classement" not in entries[key] and "cote" in entries[key], key


@pytest.fixture(scope="module")
def one_game(site: Site) -> Site:
    """The history pages' site, where Paul has played his first rated game of Forty One."""
    set_rating(site.store, site.paul.id, "forty-one", 25.0, 8.0, 1, time.time(),
               history=[(time.time(), 1500.0)])
    return site


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_the_rating_charts_caption_counts_its_games_in_good_grammar(
        browser: Any, one_game: Site, lang: str) -> None:
    """A chart's caption (what a screen reader says of it) counts the rated games as each
    language counts: one game in the singular, and Arabic's count in a form right for any
    number (not "4 مباراة")."""
    page = signed_in(browser, one_game, lang)
    page.goto(f"{one_game.url}/players/{one_game.me.id}?lang={lang}")
    wait_ready(page)
    assert page.inner_text("figcaption") == {
        "en": "Auction 45: 4 rated games, from 1400 to 1600.",
        "fr": "Le 45 aux enchères\u00a0: 4 parties classées, de 1400 à 1600.",
        "ar": "45 بالمزاد: عدد المباريات المصنّفة 4، من 1400 إلى 1600."}[lang]
    page.goto(f"{one_game.url}/players/{one_game.paul.id}?lang={lang}")
    wait_ready(page)
    assert page.inner_text("figcaption") == {
        "en": "Forty One: 1 rated game, at 1500.",
        "fr": "Quarante et un\u00a0: 1 partie classée, à 1500.",
        "ar": "واحد وأربعين: عدد المباريات المصنّفة 1، بتصنيف 1500."}[lang]
    page.context.close()
