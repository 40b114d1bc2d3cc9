"""A season's days are the club's own days (its time zone, the director's device's when
it was set up), not UTC's: a New England club's Friday evening at 19:30 is 00:30 UTC on
Saturday, and a season ending on Friday counts it, under Friday's date; one at 21:00 the
evening before the first day does not count. A season set up without a zone reads its
days in UTC (as before); a zone that is not one is refused in one line."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.clubs_helpers import Person, client
from tests.hostile.conftest import refused
from tests.seasons_helpers import CAMPBELL, DOYLE, make_evening, play

__all__ = ["client"]


def season(person: Person, club: str, **more: object) -> dict[str, object]:
    made = person.ok(f"/api/clubs/{club}/seasons", {
        "name": "Fall", "starts": "2026-09-01", "ends": "2026-12-31", **more})
    got = person.get(f"/api/clubs/{club}/seasons/{made['season']['id']}")
    assert got.status_code == 200, got.text
    return {"made": made["season"], **got.json()}


def test_a_seasons_days_are_its_time_zones(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    # (in UTC, as the club's page sends them: 19:30 and 21:00 in New York)
    last = make_evening(ann, club, "2027-01-01T00:30", title="New Year's Eve")  # Dec 31
    before = make_evening(ann, club, "2026-09-01T01:00", title="Too soon")  # Aug 31
    for ev in (last, before):
        play(client, *ev, [DOYLE, CAMPBELL])
    ny = season(ann, club, zone="America/New_York")
    assert ny["made"]["zone"] == ny["season"]["zone"] == "America/New_York"  # type: ignore[index]
    assert [(e["title"], e["date"]) for e in ny["evenings"]] == [  # type: ignore[attr-defined]
        ("New Year's Eve", "2026-12-31")]
    # the same dates in UTC: the other evening, under the next day's date
    utc = season(ann, club)
    assert utc["season"]["zone"] == "UTC"  # type: ignore[index]
    assert [(e["title"], e["date"]) for e in utc["evenings"]] == [  # type: ignore[attr-defined]
        ("Too soon", "2026-09-01")]


def test_a_zone_that_is_not_one_is_refused(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    body = {"name": "Fall", "starts": "2026-09-01", "ends": "2026-12-31"}
    for bad in ("Mars/Olympus", "../../etc/passwd", "/etc/localtime", "", 5, ["UTC"],
                "America/" + "x" * 80, "Europe/Paris\n", "Amérique/Halifax", "."):
        r = ann.post(f"/api/clubs/{club}/seasons", {**body, "zone": bad})
        assert "time zone" in refused(r, 400), bad
    assert ann.get(f"/api/clubs/{club}/seasons").json()["seasons"] == []
