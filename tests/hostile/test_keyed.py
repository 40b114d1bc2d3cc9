"""What an evening keeps of the address that made it (its tables count against that
address) cannot be searched: a plain SHA-256 of an IPv4 address is undone by trying the
2^32 of them, so it is kept as an HMAC under the site's own secret, which is made once
from ``secrets`` and kept in the site's database (never in the repository). An evening
stored before, with the plain hash, still opens its tables against it."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates

ADDRESS = "testclient"  # the address Starlette's test client comes from


def app_over(db: Path, **limits: Any) -> TestClient:
    return TestClient(create_app(ServerSettings(
        db_url=f"sqlite:///{db}", limits=Limits(par=False, **{**Rates.lifted(), **limits}))))


def stored(db: Path, kind: str, doc: str) -> dict[str, Any]:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT body FROM documents WHERE kind = ? AND id = ?",
                           (kind, doc)).fetchone()
    assert row is not None, f"no {kind}/{doc} in the database"
    return dict(json.loads(row[0]))


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "site.db"


def test_an_evenings_maker_is_kept_under_the_sites_secret(db: Path) -> None:
    with app_over(db) as c:
        eid = c.post("/api/hall", json={"games": 1, "online": True}).json()["evening"]
    maker = stored(db, "hall", eid)["maker"]
    plain = hashlib.sha256(ADDRESS.encode()).hexdigest()
    assert not plain.startswith(maker), "the maker is a plain hash of its address"
    key = stored(db, "site", "secret")["key"]
    assert len(bytes.fromhex(key)) == 32
    assert maker == hmac.new(bytes.fromhex(key), ADDRESS.encode(),
                             hashlib.sha256).hexdigest()[:32]
    with app_over(db) as c:  # the server started again: the same secret, the same maker
        again = c.post("/api/hall", json={"games": 1, "online": True}).json()["evening"]
    assert stored(db, "hall", again)["maker"] == maker
    assert stored(db, "site", "secret")["key"] == key
    with app_over(db) as c:  # and no route serves it
        assert c.get("/api/hall/secret").status_code == 404


def test_an_evening_stored_with_a_plain_hash_still_opens_its_tables(db: Path) -> None:
    """8 couples want 4 tables at once; the maker may make 2 a minute: 2 are made,
    counted against the hash the old evening keeps."""
    with app_over(db, evening_tables_per_minute=2) as c:
        made = c.post("/api/hall", json={"games": 1, "online": True}).json()
        eid, key = made["evening"], made["key"]
        body = stored(db, "hall", eid)
        body["maker"] = hashlib.sha256(ADDRESS.encode()).hexdigest()[:16]  # as before
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE documents SET body = ?, version = version + 1 WHERE kind = "
                         "'hall' AND id = ?", (json.dumps(body), eid))
        for n in range(8):
            r = c.post(f"/api/hall/{eid}/register",
                       json={"key": key, "names": [f"A{n}", f"B{n}"]})
            assert r.status_code == 200, r.text
        r = c.post(f"/api/hall/{eid}/begin", json={"key": key})
        assert r.status_code == 200, r.text
        board = c.get(f"/api/hall/{eid}").json()
    assert len(board["online"]["tables"]) == 2, board["online"]
    assert any("not made yet" in n for n in board["notes"]), board["notes"]
