"""Every answer of the server carries its security headers: pages, the API, static files,
refusals, and pages and routes that are not there. A strict Content-Security-Policy (no
inline script, no framing by another site), nosniff, no referrer; HSTS where the site's
public address is https. (tests/web/test_csp.py: the pages run in Chromium under it with
no violation, and another site cannot frame a table.)"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .doors import Door, doors, new_table

PUBLIC = "https://forties.example.org"


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Door]]:
    with doors(tmp_path_factory.mktemp("headers"), ({}, []),
               ({}, ["--public-url", PUBLIC])) as both:
        yield both


def answers(door: Door) -> dict[str, httpx.Response]:
    """One answer of each kind the server gives."""
    table = new_table(door)["table"]
    evening = httpx.post(f"{door.http}/api/hall", json={"games": 1}).json()["evening"]
    page = {"Accept": "text/html"}
    http = httpx.Client(base_url=door.http)
    out = {}
    for path in ["/", f"/t/{table}", "/replay", "/pad", "/hall", f"/hall/{evening}",
                 f"/hall/{evening}/print/cards", "/api/presets", f"/api/tables/{table}",
                 "/api/pads/presets", "/static/style.css", "/static/table.js",
                 "/i18n/en.json", "/healthz"]:
        out[path] = http.get(path, headers=page)
        assert out[path].status_code == 200, (path, out[path].text[:200])
    out["missing table page"] = http.get("/t/nosuchtable", headers=page)
    out["missing page"] = http.get("/nowhere", headers=page)
    out["missing API"] = http.get("/api/tables/nosuchtable")
    out["missing file"] = http.get("/static/nothing.js")
    out["not JSON"] = http.post("/api/tables", content=b"{oops",
                                headers={"Content-Type": "application/json"})
    out["wrong method"] = http.get("/api/play")
    out["too large"] = http.post("/api/tables", content=b" " * 100_000,
                                 headers={"Content-Type": "application/json"})
    out["not as JSON"] = http.post("/api/tables", content=b"{}",
                                   headers={"Content-Type": "text/plain"})
    out["other site"] = http.post("/api/tables", json={}, headers={"Origin": "http://x.example"})
    for what, status in [("missing table page", 404), ("missing page", 404),
                         ("missing API", 404), ("missing file", 404), ("not JSON", 400),
                         ("wrong method", 405), ("too large", 413), ("not as JSON", 415),
                         ("other site", 403)]:
        assert out[what].status_code == status, (what, out[what].text[:200])
    return out


def test_every_answer_carries_the_security_headers(servers: list[Door]) -> None:
    door = servers[0]
    for what, r in answers(door).items():
        csp = r.headers.get("content-security-policy", "")
        rules = dict([*part.strip().split(" ", 1), ""][:2] for part in csp.split(";"))
        assert rules.get("script-src") == "'self'", (what, csp)
        assert rules.get("default-src") == "'self'" and rules.get("object-src") == "'none'"
        assert rules.get("frame-ancestors") == "'self'" and rules.get("base-uri") == "'none'"
        assert f"ws://127.0.0.1:{door.port}" in rules.get("connect-src", ""), (what, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert r.headers.get("x-content-type-options") == "nosniff", what
        assert r.headers.get("referrer-policy") == "no-referrer", what
        assert r.headers.get("x-frame-options") == "SAMEORIGIN", what
        assert "strict-transport-security" not in r.headers, what  # the site is http


def test_an_https_site_asks_browsers_to_stay_on_https(servers: list[Door]) -> None:
    door = servers[1]
    for what, r in answers(door).items():
        assert r.headers.get("strict-transport-security", "").startswith("max-age="), what
        assert "wss://forties.example.org" in r.headers["content-security-policy"], what


def test_the_servers_own_pages_have_no_inline_style_or_script(servers: list[Door]) -> None:
    r = httpx.get(f"{servers[0].http}/t/nosuchtable", headers={"Accept": "text/html"})
    assert r.status_code == 404 and "<h1>" in r.text
    assert "style=" not in r.text and "<script" not in r.text
