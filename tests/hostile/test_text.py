"""Text that can be stored, sent as a stranger would send it: valid JSON whose strings hold
what UTF-8 cannot (a lone surrogate), NUL, controls and bidi overrides, as names, titles,
rule options, records and keys; a document stored broken before the server cleaned its
text. Every answer is a page or one line of JSON, never a 500, and what is stored can
be served for ever. All against ``create_app`` over a SQLite file, in this process."""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from forties.web.text import clean_json, plain

from .conftest import refused

SURROGATE = "\ud800"
ODD = ["Ann" + SURROGATE, "B\x00ob", "C\u202ey", "Di\u2067x\u2069"]  # what is sent
CLEAN = ["Ann", "Bob", "Cy", "Dix"]  # what is kept
ARABIC = "دينا علي\u200f 2"  # a name in Arabic, a right-to-left mark, kept as typed
HALL_ARABIC = "دينا علي"  # an evening's names are printable: no mark


def post(client: TestClient, url: str, body: Any) -> Any:
    """POST ``body`` as JSON escaped as Python writes it: a lone surrogate stays a valid
    ``\\ud800`` escape (the test client's own JSON could not encode it)."""
    return client.post(url, content=json.dumps(body),
                       headers={"content-type": "application/json"})


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "text.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    # (no limit a minute: the property test's pads and tables all come from one address)
    app = create_app(ServerSettings(db_url=f"sqlite:///{db}",
                                    limits=Limits(par=False, **Rates.lifted())))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def new_evening(client: TestClient, **settings: Any) -> tuple[str, str, str]:
    """(evening, director's key, tables' key)."""
    r = post(client, "/api/hall", {"games": 2, **settings})
    assert r.status_code == 200, r.text
    return r.json()["evening"], r.json()["key"], r.json()["report"].split("#key=")[1]


def test_a_pads_names_with_a_lone_surrogate_are_stored_clean(client: TestClient) -> None:
    r = post(client, "/api/pads", {"preset": "auction-45", "names": ODD,
                                   "title": "Friday\x07 " + SURROGATE + "\u202enight"})
    assert r.status_code == 200, r.text[:300]
    pid, key = r.json()["pad"], r.json()["key"]
    assert r.json()["names"] == CLEAN and r.json()["title"] == "Friday night"
    assert client.get(f"/api/pads/{pid}").json()["names"] == CLEAN
    assert post(client, f"/api/pads/{pid}/hands", {
        "key": key, "hand": {"bidder": 1, "bid": "20", "points": [10, 20]}}).status_code == 200
    assert client.get(f"/api/pads/{pid}/export.csv").status_code == 200
    r = post(client, "/api/pads", {"preset": "auction-45", "names": [ARABIC, "B", "C", "D"]})
    assert r.json()["names"][0] == ARABIC


def test_an_evening_titled_with_a_lone_surrogate_is_served_and_printed(
        client: TestClient) -> None:
    eid, key, _ = new_evening(client, title="Club " + SURROGATE + "\u202enight\x00")
    board = client.get(f"/api/hall/{eid}")
    assert board.status_code == 200, board.text[:300]
    assert board.json()["title"] == "Club night"
    for i in (1, 2):
        r = post(client, f"/api/hall/{eid}/register",
                 {"key": key, "names": [f"Ann{SURROGATE} {i}", f"{HALL_ARABIC} {i}"]})
        assert r.status_code == 200, r.text[:300]
    cards = client.get(f"/hall/{eid}/print/cards")
    assert cards.status_code == 200, cards.text[:300]
    assert "Club night" in cards.text and "Ann 1" in cards.text and HALL_ARABIC in cards.text
    assert post(client, f"/api/hall/{eid}/begin", {"key": key}).status_code == 200
    tables = client.get(f"/hall/{eid}/print/tables?lang=fr")
    assert tables.status_code == 200 and "Club night" in tables.text, tables.text[:300]


ODD_KEYS = [SURROGATE, "é" * 24, "\u0661" * 24, "k" * 5000, "a\x00b", 7, None, ""]


