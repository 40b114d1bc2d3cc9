"""The terminal and the web play at the same table (``forties.table.Table``): the same
game, computer players included, makes the same record through both, and both refuse
the same bad actions with the same codes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from forties import Action, build_rules
from forties.table import TableError, computer_choice
from forties.tui.session import Session
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits

OPTIONS: dict[str, Any] = {}  # a whole game to 120: hands enough to review some
BAD = ("1 pass", "0 bid 5", "0 play 2H", "0 hello")  # at the person's first turn
BAD_IN_REVIEW = "0 pass"


def person_choice(view: dict[str, Any], n: int) -> Action:
    """The person's ``n``-th action: what a basic player would do (the same through both)."""
    return computer_choice("basic", f"person:{n}", view, [Action.parse(a) for a in view["legal"]])


def terminal_game(seed: int) -> tuple[dict[str, Any], list[str], list[tuple[Any, ...]]]:
    """The game of ``seed`` played in the terminal, the person at seat 0 against random
    players: its record, the person's actions, and the refusals of the bad ones."""
    s = Session.start(build_rules("merrimack-valley", OPTIONS), seed=seed, human=0,
                      partner="random", opponents="random")
    mine: list[str] = []
    refused: list[tuple[Any, ...]] = []

    def refuse(text: str) -> None:
        try:
            s.act(Action.parse(text))
        except TableError as e:
            refused.append((text, e.code, e.refusal))
        else:
            raise AssertionError(f"the terminal took {text!r}")

    while not s.state.over:
        if s.new_hand_due:
            refuse(BAD_IN_REVIEW)
            s.next_hand()
        elif s.bots_turn:
            s.bot_step()
        else:
            if not mine:
                for text in BAD[:-1]:  # ("hello" is no action the terminal can make)
                    refuse(text)
            view = {**s.view(), "legal": [str(a) for a in s.legal()]}
            mine.append(str(person_choice(view, len(mine))))
            s.act(Action.parse(mine[-1]))
    return s.record.to_json(), mine, refused


def test_the_same_game_through_the_terminal_and_the_web(tmp_path: Path) -> None:
    limits = Limits(bot_delay=0.0, par=False, messages_per_second=1000.0,
                    message_burst=1000.0)  # (the person sends his bad actions at once)
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 't.db'}", limits=limits))
    with TestClient(app) as client:
        made = client.post("/api/tables", json={"preset": "merrimack-valley",
                                                "options": OPTIONS, "name": "Ann",
                                                "level": "random"}).json()
        table, token = made["table"], made["token"]
        assert client.post(f"/api/tables/{table}/start", json={"token": token}).status_code \
            == 200
        seed = app.state.service.tables[table].table.seed  # (the server never tells it)
        record, mine, refused_there = terminal_game(seed)
        refused: list[tuple[Any, ...]] = []
        with client.websocket_connect(f"/ws/{table}?token={token}") as ws:

            def refuse(text: str, version: int) -> None:
                ws.send_json({"type": "act", "action": text, "version": version})
                frame = ws.receive_json()
                assert frame["type"] == "error", frame
                refused.append((text, frame["code"], frame.get("refusal")))

            ws.send_json({"type": "hello", "seq": 0})
            status, sent, reviewed = "", 0, -1
            while status != "over":
                frame = ws.receive_json()
                assert frame["type"] != "error", frame
                status = frame.get("table", {}).get("status", status)
                view = frame.get("view")
                if view is None:
                    continue
                if status == "review" and reviewed != view["hand_index"]:
                    reviewed = view["hand_index"]
                    refuse(BAD_IN_REVIEW, view["version"])
                    ws.send_json({"type": "ready"})
                elif status == "playing" and view["to_act"] == 0 and view["legal"]:
                    if not sent:
                        for text in BAD:
                            refuse(text, view["version"])
                    assert person_choice(view, sent) == Action.parse(mine[sent])
                    ws.send_json({"type": "act", "action": mine[sent],
                                  "version": view["version"]})
                    sent += 1
        web = client.get(f"/api/tables/{table}/record").json()
    assert sent == len(mine)
    assert (web["rules"], web["first_dealer"], web["hands"]) == (
        record["rules"], record["first_dealer"], record["hands"])
    assert len(record["hands"]) > 1
    assert [r for r in refused if r[0] != "0 hello"] == refused_there
    assert ("0 hello", "bad", None) in refused
    assert {(code, why) for _, code, why in refused} >= {("turn", "not-yours"),
                                                         ("turn", "hand-over")}
    assert all(why for text, _, why in refused if text != "0 hello")
