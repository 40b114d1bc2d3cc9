"""What a player reads names seats as the table names them: the engine numbers seats from
0 (as the record's action lines do), the pages count from 1 and use names, the terminal
its own names; both say "you" for the player's own seat."""

from __future__ import annotations

import pytest

from forties import Action
from forties.rules import build_rules
from forties.table import COMPUTER, EMPTY, PERSON, Settings, Table, TableError, seat_words
from forties.tui.session import Session


def test_seat_words_names_every_seat_the_engine_numbers() -> None:
    names = ["Ann", "Bob", "Cy", "Di"]
    assert seat_words("it is seat 2's turn, not seat 0's", names, 0) == (
        "it is Cy's turn, not yours")
    assert seat_words("you may ask only an opponent: seat 1, 3", names, 0) == (
        "you may ask only an opponent: Bob, Di")
    assert seat_words("there is no seat 5 (seats are 0..3)", names, 0) == (
        "there is no seat 6 (seats are 1 to 4)")
    assert seat_words("must follow Hearts: you hold 2H", names, 1) == (
        "must follow Hearts: you hold 2H")


def test_the_web_table_names_seats_as_its_pages_do() -> None:
    t = Table("t", build_rules("merrimack-valley"), 11, Settings(), 3)
    for i, (kind, name) in enumerate([(PERSON, "Ann"), (COMPUTER, "Computer (basic)"),
                                      (PERSON, "Cy"), (EMPTY, None)]):
        t.apply({"kind": "sit", "seat": i, "as": kind, "name": name, "level": "basic"})
    t.apply({"kind": "start"})
    assert t.state.turn == 0
    with pytest.raises(TableError) as e:
        t.check_act(2, "2 pass", t.version)
    assert e.value.reason == "it is Ann's turn, not yours"
    with pytest.raises(TableError) as e:
        t.check_act(2, "0 pass", t.version)
    assert e.value.reason == "that action is Ann's, not yours"
    t.apply({"kind": "act", "seat": 0, "action": "0 pass"})
    with pytest.raises(TableError) as e:
        t.check_act(2, "2 pass", t.version)
    assert e.value.reason == "it is Computer 2's turn, not yours"
    assert [t.seat_label(i) for i in range(4)] == ["Ann", "Computer 2", "Cy", "Seat 4"]


def test_a_computer_player_a_hall_named_is_named_so() -> None:
    """A hall's computer couple sits under its registered names: refusals name them as
    the pages do; a computer player nobody named stays "Computer N"."""
    t = Table("t", build_rules("merrimack-valley"), 11, Settings(), 3)
    for i, (kind, name) in enumerate([(PERSON, "Ann"), (COMPUTER, "Bot"),
                                      (PERSON, "Cy"), (COMPUTER, "Computer (basic)")]):
        t.apply({"kind": "sit", "seat": i, "as": kind, "name": name, "level": "basic"})
    t.apply({"kind": "start"})
    t.apply({"kind": "act", "seat": 0, "action": "0 pass"})
    with pytest.raises(TableError) as e:
        t.check_act(2, "2 pass", t.version)
    assert e.value.reason == "it is Bot's turn, not yours"
    assert [t.seat_label(i) for i in range(4)] == ["Ann", "Bot", "Cy", "Computer 4"]


def test_the_terminal_names_seats_by_its_own_names() -> None:
    s = Session.start(build_rules("merrimack-valley"), seed=3, human=0)
    assert s.state.turn == 0
    assert s.reason(Action.parse("0 pass")) is None
    assert s.reason(Action.parse("2 pass")) == f"it is your turn, not {s.names[2]}'s"
    s.act(Action.parse("0 pass"))  # seat 1, a computer, bids next
    assert s.state.turn == 1 and s.names[1] != "You"
    assert s.reason(Action.parse("0 pass")) == f"it is {s.names[1]}'s turn, not yours"
