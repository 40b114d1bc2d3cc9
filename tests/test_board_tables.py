"""Tables made for one duplicate board (``Table.board``, ``create_table(board=...)``): the
table deals exactly the board's cards with its dealer, ends with that one hand, shows
nobody but its four seats anything, keeps its board in the store, and gives its result
(``table_summary``: the record and each partnership's score) once it is over."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties import Action, Record
from forties.cards import CARD_NAMES
from forties.duplicate import Board, make_boards, scores_of_hand
from forties.record import referee, replay_record
from forties.rules import build_rules
from forties.state import DealKey
from forties.table import (
    BOARD_PLAYED,
    BOARD_RECORD,
    BOARD_WATCHED,
    OVER,
    PERSON,
    PLAYING,
    Settings,
    Table,
    TableError,
    computer_choice,
)
from forties.web.service import Service

from .games_helpers import app_of, service, sqlite_url
from .helpers_engine import leaks
from .helpers_web import knowledge_by_version

PRESETS = ("merrimack-valley", "auction-45", "forty-one")
PEOPLE = [{"kind": "person", "name": n} for n in ("Ann", "Bob", "Cy", "Di")]


def board_of(preset: str, number: int = 3) -> Board:
    """Board ``number`` of a session of ``preset`` (its dealer: (number - 1) % 4)."""
    return make_boards(build_rules(preset), number, DealKey.new())[number - 1]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_of(sqlite_url(tmp_path)) as c:
        yield c


def drained(conn: Any) -> list[dict[str, Any]]:
    """The frames waiting on a service connection's queue."""
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def _board_game(svc: Service, preset: str, board: Board
                      ) -> tuple[str, dict[int, str], dict[int, list[dict[str, Any]]]]:
    """A board table of four people, played to its end by each seat through its own
    connection: (table id, seats' keys, every frame each seat received)."""
    made = await svc.create_table(preset, seats=PEOPLE, start=True, board=board.to_json())
    table, tokens = made["table"], made["tokens"]
    live = await svc.live(table)
    assert live is not None
    conns = {}
    frames: dict[int, list[dict[str, Any]]] = {s: [] for s in range(4)}
    for seat, token in tokens.items():
        conns[seat] = svc.connect(seat, token)
        await svc.receive(conns[seat], live, json.dumps({"type": "hello", "seq": 0}))
    t = live.table
    for moves in range(200):
        for seat, conn in conns.items():
            frames[seat] += drained(conn)
        if t.status != PLAYING:
            break
        turn = t.state.turn
        assert turn is not None and t.controller(turn) == PERSON
        view = dict(t.view(turn))
        legal = [Action.parse(a) for a in view["legal"]]
        choice = computer_choice("basic", f"{table}:{moves}", view, legal)
        version = t.version
        await svc.receive(conns[turn], live, json.dumps(
            {"type": "act", "action": str(choice), "version": version}))
        assert t.version == version + 1, f"{choice} was refused: {drained(conns[turn])}"
    await asyncio.sleep(0)
    for seat, conn in conns.items():
        frames[seat] += drained(conn)
        svc.leave(conn)
    return table, tokens, frames


def board_game(client: TestClient, preset: str, board: Board
               ) -> tuple[str, dict[int, str], dict[int, list[dict[str, Any]]]]:
    got: Any = client.portal.call(_board_game, service(client), preset, board)  # type: ignore[union-attr]
    return got  # type: ignore[no-any-return]


