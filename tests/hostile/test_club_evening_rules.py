"""An evening made from a club's page with options of its own and no preset: they are the
club's game's options, on top of the club's house rules; never dropped in silence for
the club's (an evening asked to 90 was made to the club's 120), and an option out of
bounds is refused in one line with no evening made and nothing in the calendar."""

from __future__ import annotations

import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web.account_schema import club_events_t
from tests.clubs_helpers import Person, run

from .conftest import refused

SOON = "2099-06-01T19:30"


def counts(client: TestClient) -> tuple[int, int]:
    def work(conn: sa.Connection) -> tuple[int, int]:
        halls = conn.execute(sa.text(
            "SELECT COUNT(*) FROM documents WHERE kind = 'hall'")).scalar()
        events = conn.execute(sa.select(sa.func.count()).select_from(club_events_t)).scalar()
        return int(halls or 0), int(events or 0)
    return tuple(run(client, work))  # type: ignore[return-value]


def evening(ann: Person, club: str, **more: object) -> object:
    return ann.post(f"/api/clubs/{club}/evenings",
                    {"title": "Friday", "when": SOON, "where": "hall", **more})


def test_an_evenings_own_options_go_over_the_clubs(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club(preset="nova-scotia", options={"target": 120, "robbing": False})
    r = evening(ann, club, options={"target": 90})
    assert r.status_code == 200, r.text
    rules = client.get(f"/api/hall/{r.json()['evening']}").json()["settings"]["rules"]
    assert rules == {"preset": "nova-scotia", "options": {"robbing": False, "target": 90}}


def test_an_evenings_options_out_of_bounds_are_refused(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club(preset="nova-scotia", options={"target": 120})
    for options in ({"target": 10**20}, {"target": -5}, {"nope": 1}, ["x"]):
        assert refused(evening(ann, club, options=options))
    assert counts(client) == (0, 0)
