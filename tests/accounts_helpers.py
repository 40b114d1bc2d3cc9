"""What the accounts' tests share: an account and a browser signed in to it, made in the
app's process (``TestClient``'s portal) without a passkey, for the tests of what an
account does once it is signed in (the passkeys' own tests sign up and in for real)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from forties.web.accounts import COOKIE, Account, Accounts


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