def summary(client: TestClient, table: str) -> dict[str, Any]:
    got: Any = client.portal.call(service(client).table_summary, table)  # type: ignore[union-attr]
    return got  # type: ignore[no-any-return]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_board_table_deals_the_board_and_ends_with_its_hand(client: TestClient,
                                                               preset: str) -> None:
    board = board_of(preset)
    table, tokens, frames = board_game(client, preset, board)
    got = summary(client, table)
    assert got["status"] == OVER and got["board"] == board.number
    record = got["record"]
    # the record is the board: its dealer, its cards, one hand; forties check accepts it
    assert record["first_dealer"] == board.dealer
    assert [h["deal"] for h in record["hands"]] == [board.deal.to_json()]
    verdict, code = referee(Record.from_json(record))
    assert code == 0 and verdict["ok"]
    state = replay_record(Record.from_json(record))
    assert state is not None and state.hand_over
    assert (got["ns"], got["ew"]) == scores_of_hand(state)
    # the hand was scored: some side's score moved (a Forty One board may still end 0-0,
    # a partner's made bid cancelling the other's set one, seen in a whole run)
    assert list(state.scores) != list(state.start_scores) or state.thrown_in
    # the record a seat downloads is the same one
    r = client.get(f"/api/tables/{table}/record", params={"token": tokens[2]})
    assert r.status_code == 200 and r.json() == record
    # every seat's every frame is its own view of the board, and no other seat's cards
    known = knowledge_by_version(record)
    last = max(known)
    for seat in range(4):
        snap = frames[seat][0]
        assert snap["type"] == "snapshot" and snap["table"]["board"] == board.number
        assert sorted(snap["view"]["hand"]) == sorted(CARD_NAMES[c]
                                                      for c in board.deal.hands[seat])
        assert snap["view"]["dealer"] == board.dealer
        checked = 0
        for f in frames[seat]:
            if "view" not in f:
                continue
            v = dict(f["view"])
            version = v.pop("version")
            st, allowed = known[version]
            expected = dict(Table.seat_view(st, seat))
            if st.hand_over:
                expected["over"] = True  # (the table's own word: the board is over)
            assert v == expected, f"seat {seat}: the frame at version {version}"
            bad = leaks({k: x for k, x in f.items() if k != "table"}, allowed[seat])
            assert not bad, f"seat {seat} received {bad} at version {version}"
            checked += 1
        assert checked >= len(record["hands"][0]["actions"])
        # the last frame says the game is over, with no next deal
        over = [f for f in frames[seat] if f.get("event", {}).get("kind") == "over"]
        assert len(over) == 1 and over[0]["view"]["over"] is True
        assert over[0]["version"] == last
        assert not any(f.get("event", {}).get("kind") == "deal" for f in frames[seat])


