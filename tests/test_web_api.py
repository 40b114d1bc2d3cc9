"""Every route of the web server, and every kind of bad input answered in one line.

One server process serves the module (started once); the limits are tested on servers
of their own with small limits.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
import websockets

from forties import PRESETS, RulesError, build_rules

from .helpers_engine import mv_record_json
from .helpers_web import BACKENDS, ServerProcess, private_table, serving, web_server

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving(web_server(request, tmp_path_factory.mktemp("api"))) as srv:
        yield srv


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def http(server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
        yield client


def one_line(r: httpx.Response, status: int, code: str | None = None) -> str:
    """A refusal: the status, a JSON object with one line of "error" (and the ``code``
    the browser translates, where there is one), no traceback."""
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body) <= {"error", "code"}, body
    assert code is None or body.get("code") == code, body
    message = body["error"]
    assert isinstance(message, str) and message and "\n" not in message
    assert "Traceback" not in r.text and "File \"" not in r.text
    return message


async def ws_frames(url: str, messages: list[Any], wait_for: int) -> list[dict[str, Any]]:
    """Send ``messages`` (dicts as JSON, strings as they are) and collect ``wait_for``
    frames."""
    out: list[dict[str, Any]] = []
    async with websockets.connect(url, compression=None, max_size=2**22) as ws:
        for m in messages:
            await ws.send(m if isinstance(m, str | bytes) else json.dumps(m))
        while len(out) < wait_for:  # a frame that never comes fails the test, not hangs it
            out.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
    return out


# ----- pages --------------------------------------------------------------------------------


async def test_pages_and_health(http: httpx.AsyncClient) -> None:
    for path in ("/", "/replay"):
        r = await http.get(path)
        assert r.status_code == 200 and "<html" in r.text.lower()
    assert (await http.get("/healthz")).json() == {"ok": True}
    play = (await http.post("/api/play", json={"preset": "mv"})).json()
    r = await http.get(f"/t/{play['table']}")
    assert r.status_code == 200 and "<html" in r.text.lower()
    r = await http.get("/t/no-such-table", headers={"accept": "text/html"})
    assert r.status_code == 404 and "no table" in r.text.lower() and "Traceback" not in r.text
    # in the language the page asks for (?lang=), else the browser's (Accept-Language)
    r = await http.get("/t/no-such-table?lang=fr", headers={"accept-language": "ar"})
    assert r.status_code == 404 and '<html lang="fr"' in r.text and "Pas de table" in r.text
    r = await http.get("/t/no-such-table", headers={"accept-language": "en;q=0.4, ar-SY"})
    assert r.status_code == 404 and '<html lang="ar" dir="rtl"' in r.text
    assert "No such table" not in r.text
    r = await http.get("/t/no-such-table", headers={"accept-language": "de, fr-CA;q=0.8"})
    assert '<html lang="fr"' in r.text
    r = await http.get("/static/no-such-file.js")
    assert r.status_code == 404


async def test_presets_and_the_rules_form(http: httpx.AsyncClient) -> None:
    presets = (await http.get("/api/presets")).json()
    assert [p["name"] for p in presets] == list(PRESETS)
    assert {p["game"] for p in presets} == {"forty-fives", "forty-one"}
    for p in presets:
        form = (await http.get("/api/rules", params={"preset": p["name"]})).json()
        defaults = build_rules(p["name"]).options()
        assert {o["name"]: o["value"] for o in form["options"]} == defaults
        for o in form["options"]:
            assert o["kind"] in ("bool", "int", "choice") and o["help"]
            if o["kind"] == "choice":
                assert o["value"] in o["choices"]
            if o["kind"] == "int":
                assert o["min"] <= o["value"] <= o["max"]
    r = await http.post("/api/rules", json={"preset": "auction-45",
                                            "options": {"target": 200}})
    assert r.json() == {"rules": build_rules("auction-45", {"target": 200}).to_json()}


async def test_the_engine_names_bad_rules(http: httpx.AsyncClient) -> None:
    cases = [("nope", {}), ("merrimack-valley", {"colour": 1}),
             ("merrimack-valley", {"kitty": 7}), ("merrimack-valley", {"go_on_top_card": True})]
    for preset, options in cases:
        with pytest.raises(RulesError) as e:
            build_rules(preset, options)
        r = await http.post("/api/rules", json={"preset": preset, "options": options})
        assert one_line(r, 400) == str(e.value)
        r = await http.post("/api/tables", json={"preset": preset, "options": options})
        assert one_line(r, 400) == str(e.value)
    assert "preset" in one_line(await http.get("/api/rules"), 400)
    assert "unknown preset" in one_line(await http.get("/api/rules?preset=zz"), 400)


async def test_every_bad_request_is_one_line(http: httpx.AsyncClient) -> None:
    for path in ("/api/play", "/api/tables", "/api/rules", "/api/replay",
                 "/api/tables/x/join", "/api/tables/x/seat", "/api/tables/x/start"):
        one_line(await http.post(path, content=b"{not json"), 400)
        one_line(await http.post(path, content=b"[1, 2]"), 400)
        one_line(await http.post(path, content=b"\xff\xfe"), 400)
    one_line(await http.post("/api/play", json={"preset": 5}), 400)
    one_line(await http.post("/api/play", json={"preset": "mv", "level": "god"}), 400)
    one_line(await http.post("/api/play", json={"preset": "mv", "options": [1]}), 400)
    one_line(await http.post("/api/tables", json={"preset": "mv", "turn_seconds": "x"}), 400)
    one_line(await http.post("/api/tables", json={"preset": "mv", "public": "yes"}), 400)
    one_line(await http.post("/api/play", content=b"{" * 100000), 413)
    one_line(await http.get("/api/tables/no-such-table"), 404)
    one_line(await http.get("/api/tables/no-such-table/record"), 404)
    one_line(await http.get("/api/nothing-here"), 404)
    one_line(await http.delete("/api/presets"), 405)
    one_line(await http.get("/i18n/xx.json"), 404)
    one_line(await http.post("/api/tables/no-such/join", json={"invite": "x"}), 404, "table")


async def test_languages_and_catalogs(http: httpx.AsyncClient) -> None:
    langs = (await http.get("/api/languages")).json()
    assert [x["code"] for x in langs] == ["en", "fr", "ar"]
    for x in langs:
        cat = (await http.get(f"/i18n/{x['code']}.json")).json()
        assert cat["dir"] == x["dir"] and isinstance(cat["messages"], dict)
    assert (await http.get("/i18n/ar.json")).json()["dir"] == "rtl"


# ----- tables, invites, tokens ----------------------------------------------------------------


async def test_a_private_table_from_invites_to_start(http: httpx.AsyncClient,
                                                     server: ServerProcess) -> None:
    made = (await http.post("/api/tables", json={"preset": "merrimack-valley", "name": "Ann",
                                                 "public": True})).json()
    table, host = made["table"], made["token"]
    assert made["url"] == f"/t/{table}#token={host}" and made["seat"] == 0
    assert [(i["seat"], i["team"]) for i in made["invites"]] == [(1, 1), (2, 0), (3, 1)]
    lobby = (await http.get("/api/lobby")).json()
    assert any(t["table"] == table and t["seats"][0] == {"name": "Ann", "kind": "person"}
               for t in lobby)
    code = made["invites"][0]["url"].split("#invite=")[1]
    guest = (await http.post(f"/api/tables/{table}/join", json={"invite": code,
                                                                "name": "Bob"})).json()
    assert guest["seat"] == 1 and guest["url"] == f"/t/{table}#token={guest['token']}"
    assert "taken" in one_line(await http.post(f"/api/tables/{table}/join",
                                               json={"invite": code, "name": "Eve"}), 409,
                               "taken")
    one_line(await http.post(f"/api/tables/{table}/join", json={"invite": "guess"}), 404,
             "invite")
    # only the host seats computers and starts
    one_line(await http.post(f"/api/tables/{table}/start", json={"token": guest["token"]}),
             403, "token")
    one_line(await http.post(f"/api/tables/{table}/seat",
                             json={"token": host, "seat": 1, "level": "basic"}), 409, "taken")
    one_line(await http.post(f"/api/tables/{table}/seat",
                             json={"token": host, "seat": 9, "level": "basic"}), 400, "bad")
    summary = (await http.post(f"/api/tables/{table}/seat",
                               json={"token": host, "seat": 2, "level": "expert"})).json()
    assert summary["seats"][2]["kind"] == "computer" and summary["seats"][2]["level"] == "expert"
    summary = (await http.post(f"/api/tables/{table}/start", json={"token": host})).json()
    assert summary["status"] == "playing"
    assert [s["kind"] for s in summary["seats"]] == ["person", "person", "computer", "computer"]
    assert "token" not in json.dumps(summary)
    assert not any(t["table"] == table for t in (await http.get("/api/lobby")).json())
    one_line(await http.post(f"/api/tables/{table}/start", json={"token": host}), 409,
             "started")


async def test_tokens_are_unguessable_and_open_only_their_seat(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    table, tokens = await private_table(http, "merrimack-valley")
    _, other_tokens = await private_table(http, "merrimack-valley")
    all_tokens = [*tokens.values(), *other_tokens.values()]
    assert len(set(all_tokens)) == len(all_tokens)
    for tok in all_tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", tok)  # 24 random bytes
    for seat, tok in tokens.items():
        (snap,) = await ws_frames(f"{server.ws}/ws/{table}?token={tok}",
                                  [{"type": "hello", "seq": 0}], 1)
        assert snap["type"] == "snapshot" and snap["you"] == seat
        assert snap["view"]["seat"] == seat and snap["table"]["host"] == (seat == 0)
    # (a key with its last character changed: never to the one it had, which gave the
    # seat's own key one time in 64, and a test that waited for a refusal never sent)
    changed = tokens[1][:-1] + ("B" if tokens[1].endswith("A") else "A")
    for bad in (other_tokens[1], changed, "x" * 32):
        (err,) = await ws_frames(f"{server.ws}/ws/{table}?token={bad}", [], 1)
        assert err["type"] == "error" and err["code"] == "token"
    (err,) = await ws_frames(f"{server.ws}/ws/no-such-table", [], 1)
    assert err["code"] == "table"
    record = (await http.get(f"/api/tables/{table}/record")).json()
    assert "seed" not in record and record["hands"] == []


async def test_bad_messages_get_an_error_and_change_nothing(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    play = (await http.post("/api/play", json={"preset": "mv", "level": "random"})).json()
    url = f"{server.ws}/ws/{play['table']}?token={play['token']}"
    bad = ["not json", "[1]", json.dumps({"type": 5}), json.dumps({"type": "fly"}),
           json.dumps({"type": "hello", "seq": -1}), json.dumps({"type": "act"}),
           json.dumps({"type": "act", "action": "0 bid 20"}),
           json.dumps({"type": "act", "action": "0 bid 7", "version": 1}),
           json.dumps({"type": "chat", "phrase": "insult"}),
           json.dumps({"type": "hint"}), json.dumps({"type": "back"}),
           json.dumps({"type": "rematch"}), "x" * 5000]
    frames = await ws_frames(url, [*bad, {"type": "hello", "seq": 0}], len(bad) + 1)
    errors, snap = frames[:-1], frames[-1]
    assert [f["type"] for f in errors] == ["error"] * len(bad)
    codes = [f["code"] for f in errors]
    assert codes[0] == "bad" and codes[-1] == "size"
    assert all(len(f["message"].splitlines()) == 1 for f in errors)
    assert snap["type"] == "snapshot" and snap["view"]["history"] == []
    assert snap["version"] == 1


async def test_a_large_message_gets_the_size_error_and_the_connection_stays(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    play = (await http.post("/api/play", json={"preset": "mv", "level": "random"})).json()
    url = f"{server.ws}/ws/{play['table']}?token={play['token']}"
    big = ["x" * 5000, "x" * 100_000, "x" * 1_000_000, b"x" * 100_000]
    frames = await ws_frames(url, [*big, {"type": "hello", "seq": 0}], len(big) + 1)
    assert [(f["type"], f.get("code")) for f in frames[:-1]] == [("error", "size")] * len(big)
    assert frames[-1]["type"] == "snapshot"
    # over the transport's own limit (1 MiB, docs/web-protocol.md) the connection is closed
    async with websockets.connect(url, compression=None, max_size=2**22) as ws:
        await ws.send("x" * (1024 * 1024 + 1))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_the_table_names_its_house_rules_for_the_page_to_translate(
        http: httpx.AsyncClient) -> None:
    made = (await http.post("/api/tables", json={"preset": "merrimack-valley",
                                                 "options": {"kitty": 4, "target": 100}})).json()
    summary = (await http.get(f"/api/tables/{made['table']}")).json()
    assert summary["house_rules"] == [["kitty", 4], ["target", 100]]
    assert summary["rules_text"].endswith("; house rules: kitty 4, target 100")
    play = (await http.post("/api/play", json={"preset": "mv"})).json()
    assert (await http.get(f"/api/tables/{play['table']}")).json()["house_rules"] == []


# ----- record and replay ----------------------------------------------------------------------


async def test_replay_of_a_finished_record(http: httpx.AsyncClient) -> None:
    steps = (await http.post("/api/replay", json={"record": mv_record_json()})).json()["steps"]
    assert len(steps) == 1 + 9 + 20
    assert sorted(steps[0]["view"]["hands"][0]) == sorted(["JS", "4S", "KD", "9C", "3H"])
    assert steps[-1]["view"]["deal"] is not None and steps[-1]["text"] == "1 play 8H"
    assert "not over" in one_line(await http.post("/api/replay",
                                                  json={"record": mv_record_json(3)}), 400)
    assert "not a record" in one_line(await http.post("/api/replay",
                                                      json={"record": {"x": 1}}), 400)
    broken = mv_record_json()
    broken["hands"][0]["actions"][0] = "0 bid 10"
    one_line(await http.post("/api/replay", json={"record": broken}), 400)
    one_line(await http.post("/api/replay", json={}), 400)


# ----- limits ---------------------------------------------------------------------------------


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path, tables_per_minute=3, messages_per_second=1.0,
                        message_burst=3.0).start()
    try:
        yield srv
    finally:
        srv.stop()


async def test_table_creation_and_messages_are_rate_limited(strict: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=strict.http, timeout=30) as http:
        made = [await http.post("/api/play", json={"preset": "mv"}) for _ in range(3)]
        assert all(r.status_code == 200 for r in made)
        assert "too many" in one_line(await http.post("/api/play", json={"preset": "mv"}), 429,
                                      "rate")
        one_line(await http.post("/api/tables", json={"preset": "mv"}), 429, "rate")
    play = made[0].json()
    url = f"{strict.ws}/ws/{play['table']}?token={play['token']}"
    frames = await ws_frames(url, [{"type": "hello", "seq": 0}] + [{"type": "ping"}] * 6, 7)
    assert frames[0]["type"] == "snapshot"
    assert [f["type"] for f in frames[1:3]] == ["pong", "pong"]
    assert {"type": "error", "code": "rate", "message": "too many messages: slow down"} in frames


async def test_a_public_table_is_joined_from_the_lobby(http: httpx.AsyncClient) -> None:
    """The lobby lists a public table's open seats with a link each; a guest takes one with
    a name alone, once; a private table's seats open only by invite."""
    made = (await http.post("/api/tables", json={"preset": "merrimack-valley", "name": "Ann",
                                                 "public": True})).json()
    table = made["table"]
    (entry,) = [t for t in (await http.get("/api/lobby")).json() if t["table"] == table]
    assert "url" not in entry["seats"][0]
    assert [s["url"] for s in entry["seats"][1:]] == [f"/t/{table}#seat={i}" for i in (1, 2, 3)]
    got = (await http.post(f"/api/tables/{table}/join", json={"seat": 2, "name": "Bob"})).json()
    assert got["seat"] == 2 and got["url"] == f"/t/{table}#token={got['token']}"
    assert "taken" in one_line(await http.post(f"/api/tables/{table}/join",
                                               json={"seat": 2, "name": "Eve"}), 409)
    assert "taken" in one_line(await http.post(f"/api/tables/{table}/join",
                                               json={"seat": 0, "name": "Eve"}), 409)
    one_line(await http.post(f"/api/tables/{table}/join", json={"seat": 7, "name": "Eve"}), 400)
    summary = (await http.get(f"/api/tables/{table}")).json()
    assert summary["seats"][2]["name"] == "Bob" and summary["seats"][2]["kind"] == "person"
    (entry,) = [t for t in (await http.get("/api/lobby")).json() if t["table"] == table]
    assert [("url" in s) for s in entry["seats"]] == [False, True, False, True]
    private = (await http.post("/api/tables", json={"preset": "merrimack-valley",
                                                   "name": "Cy"})).json()
    assert "private" in one_line(await http.post(f"/api/tables/{private['table']}/join",
                                                 json={"seat": 1, "name": "Eve"}), 404)


