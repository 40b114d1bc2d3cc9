"""The rank tables of the Forty-Fives family and the trick winner, checked against
rules.md section 1 (and the seeds 000 and 002, which print the same tables).

The expected orders are typed out from the tables (``TRUMP_TABLE`` and ``OFF_TABLE`` in
helpers_engine.py), never derived from the engine; the trick-winner property test uses
the independent reference written there from those same tables.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forties.cards import CARD_NAMES, SUITS, card_name, parse_card
from forties.fortyfives import ABOVE, OFF_ORDER, PRIVILEGED, TRUMP_ORDER, TRUMPS, outranks
from forties.fortyfives import trick_winner_index as winner

from .helpers_engine import OFF_TABLE, TRUMP_TABLE, ff_trick_winner


def names(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_name(c) for c in cards]


def mask_set(mask: int) -> set[str]:
    """The names of the cards in a bitmask."""
    return {card_name(c) for c in range(52) if mask >> c & 1}


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def suit(t: str) -> int:
    return SUITS.index(t)


@pytest.mark.parametrize("trump", list(TRUMP_TABLE))
def test_trump_order_is_the_table(trump: str) -> None:
    """Every trump of each trump suit, in the order of rules.md, AH third."""
    order = names(TRUMP_ORDER[suit(trump)])
    assert order == TRUMP_TABLE[trump].split()
    assert order[2] == "AH"


@pytest.mark.parametrize("trump", list(TRUMP_TABLE))
def test_trump_set_is_the_suit_and_ah(trump: str) -> None:
    """The trumps are the 13 cards of the suit plus AH (13 in all when hearts are trump)."""
    mask = TRUMPS[suit(trump)]
    expected = {r + trump for r in "23456789TJQKA"} | {"AH"}
    got = mask_set(mask)
    assert got == expected
    assert len(got) == (13 if trump == "H" else 14)


@pytest.mark.parametrize("s", list(OFF_TABLE))
def test_off_suit_order_is_the_table(s: str) -> None:
    """Each suit when not trump: red high to low (AD lowest), black K Q J A 2..T; no AH."""
    assert names(OFF_ORDER[suit(s)]) == OFF_TABLE[s].split()
    assert "AH" not in names(OFF_ORDER[suit(s)])


@pytest.mark.parametrize("trump", list(TRUMP_TABLE))
def test_outranks_follows_the_order(trump: str) -> None:
    """A trump outranks exactly the trumps after it in the table."""
    t = suit(trump)
    order = cards(TRUMP_TABLE[trump])
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            assert outranks(a, b, t) == (i < j), (trump, a, b)
        assert mask_set(ABOVE[t][a]) == set(names(order[:i]))


@pytest.mark.parametrize("trump", list(TRUMP_TABLE))
def test_privileged_trumps(trump: str) -> None:
    """top3: the 5, the J of trumps and AH; five-only: the 5; none: nothing."""
    t = suit(trump)
    assert mask_set(PRIVILEGED["top3"][t]) == {"5" + trump, "J" + trump, "AH"}
    assert mask_set(PRIVILEGED["five-only"][t]) == {"5" + trump}
    assert mask_set(PRIVILEGED["none"][t]) == set()


# (trump, cards in play order from the leader, index of the winner, why)
TRICKS = [
    ("D", "AH AD KD 4D", 0, "AH led is a trump lead; AH is above the ace of trumps"),
    ("D", "4D AH JD 5D", 3, "5 of trumps beats J and AH"),
    ("H", "AH JH 2H 3C", 1, "hearts trump: JH above AH"),
    ("H", "KH AH 5C 2H", 1, "hearts trump: AH above KH"),
    ("S", "KH 7H AH 4H", 2, "AH trumps a heart lead when hearts are not trump"),
    ("C", "TC 3C 2C 9C", 2, "clubs trump (black): 2 above 3, 9 and 10"),
    ("C", "2C QC 3C", 1, "clubs trump: Q above 2"),
    ("S", "AS KS 2S 5H", 0, "spades trump: AS above KS; 5H is an off-suit heart"),
    ("H", "TH 9H 2H 3H", 0, "hearts trump (red): 10 above 9"),
    ("D", "2D 3D AD 6D", 2, "diamonds trump: AD is the fourth trump"),
    ("S", "2D AD 3D KC", 2, "diamonds off: 3 > 2 > A; a higher club does not follow"),
    ("S", "2H 3H 5H QC", 2, "hearts off: 5 > 3 > 2"),
    ("H", "9C AC 2C KD", 1, "clubs off: A above 2 and 9"),
    ("H", "TS 9S AS JS", 3, "spades off: J > A > 9 > 10"),
    ("H", "KC QS JD 2H", 3, "the lowest trump beats off-suit kings"),
    ("C", "7D 8D 2C 6D 9D", 2, "five players: the only trump wins"),
    ("D", "KS 2S", 0, "heads-up: K of spades off-suit holds"),
    ("C", "4S 5S 6S 7S 8S 9S", 0, "six cards, no trump: 4 highest of the black spades"),
    ("S", "JH 2S AH", 2, "JH led is an off-suit heart: AH, third trump, beats the 2S"),
]


@pytest.mark.parametrize(("trump", "played", "win", "why"), TRICKS)
def test_trick_winner_examples(trump: str, played: str, win: int, why: str) -> None:
    """Hand-worked tricks: highest trump, else highest card of the suit led."""
    assert winner(cards(played), suit(trump)) == win, why


@settings(max_examples=300, deadline=None)
@given(trump=st.sampled_from("CDHS"),
       played=st.lists(st.sampled_from(CARD_NAMES), min_size=2, max_size=6, unique=True))
def test_trick_winner_matches_the_tables(trump: str, played: list[str]) -> None:
    """Any trick of 2-6 different cards goes where the tables of rules.md send it."""
    trick = cards(" ".join(played))
    assert winner(trick, suit(trump)) == ff_trick_winner(trick, suit(trump))
