"""Bounds on the accounts' routes: every route that keeps something new for each request
is counted a minute (``limits.Rates``), so that one account's browser cannot fill the
database; and every account route is in ``forties.web.limits``' table of bounds."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from starlette.routing import Route
from starlette.testclient import TestClient

import forties.web.limits as limits_module
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from tests.accounts_helpers import sign_in

from .conftest import refused
from .test_account_routes import ACCOUNT_MODULES, ACCOUNT_PATHS


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


def bounds_table() -> list[str]:
    """The left column (route or message) of ``limits``' table of bounds, line by line."""
    lines = (limits_module.__doc__ or "").splitlines()
    rules = [i for i, row in enumerate(lines) if row.startswith("=" * 45)]
    assert len(rules) == 3, "the table of bounds: a heading between two rules, then one"
    body = "\n".join(lines[rules[1] + 1:rules[2]])
    return [row[:47].strip() for row in body.splitlines() if row[:47].strip()]


def documented(path: str, column: list[str]) -> bool:
    """Whether the table names ``path`` ({...} written ID/FAMILY), whole or by its last
    segments after a row that names the rest (``/api/account/signin/begin, /recover``)."""
    written = re.sub(r"\{(\w+)(:\w+)?\}", lambda m: m.group(1).upper(), path)
    parts = written.split("/")
    suffixes = ["/".join(parts[i:]) for i in range(1, len(parts))]
    text = "\n".join(column)
    return any(re.search(r"(?:^|[\s,])/?" + re.escape(s.lstrip("/")) + r"(?=[,\s]|$)", text,
                         re.M) for s in ["/" + x for x in suffixes])


def test_every_account_route_has_a_documented_bound(client: TestClient) -> None:
    """Each account route (``test_account_routes.account_routes``, GETs too) is in the
    table of bounds that ``forties.web.limits`` keeps (a rate a minute, or what bounds
    its work before it is done)."""
    column = bounds_table()
    paths = sorted({r.path for r in client.app.routes  # type: ignore[attr-defined]
                    if isinstance(r, Route) and (
                        getattr(r.endpoint, "__module__", "") in ACCOUNT_MODULES
                        or r.path.startswith(ACCOUNT_PATHS))})
    assert paths
    missing = [p for p in paths if not documented(p, column)]
    assert not missing, missing