def test_odd_keys_are_wrong_keys_never_a_failure(client: TestClient) -> None:
    """A key with a surrogate, a non-ASCII one, a huge one, one of another type: a wrong
    key on every route that takes one."""
    eid, _, _ = new_evening(client, online=True)
    pid = post(client, "/api/pads", {"preset": "auction-45"}).json()["pad"]
    made = post(client, "/api/tables", {"preset": "auction-45"}).json()
    table = made["table"]
    for key in ODD_KEYS:
        for route in ("director", "report", "register", "seat"):
            refused(post(client, f"/api/hall/{eid}/{route}",
                         {"key": key, "game": 1, "table": 1, "winner": 1}), 403)
        refused(post(client, f"/api/pads/{pid}/undo", {"key": key}), 403)
        refused(post(client, f"/api/tables/{table}/start", {"token": key}), 403)
        refused(post(client, f"/api/tables/{table}/join", {"invite": key}), 404)
    for token in ("%ED%A0%80", "%C3%A9" * 24, "x" * 3000):
        with client.websocket_connect(f"/ws/{table}?token={token}") as ws:
            assert ws.receive_json()["code"] == "token"


def test_rule_options_and_records_with_odd_text_are_refused_in_one_line(
        client: TestClient) -> None:
    refused(post(client, "/api/tables", {"preset": "auction-45",
                                         "options": {"target": SURROGATE}}), 400)
    refused(post(client, "/api/play", {"preset": "auction-45",
                                       "options": {"target": "1" + SURROGATE}}), 400)
    record = {"format": "forties-record/1", "game": "forty-fives",
              "rules": {"preset": "auction-45", "options": {"target": "1" + SURROGATE}},
              "players": ["A" + SURROGATE, "B", "C", "D"], "first_dealer": 3, "hands": []}
    refused(post(client, "/api/replay", {"record": record}), 400)


def test_documents_stored_broken_are_served_and_repaired(client: TestClient,
                                                         db: Path) -> None:
    """A pad and an evening whose stored JSON holds lone surrogates (written before the
    server cleaned its text) are served, printed and exported; their next change writes
    them back clean."""
    r = post(client, "/api/pads", {"preset": "auction-45", "names": ["Ann", "B", "C", "D"],
                                   "title": "Pad"})
    pid, pad_key = r.json()["pad"], r.json()["key"]
    eid, key, tables = new_evening(client, title="Club")
    for i in (1, 2):
        post(client, f"/api/hall/{eid}/register", {"key": key, "names": [f"Ann{i}", "Bo"]})
    with sqlite3.connect(db) as conn:
        for kind, doc in (("pad", pid), ("hall", eid)):
            [(text,)] = conn.execute("select body from documents where kind = ? and id = ?",
                                     (kind, doc))
            broken = text.replace('"Ann', '"\\ud800Ann').replace('"Club"', '"Cl\\udfffub"') \
                .replace('"Pad"', '"P\\ud800ad"')
            assert broken != text
            conn.execute("update documents set body = ? where kind = ? and id = ?",
                         (broken, kind, doc))
    got = client.get(f"/api/pads/{pid}")
    assert got.status_code == 200 and got.json()["names"][0] == "Ann", got.text[:300]
    assert got.json()["title"] == "Pad"
    for url in (f"/api/pads/{pid}/export.csv", f"/api/pads/{pid}/export.json",
                f"/hall/{eid}/print/cards", f"/api/hall/{eid}/export/standings"):
        assert client.get(url).status_code == 200, url
    board = client.get(f"/api/hall/{eid}")
    assert board.status_code == 200 and board.json()["title"] == "Club"
    assert post(client, f"/api/hall/{eid}/director", {"key": tables}).status_code == 200
    assert post(client, f"/api/pads/{pid}/hands", {
        "key": pad_key, "hand": {"bidder": 1, "bid": "20", "points": [10, 20]}}
                ).status_code == 200
    assert post(client, f"/api/hall/{eid}/begin", {"key": key}).status_code == 200
    with sqlite3.connect(db) as conn:
        bodies = [t for (t,) in conn.execute("select body from documents")]
    assert bodies and not any("\\ud" in t or "\\udf" in t for t in bodies), bodies


def frame(ws: Any, what: str, seconds: float = 10.0) -> dict[str, Any]:
    """The next frame from the table, or a failure that says which was awaited (the test
    client's own receive waits for ever: it waits here in a thread of its own)."""
    box: queue.Queue[Any] = queue.Queue()

    def get() -> None:
        try:
            box.put(ws.receive_json())
        except BaseException as e:  # handed to the test's thread
            box.put(e)
    threading.Thread(target=get, daemon=True).start()
    try:
        got = box.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"no {what} from the table within {seconds} s") from None
    if isinstance(got, BaseException):
        raise got
    assert isinstance(got, dict), got
    return got