@pytest.mark.parametrize("preset, game", [("merrimack-valley", "forty-fives"),
                                          ("forty-one", "forty-one")])
async def test_a_game_has_one_id_in_everything_the_server_sends(
        http: httpx.AsyncClient, server: ServerProcess, preset: str, game: str) -> None:
    """The presets, the lobby, the table's summary and the view name a game alike."""
    (listed,) = [p for p in (await http.get("/api/presets")).json() if p["name"] == preset]
    assert listed["game"] == game
    made = (await http.post("/api/tables", json={"preset": preset, "name": "Ann",
                                                 "public": True})).json()
    table = made["table"]
    (entry,) = [t for t in (await http.get("/api/lobby")).json() if t["table"] == table]
    assert entry["game"] == game
    assert (await http.get(f"/api/tables/{table}")).json()["game"] == game
    (snap,) = await ws_frames(f"{server.ws}/ws/{table}?token={made['token']}",
                              [{"type": "hello", "seq": 0}], 1)
    assert snap["type"] == "snapshot"
    assert snap["table"]["game"] == game and snap["view"]["game"] == game


async def test_an_unfilled_table_expires(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path, expire_minutes=0.005, sweep_seconds=0.2).start()
    try:
        async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
            waiting = (await http.post("/api/tables", json={"preset": "mv",
                                                            "public": True})).json()
            playing = (await http.post("/api/play", json={"preset": "mv"})).json()
            for _ in range(100):
                r = await http.get(f"/api/tables/{waiting['table']}")
                if r.status_code == 404:
                    break
                await asyncio.sleep(0.1)
            one_line(r, 404)
            r = await http.get(f"/t/{waiting['table']}", headers={"accept": "text/html"})
            assert r.status_code == 404 and "no table" in r.text.lower()
            code = waiting["invites"][0]["url"].split("#invite=")[1]
            one_line(await http.post(f"/api/tables/{waiting['table']}/join",
                                     json={"invite": code}), 404)
            assert (await http.get("/api/lobby")).json() == []
            r = await http.get(f"/api/tables/{playing['table']}")
            assert r.status_code == 200 and r.json()["status"] == "playing"
    finally:
        code_, _, err = srv.stop()
    assert code_ == 0 and "Traceback" not in err
