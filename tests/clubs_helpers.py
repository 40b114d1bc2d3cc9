"""What the clubs' tests share: the app in process over a SQLite file (every rate
lifted), a person signed in to an account of their own (``Person``: its requests carry
its cookie, so that several people share one client), and a club made by one of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.accounts import COOKIE
from forties.web.app import ServerSettings, create_app
from forties.web.clubs import Clubs
from forties.web.limits import Limits, Rates
from tests.accounts_helpers import make_account


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **Rates.lifted())))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


class Person:
    """An account and the requests of a browser signed in to it."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        self.account, self.key = make_account(client, name)
        self.id = self.account.id

    def _headers(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.key}"}

    def get(self, path: str) -> Any:
        return self.client.get(path, headers=self._headers())

    def post(self, path: str, body: Any = None) -> Any:
        """POST ``body`` as JSON (written with \\u escapes: a lone surrogate goes as one)."""
        return self.client.post(path, content=json.dumps({} if body is None else body),
                                headers={**self._headers(),
                                         "Content-Type": "application/json"})

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
