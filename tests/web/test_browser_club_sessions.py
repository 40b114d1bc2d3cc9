"""A club's duplicate session, directed as its evenings are (docs/clubs.md: "Every director
of the club directs the club's evenings while signed in: the calendar's Direct link opens
the evening's director page with no key"): the session a director makes from the club
is in its calendar with a Direct link, whose director's page and board slips open signed
in with no key; a guest opening the same address is told, in the page's language, to
open the director's link."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import PHONE, catalog, new_page
from .test_browser_passkeys import local
from .test_browser_regulars import post, signed_up


def ready(page: Any) -> None:
    page.wait_for_function("document.body?.dataset.ready === '1'")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_clubs_session_is_directed_from_its_calendar_with_no_key(
        server: str, browser: Any, lang: str) -> None:
    words = catalog(lang)
    base = local(server)
    director, _ = signed_up(browser, base, lang, f"Session Director {lang}", PHONE)
    made = post(director, "/api/clubs", {"name": f"Pairs Club {lang}"})["body"]
    club = made["club"]
    got = post(director, "/api/dup", {
        "club": club, "when": "2099-03-01T19:00", "game": "auction-45", "boards": 4,
        "title": f"Pairs night {lang}",
        "partnerships": [{"name": n} for n in ("Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal")]})
    assert got["status"] == 200, got
    sid = got["body"]["session"]
    director.goto(f"{base}/club/{club}?lang={lang}")
    ready(director)
    link = director.locator(f"#upcoming li[data-event='{sid}'] a.direct")
    assert link.get_attribute("href") == f"/dup/{sid}/director"
    link.click()
    director.wait_for_url(f"**/dup/{sid}/director")
    director.wait_for_selector("#links #link-slips")
    assert director.inner_text("#error") == ""
    director.click("#link-slips")
    director.wait_for_url(f"**/dup/{sid}/print/slips")
    ready(director)
    assert director.locator(".slip").count() == 4
    assert director.inner_text("#error") == ""
    # a guest at the same addresses: told to open the director's link, in its language
    guest = new_page(browser, PHONE, lang)
    for path, shown in ((f"/dup/{sid}/director", "#links li"),
                        (f"/dup/{sid}/print/slips", ".slip")):
        guest.goto(f"{base}{path}?lang={lang}")
        guest.wait_for_function("(t) => document.getElementById('error').textContent === t",
                                arg=words["dup.nokey.director"])
        assert guest.locator(shown).count() == 0
    assert not director.errors and not guest.errors  # type: ignore[attr-defined]
    director.context.close()
    guest.context.close()
