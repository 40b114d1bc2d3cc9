"""Hostile clients against the seasons' routes (``forties.web.seasons``): a stranger, a
member and another club's director setting up or removing a season, another club's
season asked for through this club, odd ids and odd bodies, a huge body, floods past the
limits a minute; each refused in one line, with nothing changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits
from tests.clubs_helpers import Person
from tests.seasons_helpers import make_season

from .conftest import refused

SEASON = {"name": "Winter", "starts": "2026-01-01", "ends": "2026-01-31"}


def seasons(person: Person, club: str) -> list[Any]:
    return list(person.get(f"/api/clubs/{club}/seasons").json()["seasons"])


def test_strangers_set_up_or_remove_no_season(client: TestClient) -> None:
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    club = ann.make_club()
    bob.join(club, ann.invite(club))
    eve.make_club("Eve's own")  # a director, of another club
    sid = make_season(ann, club)
    # a guest (no account)
    r = client.post(f"/api/clubs/{club}/seasons", json=SEASON)
    assert refused(r, 401).startswith("sign in first")
    r = client.post(f"/api/clubs/{club}/seasons/{sid}/remove", json={})
    assert refused(r, 401).startswith("sign in first")
    # a member, and another club's director
    for who in (bob, eve):
        assert refused(who.post(f"/api/clubs/{club}/seasons", SEASON), 403) == \
            "only the club's directors may do that"
        assert refused(who.post(f"/api/clubs/{club}/seasons/{sid}/remove"), 403) == \
            "only the club's directors may do that"
    assert [s["id"] for s in seasons(ann, club)] == [sid]


def test_another_clubs_season_is_not_reached_through_this_club(client: TestClient) -> None:
    ann, eve = Person(client, "Ann"), Person(client, "Eve")
    club, other = ann.make_club(), eve.make_club("Eve's own")
    sid = make_season(ann, club)
    for path in (f"/api/clubs/{other}/seasons/{sid}",
                 f"/api/clubs/{other}/seasons/{sid}/export/csv"):
        assert refused(client.get(path), 404) == "there is no such season"
    # Eve directs her own club: removing Ann's season through it finds nothing
    r = eve.post(f"/api/clubs/{other}/seasons/{sid}/remove")
    assert refused(r, 404) == "there is no such season"
    assert [s["id"] for s in seasons(ann, club)] == [sid]


@pytest.mark.parametrize("bad", ["x" * 25, "a b", "é", "a.b", "%00", "a;b", "\u202e"])
def test_odd_ids_are_one_line(client: TestClient, bad: str) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    sid = make_season(ann, club)
    for path in (f"/api/clubs/{bad}/seasons", f"/api/clubs/{club}/seasons/{bad}",
                 f"/api/clubs/{bad}/seasons/{sid}", f"/api/clubs/{club}/seasons/{bad}/export/json"):
        r = client.get(path)
        assert r.status_code in (404, 400), (path, r.text)
        refused(r, r.status_code)
    r = client.get(f"/api/clubs/{club}/seasons/{sid}/export/xlsx")
    assert refused(r, 404) == "export is csv or json"


@pytest.mark.parametrize("body", [
    "", "[]", "null", "not json", json.dumps({**SEASON, "name": ["x"]}),
    json.dumps({**SEASON, "starts": 20260101}), json.dumps({**SEASON, "ends": None}),
    json.dumps({**SEASON, "starts": "2026-01-01T00:00"}),
    json.dumps({**SEASON, "name": "\ud800"}), json.dumps({**SEASON, "name": "   "}),
    json.dumps({**SEASON, "rule": {"best": 1e309}}), json.dumps({**SEASON, "rule": []}),
    json.dumps({**SEASON, "rule": {"best": True}}), json.dumps({**SEASON, "rule": {"x": 1}}),
    json.dumps({**SEASON, "rule": {"ties": None}}),
    json.dumps({**SEASON, "rule": {"prizes": "3"}})])
def test_odd_bodies_are_one_line_and_make_nothing(client: TestClient, body: str) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    r = ann.client.post(f"/api/clubs/{club}/seasons", content=body,
                        headers={**ann._headers(), "Content-Type": "application/json"})
    refused(r, 400)
    assert seasons(ann, club) == []


def test_a_huge_body_is_refused_before_it_is_read_as_a_season(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    r = ann.post(f"/api/clubs/{club}/seasons", {**SEASON, "name": "x" * 20_000})
    assert r.status_code == 413, r.text
    assert seasons(ann, club) == []


def test_a_club_keeps_a_bounded_number_of_seasons(client: TestClient) -> None:
    from forties.web.seasons import SEASONS_MAX
    ann = Person(client, "Ann")
    club = ann.make_club()
    for i in range(SEASONS_MAX):
        make_season(ann, club, name=f"S{i}")
    r = ann.post(f"/api/clubs/{club}/seasons", SEASON)
    assert refused(r, 409).startswith(f"a club keeps at most {SEASONS_MAX} seasons")
    assert len(seasons(ann, club)) == SEASONS_MAX


@contextmanager
def a_season_under(tmp_path: Path, **limits: Any) -> Iterator[tuple[TestClient, Person, str,
                                                                     str]]:
    """A server with ``limits`` a minute (and four changes to clubs), Ann's club and its
    season: the client, Ann, the club and the season (two changes counted)."""
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, clubs_per_minute=4,
                                                  signups_per_minute=10,
                                                  signins_per_minute=10, **limits)))
    with TestClient(app, raise_server_exceptions=False) as client:
        ann = Person(client, "Ann")
        club = ann.make_club()  # (one change)
        yield client, ann, club, make_season(ann, club)  # (two)


def test_floods_of_lookups_exports_and_changes_are_cut_off(tmp_path: Path) -> None:
    with a_season_under(tmp_path, lookups_per_minute=5,
                        records_per_minute=2) as (client, ann, club, sid):
        url = f"/api/clubs/{club}/seasons/{sid}"
        got = [client.get(url).status_code for _ in range(7)]
        assert got.count(200) <= 5 and got[-1] == 429
        assert refused(client.get(url), 429)
        got = [client.get(f"{url}/export/csv").status_code for _ in range(3)]
        assert got == [200, 200, 429]
        for i in range(2):
            make_season(ann, club, name=f"more {i}")
        r = ann.post(f"/api/clubs/{club}/seasons", SEASON)
        assert refused(r, 429)
        assert len(seasons_after(client, ann, club)) == 3


def seasons_after(client: TestClient, ann: Person, club: str) -> list[Any]:
    """The club's seasons, read from the store (the lookups' minute being full)."""
    from forties.web.account_schema import club_seasons_t
    from tests.clubs_helpers import run
    return list(run(client, lambda conn: conn.execute(
        club_seasons_t.select().where(club_seasons_t.c.club == club)).fetchall()))


def season_rows(client: TestClient) -> list[Any]:
    """Every club's seasons as the store holds them."""
    from forties.web.account_schema import club_seasons_t
    from tests.clubs_helpers import run
    return sorted(map(tuple, run(client, lambda conn: conn.execute(
        club_seasons_t.select()).fetchall())))


