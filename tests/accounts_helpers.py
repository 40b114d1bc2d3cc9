"""What the accounts' tests share: an account and a browser signed in to it, made in the
app's process (``TestClient``'s portal) without a passkey, for the tests of what an
account does once it is signed in (the passkeys' own tests sign up and in for real)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from forties.web.accounts import COOKIE, Account, Accounts
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates


def app_client(tmp_path: Path) -> TestClient:
    """The app in process over a SQLite file in ``tmp_path``, every rate lifted."""
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **Rates.lifted())))
    return TestClient(app, raise_server_exceptions=False)


def accounts(client: TestClient) -> Accounts:
    got: Accounts = client.app.state.accounts  # type: ignore[attr-defined]
    return got


def make_account(client: TestClient, name: str) -> tuple[Account, str]:
    """A new account named ``name`` and a session's key for it."""
    portal: Any = client.portal
    account: Account = portal.call(accounts(client).create, name)
    key: str = portal.call(accounts(client).new_session, account.id, "tests")
    return account, key


def sign_in(client: TestClient, name: str) -> Account:
    """A new account named ``name``, ``client`` signed in to it (its cookie set)."""
    account, key = make_account(client, name)
    client.cookies.set(COOKIE, key)
    return account


class SignedIn:
    """An account and the requests of a browser signed in to it (its cookie on each
    request, so that several people share one client)."""

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
