"""A stranger's name for the server (DNS rebinding): a page of evil.example whose name was
pointed at the server's address sends ``Host: evil.example``. Such a request or websocket
is refused (421, one line) before any work; the site's own name, IP addresses and
``localhost`` are served; ``/healthz`` and ``/readyz`` answer whatever the name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates

from .conftest import refused

SITE = "https://forties.example.org"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    """The app at a public address of its own, as ``forties serve --public-url`` makes it."""
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **Rates.lifted()),
                                    public_url=SITE))
    with TestClient(app, base_url=SITE, raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("host", [
    "evil.example", "evil.example:443", "forties.example.org.evil.example",
    "evil@forties.example.org", "forties.example.org/x", "a b", "",
    "forties.example.org:x"])
def test_a_request_for_another_name_is_refused_before_any_work(site: TestClient,
                                                               host: str) -> None:
    r = site.post("/api/tables", json={"preset": "auction-45"}, headers={"host": host})
    assert "does not answer to that name" in refused(r, 421)
    assert r.json()["code"] == "host"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors" in r.headers["content-security-policy"]
    assert site.get("/api/lobby").json() == []  # (no table was made)


@pytest.mark.parametrize("host", [
    "forties.example.org", "FORTIES.example.org:443", "forties.example.org.",
    "127.0.0.1:8045", "localhost:8045", "localhost", "[::1]:8045", "192.168.1.20:8045"])
def test_the_sites_name_and_addresses_are_served(site: TestClient, host: str) -> None:
    r = site.get("/api/presets", headers={"host": host})
    assert r.status_code == 200, r.text


def test_a_websocket_for_another_name_is_refused(site: TestClient) -> None:
    table = site.post("/api/tables", json={"preset": "auction-45"}).json()
    path = f"/ws/{table['table']}?token={table['token']}"
    with pytest.raises(WebSocketDenialResponse) as denied, \
            site.websocket_connect(path, headers={"host": "evil.example"}):
        pass  # (refused before it is accepted)
    assert "does not answer to that name" in refused(denied.value, 421)
    with site.websocket_connect(path, headers={"host": "forties.example.org"}) as w:  # (let in)
        w.send_json({"type": "hello", "seq": 0})
        assert w.receive_json()["type"]


def test_health_answers_any_name_and_metrics_do_not(site: TestClient) -> None:
    for path in ("/healthz", "/readyz"):
        assert site.get(path, headers={"host": "monitor.internal"}).status_code == 200
    refused(site.get("/metrics", headers={"host": "evil.example"}), 421)
