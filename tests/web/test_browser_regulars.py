"""Regulars in Chromium: two accounts signed up with passkeys (virtual authenticators, as
tests/web/test_browser_passkeys.py does); the host follows the friend, makes a table,
and from its waiting panel invites the friend (online) to a seat; the friend's home page
shows the invitation in the reader's words, and taking it (by keyboard) seats the friend
there, with no link passed between them. axe finds nothing in the host's panel nor on the
friend's home page, which fits a 360-pixel phone (en, fr, ar)."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import PHONE, TABLET, catalog
from .test_axe import findings
from .test_browser_passkeys import NO_SIDEWAYS, device, local, open_account
from .test_browser_rated import panel_findings


def signed_up(browser: Any, base: str, lang: str, name: str, viewport: dict[str, int]
              ) -> tuple[Any, dict[str, Any]]:
    """A device signed up as ``name``: its page and its account."""
    page = device(browser, lang, viewport)
    open_account(page, f"{base}/account?lang={lang}")
    page.fill("#signup-name", name)
    page.click("#signup")
    page.wait_for_selector("#codes li")
    page.click("#codes-done")
    me = page.evaluate("fetch('/api/account').then((r) => r.json())")["account"]
    assert me["name"] == name
    return page, me


def post(page: Any, path: str, body: dict[str, Any]) -> Any:
    """A POST from the page itself (its session's cookie, its own origin)."""
    return page.evaluate(
        "([path, body]) => fetch(path, {method: 'POST', body: JSON.stringify(body), "
        "headers: {'Content-Type': 'application/json'}}).then(async (r) => "
        "({status: r.status, body: await r.json()}))", [path, body])


def fill(text: str, **params: Any) -> str:
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_the_host_invites_a_regular_from_the_waiting_panel_who_takes_the_seat_from_home(
        server: str, browser: Any, lang: str) -> None:
    words = catalog(lang)
    base = local(server)
    host, host_me = signed_up(browser, base, lang, f"Host {lang}", TABLET)
    friend, friend_me = signed_up(browser, base, lang, f"Friend {lang}", PHONE)
    # the friend's home page is open (online): none yet
    friend.goto(f"{base}/?lang={lang}")
    friend.wait_for_function("document.body?.dataset.ready === '1'")
    friend.wait_for_selector("#regulars-box", state="visible")
    assert friend.is_visible("#notices-none")
    # the host follows the friend (the players' pages have the button) and makes a table
    assert post(host, "/api/regulars/follow", {"account": friend_me["id"]})["status"] == 200
    made = post(host, "/api/tables", {"preset": "merrimack-valley", "name": host_me["name"],
                                      "level": "basic"})["body"]
    host.goto(f"{base}/t/{made['table']}?lang={lang}#token={made['token']}")
    host.wait_for_function("document.body?.dataset.ready === '1'")
    host.wait_for_selector("#regular-who")
    assert host.locator("#regular-who option").all_inner_texts() == [friend_me["name"]]
    assert host.locator("#regular-h").inner_text() == words["regulars.invite.heading"]
    host.select_option("#regular-seat", "2")
    host.click("#regular-invite")
    sent = fill(words["regulars.invite.sent"], name=friend_me["name"], seat=3)
    host.wait_for_function("(want) => document.getElementById('regular-said')"
                           ".textContent === want", arg=sent)
    assert panel_findings(host) == []
    host.set_viewport_size(PHONE)  # (the panel with its block on a 360-pixel phone)
    assert host.evaluate(NO_SIDEWAYS)
    host.set_viewport_size(TABLET)
    # the friend's home page shows the invitation (asked again, as it does every 20 s)
    friend.reload()
    friend.wait_for_function("document.body?.dataset.ready === '1'")
    notice = friend.locator("#notices li")
    notice.wait_for()
    assert notice.locator("span").first.inner_text() == fill(
        words["regulars.notice"], name=host_me["name"], seat=3,
        game=words["preset.merrimack-valley.title"])
    assert friend.is_hidden("#notices-none")
    assert findings(friend) == []
    friend.set_viewport_size(PHONE)
    assert friend.evaluate(NO_SIDEWAYS)
    # taken by keyboard: the friend's page goes to the seat, which is the friend's
    accept = notice.locator("button.primary")
    assert accept.inner_text() == words["regulars.accept"]
    accept.focus()
    friend.keyboard.press("Enter")
    friend.wait_for_url("**/t/**")
    friend.wait_for_function("document.body?.dataset.ready === '1'")
    host.wait_for_function("(name) => document.querySelector('#waiting li[data-seat=\"2\"]')"
                           ".textContent.includes(name)", arg=friend_me["name"])
    summary = friend.evaluate(f"fetch('/api/tables/{made['table']}').then((r) => r.json())")
    assert summary["seats"][2]["name"] == friend_me["name"]
    assert summary["seats"][2]["kind"] == "person"
    # the host's panel offers the seats still empty only (seats 2 and 4)
    host.wait_for_function("() => [...document.querySelectorAll('#regular-seat option')]"
                           ".map((o) => o.value).join() === '1,3'")
    assert not host.errors and not friend.errors
    host.context.close()
    friend.context.close()


def test_a_players_page_follows_and_blocks_them(server: str, browser: Any) -> None:
    """On another player's page, a signed-in visitor follows them (the home page then lists
    them among the regulars), stops, blocks them (the follow button goes, the page says what
    a block does) and unblocks them; a guest and the player on their own page see no
    buttons."""
    words = catalog("en")
    base = local(server)
    me, _ = signed_up(browser, base, "en", "Follower", TABLET)
    them, them_me = signed_up(browser, base, "en", "Followed", PHONE)
    # their own page: no buttons
    them.goto(f"{base}/players/{them_me['id']}")
    them.wait_for_function("document.body?.dataset.ready === '1'")
    assert them.locator("#regular-actions button").count() == 0
    me.goto(f"{base}/players/{them_me['id']}")
    me.wait_for_selector("#follow")
    assert me.inner_text("#follow") == fill(words["follow.follow"], name="Followed")
    assert me.get_attribute("#follow", "aria-pressed") == "false"
    me.click("#follow")
    me.wait_for_selector("#follow[aria-pressed='true']")
    assert me.inner_text("#follow-note") == fill(words["follow.following_note"],
                                                 name="Followed")
    listed = me.evaluate("fetch('/api/regulars').then((r) => r.json())")
    assert [r["id"] for r in listed["following"]] == [them_me["id"]]
    me.click("#follow")  # stop following
    me.wait_for_selector("#follow[aria-pressed='false']")
    me.click("#block")
    me.wait_for_selector("#block[aria-pressed='true']")
    assert me.locator("#follow").count() == 0
    assert me.inner_text("#follow-note") == fill(words["follow.blocked_note"], name="Followed")
    listed = me.evaluate("fetch('/api/regulars').then((r) => r.json())")
    assert [r["id"] for r in listed["blocked"]] == [them_me["id"]]
    assert findings(me) == []
    me.click("#block")  # unblock
    me.wait_for_selector("#follow[aria-pressed='false']")
    assert me.evaluate("fetch('/api/regulars').then((r) => r.json())")["blocked"] == []
    # a guest (another browser, no account) sees the page without buttons
    guest = device(browser, "en", PHONE)
    guest.goto(f"{base}/players/{them_me['id']}")
    guest.wait_for_function("document.body?.dataset.ready === '1'")
    assert guest.locator("#regular-actions button").count() == 0