def test_a_spectator_is_refused(client: TestClient) -> None:
    board = board_of("merrimack-valley")
    made = client.portal.call(lambda: service(client).create_table(  # type: ignore[union-attr]
        "merrimack-valley", seats=PEOPLE, start=True, board=board.to_json()))
    table = made["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "seq": 0})  # (a watcher's snapshot would answer)
        frame = ws.receive_json()
    assert frame == {"type": "error", "code": "board", "message": BOARD_WATCHED}
    # a seat comes in
    with client.websocket_connect(f"/ws/{table}?token={made['tokens'][1]}") as ws:
        ws.send_json({"type": "hello", "seq": 0})
        snap = ws.receive_json()
    assert snap["type"] == "snapshot" and snap["you"] == 1
    # nobody is given its record while it is played, a seat neither
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 403 and r.json()["error"] == BOARD_RECORD
    r = client.get(f"/api/tables/{table}/record", params={"token": made["tokens"][1]})
    assert r.status_code == 403 and r.json()["error"] == BOARD_PLAYED
    # the table's summary names no card (but the rules' own, in their words)
    r = client.get(f"/api/tables/{table}")
    assert r.status_code == 200 and r.json()["board"] == board.number
    assert not leaks({k: v for k, v in r.json().items() if k not in ("id", "rules_text")}, 0)
    now = summary(client, table)
    assert now["board"] == board.number and now["status"] == PLAYING
    assert "record" not in now and "ns" not in now


def test_the_board_survives_a_restart(tmp_path: Path) -> None:
    board = board_of("forty-one", 6)
    with app_of(sqlite_url(tmp_path)) as c:
        made = c.portal.call(lambda: service(c).create_table(  # type: ignore[union-attr]
            "forty-one", seats=PEOPLE, start=True, board=board.to_json()))
    with app_of(sqlite_url(tmp_path)) as c:  # another process over the same database
        live = c.portal.call(service(c).live, made["table"])  # type: ignore[union-attr]
        assert live is not None
        t = live.table
        assert t.board == board
        assert t.state.deal == board.deal and t.state.dealer == board.dealer == 1
        assert t.rec.record.first_dealer == 1
        assert t.state.scores == [0, 0, 0, 0] and t.status == PLAYING


def test_two_servers_over_postgresql_deal_the_same_board(db: str) -> None:
    """One server makes the board's table and moves it; another over the same database
    loads it, and catches up with the first one's moves, on the same cards."""
    board = board_of("merrimack-valley", 5)
    with app_of(db) as a, app_of(db) as b:
        made = a.portal.call(lambda: service(a).create_table(  # type: ignore[union-attr]
            "merrimack-valley", seats=[{"kind": "computer", "level": "basic"}] * 4,
            start=True, board=board.to_json()))
        there = b.portal.call(service(b).live, made["table"])  # type: ignore[union-attr]
        assert there is not None and there.table.board == board
        assert there.table.state.deal == board.deal and there.table.state.dealer == 0
        here = a.portal.call(service(a).live, made["table"])  # type: ignore[union-attr]
        assert here is not None
        for _ in range(3000):  # the computers play the board out on the first server
            if here.table.status == OVER:
                break
            a.portal.call(asyncio.sleep, 0.01)  # type: ignore[union-attr]
        assert here.table.status == OVER

        async def caught_up() -> int:
            async with there.lock:
                return await service(b).live_tables.catch_up(there)
        assert b.portal.call(caught_up) > 0  # type: ignore[union-attr]
        assert there.table.status == OVER
        assert there.table.public_record() == here.table.public_record()
        got = b.portal.call(service(b).table_summary, made["table"])  # type: ignore[union-attr]
        assert got["record"]["hands"][0]["deal"] == board.deal.to_json()


def test_the_table_layer_plays_one_board_and_stops() -> None:
    board = board_of("auction-45", 4)
    t = Table("b", build_rules("auction-45"), DealKey.new(), Settings(), board=board)
    for i in range(4):
        t.apply({"kind": "sit", "seat": i, "as": "computer", "name": "C", "level": "basic"})
    t.apply({"kind": "start"})
    assert t.state.deal == board.deal and t.state.dealer == 3
    while t.status == PLAYING:
        d = t.decision()
        assert d is not None
        for e in t.computer_act(d.version, d.choose()) or []:
            t.apply(e)
    assert t.status == OVER and t.state.hand_index == 0
    result = t.board_result()
    assert (result["board"], result["ns"], result["ew"]) == (4, *scores_of_hand(t.state))
    with pytest.raises(TableError, match="single hand"):
        t.apply({"kind": "deal", "hand": 1})


def test_other_games_have_no_boards() -> None:
    board = board_of("merrimack-valley")
    for preset in ("nova-scotia", "call-your-partner"):
        with pytest.raises(TableError) as e:
            Table("b", build_rules(preset), DealKey.new(), Settings(), board=board)
        assert str(e.value) == ("a board is played only at a table of merrimack-valley, "
                                f"auction-45, forty-one, not {preset}")


def test_a_board_is_kept_out_of_the_games_index(client: TestClient) -> None:
    """A finished board is no game of anyone's history: its result, even its contract,
    tells of a board other tables may still be playing. It is indexed as a game of no one
    (so the sweep leaves it), its seats and result not kept."""
    from forties.web.games import BOARD_WORDS

    from .games_helpers import games, rows, settled

    table, _, _ = board_game(client, "auction-45", board_of("auction-45"))
    settled(client)
    [game] = rows(client, "select * from games")
    assert (game.table_id, game.why, game.counted) == (table, BOARD_WORDS, False)
    assert (game.seats, game.result, game.hands) == ("[]", "{}", 0)
    assert rows(client, "select * from game_players") == []
    assert client.portal.call(games(client).missing) == []  # type: ignore[union-attr]
