"""Hostile clients against the clubs' routes (``forties.web.club_api``): another site's
forged requests, a director of another club, guessed invite keys, malformed and huge
bodies, odd names and ids, floods past the limits a minute; each refused in one line,
with no row of the clubs' tables changed."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web.account_schema import (
    club_events_t,
    club_invites_t,
    club_members_t,
    club_seasons_t,
    clubs_t,
)
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from tests.clubs_helpers import Person, run

from .conftest import refused

EVIL = "http://evil.example"
SOON = "2099-06-01T19:30"


def rows(client: TestClient) -> dict[str, list[Any]]:
    """Every row of the clubs' tables."""
    def work(conn: Any) -> dict[str, list[Any]]:
        return {t.name: sorted(map(tuple, conn.execute(sa.select(t)).all()), key=repr)
                for t in (clubs_t, club_members_t, club_invites_t, club_events_t,
                          club_seasons_t)}
    return dict(run(client, work))


def halls(client: TestClient) -> int:
    return int(run(client, lambda conn: conn.execute(sa.text(
        "SELECT COUNT(*) FROM documents WHERE kind = 'hall'")).scalar()))


def a_club(client: TestClient) -> tuple[Person, Person, str, str]:
    """Ann directs a club of which Bob is a member: the club, and a working link."""
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    key = ann.invite(club)
    assert bob.join(club, key).status_code == 200
    return ann, bob, club, key


def every_change(club: str, ann: Person, bob: Person, key: str) -> list[tuple[str, Any]]:
    return [("/api/clubs", {"name": "Forged"}),
            (f"/api/clubs/{club}", {"name": "Forged"}),
            (f"/api/clubs/{club}/invite", {}),
            (f"/api/clubs/{club}/join", {"key": key}),
            (f"/api/clubs/{club}/role", {"account": bob.id, "role": "director"}),
            (f"/api/clubs/{club}/remove", {"account": bob.id}),
            (f"/api/clubs/{club}/leave", {}),
            (f"/api/clubs/{club}/evenings", {"title": "x", "when": SOON, "where": "hall"})]


def test_another_sites_forged_requests_change_nothing(client: TestClient) -> None:
    ann, bob, club, key = a_club(client)
    before = rows(client)
    for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}):
        for path, body in every_change(club, ann, bob, key):
            r = client.post(path, json=body, headers={**ann._headers(), **headers})
            refused(r, 403)
    for path, _ in every_change(club, ann, bob, key):  # a form's body, not JSON
        r = client.post(path, content=b"name=x", headers={
            **ann._headers(), "Content-Type": "application/x-www-form-urlencoded"})
        refused(r, 415)
    assert rows(client) == before and halls(client) == 0


def test_another_clubs_director_changes_nothing(client: TestClient) -> None:
    ann, bob, club, key = a_club(client)
    eve = Person(client, "Eve")
    eve.make_club("Eve's")
    eid = ann.ok(f"/api/clubs/{club}/evenings", {"title": "Ours", "when": SOON,
                                                 "where": "hall"})["evening"]
    before = rows(client)
    for path, body in every_change(club, ann, bob, key)[1:]:
        if path.endswith("/join"):
            continue  # (anyone with the link joins: that is what it is for)
        r = eve.post(path, body)
        assert r.status_code in (403, 404), (path, r.text)
        refused(r, r.status_code)
    r = eve.post(f"/api/hall/{eid}/register", {"names": ["Eve", "Mallory"]})
    refused(r, 403)
    r = eve.post(f"/api/hall/{eid}/director", {})
    refused(r, 403)
    assert rows(client) == before and halls(client) == 1
    assert client.get(f"/api/hall/{eid}").json()["couples"] == []


def test_guessed_invite_keys_join_nothing(client: TestClient) -> None:
    _, _, club, key = a_club(client)
    mallory = Person(client, "Mallory")
    before = rows(client)
    # (the key in the other case: upper, unless it has no small letter, one time in
    # 270,000, when upper was the key itself)
    other_case = key.upper() if key.upper() != key else key.lower()
    guesses = [secrets.token_urlsafe(18) for _ in range(20)] + [
        key[:-2], other_case, key + "x", "", " " * 30, "\ud800" * 12, "%" * 24,
        "a" * 100, "a" * 101, None, 12, [key], {"key": key}]
    for guess in guesses:
        r = mallory.post(f"/api/clubs/{club}/join", {"key": guess})
        assert refused(r, 403) == \
            "this invite link is not the club's: ask a director for a new one"
    assert rows(client) == before
    assert mallory.club(club)["you"] is None


