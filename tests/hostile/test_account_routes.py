"""Another site's page against every state-changing account route, found from the app's
own routes (so that a route added later is attacked too): a request forged with another
site's ``Origin``, ``Origin: null`` (a sandboxed frame, a ``data:`` page),
``Sec-Fetch-Site: cross-site``, or a body a form can send without asking (text/plain, a
form's, multipart) is refused in one line, and no row of the database changes. The
same request from the site's own page does change it (each route's body is one that
works), so "nothing changed" means the refusal, not a body that could never work."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from forties.web import (
    account_api,
    account_data,
    club_api,
    games,
    history,
    passkeys,
    regulars,
)
from forties.web.app import body_limit
from tests.test_regulars import Person, invite, waiting_table

from .conftest import refused

EVIL = "https://evil.example"
# the modules whose routes are the accounts' (any route of theirs, whatever its path)
ACCOUNT_MODULES = {m.__name__ for m in (account_api, account_data, club_api, games,
                                        history, passkeys, regulars)}
# and any route under these paths, whichever module serves it
ACCOUNT_PATHS = ("/api/account", "/api/regulars", "/api/players", "/api/me",
                 "/api/history", "/api/leaderboard", "/account", "/me", "/players",
                 "/api/clubs", "/club")
STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}

# (headers, the body's bytes (None: the route's JSON body), the status of the refusal);
# without a Content-Type of their own, the headers go with application/json, except
# where NO_TYPE says none at all (a fetch of a Blob with no type, "no-cors")
NO_TYPE = "-"
FORGERIES: list[tuple[dict[str, str], bytes | None, int]] = [
    ({"Origin": EVIL}, None, 403),
    ({"Origin": "null"}, None, 403),
    ({"Sec-Fetch-Site": "cross-site"}, None, 403),
    ({"Origin": EVIL, "Sec-Fetch-Site": "cross-site"}, None, 403),
    ({"Origin": EVIL, "Content-Type": NO_TYPE}, None, 403),
    ({"Origin": "null", "Sec-Fetch-Site": "cross-site", "Content-Type": NO_TYPE}, None, 403),
    ({"Content-Type": "text/plain"}, None, 415),  # (the JSON body, sent as a form may)
    ({"Content-Type": "text/plain;charset=UTF-8"}, None, 415),
    ({"Content-Type": "application/x-www-form-urlencoded"}, b"a=1", 415),
    ({"Content-Type": "multipart/form-data; boundary=x"},
     b"--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n", 415),
]


def account_routes(app: Any) -> list[tuple[str, str]]:
    """(method, path) of every state-changing route of the accounts in ``app``."""
    found = []
    for route in app.routes:
        if not isinstance(route, Route):
            continue
        module = getattr(route.endpoint, "__module__", "")
        if module not in ACCOUNT_MODULES and not route.path.startswith(ACCOUNT_PATHS):
            continue
        for method in sorted((route.methods or set()) & STATE_CHANGING):
            found.append((method, route.path))
    return found


def rows(db: Path) -> dict[str, list[str]]:
    """Every row of every table of the database."""
    with sqlite3.connect(db) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: sorted(map(repr, conn.execute(f'SELECT * FROM "{n}"'))) for n in names}


class World:
    """Three accounts (Ann follows Bob and blocks Cy), a waiting table of Ann's and one of
    a guest's, Ann's invitation of Bob to hers, two sessions and two passkeys of Ann's:
    what the forged requests aim at."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.ann, self.bob = Person(client, "Ann"), Person(client, "Bob")
        self.made = waiting_table(self.ann)
        self.guests = client.post("/api/tables", json={"preset": "merrimack-valley",
                                                       "name": "Guest"}).json()
        self.ann.follow(self.bob)
        self.cy = Person(client, "Cy")
        assert self.ann.post("/api/regulars/block", {"account": self.cy.id}).status_code == 200
        self.invite = invite(self.ann, self.made, 1, self.bob).json()["invite"]
        state: Any = client.app.state  # type: ignore[attr-defined]
        portal: Any = client.portal
        portal.call(state.accounts.new_session, self.ann.id, "phone")  # another of Ann's
        self.other = next(s for s in self.ann.get("/api/account/sessions").json()["sessions"]
                          if not s["current"])["id"]
        # two passkeys of Ann's (one may be removed: never the last); their public halves
        # are not read to be renamed or removed
        keys = passkeys.passkeys_of(state)
        self.passkey = "QUFBQUFBQUFBQUFBQUFBQQ"
        for cid, label in ((self.passkey, "phone"), ("QkJCQkJCQkJCQkJCQkJCQg", "laptop")):
            portal.call(keys.add, self.ann.id, "aGFuZGxl", cid, b"\x01" * 77, 0, [], label)
        # a club Ann directs, Bob a member, and its invite link
        club = self.ann.post("/api/clubs", {"name": "Ann's club"}).json()
        self.club = club["club"]
        self.club_key = self.ann.post(f"/api/clubs/{self.club}/invite", {}).json()["key"]
        assert self.bob.post(f"/api/clubs/{self.club}/join",
                             {"key": self.club_key}).status_code == 200
        # and a season of the club's
        season = self.ann.post(f"/api/clubs/{self.club}/seasons", {
            "name": "Winter", "starts": "2099-01-01", "ends": "2099-03-31",
            "rule": {"best": None}})
        assert season.status_code == 200, season.text
        self.season = season.json()["season"]["id"]


