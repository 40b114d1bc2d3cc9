"""Clubs (``forties.web.clubs``, ``club_api``), in process: a club made by an account
that becomes its director, its page (house rules in words, directors, members for its
members only, the calendar), invite links (expiry, uses, an account joining twice by
one), roles (a club always keeps a director), leaving and removing, the evenings made
from the club (its house rules by default, in its calendar, directed by the club's
signed-in directors without the evening's key), and what deleting an account does."""

from __future__ import annotations

import time
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web import account_admin
from forties.web.account_schema import club_events_t, club_invites_t, club_members_t, clubs_t
from forties.web.clubs import (
    CLUBS_MADE_MAX,
    add_event,
    is_director,
    parse_when,
)
from forties.web.store import Store
from tests.clubs_helpers import Person, call, client, clubs, roles, run

__all__ = ["client"]

SOON = "2099-06-01T19:30"


def evening(person: Person, club: str, **body: Any) -> Any:
    return person.post(f"/api/clubs/{club}/evenings",
                       {"title": "Friday 45s", "when": SOON, "where": "hall", **body})


# ----- a club and its page -----------------------------------------------------------------


def test_a_club_is_made_by_its_first_director_and_shows_its_house_rules(
        client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club("  The Tuesday\nClub ", preset="nova-scotia",
                         options={"target": 120})
    page = ann.club(club)
    assert page["name"] == "The Tuesday Club"  # one line
    assert page["you"] == "director"
    assert [(d["name"], d["role"]) for d in page["directors"]] == [("Ann", "director")]
    assert [m["name"] for m in page["members"]] == ["Ann"]
    rules = page["rules"]
    assert rules["preset"] == "nova-scotia" and rules["options"] == {"target": 120}
    assert rules["summary"].startswith("Traditional Nova Scotia")
    assert [(c["name"], c["value"]) for c in rules["changes"]] == [("target", 120)]
    assert rules["changes"][0]["doc"] == "game score"
    assert page["upcoming"] == [] and page["past"] == []
    assert ann.get("/api/clubs").json()["clubs"] == [
        {"id": club, "name": "The Tuesday Club", "role": "director", "url": f"/club/{club}"}]
    # a guest, and an account that is not a member, see the club but not its members
    for r in (client.get(f"/api/clubs/{club}"), Person(client, "Bob").get(
            f"/api/clubs/{club}")):
        seen = r.json()
        assert seen["name"] == "The Tuesday Club" and seen["you"] is None
        assert seen["members"] is None and seen["count"] == 1
        assert [d["name"] for d in seen["directors"]] == ["Ann"]
    assert client.get(f"/club/{club}").status_code == 200
    assert client.get(f"/club/{club}/join").status_code == 200
    assert client.get("/clubs").status_code == 200


def test_making_a_club_needs_an_account_a_name_and_rules_that_are_rules(
        client: TestClient) -> None:
    r = client.post("/api/clubs", json={"name": "Guests"})
    assert r.status_code == 401 and r.json()["code"] == "signin"
    ann = Person(client, "Ann")
    for body, code in (({"name": "x"}, "club_name"), ({"name": "--"}, "club_name"),
                       ({"name": "y" * 61}, "club_name"), ({"name": 5}, "club_name"),
                       ({"name": "Good", "preset": "bridge"}, "rules"),
                       ({"name": "Good", "options": {"target": 1}}, "rules"),
                       ({"name": "Good", "options": [1]}, "rules")):
        r = ann.post("/api/clubs", body)
        assert r.status_code == 400 and r.json()["code"] == code, (body, r.text)
    assert ann.get("/api/clubs").json()["clubs"] == []
    assert client.get("/api/clubs").status_code == 401


def test_an_account_makes_a_bounded_number_of_clubs(client: TestClient) -> None:
    ann = Person(client, "Ann")
    for n in range(CLUBS_MADE_MAX):
        ann.make_club(f"Club {n}")
    r = ann.post("/api/clubs", {"name": "One more"})
    assert r.status_code == 409 and r.json()["code"] == "clubs_full"
    assert len(ann.get("/api/clubs").json()["clubs"]) == CLUBS_MADE_MAX


def test_a_director_renames_the_club_and_changes_its_rules_a_member_cannot(
        client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    bob.join(club, ann.invite(club))
    r = bob.post(f"/api/clubs/{club}", {"name": "Bob's club"})
    assert r.status_code == 403 and r.json()["code"] == "not_director"
    got = ann.ok(f"/api/clubs/{club}", {"name": "Wednesday Club", "preset": "auction-45"})
    assert got["name"] == "Wednesday Club" and got["preset"] == "auction-45"
    assert ann.club(club)["rules"]["preset"] == "auction-45"


# ----- invite links ------------------------------------------------------------------------


def test_an_account_joins_by_the_directors_invite_link(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    made = ann.ok(f"/api/clubs/{club}/invite", {})
    assert made["url"] == f"/club/{club}/join#key={made['key']}"
    # the key is kept only hashed
    kept = run(client, lambda conn: conn.execute(sa.select(club_invites_t)).all())
    assert len(kept) == 1 and made["key"] not in repr(kept[0])
    assert bob.join(club, made["key"]).json() == {"ok": True, "role": "member",
                                                  "url": f"/club/{club}"}
    assert roles(ann, club) == {"Ann": "director", "Bob": "member"}
    assert bob.club(club)["you"] == "member"
    assert [c["role"] for c in bob.get("/api/clubs").json()["clubs"]] == ["member"]
    # a guest with the link is asked to sign in first
    r = client.post(f"/api/clubs/{club}/join", json={"key": made["key"]})
    assert r.status_code == 401 and r.json()["code"] == "signin"


def test_only_a_director_makes_an_invite_link(client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    club = ann.make_club()
    bob.join(club, ann.invite(club))
    for who in (bob, cy):
        r = who.post(f"/api/clubs/{club}/invite", {})
        assert r.status_code == 403 and r.json()["code"] == "not_director"
    assert run(client, lambda conn: conn.execute(sa.select(sa.func.count()).select_from(
        club_invites_t)).scalar()) == 1


def test_an_invite_link_expires(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    key = ann.invite(club, days=2)
    now = time.time()
    clubs(client).clock = lambda: now + 2 * 86400 + 1
    r = bob.join(club, key)
    assert r.status_code == 410 and r.json()["code"] == "invite_expired"
    clubs(client).clock = lambda: now + 2 * 86400 - 60
    assert bob.join(club, key).json()["role"] == "member"


def test_an_invite_link_serves_its_number_of_accounts_and_one_account_once(
        client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    club = ann.make_club()
    key = ann.invite(club, uses=1)
    assert bob.join(club, key).json()["role"] == "member"
    # Bob, a member already, opens the link again: still a member, nothing used up
    assert bob.join(club, key).json()["role"] == "member"
    assert ann.join(club, key).json()["role"] == "director"  # (the director stays one)
    uses = run(client, lambda conn: conn.execute(sa.select(club_invites_t.c.uses)).scalar())
    assert uses == 1
    r = cy.join(club, key)
    assert r.status_code == 410 and r.json()["code"] == "invite_used"
    assert set(roles(ann, club)) == {"Ann", "Bob"}


def test_a_link_works_for_its_own_club_only(client: TestClient) -> None:
    ann, eve, bob = Person(client, "Ann"), Person(client, "Eve"), Person(client, "Bob")
    anns, eves = ann.make_club("Ann's"), eve.make_club("Eve's")
    key = eve.invite(eves)
    for k in (key, key[:-1] + ("A" if key[-1] != "A" else "B"), "x" * 24, None, 7):
        r = bob.join(anns, k)
        assert r.status_code == 403 and r.json()["code"] == "invite", (k, r.text)
    assert bob.get("/api/clubs").json()["clubs"] == []


# ----- roles, leaving, removing ---------------------------------------------------------------


def test_directors_promote_and_demote_and_a_club_keeps_one_director(
        client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    club = ann.make_club()
    key = ann.invite(club)
    bob.join(club, key)
    cy.join(club, key)
    # a member promotes nobody, itself included
    for target in (bob, cy):
        r = bob.post(f"/api/clubs/{club}/role", {"account": target.id, "role": "director"})
        assert r.status_code == 403 and r.json()["code"] == "not_director"
    # the last director is not made a member
    r = ann.post(f"/api/clubs/{club}/role", {"account": ann.id, "role": "member"})
    assert r.status_code == 409 and r.json()["code"] == "last_director"
    ann.ok(f"/api/clubs/{club}/role", {"account": bob.id, "role": "director"})
    assert roles(ann, club) == {"Ann": "director", "Bob": "director", "Cy": "member"}
    bob.ok(f"/api/clubs/{club}/role", {"account": ann.id, "role": "member"})
    assert roles(bob, club) == {"Ann": "member", "Bob": "director", "Cy": "member"}
    r = bob.post(f"/api/clubs/{club}/role", {"account": bob.id, "role": "member"})
    assert r.status_code == 409 and r.json()["code"] == "last_director"
    # Ann, a member now, may no longer invite
    assert ann.post(f"/api/clubs/{club}/invite", {}).status_code == 403
    for role in ("owner", None, 1):
        r = bob.post(f"/api/clubs/{club}/role", {"account": cy.id, "role": role})
        assert r.status_code == 400
    r = bob.post(f"/api/clubs/{club}/role", {"account": "nobody", "role": "director"})
    assert r.status_code == 404 and r.json()["code"] == "not_member"
    assert roles(bob, club) == {"Ann": "member", "Bob": "director", "Cy": "member"}


def test_members_leave_but_the_last_director_does_not(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    bob.join(club, ann.invite(club))
    r = ann.post(f"/api/clubs/{club}/leave")
    assert r.status_code == 409 and r.json()["code"] == "last_director"
    bob.ok(f"/api/clubs/{club}/leave")
    assert roles(ann, club) == {"Ann": "director"}
    assert bob.get("/api/clubs").json()["clubs"] == []
    r = bob.post(f"/api/clubs/{club}/leave")
    assert r.status_code == 404 and r.json()["code"] == "not_member"
    # with a second director, the first may go
    bob.join(club, ann.invite(club))
    ann.ok(f"/api/clubs/{club}/role", {"account": bob.id, "role": "director"})
    ann.ok(f"/api/clubs/{club}/leave")
    assert roles(bob, club) == {"Bob": "director"}


def test_a_director_removes_a_member_a_member_removes_nobody(client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    club = ann.make_club()
    key = ann.invite(club)
    bob.join(club, key)
    cy.join(club, key)
    r = bob.post(f"/api/clubs/{club}/remove", {"account": cy.id})
    assert r.status_code == 403 and r.json()["code"] == "not_director"
    r = ann.post(f"/api/clubs/{club}/remove", {"account": ann.id})
    assert r.status_code == 409 and r.json()["code"] == "last_director"
    ann.ok(f"/api/clubs/{club}/remove", {"account": cy.id})
    assert roles(ann, club) == {"Ann": "director", "Bob": "member"}
    assert cy.club(club)["members"] is None


# ----- the calendar and the club's evenings -------------------------------------------------


def test_a_director_makes_an_evening_with_the_house_rules_in_the_calendar(
        client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club(options={"target": 120})
    r = evening(ann, club, games=3)
    assert r.status_code == 200, r.text
    made = r.json()
    eid = made["evening"]
    assert made["url"] == f"/hall/{eid}/director#key={made['key']}"
    assert made["director"] == f"/hall/{eid}/director"
    board = client.get(f"/api/hall/{eid}").json()
    assert board["settings"]["rules"] == {"preset": "nova-scotia",
                                          "options": {"target": 120}}
    assert board["settings"]["games"] == 3 and board["online"] is None
    page = ann.club(club)
    assert [(e["title"], e["when"], e["where"], e["kind"], e["url"])
            for e in page["upcoming"]] == [
        ("Friday 45s", "2099-06-01T19:30Z", "hall", "hall", f"/hall/{eid}")]
    # an evening that says its own rules has them; an online one is online
    other = evening(ann, club, preset="auction-45", where="online",
                    when="2001-02-03T04:05Z", title="").json()
    board = client.get(f"/api/hall/{other['evening']}").json()
    assert board["settings"]["rules"]["preset"] == "auction-45"
    assert board["online"] is not None
    past = ann.club(club)["past"]
    assert [(e["title"], e["where"], e["when"]) for e in past] == [
        ("The Tuesday Club", "online", "2001-02-03T04:05Z")]  # (no title: the club's name)


def test_only_a_director_makes_an_evening_and_a_bad_one_makes_nothing(
        client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    bob.join(club, ann.invite(club))
    assert evening(bob, club).status_code == 403
    for body, code in (({"where": "moon"}, "where"), ({"when": "tomorrow"}, "when"),
                       ({"when": "2099-06-01T19:30+02:00"}, "when"),
                       ({"when": "1970-01-01T00:00"}, "when"), ({"colour": 1}, "bad"),
                       ({"title": "t" * 1000}, "title")):
        r = evening(ann, club, **body)
        assert r.status_code == 400 and r.json().get("code") == code, (body, r.text)
    r = evening(ann, club, games=0)
    assert r.status_code == 400 and "games" in r.json()["error"]
    assert ann.club(club)["upcoming"] == []
    assert run(client, lambda conn: conn.execute(sa.select(sa.func.count()).select_from(
        club_events_t)).scalar()) == 0


def test_a_clubs_director_directs_its_evening_without_the_key(client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    eve = Person(client, "Eve")
    club = ann.make_club()
    key = ann.invite(club)
    bob.join(club, key)
    cy.join(club, key)
    eve.make_club("Eve's")  # a director, of another club
    ann.ok(f"/api/clubs/{club}/role", {"account": bob.id, "role": "director"})
    eid = evening(ann, club).json()["evening"]
    couple = {"names": ["Ada", "Bea"]}
    assert bob.post(f"/api/hall/{eid}/director", {}).json()["role"] == "director"
    assert bob.ok(f"/api/hall/{eid}/register", couple)["couple"] == 1
    for who in (cy, eve):  # a member, another club's director
        r = who.post(f"/api/hall/{eid}/register", {"names": ["Cal", "Dee"]})
        assert r.status_code == 403, r.text
        assert who.post(f"/api/hall/{eid}/director", {}).status_code == 403
    r = client.post(f"/api/hall/{eid}/register", json={"names": ["Cal", "Dee"]})  # a guest
    assert r.status_code == 403
    # Bob, a member again, directs it no more
    ann.ok(f"/api/clubs/{club}/role", {"account": bob.id, "role": "member"})
    assert bob.post(f"/api/hall/{eid}/register", {"names": ["Cal", "Dee"]}).status_code == 403
    assert [c["names"] for c in client.get(f"/api/hall/{eid}").json()["couples"]] == \
        [["Ada", "Bea"]]


def test_an_evening_made_elsewhere_is_directed_by_its_key_only(client: TestClient) -> None:
    ann = Person(client, "Ann")
    ann.make_club()
    made = ann.ok("/api/hall", {"games": 2})
    r = ann.post(f"/api/hall/{made['evening']}/register", {"names": ["Ada", "Bea"]})
    assert r.status_code == 403
    ann.ok(f"/api/hall/{made['evening']}/register", {"names": ["Ada", "Bea"],
                                                     "key": made["key"]})


def test_add_event_and_is_director_for_other_modules(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    bob.join(club, ann.invite(club))
    c = clubs(client)
    assert call(client, is_director, c, club, ann.id) is True
    assert call(client, is_director, c, club, bob.id) is False
    assert call(client, is_director, c, "nope", ann.id) is False
    assert call(client, is_director, c, None, ann.id) is False
    when = parse_when("2099-01-02T03:04")
    call(client, add_event, c, club, "duplicate", "D1x", "Pairs", when, "online")
    assert [(e["kind"], e["url"], e["title"]) for e in ann.club(club)["upcoming"]] == [
        ("duplicate", "/dup/D1x", "Pairs")]
    for args in (("bridge", "D2", "t", when, "hall"), ("hall", "D2", "t", when, "pub"),
                 ("hall", "", "t", when, "hall"), ("hall", "D2", "", when, "hall"),
                 ("hall", "D2", "t", 5.0, "hall")):
        with pytest.raises(Exception, match=r"kind|where|id|title|when"):
            call(client, add_event, c, club, *args)
    assert len(ann.club(club)["upcoming"]) == 1


# ----- an account deleted ------------------------------------------------------------------


def test_a_deleted_last_director_hands_the_club_to_its_longest_member(
        client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    club = ann.make_club()
    key = ann.invite(club)
    bob.join(club, key)
    cy.join(club, key)
    run(client, lambda conn: conn.execute(club_members_t.update().where(
        club_members_t.c.account_id == cy.id).values(joined=1.0)))  # Cy joined first
    data = ann.get("/api/account/export").json()
    assert [c["id"] for c in data["clubs"]] == [club]
    assert [(m["club"], m["role"]) for m in data["club_members"]] == [(club, "director")]
    assert len(data["club_invites"]) == 1 and "key_hash" not in data["club_invites"][0]
    run(client, lambda conn: account_admin.delete(conn, ann.id))
    assert roles(bob, club) == {"Bob": "member", "Cy": "director"}
    made_by = run(client, lambda conn: conn.execute(sa.select(clubs_t.c.created_by)).all())
    assert made_by == [(None,)]
    assert run(client, lambda conn: conn.execute(sa.select(club_invites_t)).all()) == []
    assert bob.join(club, key).status_code == 403  # Ann's link went with her


def test_store_of_another_process_sees_the_same_club(client: TestClient,
                                                      tmp_path: Any) -> None:
    """The clubs live in the database, not in a process's memory."""
    ann = Person(client, "Ann")
    club = ann.make_club("Shared")
    store = Store(f"sqlite:///{tmp_path / 'app.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(sa.select(clubs_t.c.name).where(
                clubs_t.c.id == club)).scalar() == "Shared"
    finally:
        store.close()


def test_the_clubs_rules_hold_on_postgresql(db: str) -> None:
    """The same rules over PostgreSQL (its row lock on the club while members change)."""
    import asyncio

    from forties.web.accounts import Accounts
    from forties.web.clubs import Clubs
    from forties.web.http import Refused

    async def work() -> None:
        store = Store(db)
        try:
            accounts, c = Accounts(store), Clubs(store)
            ann, bob = await accounts.create("Ann"), await accounts.create("Bob")
            club = await c.create(ann, {"name": "Pg Club", "options": {"target": 120}})
            key = (await c.invite(ann, club.id, {"uses": 1}))["key"]
            assert await c.join(bob, club.id, key) == "member"
            assert await c.join(bob, club.id, key) == "member"
            with pytest.raises(Refused, match="keeps one director"):
                await c.leave(ann, club.id)
            await c.set_role(ann, club.id, bob.id, "director")
            await c.leave(ann, club.id)
            assert await is_director(c, club.id, bob.id)
            await add_event(c, club.id, "hall", "E1", "Friday", parse_when(SOON), "hall")
            page = await c.page(club.id, bob)
            assert [e["when"] for e in page["upcoming"]] == ["2099-06-01T19:30Z"]
            assert page["rules"]["options"] == {"target": 120}
        finally:
            store.close()
    asyncio.run(work())
