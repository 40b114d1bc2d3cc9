"""A club in Chromium, on a 360-pixel phone, in English and French: a director signs up
and makes a club; a friend, a guest on a second device, opens its invite link, is sent
to make an account and comes back to join it (by keyboard), and makes a table by the
club's house rules; the director adds an evening
to the calendar and directs it from there, with no key in the link. axe finds nothing on
the club's page as its director sees it, and nothing on it scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import PHONE, catalog
from .test_axe import findings
from .test_browser_passkeys import NO_SIDEWAYS, device, local, said
from .test_browser_regulars import fill, signed_up


def ready(page: Any) -> None:
    page.wait_for_function("document.body?.dataset.ready === '1'")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_director_makes_a_club_invites_a_member_and_adds_an_evening(
        server: str, browser: Any, lang: str) -> None:
    words = catalog(lang)
    base = local(server)
    director, _ = signed_up(browser, base, lang, f"Director {lang}", PHONE)
    # the club, made from My clubs
    director.goto(f"{base}/clubs?lang={lang}")
    ready(director)
    assert director.is_visible("#mine-none")
    director.fill("#new-name", f"Tuesday Club {lang}")
    director.fill("#new-target", "120")
    director.click("#new-go")
    director.wait_for_url("**/club/*")
    ready(director)
    club = director.url.split("/club/")[1].split("?")[0]
    assert director.inner_text("#heading") == f"Tuesday Club {lang}"
    assert director.inner_text("#you") == fill(words["club.you"],
                                               role=words["club.role.director"])
    # a label's colon as the language writes it (French: "Objectif : 120")
    assert director.inner_text("#rules-changes") == \
        f"{words['option.target.label']}{words['colon']}120"
    assert director.inner_text("#rules-line") == director.inner_text("#rules-preset") + \
        words["colon"] + director.inner_text("#rules-summary")
    # an invite link, opened by a guest on another device
    director.click("#invite-go")
    said(director, words["club.invite.made"])
    link = director.input_value("#invite-link")
    assert f"/club/{club}/join#key=" in link
    friend = device(browser, lang, PHONE)
    friend.goto(link.replace("#", f"?lang={lang}#"))
    ready(friend)
    assert "#key=" not in friend.url  # (kept on the device, out of the address)
    assert friend.inner_text("#guest-h") == words["club.guest.heading"]
    friend.click("#guest-link")
    ready(friend)
    friend.fill("#signup-name", f"Club Friend {lang}")
    friend.click("#signup")
    friend.wait_for_selector("#codes li")
    friend.click("#codes-done")  # back to the invite link, signed in
    friend.wait_for_url(f"**/club/{club}/join*")
    ready(friend)
    assert friend.inner_text("#join-text") == fill(words["club.join.text"],
                                                   name=f"Tuesday Club {lang}")
    friend.focus("#join-go")
    friend.keyboard.press("Enter")
    friend.wait_for_url(f"**/club/{club}")
    ready(friend)
    assert friend.inner_text("#you") == fill(words["club.you"],
                                             role=words["club.role.member"])
    assert friend.is_hidden("#evening-box") and friend.is_hidden("#invite-box")
    # a member's table, by the house rules
    friend.click("#table-go")
    friend.wait_for_url("**/t/*")
    table = friend.url.split("/t/")[1].split("#")[0].split("?")[0]
    made = friend.evaluate("(t) => fetch('/api/tables/' + t).then((r) => r.json())", table)
    assert made["target"] == 120 and made["preset"] == "nova-scotia"
    friend.goto(f"{base}/club/{club}")
    # an evening in the calendar, directed from there without the evening's key
    director.reload()
    ready(director)
    assert director.locator("#people li").count() == 2
    director.fill("#evening-title", f"Friday {lang}")
    director.fill("#evening-date", "2099-06-01")
    director.fill("#evening-time", "19:30")
    director.click("#evening-go")
    said(director, words["club.evening.made"])
    item = director.locator("#upcoming li")
    assert item.count() == 1 and f"Friday {lang}" in item.inner_text()
    assert director.evaluate(NO_SIDEWAYS)
    assert findings(director) == []
    director.set_viewport_size(PHONE)
    friend.reload()
    ready(friend)
    assert friend.locator("#upcoming li a.direct").count() == 0  # (a member directs none)
    director.click("#upcoming li a.direct")
    director.wait_for_url("**/director")
    director.wait_for_selector("#links a")
    director.fill("#name-a", "Ada")
    director.fill("#name-b", "Bea")
    director.click("#add")
    director.wait_for_function("document.getElementById('added').textContent !== ''")
    assert director.inner_text("#error") == ""
    assert not director.errors and not friend.errors
    director.context.close()
    friend.context.close()