# each route: who sends it and a body that the site's own page could send and that works
# (a change made), or None where no such body can be made here (an answer signed by a
# passkey: ``tests/hostile/test_passkeys.py`` forges those with a software authenticator)
Body = Callable[[World], tuple[Person | None, dict[str, Any] | None]]
BODIES: dict[str, Body] = {
    "/api/account/signout": lambda w: (w.ann, {}),
    "/api/account/sessions/end": lambda w: (w.ann, {"id": w.other}),
    "/api/account/privacy": lambda w: (w.ann, {"hidden": True}),
    "/api/account/delete": lambda w: (w.bob, {"confirm": "Bob"}),
    "/api/account/signup/begin": lambda w: (None, {"name": "Zed"}),
    "/api/account/signup/finish": lambda w: (None, None),
    "/api/account/signin/begin": lambda w: (None, {}),
    "/api/account/signin/finish": lambda w: (None, None),
    "/api/account/recover": lambda w: (None, None),
    "/api/account/recovery/new": lambda w: (w.ann, {}),
    "/api/account/passkeys/rename": lambda w: (w.ann, {"id": w.passkey, "label": "kitchen"}),
    "/api/account/passkeys/remove": lambda w: (w.ann, {"id": w.passkey}),
    "/api/account/passkeys/begin": lambda w: (w.ann, {}),
    "/api/account/passkeys/finish": lambda w: (w.ann, None),
    "/api/account/link/new": lambda w: (w.ann, {}),
    "/api/account/link/begin": lambda w: (None, None),
    "/api/account/link/finish": lambda w: (None, None),
    "/api/account/claim": lambda w: (w.bob, {"seats": [{"table": w.guests["table"],
                                                         "token": w.guests["token"]}]}),
    "/api/tables/{id}/rated": lambda w: (w.ann, {"token": w.made["token"], "rated": True}),
    "/api/regulars/follow": lambda w: (w.bob, {"account": w.ann.id}),
    "/api/regulars/unfollow": lambda w: (w.ann, {"account": w.bob.id}),
    "/api/regulars/block": lambda w: (w.ann, {"account": w.bob.id}),
    "/api/regulars/unblock": lambda w: (w.ann, {"account": w.cy.id}),
    "/api/regulars/invite": lambda w: (w.ann, {"table": w.made["table"], "seat": 2,
                                               "account": w.bob.id,
                                               "token": w.made["token"]}),
    "/api/regulars/invites/{id}/accept": lambda w: (w.bob, {}),
    "/api/regulars/invites/{id}/decline": lambda w: (w.bob, {}),
    "/api/clubs": lambda w: (w.cy, {"name": "Cy's club"}),
    "/api/clubs/{id}": lambda w: (w.ann, {"name": "Renamed"}),
    "/api/clubs/{id}/invite": lambda w: (w.ann, {}),
    "/api/clubs/{id}/join": lambda w: (w.cy, {"key": w.club_key}),
    "/api/clubs/{id}/role": lambda w: (w.ann, {"account": w.bob.id, "role": "director"}),
    "/api/clubs/{id}/remove": lambda w: (w.ann, {"account": w.bob.id}),
    "/api/clubs/{id}/leave": lambda w: (w.bob, {}),
    "/api/clubs/{id}/evenings": lambda w: (w.ann, {"title": "Friday", "where": "hall",
                                                   "when": "2099-01-01T19:00"}),
    "/api/clubs/{id}/seasons": lambda w: (w.ann, {"name": "Spring", "starts": "2099-04-01",
                                                  "ends": "2099-06-30",
                                                  "rule": {"best": 2}}),
    "/api/clubs/{id}/seasons/{sid}": lambda w: (w.ann, {"name": "Winter, again",
                                                        "rule": {"best": 1}}),
    "/api/clubs/{id}/seasons/{sid}/remove": lambda w: (w.ann, {}),
}


