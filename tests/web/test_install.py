"""The installable app: Chromium accepts the manifest and the service worker as an app it
can install; the worker keeps the page's own static files only (never a table's page, an
/api answer or a websocket), and a new version's cache replaces the old one; the home
page lists the device's own recent games (its localStorage, no server state)."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from forties.web import install

from .conftest import CHROMIUM, CHROMIUM_ARGS
from .pages import PHONE, act, until, wait_ready

DESKTOP = {"width": 1440, "height": 900}

CACHED_JS = """() => caches.keys().then(async (names) => { const out = {};
  for (const n of names) { const c = await caches.open(n);
    out[n] = (await c.keys()).map((r) => new URL(r.url).pathname); }
  return out; })"""


def test_the_worker_and_the_manifest_are_served_as_a_browser_needs(server: str) -> None:
    with urllib.request.urlopen(server + "/sw.js", timeout=10) as r:
        script = r.read().decode()
        assert r.headers["Content-Type"].startswith("text/javascript")
        assert r.headers["Cache-Control"] == "no-cache"  # each update check asks again
        assert r.headers["Service-Worker-Allowed"] == "/"
        csp = r.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", script).group(1))  # type: ignore[union-attr]
    assert "/static/table.js" in files and "/static/style.css" in files
    assert all(f.startswith("/static/") and not f.endswith(".html") for f in files), files
    assert "__VERSION__" not in script and "__FILES__" not in script
    with urllib.request.urlopen(server + "/manifest.webmanifest", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("application/manifest+json")
        manifest = json.load(r)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {i["sizes"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server + icon["src"], timeout=10) as r:
            assert r.headers["Content-Type"] == icon["type"], icon


def test_a_changed_file_makes_a_new_version_of_the_worker(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    (tmp_path / "sw.js").write_text((install.STATIC / "sw.js").read_text())
    (tmp_path / "a.js").write_text("one")
    (tmp_path / "page.html").write_text("<p>")
    monkeypatch.setattr(install, "STATIC", tmp_path)
    install.worker_script.cache_clear()
    try:
        first = install.worker_script().decode()
        (tmp_path / "a.js").write_text("two")
        install.worker_script.cache_clear()
        second = install.worker_script().decode()
    finally:
        install.worker_script.cache_clear()
    version = re.compile(r"const VERSION = \"([0-9a-f]{16})\";")
    assert version.search(first) and version.search(second)
    assert version.search(first).group(1) != version.search(second).group(1)  # type: ignore[union-attr]
    assert 'const FILES = ["/static/a.js"];' in second  # (not the page, not the worker)


def test_chromium_installs_the_app_and_the_home_lists_the_devices_games(
        server: str, browser: Any, tmp_path: Path) -> None:
    # (an incognito context, as every other test's, is never offered an install: this one
    # has a profile of its own)
    ctx = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        viewport=PHONE, has_touch=True, locale="en-US")
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # an old version's cache, left on the device: the new worker removes it
        page.goto(server + "/healthz")
        page.evaluate("() => caches.open('forties-static-0000000000000000').then((c) =>"
                      " c.put('/static/old.js', new Response('old')))")
        page.goto(server + "/")
        wait_ready(page)
        until(page, "navigator.serviceWorker.controller !== null",
              "the service worker in control of the home page")
        cdp = ctx.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        assert cdp.send("Page.getAppManifest")["errors"] == []
        # a game from the home page: its page, its moves and its answers are not kept
        page.click("#play")
        page.wait_for_url("**/t/**")
        wait_ready(page)
        table = page.url.split("/t/")[1].split("#")[0].split("?")[0]
        until(page, "document.body.dataset.mine === 'true'", "the player's turn")
        act(page)
        cached = page.evaluate(CACHED_JS)
        (name,) = cached  # one version, the old one gone
        assert re.fullmatch(r"forties-static-[0-9a-f]{16}", name), cached
        kept = cached[name]
        assert "/static/table.js" in kept and "/static/icons/icon-512.png" in kept
        assert all(p.startswith("/static/") for p in kept), kept
        # with the network gone, the kept scripts answer, and nothing else was kept
        ctx.set_offline(True)
        got = page.evaluate("""() => Promise.all(['/static/util.js', '/api/presets'].map(
          (u) => fetch(u).then((r) => r.status, () => 'failed')))""")
        ctx.set_offline(False)
        assert got == [200, "failed"], got
        # the home page lists this game, at a phone's size and a desktop's, after a game
        # this device won earlier (as the table page notes one at its end)
        page.evaluate("""() => { const list = JSON.parse(localStorage.getItem('forties.recent'));
          list.push({id: 'old', when: Date.UTC(2026, 0, 5, 20, 0), preset: 'nova-scotia', you: 0,
            seats: [{name: 'You', kind: 'person', level: ''},
              {name: 'Ann', kind: 'person', level: ''},
              {name: 'Computer (basic)', kind: 'computer', level: 'basic'},
              {name: 'Bob', kind: 'person', level: ''}],
            sides: [[0, 2], [1, 3]], scores: [120, 85], over: true, won: true});
          localStorage.setItem('forties.recent', JSON.stringify(list)); }""")
        page.goto(server + "/")
        wait_ready(page)
        for size in (PHONE, DESKTOP):
            page.set_viewport_size(size)
            item = page.locator(f"#recent li[data-table='{table}']")
            item.wait_for()
            text = item.inner_text()
            assert "in play" in text and "You" in text, text
            assert item.locator("a").get_attribute("href") == f"/t/{table}"
            width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1], width
        old = page.locator("#recent li[data-table='old']").inner_text()
        assert "won: Us 120 · Them 85" in old, old
        assert "You, Ann, Computer (Club player), Bob" in old, old
        assert page.locator("#recent li").first.get_attribute("data-table") == table  # latest first
        page.click("#recent-forget")
        page.wait_for_selector("#recent-box", state="hidden")
        assert page.evaluate("localStorage.getItem('forties.recent')") is None
        assert errors == []
    finally:
        ctx.close()
