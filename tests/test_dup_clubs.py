"""A duplicate session made from a club: only by a signed-in director of the club; the
club's house rules are its game unless it names one; it enters the club's calendar
(kind "duplicate"); the club's signed-in directors direct it without its key, a member
or another club's director does not."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.clubs_helpers import Person, client

__all__ = ["client"]

PAIRS = [{"name": n} for n in ("Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal")]


def session(person: Person, club: str, **body: Any) -> Any:
    return person.post("/api/dup", {"club": club, "boards": 4, "partnerships": PAIRS,
                                    "title": "Tuesday pairs", "when": "2099-06-01T19:30",
                                    **body})


def test_a_clubs_director_makes_a_session_in_its_calendar_with_its_rules(
        client: TestClient) -> None:
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    club = ann.make_club(preset="auction-45", options={"lock_at": None})
    bob.join(club, ann.invite(club))
    eve.make_club("Eve's")
    for who in (bob, eve):  # a member; another club's director
        assert session(who, club).status_code == 403
    r = client.post("/api/dup", json={"club": club, "boards": 4, "partnerships": PAIRS})
    assert r.status_code == 403  # (nobody signed in)
    r = session(ann, club)
    assert r.status_code == 200, r.text
    sid = r.json()["session"]
    doc = client.get(f"/api/dup/{sid}/export/json").json()
    assert doc["rules"] == {"preset": "auction-45", "options": {"lock_at": None}}
    assert client.get(f"/api/dup/{sid}").json()["club"] == club
    page = ann.club(club)
    assert [(e["kind"], e["title"], e["url"], e["where"]) for e in page["upcoming"]] == [
        ("duplicate", "Tuesday pairs", f"/dup/{sid}", "hall")]
    # the club's director directs it without the key; the member does not
    tables = r.json()["report"].split("#key=")[1]
    assert ann.post(f"/api/dup/{sid}/director", {}).json()["role"] == "director"
    assert bob.post(f"/api/dup/{sid}/director", {}).status_code == 403
    assert ann.post(f"/api/dup/{sid}/slips", {}).status_code == 200
    assert eve.post(f"/api/dup/{sid}/slips", {}).status_code == 403
    report = {"key": tables, "board": 1, "table": 1, "ns": 20, "ew": 10}
    assert bob.post(f"/api/dup/{sid}/report", report).status_code == 200
    fix = {"board": 1, "table": 1, "ns": 25, "ew": 5}
    assert bob.post(f"/api/dup/{sid}/correct", fix).status_code == 403
    assert ann.post(f"/api/dup/{sid}/correct", fix).status_code == 200


def test_a_club_whose_rules_are_no_duplicate_game_names_one(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()  # (Nova Scotia 45s: no partnerships of two)
    r = session(ann, club)
    assert r.status_code == 400 and "duplicate game" in r.json()["error"]
    r = session(ann, club, game="forty-one", when=None)
    assert r.status_code == 200, r.text
    assert client.get(f"/api/dup/{r.json()['session']}").json()["game"] == "forty-one"
    assert session(ann, club, when="tomorrow").status_code == 400
    assert session(ann, "no-such-club").status_code == 403
    assert session(ann, "../x").status_code == 404