def test_websocket_text_is_cleaned_before_the_table_keeps_it(client: TestClient) -> None:
    """An action with a lone surrogate is refused in one frame; chat with one, and with a
    bidi override, is said cleaned; the connection answers on."""
    made = post(client, "/api/tables", {"preset": "auction-45", "name": "Host"}).json()
    with client.websocket_connect(f"/ws/{made['table']}?token={made['token']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "seq": 0}))
        assert frame(ws, "snapshot")["type"] == "snapshot"
        ws.send_text(json.dumps({"type": "act", "action": SURROGATE, "version": 0}))
        assert frame(ws, "refusal of the action")["type"] == "error"
        ws.send_text(json.dumps({"type": "chat", "text": "salut" + SURROGATE + "\u202e " +
                                 ARABIC}))
        said = frame(ws, "chat")
        assert said.get("event", said).get("text") == "salut " + ARABIC, said
        ws.send_text(json.dumps({"type": "ping"}))
        assert frame(ws, "pong")["type"] == "pong"


# Every code point, lone surrogates and controls included, with the characters that break
# documents and lines made more likely than chance.
NAMES = st.text(st.one_of(st.characters(codec=None),
                          st.sampled_from([SURROGATE, "\udfff", "\x00", "\n", "\u202e",
                                           "\u2028", "\u0301", "\u200d", "\ufeff", "\x7f"])),
                max_size=60)


def test_any_text_as_a_name_is_stored_as_text_every_page_can_hold(client: TestClient) -> None:
    """Any text as a pad's, a table's and an evening's name: refused in one line or kept
    as a line of storable text that the routes then serve (the same examples every run,
    the seen failures among them)."""
    eid, key, _ = new_evening(client)

    @settings(max_examples=50, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(name=NAMES)
    @example(name="a" + SURROGATE)
    @example(name="\x00")
    @example(name=" \u202e\n")
    @example(name="e\u0301" * 30)
    def check(name: str) -> None:
        r = post(client, "/api/pads", {"preset": "auction-45",
                                       "names": [name, "B", "C", "D"], "title": name})
        if r.status_code != 200:
            refused(r, 400)
        else:
            kept = client.get(f"/api/pads/{r.json()['pad']}").json()["names"][0]
            assert_storable(kept)
        r = post(client, "/api/tables", {"preset": "auction-45", "name": name})
        assert r.status_code == 200, r.text[:300]
        assert_storable(client.get(f"/api/tables/{r.json()['table']}").json()["seats"][0]
                        ["name"])
        r = post(client, f"/api/hall/{eid}/register", {"key": key, "names": [name, "Bo"]})
        if r.status_code != 200:
            refused(r, 409)
        assert client.get(f"/api/hall/{eid}").status_code == 200

    check()


def assert_storable(text: str) -> None:
    text.encode("utf-8")  # no lone surrogate
    assert "\x00" not in text and "\n" not in text and "\u202e" not in text
    assert text == text.strip() and 0 < len(text) <= 40, text


JSON = st.recursive(st.none() | st.booleans() | st.integers() | NAMES,
                    lambda inner: st.lists(inner, max_size=4) |
                    st.dictionaries(NAMES, inner, max_size=4), max_leaves=12)


@settings(max_examples=100, deadline=None, database=None, derandomize=True)
@given(value=JSON)
@example(value="\x7f")  # JSON may carry DEL raw
@example(value={"a\u202e": ["e\u0301", "\ud800", 1]})
def test_cleaned_json_is_storable_and_plain_json_is_left_alone(value: Any) -> None:
    """What the routes do to a body (``text.clean_json``, skipped where ``text.plain``
    says nothing could change): every string left encodable, without NUL or a bidi
    override; and a body judged plain is one the cleaning would leave as it is."""
    for ascii_only in (True, False):
        try:
            raw = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: only JSON's escape can carry it
            continue
        parsed = json.loads(raw)
        cleaned = clean_json(parsed)
        text = json.dumps(cleaned, ensure_ascii=False)
        text.encode("utf-8")
        assert "\\u0000" not in text and "\u202e" not in text and "\x00" not in text
        if plain(raw):
            assert cleaned == parsed
