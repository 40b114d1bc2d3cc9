"""Numbers in a path or a query written with digits that are not ASCII: Python's
``str.isdigit`` says yes to a superscript two ("²"), which ``int`` cannot read. A
duplicate board's number and a page of a player's games must be refused in one line,
never a 500."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.accounts_helpers import make_account

from .conftest import refused

PAIRS = [{"name": n} for n in ("Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal")]
ODD = ["²", "¹²", "①", "߁"]  # superscripts, a circled one, an N'Ko one: all "digits"


@pytest.mark.parametrize("n", ODD)
def test_a_board_number_of_odd_digits_is_no_board(client: TestClient, n: str) -> None:
    r = client.post("/api/dup", json={"game": "auction-45", "boards": 4,
                                      "partnerships": PAIRS})
    sid = r.json()["session"]
    assert "no board" in refused(client.post(f"/api/dup/{sid}/board/{n}", json={}), 404)


@pytest.mark.parametrize("n", ODD)
def test_a_page_of_odd_digits_is_refused(client: TestClient, n: str) -> None:
    account, _ = make_account(client, "Ann")
    r = client.get(f"/api/players/{account.id}/games", params={"limit": n})
    assert "limit" in refused(r, 400)
