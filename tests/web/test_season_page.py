"""A club's season in Chromium at a phone's 360 px, in English and French: the standings
(each couple's names, total and evenings), an evening still being played marked so, and
so a tie for first place still level until it is over, nothing pushed sideways, axe
finding nothing; the projector's page in big type with no controls; a director setting a
season up with the form on a phone, then changing it in French (by keyboard, the form
filled in as the season is). The club, its evenings and its season are made in process
over the server's database file, then the real server serves it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.accounts import COOKIE
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from tests.clubs_helpers import Person
from tests.seasons_helpers import CAMPBELL, DOYLE, GILLIS, ROSS, make_evening, make_season, play

from .conftest import serving
from .pages import PHONE, catalog, new_page
from .test_axe import findings


@pytest.fixture(scope="module")
def season_at(tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[tuple[str, str, str]]:
    """A running server, the path of a season of two evenings over and one in play (its
    first place tied between Doyle and Campbell), and its club's director's session key."""
    folder = tmp_path_factory.mktemp("season")
    limits = Limits(par=False, **Rates.lifted())
    app = create_app(ServerSettings(db_url=f"sqlite:///{folder / 'tables.db'}",
                                    limits=limits))
    with TestClient(app) as client:
        ann = Person(client, "Ann")
        club = ann.make_club("Glace Bay 45s")
        # two couples: the one dealing first wins the first evening, the other the second
        play(client, *make_evening(ann, club, "2025-10-03T19:30"), [DOYLE, CAMPBELL])
        play(client, *make_evening(ann, club, "2025-10-10T19:30"), [CAMPBELL, DOYLE])
        eid, key = make_evening(ann, club, "2025-10-17T19:30", games=3)
        play(client, eid, key, [ROSS, GILLIS], games=1)
        sid = make_season(ann, club, starts="2025-10-01", ends="2025-10-31", name="Autumn")
    with serving(folder, limits) as url:
        yield url, f"/club/{club}/season/{sid}", ann.key


def no_sideways(page: Any) -> bool:
    return bool(page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_standings_on_a_phone(browser: Any, season_at: tuple[str, str, str],
                                  lang: str) -> None:
    url, path, _ = season_at
    words = catalog(lang)
    page = new_page(browser, PHONE, lang)
    page.goto(f"{url}{path}?lang={lang}")
    page.wait_for_selector("#season-standings tbody tr")
    assert page.inner_text("#title") == "Autumn"
    assert page.inner_text("#standings-h") == words["season.standings"]
    rows = page.eval_on_selector_all(
        "#season-standings tbody tr", "(rs) => rs.map((r) => [...r.cells].map((c) => c.innerText))")
    # level on 2 games each (2 + 0, 0 + 2): both first, until the season is over
    assert [r[0] for r in rows] == ["1", "1"]
    assert {r[1].split("\n")[0] for r in rows} == {" & ".join(DOYLE), " & ".join(CAMPBELL)}
    assert [r[2] for r in rows] == ["2", "2"]
    assert all(words["season.row.evenings"].replace("{n}", "2") in r[1] for r in rows)
    ties = page.inner_text("#ties")
    assert words["season.tie.later.cut"] in ties
    states = page.eval_on_selector_all("#evenings li", "(ls) => ls.map((l) => l.dataset.state)")
    assert states == ["over", "over", "playing"]
    assert words["season.evening.playing"] in page.inner_text("#evenings")
    assert no_sideways(page)
    found = findings(page)
    assert not found, "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_projector_page_is_big_and_has_no_controls(browser: Any,
                                                       season_at: tuple[str, str, str]) -> None:
    url, path, _ = season_at
    page = new_page(browser, {"width": 1280, "height": 720})
    page.goto(f"{url}{path}/projector")
    page.wait_for_selector("#season-standings tbody tr")
    assert page.evaluate("() => document.body.classList.contains('projector')")
    assert not page.is_visible("#links-box") and not page.is_visible("#lang")
    size = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 30
    # ?projector=1 is the same page
    page.goto(f"{url}{path}?projector=1")
    page.wait_for_selector("#season-standings tbody tr")
    assert not page.is_visible("#links-box")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_director_sets_a_season_up_on_a_phone(browser: Any,
                                                season_at: tuple[str, str, str]) -> None:
    url, path, key = season_at
    club = path.split("/")[2]
    page = new_page(browser, PHONE, zone="America/Halifax")  # (the season's days: Halifax's)
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    page.context.add_cookies([{"name": COOKIE, "value": key, "url": url}])
    page.goto(f"{url}/club/{club}/seasons")
    page.wait_for_selector("#new-box:not([hidden])")
    assert no_sideways(page)
    found = findings(page)
    assert not found, "\n".join(found)
    page.fill("#new input[name=name]", "Spring")
    page.fill("#new input[name=starts]", "2025-10-01")
    page.fill("#new input[name=ends]", "2025-10-09")
    page.select_option("#new select[name=counted]", "best")
    page.fill("#new input[name=best]", "1")
    page.select_option("#new select[name=ties]", "split")
    page.click("#new button[type=submit]")
    page.wait_for_url("**/season/**")
    page.wait_for_selector("#season-standings tbody tr")
    assert page.inner_text("#title") == "Spring"
    # only the first evening falls in it: Doyle won both its games
    rows = page.eval_on_selector_all(
        "#season-standings tbody tr", "(rs) => rs.map((r) => [...r.cells].map((c) => c.innerText))")
    assert [(r[0], r[1].split("\n")[0], r[2]) for r in rows] == [
        ("1", " & ".join(DOYLE), "2"), ("2", " & ".join(CAMPBELL), "0")]
    assert "best evening" in page.inner_text("#rule")
    listed = page.evaluate(f"fetch('/api/clubs/{club}/seasons').then((r) => r.json())")
    assert [s["zone"] for s in listed["seasons"] if s["name"] == "Spring"] == [
        "America/Halifax"]
    # then changed, in French: the form filled in with the season as it is
    season = page.url
    page.goto(f"{url}/club/{club}/seasons?lang=fr")
    words = catalog("fr")
    page.wait_for_selector("#seasons li")
    sid = season.split("/")[-1]
    page.focus(f"[data-edit='{sid}']")
    page.keyboard.press("Enter")  # (by keyboard: the name's field takes the focus)
    page.wait_for_selector("#edit-box:not([hidden])")
    assert page.evaluate("() => document.activeElement.name") == "name"
    form = page.eval_on_selector("#edit", "(f) => Object.fromEntries(['name', 'starts', "
                                 "'ends', 'counted', 'best', 'ties', 'prizes', 'zone']"
                                 ".map((k) => [k, f.elements.namedItem(k).value]))")
    assert form == {"name": "Spring", "starts": "2025-10-01", "ends": "2025-10-09",
                    "counted": "best", "best": "1", "ties": "split", "prizes": "3",
                    "zone": "America/Halifax"}
    assert page.inner_text("#edit button[type=submit]") == words["seasons.save"]
    assert no_sideways(page)
    found = findings(page)
    assert not found, "\n".join(found)
    # a refusal is shown by the button pressed, on the screen, not at the page's top
    page.fill("#edit input[name=ends]", "2025-09-01")  # (before its first day)
    page.click("#edit button[type=submit]")
    page.wait_for_function("() => document.getElementById('edit-error').textContent !== ''")
    assert page.inner_text("#edit-error") == "a season ends on or after the day it starts"
    assert page.evaluate("() => { const r = document.getElementById('edit-error')"
                         ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= "
                         "innerHeight; }")
    assert page.inner_text("#error") == ""
    page.fill("#edit input[name=name]", "Printemps")
    page.fill("#edit input[name=ends]", "2025-10-31")
    page.select_option("#edit select[name=counted]", "all")
    page.click("#edit button[type=submit]")
    page.wait_for_url(season)  # (the same page: its address stays)
    page.wait_for_function("() => document.getElementById('title').textContent === 'Printemps'")
    # every evening, the second one in: 2 + 0 and 0 + 2, level first
    rows = page.eval_on_selector_all(
        "#season-standings tbody tr", "(rs) => rs.map((r) => [...r.cells].map((c) => c.innerText))")
    assert sorted((r[0], r[1].split("\n")[0], r[2]) for r in rows) == [
        ("1", " & ".join(CAMPBELL), "2"), ("1", " & ".join(DOYLE), "2")]
    assert words["season.rule.all"] in page.inner_text("#rule")
    assert not [m for m in said if "Content Security Policy" in m]
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_projector_left_open_clears_a_passing_error(browser: Any,
                                                        season_at: tuple[str, str, str]
                                                        ) -> None:
    """The hall's screen stays up all evening: one answer that failed (a restart) said so,
    and the next that came (the season unchanged: ``{"same": true}``) left it on the screen
    for good. The page's clock is the test's: no waiting."""
    url, path, _ = season_at
    page = new_page(browser, {"width": 1280, "height": 720})
    page.clock.install()
    asked: list[str] = []

    def answer(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) == 2:
            route.fulfill(status=503, json={"error": "the server is restarting"})
        else:
            route.continue_()
    page.route("**/api/clubs/*/seasons/*", answer)
    page.goto(f"{url}{path}/projector")
    page.wait_for_selector("#season-standings tbody tr")
    page.clock.run_for(10_000)
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    page.clock.run_for(10_000)
    page.wait_for_function("() => document.getElementById('error').textContent === ''")
    assert len(asked) == 3 and "since=" in asked[2]  # (the unchanged season: "same")
    page.context.close()
