"""Hostile clients against the regulars' routes (``forties.web.regulars``): an invitation
to someone else's table, a follow of no account, odd text and wrong types, another site's
forged requests, floods past the limits a minute, someone else's invitation; each refused
in one line, with nothing changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from tests.test_regulars import Person, invite, waiting_table

from .conftest import refused

EVIL = "http://evil.example"


def test_an_invitation_to_another_hosts_table_is_refused(client: TestClient) -> None:
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    anns, eves = waiting_table(ann), waiting_table(eve)
    eve.follow(bob)
    for token in (eves["token"], None, "", "x" * 1000, 12, ["a"]):  # Eve's own key too
        r = eve.post("/api/regulars/invite", {"table": anns["table"], "seat": 1,
                                              "account": bob.id, "token": token})
        assert refused(r, 403) == "only the host (with the host's link) may invite"
    assert bob.invites() == []
    # a table that is not there, a seat that is not one
    for table in ("nope", "", 7, "t" * 200, "\ud800"):
        r = eve.post("/api/regulars/invite", {"table": table, "seat": 1,
                                              "account": bob.id, "token": eves["token"]})
        assert r.status_code in (400, 404), r.text
        refused(r, r.status_code)
    for seat in (-1, 4, 99, "1", 1.0, None, True):
        r = eve.post("/api/regulars/invite", {"table": eves["table"], "seat": seat,
                                              "account": bob.id, "token": eves["token"]})
        assert refused(r, 400).startswith("seat must be")
    assert bob.invites() == []


@pytest.mark.parametrize("account", [None, "", "nobody-here", "x" * 25, "a b", "\ud800",
                                     12, ["x"], {"id": "x"}, "é" * 3, "../../etc"])
def test_following_or_blocking_what_is_not_an_account_is_refused(client: TestClient,
                                                                 account: Any) -> None:
    ann = Person(client, "Ann")
    for path in ("follow", "block"):
        r = ann.post(f"/api/regulars/{path}", {"account": account})
        assert r.status_code in (400, 404)
        refused(r, r.status_code)
    for path in ("unfollow", "unblock"):
        r = ann.post(f"/api/regulars/{path}", {"account": account})
        assert r.status_code in (200, 400, 404)
    assert ann.regulars() == {"following": [], "blocked": []}


def test_oneself_is_neither_followed_nor_blocked(client: TestClient) -> None:
    ann = Person(client, "Ann")
    for path in ("follow", "block"):
        assert refused(ann.post(f"/api/regulars/{path}", {"account": ann.id})) == \
            "that is your own account"
    assert ann.regulars() == {"following": [], "blocked": []}


@pytest.mark.parametrize("body", [b"", b"{", b"[]", b"null", b'"x"', b"\xff\xfe",
                                  b'{"account": "\\ud800"}', b"1" * 5000,
                                  b'{"account": 1e999}', b"[" * 10000])
def test_malformed_bodies_get_one_line(client: TestClient, body: bytes) -> None:
    ann = Person(client, "Ann")
    for path in ("follow", "block", "unfollow", "unblock", "invite"):
        r = client.post(f"/api/regulars/{path}", content=body,
                        headers={**ann._headers(), "Content-Type": "application/json"})
        assert r.status_code in (400, 404, 413), (path, body[:20], r.status_code)
        refused(r, r.status_code)


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    ann = Person(client, "Ann")
    big = b'{"account": "' + b"a" * 10_000 + b'"}'
    r = client.post("/api/regulars/follow", content=big,
                    headers={**ann._headers(), "Content-Type": "application/json"})
    refused(r, 413)


def test_another_sites_forged_requests_change_nothing(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    made = waiting_table(ann)
    ann.follow(bob)
    iid = invite(ann, made, 1, bob).json()["invite"]
    forged = [("/api/regulars/follow", {"account": bob.id}, ann),
              ("/api/regulars/unfollow", {"account": bob.id}, ann),
              ("/api/regulars/block", {"account": bob.id}, ann),
              ("/api/regulars/invite", {"table": made["table"], "seat": 2, "account": bob.id,
                                        "token": made["token"]}, ann),
              (f"/api/regulars/invites/{iid}/accept", {}, bob),
              (f"/api/regulars/invites/{iid}/decline", {}, bob)]
    for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}):
        for path, body, who in forged:
            r = client.post(path, json=body, headers={**who._headers(), **headers})
            refused(r, 403)
    for path, _body, who in forged:  # a form's body, not JSON
        r = client.post(path, content=b"account=x",
                        headers={**who._headers(),
                                 "Content-Type": "application/x-www-form-urlencoded"})
        refused(r, 415)
    assert [x["id"] for x in ann.regulars()["following"]] == [bob.id]
    assert ann.regulars()["blocked"] == []
    assert [n["id"] for n in bob.invites()] == [iid]  # still waiting, the seat still empty
    assert client.get(f"/api/tables/{made['table']}").json()["seats"][1]["kind"] == "empty"


def test_someone_elses_invitation_cannot_be_answered(client: TestClient) -> None:
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    made = waiting_table(ann)
    ann.follow(bob)
    iid = invite(ann, made, 1, bob).json()["invite"]
    assert eve.invites() == []
    for answer in ("accept", "decline"):
        r = eve.post(f"/api/regulars/invites/{iid}/{answer}")
        assert refused(r, 404) == "there is no such invitation"
    for odd in ("x" * 200, "%00", "..", "%F0%9F%82%A1"):
        r = bob.post(f"/api/regulars/invites/{odd}/accept")
        assert r.status_code in (404,), r.text
        refused(r, 404)
    r = client.post(f"/api/regulars/invites/{iid}/accept")  # a guest
    refused(r, 401)
    got = bob.post(f"/api/regulars/invites/{iid}/accept")  # still Bob's to take
    assert got.status_code == 200 and got.json()["seat"] == 1


def test_floods_past_the_limits_a_minute_are_refused(tmp_path: Path) -> None:
    limits = Limits(par=False, **{**Rates.lifted(), "follows_per_minute": 3,
                                  "invites_per_minute": 2})
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=limits))
    with TestClient(app, raise_server_exceptions=False) as client:
        ann = Person(client, "Ann")
        others = [Person(client, f"Player {i}") for i in range(5)]
        for other in others[:3]:
            ann.follow(other)
        r = ann.post("/api/regulars/follow", {"account": others[3].id})
        assert refused(r, 429).startswith("too many follows and blocks")
        r = ann.post("/api/regulars/block", {"account": others[3].id})
        refused(r, 429)
        assert len(ann.regulars()["following"]) == 3 and ann.regulars()["blocked"] == []
        made = waiting_table(ann)
        assert invite(ann, made, 1, others[0]).status_code == 200
        assert invite(ann, made, 2, others[1]).status_code == 200
        r = invite(ann, made, 3, others[2])
        assert refused(r, 429).startswith("too many invitations")
        assert others[2].invites() == []


def test_many_invitations_waiting_are_capped(client: TestClient) -> None:
    from forties.web.regulars import INVITES_SENT_MAX

    ann = Person(client, "Ann")
    regulars = [Person(client, f"Regular {i}") for i in range(INVITES_SENT_MAX + 1)]
    tables = [waiting_table(ann) for _ in range(INVITES_SENT_MAX // 3 + 1)]
    for r in regulars:
        ann.follow(r)
    sent = 0
    for i, person in enumerate(regulars[:INVITES_SENT_MAX]):
        made = tables[i // 3]
        assert invite(ann, made, 1 + i % 3, person).status_code == 200
        sent += 1
    r = invite(ann, tables[-1], 3, regulars[-1])
    assert refused(r, 429).startswith(f"you have {INVITES_SENT_MAX} invitations")
    assert regulars[-1].invites() == [] and sent == INVITES_SENT_MAX
