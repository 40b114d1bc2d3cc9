"""What the seasons' tests share: hall evenings made from a club's page and played through
the hall's own API, and a season set up by a club's director."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from starlette.testclient import TestClient

from tests.clubs_helpers import Person

DOYLE = ("Mary Doyle", "Jim Burke")
CAMPBELL = ("Ann Campbell", "Joe MacNeil")
ROSS = ("Flora Ross", "Dan Rankin")
GILLIS = ("Kay Gillis", "Neil Beaton")


def make_evening(person: Person, club: str, when: str, games: int = 2,
                 title: str = "Friday 45s", **opts: Any) -> tuple[str, str]:
    """An evening of the club's calendar at ``when`` (UTC): its id and director's key."""
    made = person.ok(f"/api/clubs/{club}/evenings",
                     {"title": title, "when": when, "where": "hall", "games": games,
                      "bye_wins": False, **opts})
    return str(made["evening"]), str(made["key"])


def lower_number_wins(a: int, b: int) -> int:
    return min(a, b)


def play(client: TestClient, eid: str, key: str, names: Sequence[Sequence[str]],
         games: int | None = None, pick: Callable[[int, int], int] = lower_number_wins
         ) -> dict[str, Any]:
    """Register ``names`` and play ``games`` games (all, by default) through the hall's API,
    ``pick(deals_first, other)`` winning each table; the evening's board after."""
    for ns in names:
        r = client.post(f"/api/hall/{eid}/register", json={"key": key, "names": list(ns)})
        assert r.status_code == 200, r.text
    board = client.get(f"/api/hall/{eid}").json()
    for _ in range(board["games"] if games is None else games):
        current = board["current"]
        for t in current["tables"]:
            r = client.post(f"/api/hall/{eid}/report", json={
                "key": key, "game": current["game"], "table": t["table"],
                "winner": pick(t["deals_first"], t["other"])})
            assert r.status_code == 200, r.text
        board = client.get(f"/api/hall/{eid}").json()
    return dict(board)


def make_season(person: Person, club: str, starts: str = "2026-01-01",
                ends: str = "2026-01-31", name: str = "Winter", **rule: Any) -> str:
    made = person.ok(f"/api/clubs/{club}/seasons",
                     {"name": name, "starts": starts, "ends": ends, "rule": rule or None})
    return str(made["season"]["id"])
