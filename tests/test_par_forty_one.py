"""Forty One's par: with every card seen and best play from the first lead, the tricks
each partnership would take, beside what each of its seats bid; the same words in the
terminal's advice and in the web's review (the frame's value)."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from forties.analysis import PAR_41_DEPTH, par, par_forty_one
from forties.cards import parse_card
from forties.games import new_game
from forties.players import make_bot
from forties.position import forty_one_position
from forties.rules import build_rules
from forties.solver import solve_forty_one
from forties.solver.dd41 import team_tricks
from forties.state import GameState
from forties.tui import advice
from forties.web.pools import pool_par
from tests.client import SeatClient

from .helpers_web import ServerProcess, basic_player, serving

RULES = build_rules("forty-one")
SUITS = "SCDH"  # spades, clubs, diamonds, hearts (trump)
RANKS = "23456789TJQKA"


def mask(cards: list[str]) -> int:
    out = 0
    for c in cards:
        out |= 1 << parse_card(c)
    return out


def whole_suits(order: str, dealer: int = 3, bids: tuple[int, ...] = (3, 3, 3, 3)
                ) -> GameState:
    """A deal where seat i holds the whole suit order[i], at its first lead."""
    hands = [mask([r + order[i] for r in RANKS]) for i in range(4)]
    return forty_one_position(RULES, dealer=dealer, start_hands=hands, bids=list(bids),
                              scores=[0, 0, 0, 0], plays=[])


@pytest.mark.parametrize("order, dealer, hearts_team", [
    ("HSCD", 3, (0, 2)),  # seat 0 holds every heart and leads
    ("SHCD", 3, (1, 3)),  # seat 1 holds every heart; seat 0 leads a spade
    ("SCDH", 0, (1, 3)),  # seat 3 holds every heart; seat 1 leads
    ("SCHD", 1, (0, 2)),  # seat 2 holds every heart and leads
])
def test_whoever_holds_every_heart_takes_every_trick(order: str, dealer: int,
                                                     hearts_team: tuple[int, int]) -> None:
    """Independent of any search: a seat that holds all thirteen trumps wins every trick
    (it leads a trump, or is void in the suit led and trumps it), so its partnership
    takes 13 and the other none."""
    st = whole_suits(order, dealer, bids=(2, 3, 4, 5))
    got = par_forty_one(st)
    assert got is not None
    by_seats = {tm.seats: tm.tricks for tm in got.teams}
    other = (1 - hearts_team[0], 3 - hearts_team[0])
    assert by_seats == {hearts_team: 13, other: 0}
    assert {tm.seats: tm.bids for tm in got.teams} == {(0, 2): (2, 4), (1, 3): (3, 5)}
    leader = (dealer + 1) % 4
    assert got.side == got.teams[0].seats and leader in got.side
    assert got.points == by_seats[got.side]


def played_hand(seed: int) -> GameState:
    """A hand of Forty One played to its end by basic players (a thrown-in deal is dealt
    again)."""
    st = new_game(RULES, seed=seed, first_dealer=3)
    bot = make_bot("basic", random.Random(seed))
    while not (st.hand_over and st.tricks):
        if st.hand_over:
            st.next_hand()
        st.apply(bot.choose(st.view(st.turn), st.legal_actions()))
    return st


def first_lead_hands(st: GameState) -> list[int]:
    """Each seat's thirteen cards of a played hand, put back together from its tricks."""
    return [h | sum(1 << c for t in st.tricks for i, c in enumerate(t.cards)
                    if (t.leader + i) % 4 == s) for s, h in enumerate(st.hands)]


# hands whose exact par takes about a second (a few take a minute; the benchmarks say)
@pytest.mark.parametrize("seed", [5, 7])
def test_the_par_of_a_played_hand_in_player_words(seed: int) -> None:
    st = played_hand(seed)
    got = par(st)  # the one entry point: 45s and Forty One alike
    assert got is not None and len(got.teams) == 2
    (a, b) = got.teams
    assert sorted(a.seats + b.seats) == [0, 1, 2, 3] and a.tricks + b.tricks == 13
    assert all(tm.bids == tuple(st.bids[s] for s in tm.seats) for tm in got.teams)
    # the figure is the exact solver's, from the first lead as the words say
    leader = (st.dealer + 1) % 4
    assert a.seats == (leader % 2, leader % 2 + 2)
    assert a.tricks == team_tricks(first_lead_hands(st), leader, [], 5 << (leader % 2))
    assert got.exact and "estimate" not in got.text and "about" not in got.text
    names = ["Ann", "Bob", "Cy", "Di"]
    words = got.words(names)
    assert words.startswith("With every card seen and best play, ")
    team_a = " and ".join(names[s] for s in a.seats)
    assert f"{team_a} would take {a.tricks} trick" in words
    assert f"(they bid {a.bids[0]} and {a.bids[1]})" in words
    assert "seat" not in words  # named, not numbered
    assert "seats 1 and 3" in got.text or "seats 2 and 4" in got.text  # counted from 1
    # the terminal's advice says the same, with its own names
    assert advice.par(st, names) == f"Double-dummy par: {words}"
    # and the web's review frame carries the same figures
    value = pool_par(st)
    assert value is not None
    assert value["teams"] == [{"seats": list(tm.seats), "tricks": tm.tricks,
                               "bids": list(tm.bids)} for tm in got.teams]
    assert value["points"] == a.tricks and value["side"] == list(a.seats)
    assert value["exact"] is True and value["text"] == got.text


