"""Names made to look like less than they are: zero-width spaces, byte-order marks,
word joiners and Hangul fillers (a letter to Unicode, blank on screen). A club's name
that shows as one letter ("A" and two zero-width spaces), or as nothing, and a duplicate
partnership whose name shows as nothing, are refused in one line, with nothing made."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from forties.web.account_schema import clubs_t
from tests.clubs_helpers import Person, run

from .conftest import refused

PAIRS = [{"name": n} for n in ("Cy & Di", "Ed & Flo", "Gus & Hal")]
HIDDEN = ["A\u200b\u200b", "\ufeff\ufeffA", "A\u2060\u2060", "\u3164\u3164",
          "\u115f\u1160", "B\u00ad\u00ad", "\u2063\u2063X"]


def sessions(client: TestClient) -> int:
    return int(run(client, lambda conn: conn.execute(sa.text(
        "SELECT COUNT(*) FROM documents WHERE kind = 'duplicate'")).scalar()))


@pytest.mark.parametrize("name", HIDDEN)
def test_a_club_name_of_invisible_characters_is_refused(client: TestClient,
                                                        name: str) -> None:
    ann = Person(client, "Ann")
    assert "invisible" in refused(ann.post("/api/clubs", {"name": name}))
    assert run(client, lambda conn: conn.execute(sa.select(clubs_t)).all()) == []
    club = ann.make_club("Tuesday Club")
    assert "invisible" in refused(ann.post(f"/api/clubs/{club}", {"name": name}))
    assert ann.club(club)["name"] == "Tuesday Club"


@pytest.mark.parametrize("name", ["Café Crème", "نادي الأربعين", "Mi\u200cra", "👩\u200d👩 club",
                                  "St. Mary's 45s & Friends"])
def test_names_that_need_a_joiner_or_another_script_are_kept(client: TestClient,
                                                            name: str) -> None:
    ann = Person(client, "Ann")
    assert ann.club(ann.make_club(name))["name"] == name


@pytest.mark.parametrize("name", ["\u200b", "\ufeff", "\u2060\u200b", "\u3164", "\u00ad"])
def test_a_partnership_named_by_invisible_characters_is_refused(client: TestClient,
                                                                name: Any) -> None:
    r = client.post("/api/dup", json={"game": "auction-45", "boards": 4,
                                      "partnerships": [{"name": name}, *PAIRS]})
    assert refused(r) == "partnership 1 needs a name"
    assert sessions(client) == 0


@pytest.mark.parametrize("name", ["\u3164\u3164", "Ann\u3164\u3164\u3164", "\uffa0\uffa0",
                                  "\u115f\u1160Bo"])
def test_an_account_named_by_blank_letters_is_refused(client: TestClient, name: str) -> None:
    """A Hangul filler is a letter to Unicode and shows as nothing: an account so named
    would stand blank in a club's members and directors, and "Ann" plus fillers would
    pass for "Ann"."""
    r = client.post("/api/account/signup/begin", json={"name": name})
    assert "invisible" in refused(r)
