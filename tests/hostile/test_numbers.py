"""Numbers a stranger types: "²" and "¹" (which ``str.isdigit`` calls digits and ``int``
refuses), thousands of digits (past ``int``'s limit on text), 10**30 points, a couple named
twice ("1" and "01"). Each is one line of refusal, never a 500; Arabic-Indic digits ("٣")
are read as the numbers they are. All against ``create_app`` over a SQLite file."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.numerals import whole

from .conftest import refused

ODD = ["²", "¹", "-²", "1" * 5000, "1²", "٣3", "", " ", "+1", "0x1", "1.0", "½"]


def post(client: TestClient, url: str, body: Any) -> Any:
    return client.post(url, content=json.dumps(body), headers={"content-type": "application/json"})


def evening(client: TestClient) -> tuple[str, str, str]:
    """A duplicate evening of two couples (Nova Scotia: 45 to win, so points within 450
    either side), game 1 begun: (evening, director's key, tables')."""
    r = post(client, "/api/hall", {"games": 2, "duplicate": True})
    assert r.status_code == 200, r.text
    eid, key = r.json()["evening"], r.json()["key"]
    for i in (1, 2):
        assert post(client, f"/api/hall/{eid}/register",
                    {"key": key, "names": [f"Ann {i}", f"Bob {i}"]}).status_code == 200
    assert post(client, f"/api/hall/{eid}/begin", {"key": key}).status_code == 200
    return eid, key, r.json()["report"].split("#key=")[1]


def test_whole_reads_only_decimal_digits_of_bounded_length() -> None:
    assert whole("42") == 42 and whole(" 7 ") == 7 and whole("-3", signed=True) == -3
    assert whole("٣") == 3 and whole("١٢") == 12  # Arabic-Indic, as the pad is used in Arabic
    for text in ODD:
        assert whole(text, signed=True) is None, text
    assert whole("-3") is None and whole("1234567890") is None


def test_hall_points_keyed_by_a_superscript_or_a_huge_number_are_refused(
        client: TestClient) -> None:
    eid, key, tables = evening(client)
    for k in ["²", "¹", "1" * 5000, "-1", "½"]:
        for route, who in (("report", tables), ("correct", key)):
            refused(post(client, f"/api/hall/{eid}/{route}", {
                "key": who, "game": 1, "table": 1, "winner": 1, "points": {k: 1, "1": 2}}))


def test_hall_points_out_of_range_or_naming_a_couple_twice_are_refused(
        client: TestClient) -> None:
    eid, _, tables = evening(client)
    url = f"/api/hall/{eid}/report"
    for pts in ({"1": 10**30, "2": -10**30}, {"1": 451, "2": 0}, {"1": 0, "2": -451}):
        assert "points must be from -450 to 450" in refused(post(client, url, {
            "key": tables, "game": 1, "table": 1, "winner": 1, "points": pts}))
    assert "twice" in refused(post(client, url, {
        "key": tables, "game": 1, "table": 1, "winner": 1, "points": {"1": 2, "01": 3}}))
    r = post(client, url, {"key": tables, "game": 1, "table": 1, "winner": 1,
                           "points": {"١": 450, "2": -450}})
    assert r.status_code == 200, r.text


def test_printed_tables_for_an_odd_game_number_are_refused(client: TestClient) -> None:
    eid, _, _ = evening(client)
    assert client.get(f"/hall/{eid}/print/tables?game=1").status_code == 200
    for game in ("%C2%B2", "1" * 5000, "-1", "x"):
        refused(client.get(f"/hall/{eid}/print/tables?game={game}"))


def test_pad_hands_with_superscripts_or_huge_numbers_are_refused(client: TestClient) -> None:
    r = post(client, "/api/pads", {"preset": "auction-45"})
    pid, key = r.json()["pad"], r.json()["key"]
    good = {"bidder": 1, "bid": "20", "points": [20, 10]}
    assert post(client, f"/api/pads/{pid}/hands", {"key": key, "hand": good}).status_code == 200
    bad = [{"points": ["²", 10]}, {"points": ["-²", 10]}, {"points": ["1" * 5000, 10]},
           {"bidder": "²"}, {"partner": "¹"}, {"bidder": "1" * 5000}]
    for change in bad:
        hand = {**good, **change}
        refused(post(client, f"/api/pads/{pid}/hands", {"key": key, "hand": hand}))
        refused(client.put(f"/api/pads/{pid}/hands/1", json={"key": key, "hand": hand}))
    arabic = {**good, "bidder": "٣", "points": ["٢٠", "١٠"]}
    r = post(client, f"/api/pads/{pid}/hands", {"key": key, "hand": arabic})
    assert r.status_code == 200, r.text
    assert r.json()["rows"][-1]["points"] == [20, 10]
    assert r.json()["rows"][-1]["bidder"] == 3


def test_forty_one_bids_and_tricks_with_superscripts_are_refused(client: TestClient) -> None:
    r = post(client, "/api/pads", {"preset": "forty-one"})
    pid, key = r.json()["pad"], r.json()["key"]
    for hand in ({"bids": ["²", 3, 3, 3]}, {"bids": [3, 3, 3, 3], "tricks": ["-²", 3, 3, 4]},
                 {"bids": ["1" * 5000, 3, 3, 3]}):
        refused(post(client, f"/api/pads/{pid}/hands", {"key": key, "hand": hand}))


def test_the_command_line_pad_refuses_a_superscript_in_one_line() -> None:
    """``forties pad`` reads a typed hand's numbers with the same rule: "²" is a PadError
    (one line at the prompt), not a ValueError's traceback; "٢٠" is 20."""
    from forties.commands.pad import parse_hand
    from forties.pad import Pad, PadError
    from forties.rules import build_rules

    pad = Pad(build_rules("auction-45"))
    for line in ("Bob 20 : ² 20", "Bob 20 : -² 20", "Bob 20 : " + "1" * 5000 + " 20"):
        with pytest.raises(PadError):
            parse_hand(pad, line)
    assert parse_hand(pad, "Bob 20 : ١٠ ٢٠").points == (10, 20)


def test_a_ray_address_with_a_superscript_port_is_refused_in_one_line() -> None:
    """``--ray HOST:²`` is the usual one-line ClusterError, not ``int()``'s ValueError."""
    from forties.cluster import ClusterError, _check_reachable

    for address in ("127.0.0.1:²", "127.0.0.1:" + "1" * 5000, "ray://127.0.0.1:٣"):
        with pytest.raises(ClusterError):
            _check_reachable(address, timeout=0.1)
