"""A stranger's (or a careless phone's) contracts at ``POST /api/dup/ID/report`` and
``/correct``: odd shapes, huge or nested values, lookalike digits and letters, a bid or
a trump the game does not have, a contract sent for an online session. Each is refused
in one line (never a 500), nothing is recorded, and the board page still shows nothing
of the board."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from .conftest import refused

PAIRS = [{"name": n} for n in ("Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal")]

ODD_45: list[Any] = [
    "North 25 H", 25, ["N", "25", "H"], True, {"bidder": "N"}, {"bidder": "n", "bid": "25",
                                                                "trump": "H"},
    {"bidder": "North", "bid": "25", "trump": "H"}, {"bidder": "N" * 5000, "bid": "25",
                                                      "trump": "H"},
    {"bidder": 0.0, "bid": "25", "trump": "H"}, {"bidder": -1, "bid": "25", "trump": "H"},
    {"bidder": 10**40, "bid": "25", "trump": "H"}, {"bidder": "N", "bid": "２５", "trump": "H"},
    {"bidder": "N", "bid": "²⁵", "trump": "H"}, {"bidder": "N", "bid": 25.0, "trump": "H"},
    {"bidder": "N", "bid": True, "trump": "H"}, {"bidder": "N", "bid": "25 ", "trump": "H"},
    {"bidder": "N", "bid": "-25", "trump": "H"}, {"bidder": "N", "bid": "25", "trump": "h"},
    {"bidder": "N", "bid": "25", "trump": "♥"}, {"bidder": "N", "bid": "25", "trump": "HH"},
    {"bidder": "N", "bid": "25", "trump": None}, {"bidder": "N", "bid": "25", "trump": ["H"]},
    {"bidder": "N", "bid": {"v": 25}, "trump": "H"},
    {"bidder": "N", "bid": "25", "trump": "H", "extra": "x"},
    {"bidder": {"seat": 0}, "bid": "25", "trump": "H"}, {"bids": [3, 3, 3, 3]},
]
ODD_41: list[Any] = [
    {"bids": [3, 3, 3]}, {"bids": [3, 3, 3, 3, 3]}, {"bids": [3, 3, 3, "3"]},
    {"bids": [3, 3, 3, True]}, {"bids": [3, 3, 3, 3.0]}, {"bids": [3, 3, 3, 0]},
    {"bids": [3, 3, 3, 14]}, {"bids": [3, 3, 3, -3]}, {"bids": [3, 3, 3, 10**40]},
    {"bids": "3333"}, {"bids": {"0": 3}}, {"bids": [3, 3, 3, 3], "bidder": "N"},
    {"bids": [[3], 3, 3, 3]}, {"bidder": "N", "bid": "25", "trump": "H"}, [3, 3, 3, 3],
]


def made(client: TestClient, game: str, **more: Any) -> tuple[str, str]:
    r = client.post("/api/dup", json={"game": game, "boards": 2, "partnerships": PAIRS,
                                      **more})
    assert r.status_code == 200, r.text[:300]
    out = r.json()
    key = out["report"].split("#key=")[1] if "report" in out else out["key"]
    return out["session"], key


@pytest.mark.parametrize("game,odd,scores", [("auction-45", ODD_45, (20, 10)),
                                             ("forty-one", ODD_41, (6, 6))])
def test_odd_contracts_are_refused_in_one_line(client: TestClient, game: str,
                                               odd: list[Any], scores: tuple[int, int]
                                               ) -> None:
    sid, key = made(client, game)
    ns, ew = scores
    for contract in odd:
        r = client.post(f"/api/dup/{sid}/report", json={
            "key": key, "board": 1, "table": 1, "ns": ns, "ew": ew, "contract": contract})
        refused(r)
    page = client.post(f"/api/dup/{sid}/board/1", json={}).json()
    assert page["shown"] is False and page["tables"][0]["done"] is False
    assert client.get(f"/api/dup/{sid}").json()["rounds"][0]["tables"][0]["done"] == []


def test_a_contract_for_an_online_session_is_refused(client: TestClient) -> None:
    sid, director = made(client, "auction-45", mode="online")
    assert "its own play's" in refused(client.post(f"/api/dup/{sid}/report", json={
        "key": director, "board": 1, "table": 1, "ns": 20, "ew": 10,
        "contract": {"bidder": "N", "bid": "20", "trump": "H"}}))


def test_a_huge_contract_is_refused_before_it_is_read(client: TestClient) -> None:
    sid, key = made(client, "forty-one")
    r = client.post(f"/api/dup/{sid}/report", json={
        "key": key, "board": 1, "table": 1, "ns": 6, "ew": 6,
        "contract": {"bids": [3] * 100_000}})
    assert r.status_code in (400, 413)
    refused(r, r.status_code)
    nested = "[" * 3000 + "3, 3, 3, 3" + "]" * 3000  # (6 KB: under the body's limit)
    body = (f'{{"key": "{key}", "board": 1, "table": 1, "ns": 6, "ew": 6, '
            f'"contract": {{"bids": {nested}}}}}')
    refused(client.post(f"/api/dup/{sid}/report", content=body,
                        headers={"Content-Type": "application/json"}))
    assert client.get(f"/api/dup/{sid}").json()["rounds"][0]["tables"][0]["done"] == []
