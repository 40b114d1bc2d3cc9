"""Regulars (``forties.web.regulars``), in process: following and blocking, who of one's
regulars is online and at which public table, invitations to a seat from a waiting table
(sent by its host, answered from the invited account's home page), and what a block
stops (an invitation either way, a follow, joining the blocker's private tables)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web.account_schema import account_invites_t, seat_accounts_t
from forties.web.accounts import COOKIE, Account, accounts_t
from forties.web.live import Conn
from forties.web.regulars import INVITE_SECONDS, ONLINE_SECONDS, Regulars
from forties.web.store import tables_t
from tests.accounts_helpers import SignedIn, app_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


class Person(SignedIn):
    """An account signed in, with its regulars' requests."""

    def follow(self, other: Person) -> None:
        r = self.post("/api/regulars/follow", {"account": other.id})
        assert r.status_code == 200, r.text

    def regulars(self) -> dict[str, Any]:
        r = self.get("/api/regulars")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def invites(self) -> list[dict[str, Any]]:
        r = self.get("/api/regulars/invites")
        assert r.status_code == 200, r.text
        return list(r.json()["invites"])


def regulars(client: TestClient) -> Regulars:
    got: Regulars = client.app.state.regulars  # type: ignore[attr-defined]
    return got


def run(client: TestClient, fn: Any) -> Any:
    """``fn(conn)`` in one transaction of the app's store."""
    portal: Any = client.portal
    return portal.call(regulars(client).store.run, fn)


def set_last_seen(client: TestClient, account: Account | Person, at: float) -> None:
    run(client, lambda conn: conn.execute(accounts_t.update().where(
        accounts_t.c.id == account.id).values(last_seen=at)))


def seat_links(client: TestClient, table: str) -> list[tuple[int, str]]:
    """The accounts linked to the table's seats (``web.games``), by seat."""
    rows = run(client, lambda conn: conn.execute(sa.select(
        seat_accounts_t.c.seat, seat_accounts_t.c.account_id).where(
        seat_accounts_t.c.table_id == table).order_by(seat_accounts_t.c.seat)).all())
    return [(int(r[0]), str(r[1])) for r in rows]


def waiting_table(person: Person, public: bool = False) -> dict[str, Any]:
    r = person.post("/api/tables", {"preset": "merrimack-valley", "name": "Host",
                                    "public": public})
    assert r.status_code == 200, r.text
    return dict(r.json())


def by_id(listing: dict[str, Any], person: Person) -> dict[str, Any]:
    return next(x for x in listing["following"] if x["id"] == person.id)


# ----- following, online, at which public table ------------------------------------------