@pytest.mark.parametrize("name", ["", " ", "x", "\u202e\u202e", "\x00\x01", "y" * 61,
                                  "\n\n\t", 7, None, ["Club"], {"name": "Club"},
                                  "\ud800\ud800", "\u200b\u200b"])
def test_odd_club_names_are_refused(client: TestClient, name: Any) -> None:
    ann = Person(client, "Ann")
    r = ann.post("/api/clubs", {"name": name})
    refused(r, 400)
    assert rows(client)["clubs"] == []


def test_markup_in_a_name_is_kept_as_text(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club("<script>alert(1)</script>")
    assert ann.club(club)["name"] == "<script>alert(1)</script>"
    assert ann.get("/api/clubs").json()["clubs"][0]["name"] == "<script>alert(1)</script>"


@pytest.mark.parametrize("body", [b"", b"{", b"[]", b"null", b'"x"', b"\xff\xfe",
                                  b"1" * 5000, b"[" * 10000,
                                  b'{"days": ' + b"9" * 5000 + b"}"])
def test_malformed_bodies_get_one_line(client: TestClient, body: bytes) -> None:
    ann, bob, club, key = a_club(client)
    before = rows(client)
    for path, _ in every_change(club, ann, bob, key):
        r = client.post(path, content=body,
                        headers={**ann._headers(), "Content-Type": "application/json"})
        if r.status_code == 200:  # (an empty body: invite and leave take none)
            assert body == b"" and path.endswith(("/invite", "/leave"))
            continue
        assert r.status_code in (400, 409, 413), (path, body[:20], r.status_code)
        refused(r, r.status_code)
    if body:
        assert rows(client) == before


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    ann, bob, club, key = a_club(client)
    before = rows(client)
    big = b'{"name": "' + b"a" * 20_000 + b'"}'
    for path, _ in every_change(club, ann, bob, key):
        r = client.post(path, content=big,
                        headers={**ann._headers(), "Content-Type": "application/json"})
        refused(r, 413)
    assert rows(client) == before


@pytest.mark.parametrize("odd", ["x" * 200, "%00", "..", "%F0%9F%82%A1", "a b", "nope"])
def test_odd_club_ids_are_refused(client: TestClient, odd: str) -> None:
    ann, bob, club, key = a_club(client)
    before = rows(client)
    r = client.get(f"/api/clubs/{odd}")
    assert r.status_code == 404
    refused(r, 404)
    for path, body in every_change(club, ann, bob, key)[1:]:
        r = ann.post(path.replace(club, odd), body)
        assert r.status_code in (403, 404), (path, r.text)
        refused(r, r.status_code)
    page = client.get(f"/club/{odd}")
    assert page.status_code in (200, 404)
    assert rows(client) == before


def test_roles_and_removals_by_odd_values(client: TestClient) -> None:
    ann, _, club, _ = a_club(client)
    before = rows(client)
    for account in (None, "", "x" * 25, "\ud800", 12, ["x"], "../../etc", "nobody"):
        for path in ("role", "remove"):
            r = ann.post(f"/api/clubs/{club}/{path}", {"account": account,
                                                       "role": "director"})
            assert r.status_code in (400, 404), (account, r.text)
            refused(r, r.status_code)
    for days, uses in ((0, 5), (31, 5), (1.5, 5), ("7", 5), (True, 5), (7, 0), (7, 501),
                       (7, None), (10**30, 5), (float("inf"), 5), (float("nan"), 5)):
        r = ann.post(f"/api/clubs/{club}/invite", {"days": days, "uses": uses})
        refused(r, 400)
    r = client.post(f"/api/clubs/{club}/leave", json={})  # a guest
    refused(r, 401)
    assert rows(client) == before


def test_floods_past_the_limits_a_minute_are_refused(tmp_path: Path) -> None:
    limits = Limits(par=False, **{**Rates.lifted(), "clubs_per_minute": 3})
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=limits))
    with TestClient(app, raise_server_exceptions=False) as client:
        ann = Person(client, "Ann")
        club = ann.make_club()
        ann.invite(club)
        ann.invite(club)
        before = rows(client)
        for path in ("/api/clubs", f"/api/clubs/{club}/invite"):
            r = ann.post(path, {"name": "Another"})
            assert refused(r, 429).startswith("too many changes to clubs")
        assert rows(client) == before
