"""The printed cards (punch cards, table cards) and the message catalogs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest

from forties.hall import HallError
from forties.hall.printing import punch_cards_html, table_cards_html
from forties.hall.words import MESSAGES, ordinal, prize_name, say

from .hall_helpers import hall_of, play_game


@dataclass
class Card:
    title: str = ""
    holes: dict[int, set[str]] = field(default_factory=dict)


class Holes(HTMLParser):
    """Each punch card's couple and the class of every numbered hole."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[Card] = []
        self._hole: str | None = None
        self._title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        cls = dict(attrs).get("class") or ""
        if cls == "punch":
            self.cards.append(Card())
        elif tag == "h2":
            self._title = True
        elif cls.startswith("n"):
            self._hole = cls

    def handle_data(self, data: str) -> None:
        if self._title:
            self.cards[-1].title = data
            self._title = False
        elif self._hole is not None:
            self.cards[-1].holes[int(data)] = set(self._hole.split())
            self._hole = None


def test_punch_cards_show_games_won_byes_and_absences() -> None:
    h = hall_of(5, games=3)
    play_game(h, lambda t, a, b: a)  # 1 and 3 win; 5 sits out
    h.leave(2)
    h.register(("<Zoë>", "O'Neil & Co"))
    play_game(h, lambda t, a, b: b)
    page = punch_cards_html(h)
    p = Holes()
    p.feed(page)
    cards = {c.title: c.holes for c in p.cards}
    assert list(cards) == ["Couple 1", "Couple 2", "Couple 3", "Couple 4", "Couple 5",
                           "Couple 6"]
    assert all(sorted(holes) == [1, 2, 3] for holes in cards.values())
    assert cards["Couple 1"][1] == {"n", "won"}
    assert cards["Couple 5"][1] == {"n", "won", "bye"}
    assert cards["Couple 2"][2] == {"n", "absent"}
    assert cards["Couple 6"][1] == {"n", "absent"}
    for row in h.standings():
        holes = cards[f"Couple {row.couple}"]
        assert {g for g, cls in holes.items() if "won" in cls} == set(row.won)
    assert "&lt;Zoë&gt;" in page and "<Zoë>" not in page
    assert page.startswith("<!DOCTYPE html>") and 'lang="en"' in page
    only = Holes()
    only.feed(punch_cards_html(h, couples=[3]))
    assert [c.title for c in only.cards] == ["Couple 3"]


def test_blank_cards_before_the_start_in_french() -> None:
    h = hall_of(3, games=25, title="Salle paroissiale")
    page = punch_cards_html(h, "fr")
    assert 'lang="fr"' in page and "Les parties gagnées sont poinçonnées" in page
    assert "Salle paroissiale" in page
    p = Holes()
    p.feed(page)
    assert len(p.cards) == 3
    assert all(cls == {"n"} for c in p.cards for cls in c.holes.values())


def test_table_cards_say_where_winners_go() -> None:
    h = hall_of(6, games=25)
    page = table_cards_html(h)
    assert re.findall(r'<div class="big">(\d+)</div>', page) == ["1", "2", "3"]
    assert page.count("Winners move to table 2") == 1
    assert "Winners move to table 1" in page  # from the last table, round to the first
    assert "First game: couple 5 and couple 6" in page and "Couple 5 deals first" in page
    fr = table_cards_html(h, "fr")
    assert "Les gagnants passent à la table 1" in fr and "Clé du tirage" in fr


def test_catalogs_have_the_same_messages() -> None:
    keys = set(MESSAGES["en"])
    for lang, messages in MESSAGES.items():
        assert set(messages) == keys, lang
        for k, text in messages.items():
            assert re.findall(r"{(\w+)}", text) == re.findall(r"{(\w+)}", MESSAGES["en"][k])


def test_ordinals_and_prize_names() -> None:
    assert [ordinal("en", n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    assert [prize_name("fr", n) for n in (1, 2, 0)] == ["1er prix", "2e prix",
                                                       "Prix de consolation"]
    assert prize_name("en", 3) == "3rd prize"
    with pytest.raises(HallError, match="unknown language 'de'"):
        say("de", "table", n=1)
    with pytest.raises(HallError):
        punch_cards_html(hall_of(2), "xx")
