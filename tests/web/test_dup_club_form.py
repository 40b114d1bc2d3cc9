"""A club's director starts a duplicate session from the club's page, on a 360-pixel
phone, by keyboard where a person would type: the form offers the club's members'
names for the partnerships (a guest's name typed as it is), takes the club's game, and
puts the session in the club's calendar at the date and time chosen (by the director's
own clock: a director in Halifax typing 18:45 means 22:45 UTC), with its link; the form
fits the phone and axe finds nothing on it, in English, French and Arabic (one director
signed up once, one browser context)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from .test_accessibility import SPILT
from .test_axe import findings
from .test_browser_passkeys import local
from .test_browser_regulars import post, signed_up


def test_a_club_director_makes_a_session_in_the_calendar(server: str, browser: Any) -> None:
    base = local(server)
    director, _ = signed_up(browser, base, "en", "Organizer of Pairs",
                            {"width": 360, "height": 740})
    # (the director's device keeps Halifax's time: winter there, UTC-4)
    director.context.new_cdp_session(director).send(
        "Emulation.setTimezoneOverride", {"timezoneId": "America/Halifax"})
    club = post(director, "/api/clubs", {"name": "Thursday Pairs", "preset": "auction-45"})
    club_id = club["body"]["club"]
    for lang in ("fr", "ar", "en"):
        director.goto(f"{base}/dup?club={club_id}&lang={lang}")
        director.wait_for_selector("#club-when:not([hidden])")
        director.wait_for_function("document.body?.dataset.ready === '1'")
        assert director.input_value("#game") == "auction-45"
        # the members' names are offered for the partnerships
        assert director.eval_on_selector_all(
            "#member-names option", "os => os.map(o => o.value)") == ["Organizer of Pairs"]
        assert director.get_attribute(".pair-name >> nth=0", "list") == "member-names"
        assert director.evaluate(SPILT) == [], lang
        assert findings(director) == [], lang
    director.fill("#boards", "3")
    director.fill("#when-date", "2031-03-06")
    director.fill("#when-time", "18:45")
    director.locator(".pair-name").nth(0).focus()
    for i, name in enumerate(("Organizer of Pairs & Guest One", "Cy & Di", "Ed & Flo",
                              "Gus & Hal")):
        director.keyboard.type(name)
        if i < 3:
            director.locator(".pair-name").nth(i + 1).focus()
    director.keyboard.press("Enter")  # (the form is sent from the keyboard)
    director.wait_for_url("**/director")
    sid = director.url.split("/dup/")[1].split("/")[0]
    info = director.evaluate(f"fetch('/api/clubs/{club_id}').then((r) => r.json())")
    event = next(e for e in info["upcoming"] if e["ref"] == sid)
    assert event["kind"] == "duplicate"
    assert event["at"] == datetime(2031, 3, 6, 18, 45,
                                   tzinfo=ZoneInfo("America/Halifax")).timestamp()
    assert event["at"] == datetime.fromisoformat("2031-03-06T22:45Z").timestamp()
    session = director.evaluate(f"fetch('/api/dup/{sid}').then((r) => r.json())")
    assert session["partnerships"][0]["name"] == \
        "Organizer of Pairs & Guest One"
    director.goto(f"{base}/club/{club_id}")
    director.wait_for_function("document.body?.dataset.ready === '1'")
    assert director.get_attribute(f"#upcoming li[data-event='{sid}'] a.direct",
                                  "href") == f"/dup/{sid}/director"
    assert not director.errors  # type: ignore[attr-defined]
    director.context.close()
