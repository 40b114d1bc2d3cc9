"""Every place computer players are made tells them what each seat is, as the people at
the table see it (a computer's level, None for a person): the default expert plays
against ``basic``'s rule only where both its opponents are ``basic`` computers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from forties import build_rules, new_game, table
from forties.bots import Bot
from forties.bots.expert import ExpertBot
from forties.hall import home, simulate
from forties.players import make_bot as real_make_bot
from forties.tui.session import Session


def _recording(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[str, Any]]:
    told: list[tuple[str, Any]] = []

    def make(level: str, rng: random.Random, seats: Any = None) -> Bot:
        told.append((level, None if seats is None else list(seats)))
        return real_make_bot(level, rng, seats)

    monkeypatch.setattr(module, "make_bot", make)
    return told


def test_the_halls_simulated_tables_tell_the_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    told = _recording(monkeypatch, simulate)
    simulate.play_table(build_rules("merrimack-valley"), 3, ("random", "basic"), max_hands=1)
    seats = ["random", "basic", "random", "basic"]
    assert told == [(lv, seats) for lv in seats]


def test_the_halls_home_games_tell_the_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    told = _recording(monkeypatch, home)
    home._play(new_game(build_rules("merrimack-valley", {"target": 30}), seed=2),
               ("basic", "random"), random.Random(2))
    seats = ["basic", "random", "basic", "random"]
    assert told == [(lv, seats) for lv in seats]


def test_the_terminals_expert_knows_its_opponents_are_basic(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Bot] = []

    def make(level: str, rng: random.Random, seats: Any = None) -> Bot:
        made.append(real_make_bot(level, rng, seats))
        return made[-1]

    monkeypatch.setattr(table, "make_bot", make)
    session = Session.start(build_rules("merrimack-valley"), seed=5, partner="expert",
                            opponents="basic", save_path=None)
    session.act(session.legal()[0])
    while session.state.turn != 2:
        session.bot_step()
    made.clear()
    session.bot_decision()()
    [partner] = made
    assert isinstance(partner, ExpertBot)
    assert partner.seats == (None, "basic", "expert", "basic")
    assert session.table.seats[0].kind == "person" and session.table.seat_levels()[0] is None
