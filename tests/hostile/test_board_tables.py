"""A board table (``create_table(board=...)``) as a stranger tries it: a board that is no
board, one for another game, a board table that would be public or rated or dealt by the
wrong seat; the record asked with no key, a wrong key or another table's key; a rematch
asked of a board. Each is refused in one line, and nothing is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.duplicate import make_boards
from forties.rules import build_rules
from forties.state import DealKey
from forties.table import BOARD_RECORD, BOARD_REMATCH, TableError

from ..games_helpers import app_of, rows, service, sqlite_url

PEOPLE = [{"kind": "person", "name": n} for n in ("Ann", "Bob", "Cy", "Di")]
GOOD = make_boards(build_rules("merrimack-valley"), 2, DealKey.new())[1].to_json()
FORTY_ONE = make_boards(build_rules("forty-one"), 1, DealKey.new())[0].to_json()


def deal_with(**changes: Any) -> dict[str, Any]:
    return {**GOOD, "deal": {**GOOD["deal"], **changes}}


BAD_BOARDS: list[tuple[Any, str, str]] = [
    ("merrimack-valley", "board 2", "a board is an object with number, dealer and deal"),
    ("merrimack-valley", [GOOD], "a board is an object with number, dealer and deal"),
    ("merrimack-valley", {**GOOD, "extra": 1}, "a board is an object with number, dealer and deal"),
    ("merrimack-valley", {**GOOD, "number": 0}, "a board's number is a whole number from 1 "
                                                "to 200, not 0"),
    ("merrimack-valley", {**GOOD, "number": "1"}, "a board's number"),
    ("merrimack-valley", {**GOOD, "number": 10 ** 5000}, "a board's number is a whole number "
                                                         "from 1 to 200, not a larger number"),
    ("merrimack-valley", {**GOOD, "number": "x" * 5000}, "a board's number is a whole number "
                                                         "from 1 to 200, not a str"),
    ("merrimack-valley", {**GOOD, "dealer": 4}, "a board's dealer"),
    ("merrimack-valley", {**GOOD, "dealer": True}, "a board's dealer"),
    ("merrimack-valley", {**GOOD, "deal": None}, "board 2: "),
    ("merrimack-valley", deal_with(kitty=["AS", "AS", "KD"]), "board 2: "),
    ("merrimack-valley", deal_with(hands=GOOD["deal"]["hands"][:3]), "board 2: "),
    ("merrimack-valley", deal_with(hands=[["XX"] * 5] * 4), "board 2: "),
    ("merrimack-valley", FORTY_ONE, "board 1 does not fit these rules"),
    ("forty-one", GOOD, "board 2 does not fit these rules"),
    ("nova-scotia", GOOD, "a board is played only at a table of merrimack-valley, "
                          "auction-45, forty-one, not nova-scotia"),
    ("call-your-partner", GOOD, "not call-your-partner"),
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_of(sqlite_url(tmp_path)) as c:
        yield c


def create(client: TestClient, preset: str, board: Any, **kw: Any) -> Any:
    async def work() -> Any:
        try:
            return await service(client).create_table(preset, seats=PEOPLE, start=True,
                                                      board=board, **kw)
        except TableError as e:
            return e
    return client.portal.call(work)  # type: ignore[union-attr]


@pytest.mark.parametrize(("preset", "board", "words"), BAD_BOARDS)
def test_a_bad_board_is_refused_in_one_line(client: TestClient, preset: str, board: Any,
                                            words: str) -> None:
    got = create(client, preset, board)
    assert isinstance(got, TableError), got
    assert got.code == "bad" and words in str(got), str(got)
    assert "\n" not in str(got) and len(str(got)) < 300
    assert rows(client, "SELECT id FROM tables") == []


@pytest.mark.parametrize(("kw", "words"), [
    ({"public": True}, "a board's table is private: nobody may watch it or find it in the "
                       "lobby"),
    ({"settings": {"rated": True}}, "a board's table is not rated"),
    ({"dealer": 0}, "board 2 is dealt by seat 1, not 0"),
])
def test_a_board_table_is_private_unrated_and_dealt_by_its_dealer(
        client: TestClient, kw: dict[str, Any], words: str) -> None:
    got = create(client, "merrimack-valley", GOOD, **kw)
    assert isinstance(got, TableError) and str(got) == words
    assert rows(client, "SELECT id FROM tables") == []
    made = create(client, "merrimack-valley", GOOD, dealer=1)  # its own dealer is fine
    assert not isinstance(made, TableError)
    assert client.get("/api/lobby").json() == []


def test_the_record_is_refused_to_strangers_and_other_tables(client: TestClient) -> None:
    made = create(client, "merrimack-valley", GOOD)
    other = create(client, "merrimack-valley", GOOD)
    plain = client.portal.call(lambda: service(client).create_table(  # type: ignore[union-attr]
        "merrimack-valley", seats=PEOPLE, start=True))
    table = made["table"]
    for params in ({}, {"token": "x" * 5000}, {"token": "\u0000"}, {"token": ""},
                   {"token": other["tokens"][0]}, {"token": plain["tokens"][0]}):
        r = client.get(f"/api/tables/{table}/record", params=params)
        assert r.status_code == 403 and r.json() == {"error": BOARD_RECORD, "code": "board"}
    for token in ("", "nope", other["tokens"][2]):
        with client.websocket_connect(f"/ws/{table}?token={token}") as ws:
            ws.send_json({"type": "hello", "seq": 0})
            frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] in ("board", "token"), frame
    # a plain table's record stays open to all, as before
    assert client.get(f"/api/tables/{plain['table']}/record").status_code == 200


def test_a_board_has_no_rematch(client: TestClient) -> None:
    made = create(client, "merrimack-valley", GOOD)
    svc = service(client)

    async def ask() -> list[dict[str, Any]]:
        live = await svc.live(made["table"])
        assert live is not None
        conn = svc.connect(0, made["tokens"][0])
        await svc.receive(conn, live, json.dumps({"type": "hello", "seq": 0}))
        await svc.receive(conn, live, json.dumps({"type": "rematch"}))
        out = []
        while not conn.queue.empty():
            text = conn.queue.get_nowait()
            if text is not None:
                out.append(json.loads(text))
        svc.leave(conn)
        assert live.rematch is None
        return out

    frames = client.portal.call(ask)  # type: ignore[union-attr]
    assert {"type": "error", "code": "board", "message": BOARD_REMATCH} in frames