def test_a_hand_past_the_budget_gets_the_estimate_and_says_so() -> None:
    """A search that would pass its budget gives way to the estimate (searched
    PAR_41_DEPTH tricks from the first lead), and the words say it is one."""
    st = played_hand(5)
    got = par(st, budget=1000)
    assert got is not None and not got.exact
    first = forty_one_position(RULES, dealer=st.dealer, start_hands=first_lead_hands(st),
                               bids=list(st.bids), scores=st.start_scores, plays=[])
    leader = (st.dealer + 1) % 4
    assert got.points == solve_forty_one(first, leader, depth=PAR_41_DEPTH)
    assert "estimate" in got.text and f"would take about {got.points} trick" in got.text
    assert pool_par(st, 1000) == {
        "side": list(got.side), "points": got.points, "text": got.text, "exact": False,
        "teams": [{"seats": list(tm.seats), "tricks": tm.tricks, "bids": list(tm.bids)}
                  for tm in got.teams]}


def test_no_par_for_a_hand_with_no_play() -> None:
    st = new_game(RULES, seed=5, first_dealer=3)
    assert par(st) is None and par_forty_one(st) is None
    with pytest.raises(TypeError):
        par_forty_one(new_game(build_rules("merrimack-valley"), seed=5))


@pytest.mark.asyncio
async def test_the_web_review_frame_carries_the_forty_one_par(tmp_path: Path) -> None:
    # (a budget that keeps the test short: a hand past it gets the estimate, so labelled)
    with serving(ServerProcess(tmp_path, par=True, par_budget=5_000_000, par_nice=0)) as srv:
        async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
            r = await http.post("/api/play", json={"preset": "forty-one", "level": "basic"})
            made = r.json()
        me = SeatClient(srv.ws, made["table"], made["token"]).autoplay(basic_player).start()
        try:
            await me.wait_for(lambda c: any(f["type"] == "event" and f["event"]["kind"] == "par"
                                            for f in c.frames), timeout=180)
            frame = next(f for f in me.frames if f["type"] == "event"
                         and f["event"]["kind"] == "par")
            value = frame["event"]["value"]
            hand = frame["event"]["hand"]
            review = [f["view"] for f in me.frames if f.get("view")
                      and f["view"]["hand_index"] == hand and f["view"].get("deal")][-1]
            teams = value["teams"]
            assert sorted(s for tm in teams for s in tm["seats"]) == [0, 1, 2, 3]
            assert sum(tm["tricks"] for tm in teams) == 13
            assert all(tm["bids"] == [review["bids"][s] for s in tm["seats"]] for tm in teams)
            assert value["text"].startswith("With every card seen and best play")
            assert value["exact"] is ("estimate" not in value["text"])
        finally:
            await me.stop()


@pytest.mark.asyncio
async def test_a_long_par_does_not_hold_up_the_server_stopping() -> None:
    """The par's process is ended when the server stops, not waited for (a par may search
    for a minute), and what was waiting on it hears that the par will not come."""
    import asyncio
    import os
    import threading
    import time

    from forties.web.pools import ParPool, ParsEnded

    from .helpers_web import alive

    pars = ParPool()
    pid = await pars.run(os.getpid)
    assert pid != os.getpid()
    long = pars.run(time.sleep, 3600)
    # (close runs in a thread: one that waited for the hour's par fails the test after a
    # minute, a bound for a hang rather than a measure of speed)
    closing = threading.Thread(target=pars.close, daemon=True)
    closing.start()
    closing.join(60)
    assert not closing.is_alive(), "close waited for the par"
    assert not alive(pid)
    with pytest.raises(ParsEnded, match="the server is stopping"):
        await asyncio.wait_for(long, 60)
