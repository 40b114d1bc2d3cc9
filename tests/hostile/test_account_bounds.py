"""Floods from a signed-in account: every route that keeps something new for each request
is counted a minute (``limits.Rates``), so that one account's browser cannot fill the
database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from tests.accounts_helpers import sign_in

from .conftest import refused


def challenges(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM challenges").fetchone()[0])


def test_a_flood_of_new_passkeys_begun_is_counted_a_minute(tmp_path: Path) -> None:
    limits = Limits(par=False, **{**Rates.lifted(), "signins_per_minute": 3})
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}", limits=limits))
    with TestClient(app, raise_server_exceptions=False) as client:
        sign_in(client, "Ann")
        answers = [client.post("/api/account/passkeys/begin", json={}) for _ in range(10)]
        assert [r.status_code for r in answers] == [200] * 3 + [429] * 7
        assert "sign-ins" in refused(answers[-1], 429)
        assert answers[-1].json()["code"] == "rate"
        assert challenges(tmp_path / "app.db") == 3
