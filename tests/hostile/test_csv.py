"""CSV injection: a name that begins with "=", "+", "-" or "@" is a formula to the
spreadsheet the director opens an export in. Every CSV the server or the command line
writes (a pad's export, an evening's standings and results) puts a single quote before
such a text cell, and leaves numbers, negative ones included, as numbers."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from starlette.testclient import TestClient

from forties.pad import Pad
from forties.rules import build_rules
from forties.spreadsheet import cell

FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3+cmd|' /C calc'!A0", "@SUM(A1)"]


def post(client: TestClient, url: str, body: Any) -> Any:
    r = client.post(url, content=json.dumps(body), headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text[:300]
    return r.json()


def cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text)) for c in row]


def no_formula(text: str) -> None:
    """No cell of ``text`` a spreadsheet would run: each begins with none of = + - @ tab
    CR, unless it is a plain number."""
    for c in cells(text):
        if c[:1] in ("=", "+", "-", "@", "\t", "\r"):
            float(c)  # a number such as -20 is a number, not a formula


def test_a_cell_is_quoted_only_when_it_is_text_that_looks_like_a_formula() -> None:
    for text in [*FORMULAS, "\tx", "\rx", "-Ann"]:
        assert cell(text) == "'" + text
    for kept in ["Ann", "-20", "-1.5", "20", "", "1:-20 2:10", -20, 3.5, None]:
        assert cell(kept) == kept


def test_a_pads_csv_quotes_formula_names_and_keeps_negative_scores(
        client: TestClient) -> None:
    made = post(client, "/api/pads", {"preset": "auction-45", "names": FORMULAS,
                                      "title": "=1+1"})
    pid, key = made["pad"], made["key"]
    post(client, f"/api/pads/{pid}/hands",
         {"key": key, "hand": {"bidder": 0, "bid": "25", "points": [10, 20]}})  # set: -25
    text = client.get(f"/api/pads/{pid}/export.csv").text
    no_formula(text)
    assert "'" + FORMULAS[0] in cells(text)
    assert "-25" in cells(text)  # the bidders' score after going set, still a number
    # the command line's --export csv is Pad.to_csv too
    pad = Pad(build_rules("auction-45"), names=list(FORMULAS))
    no_formula(pad.to_csv())
    assert any(c.startswith("'" + FORMULAS[0]) for c in cells(pad.to_csv()))


def test_an_evenings_standings_and_results_quote_formula_names(client: TestClient) -> None:
    made = post(client, "/api/hall", {"games": 2})
    eid, key = made["evening"], made["key"]
    post(client, f"/api/hall/{eid}/register", {"key": key, "names": FORMULAS[:2]})
    post(client, f"/api/hall/{eid}/register", {"key": key, "names": FORMULAS[2:]})
    post(client, f"/api/hall/{eid}/begin", {"key": key})
    post(client, f"/api/hall/{eid}/director",
         {"key": key, "action": "report", "game": 1, "table": 1, "winner": 1})
    for what in ("standings", "results"):
        r = client.get(f"/api/hall/{eid}/export/{what}")
        assert r.status_code == 200, r.text[:300]
        no_formula(r.text)
    standings = cells(client.get(f"/api/hall/{eid}/export/standings").text)
    assert {"'" + f for f in FORMULAS} <= set(standings)