def test_strangers_change_no_season(client: TestClient) -> None:
    """A guest, a member, another club's director (through this club, and through her own
    with this club's season), a season that is not there: refused, nothing changed."""
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    club = ann.make_club()
    bob.join(club, ann.invite(club))
    other = eve.make_club("Eve's own")
    sid, hers = make_season(ann, club), make_season(eve, other, name="Eve's")
    before = season_rows(client)
    change = {"name": "Taken", "rule": {"best": 1}}
    r = client.post(f"/api/clubs/{club}/seasons/{sid}", json=change)
    assert refused(r, 401).startswith("sign in first")
    for who in (bob, eve):
        assert refused(who.post(f"/api/clubs/{club}/seasons/{sid}", change), 403) == \
            "only the club's directors may do that"
    for who, path in ((eve, f"/api/clubs/{other}/seasons/{sid}"),  # Ann's, through Eve's
                      (ann, f"/api/clubs/{club}/seasons/{hers}"),  # Eve's, through Ann's
                      (ann, f"/api/clubs/{club}/seasons/{sid[:-1]}"),
                      (ann, f"/api/clubs/{club}/seasons/{'x' * 25}"),
                      (ann, f"/api/clubs/none/seasons/{sid}")):
        r = who.post(path, change)
        assert r.status_code == 404, (path, r.text)
        refused(r, 404)
    assert season_rows(client) == before


NON_ASCII_DIGITS = ["٢٠٢٦-٠١-٠١", "２０２６-01-01", "2026-0١-01", "2026-01-0\u0661",
                    "2026-W01-4", "2026-01-1 ", "+026-01-01"]


@pytest.mark.parametrize("body", [
    "", "[]", "null", "not json", '{"name": "Winter",', json.dumps({"name": ["x"]}),
    json.dumps({"starts": 20260101}), json.dumps({"ends": None}),
    json.dumps({"starts": "2026-01-01T00:00"}), json.dumps({"name": "\ud800"}),
    json.dumps({"name": "   "}), json.dumps({"name": "\u200b\u202e\u2066"}),
    json.dumps({"name": "\x00\x07"}), json.dumps({"zone": "Ame\u0433ica/Halifax"}),
    json.dumps({"zone": "America/Halifax/"}), json.dumps({"zone": 3}),
    json.dumps({"rule": {"best": 1e309}}), json.dumps({"rule": []}),
    json.dumps({"rule": {"best": True}}), json.dumps({"rule": {"x": 1}}),
    json.dumps({"rule": {"ties": None}}), json.dumps({"rule": {"prizes": "3"}}),
    json.dumps({"rule": {"best": "٣"}}), json.dumps({"rule": {"best": "３"}}),
    json.dumps({"rule": {"best": 1.0}}), json.dumps({"rule": {"best": 10 ** 40}}),
    '{"rule": {"best": ' + "9" * 5000 + "}}",
    '{"rule": ' + "[" * 3000 + "]" * 3000 + "}",  # deep, within the body's limit
    '{"name": ' + "[" * 100_000 + "]" * 100_000 + "}",  # deeper than its limit
    *(json.dumps({"starts": d}) for d in NON_ASCII_DIGITS),
    *(json.dumps({"ends": d}) for d in NON_ASCII_DIGITS)])
def test_odd_changes_are_one_line_and_change_nothing(client: TestClient, body: str) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    sid = make_season(ann, club)
    before = season_rows(client)
    r = ann.client.post(f"/api/clubs/{club}/seasons/{sid}", content=body,
                        headers={**ann._headers(), "Content-Type": "application/json"})
    refused(r, 413 if len(body) > 8 * 1024 else 400)
    assert season_rows(client) == before


def test_a_flood_of_changes_is_cut_off(tmp_path: Path) -> None:
    with a_season_under(tmp_path) as (client, ann, club, sid):
        url = f"/api/clubs/{club}/seasons/{sid}"
        got = [ann.post(url, {"name": f"Winter {i}"}).status_code for i in range(4)]
        assert got == [200, 200, 429, 429]
        r = ann.post(url, {"name": "Flooded"})
        assert refused(r, 429) and r.json()["code"] == "rate"
        assert [s.name for s in seasons_after(client, ann, club)] == ["Winter 1"]
