"""What the clubs' tests share: the app in process over a SQLite file (every rate
lifted), a person signed in to an account of their own (``Person``: its requests carry
its cookie, so that several people share one client), and a club made by one of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.clubs import Clubs
from tests.accounts_helpers import SignedIn, app_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


class Person(SignedIn):
    """An account signed in, with its clubs' requests."""

    def ok(self, path: str, body: Any = None) -> dict[str, Any]:
        r = self.post(path, body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def club(self, club: str) -> dict[str, Any]:
        r = self.get(f"/api/clubs/{club}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def make_club(self, name: str = "The Tuesday Club", **rules: Any) -> str:
        return str(self.ok("/api/clubs", {"name": name, **rules})["club"])

    def invite(self, club: str, **body: Any) -> str:
        return str(self.ok(f"/api/clubs/{club}/invite", body)["key"])

    def join(self, club: str, key: str) -> Any:
        return self.post(f"/api/clubs/{club}/join", {"key": key})


def clubs(client: TestClient) -> Clubs:
    got: Clubs = client.app.state.clubs  # type: ignore[attr-defined]
    return got


def run(client: TestClient, fn: Any) -> Any:
    """``fn(conn)`` in one transaction of the app's store."""
    portal: Any = client.portal
    return portal.call(clubs(client).store.run, fn)


def call(client: TestClient, fn: Any, *args: Any) -> Any:
    portal: Any = client.portal
    return portal.call(fn, *args)


def roles(person: Person, club: str) -> dict[str, str]:
    """Each member's role, by name, as the club's page shows its members."""
    return {m["name"]: m["role"] for m in person.club(club)["members"]}