def test_every_account_route_is_found_and_given_a_body(client: TestClient) -> None:
    """The routes are the app's own; a new one fails here until it is given its body."""
    found = {path for _, path in account_routes(client.app)}
    assert found == set(BODIES), (found - set(BODIES), set(BODIES) - found)


def concrete(path: str, world: World) -> str:
    return path.replace("{id}", world.made["table"] if path.startswith("/api/tables")
                        else world.club if path.startswith("/api/clubs") else world.invite
                        ).replace("{sid}", world.season)


@pytest.mark.parametrize("path", sorted(BODIES))
def test_a_forged_cross_site_request_changes_nothing(client: TestClient, tmp_path: Path,
                                                     path: str) -> None:
    world = World(client)
    who, body = BODIES[path](world)
    url = concrete(path, world)
    cookie = who._headers() if who is not None else {}
    sent = json.dumps(body if body is not None else {}).encode()
    before = rows(tmp_path / "app.db")
    for headers, raw, status in FORGERIES:
        kind = {} if "Content-Type" in headers else {"Content-Type": "application/json"}
        sending = {k: v for k, v in {**cookie, **kind, **headers}.items() if v != NO_TYPE}
        r = client.post(url, content=sent if raw is None else raw, headers=sending)
        refused(r, status)
        assert rows(tmp_path / "app.db") == before, (path, headers)
    if body is None:
        return
    # the same request from the site's own page changes something
    r = client.post(url, content=sent, headers={**cookie, "Content-Type": "application/json",
                                                "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200, (path, r.text)
    assert rows(tmp_path / "app.db") != before, path


@pytest.mark.parametrize("path", sorted(BODIES))
def test_a_huge_body_is_refused_before_it_is_read(client: TestClient, tmp_path: Path,
                                                  path: str) -> None:
    """Over the route's limit (``app.body_limit``), said by its length or streamed without
    one: 413 in one line, nothing changed."""
    world = World(client)
    who, _ = BODIES[path](world)
    url = concrete(path, world)
    limit = body_limit(path)
    assert limit <= 64 * 1024
    huge = b'{"x": "' + b"a" * (limit + 1) + b'"}'
    before = rows(tmp_path / "app.db")
    headers = {**(who._headers() if who is not None else {}),
               "Content-Type": "application/json"}
    refused(client.post(url, content=huge, headers=headers), 413)

    def streamed() -> Iterator[bytes]:
        for i in range(0, len(huge), 1024):
            yield huge[i:i + 1024]
    refused(client.post(url, content=streamed(), headers=headers), 413)
    assert rows(tmp_path / "app.db") == before