def test_following_lists_a_regular_online_or_not(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    assert ann.regulars() == {"following": [], "blocked": []}
    ann.follow(bob)
    ann.follow(bob)  # (twice: still once)
    assert ann.regulars()["following"] == [
        {"id": bob.id, "name": "Bob", "online": True, "table": None}]  # made just now
    set_last_seen(client, bob, time.time() - ONLINE_SECONDS - 5)
    assert by_id(ann.regulars(), bob)["online"] is False
    bob.get("/api/regulars/invites")  # Bob's home page asks: he uses the site
    assert by_id(ann.regulars(), bob)["online"] is True
    # following is one way: Bob follows nobody
    assert bob.regulars()["following"] == []
    assert ann.post("/api/regulars/unfollow", {"account": bob.id}).json() == {"ok": True}
    assert ann.regulars()["following"] == []


def test_a_regular_online_at_a_public_table_is_shown_there_a_private_one_never(
        client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    ann.follow(bob)
    ann.follow(cy)
    # each signed in at the table it made (``web.games`` links the host's seat)
    public = waiting_table(bob, public=True)["table"]
    private = waiting_table(cy)["table"]
    assert seat_links(client, public) == [(0, bob.id)]
    assert seat_links(client, private) == [(0, cy.id)]
    listing = ann.regulars()
    assert by_id(listing, bob)["table"] == {"id": public, "url": f"/t/{public}",
                                            "game": "merrimack-valley", "status": "waiting"}
    assert by_id(listing, cy)["table"] is None and by_id(listing, cy)["online"] is True
    # offline: no table told
    set_last_seen(client, bob, time.time() - ONLINE_SECONDS - 5)
    assert by_id(ann.regulars(), bob) == {"id": bob.id, "name": "Bob", "online": False,
                                          "table": None}
    # a public table that is over is nobody's table now
    set_last_seen(client, bob, time.time())
    run(client, lambda conn: conn.execute(tables_t.update().where(
        tables_t.c.id == public).values(status="over")))
    assert by_id(ann.regulars(), bob)["table"] is None


def test_a_websocket_at_a_table_keeps_its_account_online(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    ann.follow(bob)
    made = waiting_table(bob)
    set_last_seen(client, bob, time.time() - ONLINE_SECONDS - 5)
    assert by_id(ann.regulars(), bob)["online"] is False
    with client.websocket_connect(f"/ws/{made['table']}?token={made['token']}",
                                  headers={"Cookie": f"{COOKIE}={bob.key}"}) as ws:
        ws.send_json({"type": "hello", "seq": 0})
        assert ws.receive_json()["type"] == "snapshot"
        assert by_id(ann.regulars(), bob)["online"] is True
    # a guest's websocket (no cookie) makes nobody online
    set_last_seen(client, bob, time.time() - ONLINE_SECONDS - 5)
    with client.websocket_connect(f"/ws/{made['table']}?token={made['token']}") as ws:
        ws.send_json({"type": "hello", "seq": 0})
        assert ws.receive_json()["type"] == "snapshot"
        assert by_id(ann.regulars(), bob)["online"] is False


def test_a_guest_has_no_regulars(client: TestClient) -> None:
    assert client.get("/api/regulars").status_code == 401
    assert client.get("/api/regulars/invites").status_code == 401
    r = client.post("/api/regulars/follow", json={"account": "x"})
    assert r.status_code == 401 and r.json()["code"] == "signin"


# ----- blocking ---------------------------------------------------------------------------


def test_blocking_unfollows_both_ways_and_stops_following_again(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    ann.follow(bob)
    bob.follow(ann)
    assert ann.post("/api/regulars/block", {"account": bob.id}).json() == {"ok": True}
    assert ann.regulars() == {"following": [], "blocked": [{"id": bob.id, "name": "Bob"}]}
    assert bob.regulars()["following"] == []  # Bob no longer sees whether Ann is online
    r = bob.post("/api/regulars/follow", {"account": ann.id})
    assert r.status_code == 403 and r.json()["code"] == "blocked"
    r = ann.post("/api/regulars/follow", {"account": bob.id})  # unblock first
    assert r.status_code == 403
    assert ann.post("/api/regulars/unblock", {"account": bob.id}).json() == {"ok": True}
    bob.follow(ann)
    assert [x["id"] for x in bob.regulars()["following"]] == [ann.id]
    assert ann.regulars()["blocked"] == []


def test_a_block_withdraws_the_invitations_between_them(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    made = waiting_table(ann)
    ann.follow(bob)
    r = ann.post("/api/regulars/invite", {"table": made["table"], "seat": 1,
                                          "account": bob.id, "token": made["token"]})
    assert r.status_code == 200, r.text
    assert len(bob.invites()) == 1
    bob.post("/api/regulars/block", {"account": ann.id})
    assert bob.invites() == []
    r = bob.post(f"/api/regulars/invites/{r.json()['invite']}/accept")
    assert r.status_code == 409 and r.json()["code"] == "invite_gone"


def test_someone_blocked_by_a_host_cannot_join_the_hosts_private_table_signed_in(
        client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    private, public = waiting_table(ann), waiting_table(ann, public=True)
    assert seat_links(client, private["table"]) == [(0, ann.id)]  # (the host's account)
    code = private["invites"][0]["url"].split("#invite=")[1]
    ann.post("/api/regulars/block", {"account": bob.id})
    r = bob.post(f"/api/tables/{private['table']}/join", {"invite": code, "name": "Bob"})
    assert r.status_code == 403 and r.json() == {"error": "you cannot join this table",
                                                 "code": "blocked"}
    # a public table's open seat is anyone's
    r = bob.post(f"/api/tables/{public['table']}/join", {"seat": 1, "name": "Bob"})
    assert r.status_code == 200, r.text
    # unblocked: the same invite seats him
    ann.post("/api/regulars/unblock", {"account": bob.id})
    r = bob.post(f"/api/tables/{private['table']}/join", {"invite": code, "name": "Bob"})
    assert r.status_code == 200 and r.json()["seat"] == 1


def test_a_connection_is_deaf_to_the_seats_of_the_accounts_it_blocks() -> None:
    from forties.web.limits import Bucket
    from forties.web.live import Live

    live: Any = Live.__new__(Live)
    live.conns = set()
    me = Conn(0, Bucket(1, 1), account="A", deaf_to=frozenset({"B"}),
              deaf_seats=frozenset({2}))
    them = Conn(1, Bucket(1, 1), account="B")
    other = Conn(3, Bucket(1, 1), account="C")
    live.conns = {me, them, other}
    assert me.deaf(live, 1) and me.deaf(live, 2)  # connected there, or its seat there
    assert not me.deaf(live, 3) and not me.deaf(live, None)
    assert not them.deaf(live, 0)  # (a block is one way)


# ----- invitations ------------------------------------------------------------------------


def invite(host: Person, made: dict[str, Any], seat: int, to: Person) -> Any:
    return host.post("/api/regulars/invite", {"table": made["table"], "seat": seat,
                                              "account": to.id, "token": made["token"]})


def test_the_host_invites_a_regular_who_accepts_and_sits(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    made = waiting_table(ann)
    ann.follow(bob)
    r = invite(ann, made, 2, bob)
    assert r.status_code == 200, r.text
    assert invite(ann, made, 2, bob).json()["invite"] == r.json()["invite"]  # (once)
    notices = bob.invites()
    assert [(n["from"], n["table"], n["seat"], n["game"]) for n in notices] == [
        ({"id": ann.id, "name": "Ann"}, made["table"], 2, "merrimack-valley")]
    assert ann.invites() == []  # the host has none
    got = bob.post(f"/api/regulars/invites/{notices[0]['id']}/accept")
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["seat"] == 2 and body["url"] == f"/t/{made['table']}#token={body['token']}"
    summary = client.get(f"/api/tables/{made['table']}").json()
    assert summary["seats"][2]["kind"] == "person" and summary["seats"][2]["name"] == "Bob"
    with client.websocket_connect(f"/ws/{made['table']}?token={body['token']}") as ws:
        ws.send_json({"type": "hello", "seq": 0})
        assert ws.receive_json()["you"] == 2  # the token is the seat's
    assert seat_links(client, made["table"]) == [(0, ann.id), (2, bob.id)]
    assert bob.invites() == []
    again = bob.post(f"/api/regulars/invites/{notices[0]['id']}/accept")
    assert again.status_code == 409 and again.json()["code"] == "invite_gone"


def test_an_invitation_is_declined(client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    made = waiting_table(ann)
    ann.follow(bob)
    iid = invite(ann, made, 1, bob).json()["invite"]
    assert bob.post(f"/api/regulars/invites/{iid}/decline").json() == {"ok": True}
    assert bob.invites() == []
    r = bob.post(f"/api/regulars/invites/{iid}/accept")
    assert r.status_code == 409
    assert client.get(f"/api/tables/{made['table']}").json()["seats"][1]["kind"] == "empty"


def test_invitations_lapse_when_the_seat_is_taken_the_game_starts_or_time_passes(
        client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    made = waiting_table(ann)
    ann.follow(bob)
    to_1 = invite(ann, made, 1, bob).json()["invite"]
    to_2 = invite(ann, made, 2, bob).json()["invite"]
    to_3 = invite(ann, made, 3, bob).json()["invite"]
    assert {n["id"] for n in bob.invites()} == {to_1, to_2, to_3}
    # seat 1 taken by a computer: its invitation lapses
    assert client.post(f"/api/tables/{made['table']}/seat",
                       json={"token": made["token"], "seat": 1, "level": "basic"}
                       ).status_code == 200
    assert {n["id"] for n in bob.invites()} == {to_2, to_3}
    r = bob.post(f"/api/regulars/invites/{to_1}/accept")
    assert r.status_code == 409
    # seat 2's is 31 minutes old
    run(client, lambda conn: conn.execute(account_invites_t.update().where(
        account_invites_t.c.id == to_2).values(created=time.time() - INVITE_SECONDS - 60)))
    assert {n["id"] for n in bob.invites()} == {to_3}
    assert bob.post(f"/api/regulars/invites/{to_2}/accept").status_code == 409
    # the game starts: seat 3's lapses too, and no invitation is sent after
    assert client.post(f"/api/tables/{made['table']}/start",
                       json={"token": made["token"]}).status_code == 200
    assert bob.invites() == []
    assert bob.post(f"/api/regulars/invites/{to_3}/accept").status_code == 409
    r = invite(ann, made, 3, bob)
    assert r.status_code == 409 and r.json()["code"] == "started"


def test_only_the_host_invites_and_only_a_regular_not_blocked(client: TestClient) -> None:
    ann, bob, cy = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cy")
    made = waiting_table(ann)
    # not followed: refused
    r = invite(ann, made, 1, bob)
    assert r.status_code == 403 and r.json()["code"] == "not_followed"
    ann.follow(bob)
    ann.follow(cy)
    # a guest's seat key (seat 1, joined by its invite) is not the host's
    code = made["invites"][0]["url"].split("#invite=")[1]
    guest = client.post(f"/api/tables/{made['table']}/join",
                        json={"invite": code, "name": "Guest"}).json()
    cy.follow(bob)
    r = cy.post("/api/regulars/invite", {"table": made["table"], "seat": 2,
                                         "account": bob.id, "token": guest["token"]})
    assert r.status_code == 403 and r.json()["code"] == "token"
    # a seat with someone in it
    r = invite(ann, made, 1, bob)
    assert r.status_code == 409 and r.json()["code"] == "taken"
    # blocked either way
    cy.post("/api/regulars/block", {"account": ann.id})
    r = invite(ann, made, 2, cy)
    assert r.status_code == 403 and r.json()["code"] in ("blocked", "not_followed")
    ann.post("/api/regulars/block", {"account": bob.id})
    r = invite(ann, made, 2, bob)
    assert r.status_code == 403
    assert bob.invites() == [] and cy.invites() == []


def next_chat(ws: Any) -> dict[str, Any]:
    """The next chat frame on a TestClient websocket (presence frames and the like
    passed over)."""
    while True:
        frame = ws.receive_json()
        if frame["type"] == "chat":
            return dict(frame)


def test_a_block_deafens_the_blockers_open_connection_at_once_and_after_a_reconnect(
        client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    made = waiting_table(ann)
    code = made["invites"][0]["url"].split("#invite=")[1]
    seat = bob.post(f"/api/tables/{made['table']}/join", {"invite": code, "name": "Bob"})
    bob_token = seat.json()["token"]
    base = f"/ws/{made['table']}?token="
    with client.websocket_connect(base + made["token"], headers=ann._headers()) as wa, \
            client.websocket_connect(base + bob_token, headers=bob._headers()) as wb:
        for ws in (wa, wb):
            ws.send_json({"type": "hello", "seq": 0})
            assert ws.receive_json()["type"] == "snapshot"
        wb.send_json({"type": "chat", "text": "one"})
        first = next_chat(wa)
        assert first["text"] == "one" and first["seat"] == 1
        assert next_chat(wb)["text"] == "one"
        ann.post("/api/regulars/block", {"account": bob.id})
        wb.send_json({"type": "chat", "text": "two"})
        assert next_chat(wa) == {"type": "chat", "seq": first["seq"] + 1}
        assert next_chat(wb)["text"] == "two"
        # Ann's page comes back from the first line's number: the second comes numbered
        # only; from nothing, the snapshot's chat has neither of Bob's lines
        with client.websocket_connect(base + made["token"], headers=ann._headers()) as again:
            again.send_json({"type": "hello", "seq": first["seq"]})
            assert next_chat(again) == {"type": "chat", "seq": first["seq"] + 1}
        with client.websocket_connect(base + made["token"], headers=ann._headers()) as again:
            again.send_json({"type": "hello", "seq": 0})
            snap = again.receive_json()
            assert snap["type"] == "snapshot" and snap["chat"] == []
        # unblocked: heard again
        ann.post("/api/regulars/unblock", {"account": bob.id})
        wb.send_json({"type": "chat", "text": "three"})
        assert next_chat(wa)["text"] == "three"
