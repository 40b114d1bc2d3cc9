"""New duplicate sessions have a limit a minute of their own (``duplicates`` in
``limits.Rates``): a stranger flooding ``POST /api/dup`` is refused in one line (429)
once the minute is full, and neither the flood nor the hall's evenings use up the
other's minute."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates

from .conftest import refused

PAIRS = [{"name": n} for n in ("Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal")]
SESSION = {"game": "auction-45", "boards": 2, "partnerships": PAIRS}


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[TestClient]:
    """Every rate lifted but new duplicate sessions (3 a minute from one address) and
    hall evenings (2 a minute)."""
    lifted = {**Rates.lifted(), "duplicates_per_minute": 3, "evenings_per_minute": 2}
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **lifted)))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def test_a_flood_of_new_duplicate_sessions_is_refused_on_its_own_limit(
        tight: TestClient) -> None:
    # the hall's two evenings of the minute are used up first: sessions are not counted
    # against them
    for _ in range(2):
        assert tight.post("/api/hall", json={"games": 1}).status_code == 200
    assert "evenings" in refused(tight.post("/api/hall", json={"games": 1}), 429)
    made = [tight.post("/api/dup", json=SESSION) for _ in range(3)]
    assert [r.status_code for r in made] == [200, 200, 200], made[-1].text[:200]
    for _ in range(20):  # the flood: each refused in one line, nothing made
        r = tight.post("/api/dup", json=SESSION)
        assert "too many new duplicate sessions from this address" in refused(r, 429)
        assert r.json()["code"] == "rate"
    # a request refused for what it asks is not counted, and the sessions made still work
    sid = made[0].json()["session"]
    assert tight.get(f"/api/dup/{sid}").status_code == 200


def test_the_sessions_flood_leaves_the_halls_evenings_their_minute(
        tight: TestClient) -> None:
    for _ in range(3):
        assert tight.post("/api/dup", json=SESSION).status_code == 200
    assert refused(tight.post("/api/dup", json=SESSION), 429)
    assert tight.post("/api/hall", json={"games": 1}).status_code == 200
