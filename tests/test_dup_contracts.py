"""A hall table's contract: the phone reports who won the bid (the Forty-Fives: the
bidder's seat, the bid and the trump; Forty One: each seat's bid) beside the scores,
checked against the game (a bid it allows, scores that contract can give, by the
engine's own scoring) and the board (a trump the bidder may name with its cards); the
board page shows every table's contract beside its score once every table has played
the board, with the double-dummy par of that contract on the board's cards, worked out
in the pars' process and kept when it comes."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.advice import contract_start, par_json
from forties.duplicate import (
    DuplicateError,
    Session,
    check_contract,
    contract_scores,
    make_boards,
    possible_scores,
    scores_of_hand,
)
from forties.fortyfives import FortyFivesState
from forties.fortyone import FortyOneState
from forties.rules import build_rules
from forties.state import DealKey, Phase
from forties.web import duplicate_sessions as dup_web
from forties.web.limits import Limits

from .web_stand_ins import FakeService, tiny_app

PAR_BUDGET = 200_000


class Pool:
    """The pars' process, stood in by a thread that works out one par at a time (the
    solver is not shared between threads; the real pool is one process): each hand it
    is given is kept (what the server asked it), the par worked out by the function
    the server sends (``pools.pool_par``)."""

    def __init__(self) -> None:
        self.asked: list[Any] = []
        self.hold = asyncio.Event()
        self.hold.set()
        self.one = asyncio.Lock()

    async def run(self, fn: Any, *args: Any) -> Any:
        self.asked.append(args[0])
        await self.hold.wait()
        async with self.one:
            return await asyncio.to_thread(fn, *args)


@pytest.fixture
def service() -> FakeService:
    s = FakeService()
    s.par_pool = Pool()  # type: ignore[attr-defined]
    s.limits = Limits(par=True, par_budget=PAR_BUDGET)  # type: ignore[attr-defined]
    return s


@pytest.fixture
def client(service: FakeService) -> Any:
    with TestClient(tiny_app(service, dup_web)) as c:
        yield c


def refused(resp: Any, status: int = 400, code: str | None = None) -> str:
    """The one line of a refusal (with its ``code``, for the page's own words)."""
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) <= {"error", "code"} and "\n" not in body["error"], body
    assert body.get("code") == code, body
    return str(body["error"])


def new_session(client: Any, game: str, boards: int = 2) -> dict[str, Any]:
    r = client.post("/api/dup", json={"game": game, "boards": boards, "partnerships": [
        {"name": f"Ann {i} & Bob {i}"} for i in range(1, 5)]})
    assert r.status_code == 200, r.text
    made = dict(r.json())
    made["tables"] = made["report"].split("#key=")[1]
    return made


def stored(service: FakeService, sid: str) -> tuple[dict[str, Any], Session]:
    got = asyncio.run(service.store.get_doc("duplicate", sid))
    assert got is not None
    return got[1], Session.from_json(got[1]["session"])



def test_a_contract_scores_only_what_the_game_lets_it() -> None:
    a45 = build_rules("auction-45")
    c = check_contract(a45, {"bidder": "N", "bid": "25", "trump": "H"})
    assert c == {"bidder": 0, "bid": "25", "trump": "H"}
    got = contract_scores(a45, c)
    # Auction 45: the bidders score their bid made (25), lose it set (-25); the others
    # score what they took
    assert got == {(25, 0), (25, 5), (-25, 10), (-25, 15), (-25, 20), (-25, 25), (-25, 30)}
    assert got <= possible_scores(a45)
    east = contract_scores(a45, check_contract(a45, {"bidder": 1, "bid": 25, "trump": "S"}))
    assert east == {(b, a) for a, b in got}
    assert contract_scores(a45, check_contract(a45, {"bidder": None})) == {(0, 0)}
    mv = build_rules("merrimack-valley")
    mvs = contract_scores(mv, check_contract(mv, {"bidder": "S", "bid": "20", "trump": "D"}))
    assert (20, 10) in mvs and (-20, 15) in mvs and (25, 5) in mvs and (-20, 10) not in mvs
    f41 = build_rules("forty-one")
    for bids in ([3, 3, 3, 3], [7, 2, 1, 1], [1, 1, 1, 1], [13, 1, 13, 1]):
        got41 = contract_scores(f41, check_contract(f41, {"bids": bids}))
        assert got41 <= possible_scores(f41)
        if sum(bids) < 11:
            assert got41 == {(0, 0)}
    both13 = contract_scores(f41, check_contract(f41, {"bids": [13, 1, 13, 1]}))
    # two seats of a partnership bidding 13 (26 each, double) cannot both make: N-S get
    # 0 (one made, one set) or -52, never 52
    assert both13 == {(0, -2), (-52, -2), (-52, 0), (-52, 2)}
    # 3 each: every seat may make (12 of the 13 tricks bid)
    assert (6, 6) in contract_scores(f41, check_contract(f41, {"bids": [3, 3, 3, 3]}))


@pytest.mark.parametrize("game,bad,words", [
    ("auction-45", {"bidder": "N", "bid": "15", "trump": "H"}, "20, 25, 30"),
    ("auction-45", {"bidder": "X", "bid": "20", "trump": "H"}, "N, E, S or W"),
    ("auction-45", {"bidder": 4, "bid": "20", "trump": "H"}, "N, E, S or W"),
    ("auction-45", {"bidder": True, "bid": "20", "trump": "H"}, "N, E, S or W"),
    ("auction-45", {"bidder": "N", "bid": "20", "trump": "X"}, "C, D, H or S"),
    ("auction-45", {"bidder": "N", "bid": "20"}, "C, D, H or S"),
    ("auction-45", {"bidder": None, "bid": "20"}, "no bid"),
    ("auction-45", {"bid": "20", "trump": "H"}, "bidder"),
    ("auction-45", {"bidder": "N", "bid": "20", "trump": "H", "x": 1}, "bidder"),
    ("auction-45", [1, 2], "bidder"),
    ("merrimack-valley", {"bidder": None}, "every hand"),
    ("merrimack-valley", {"bidder": "N", "bid": "30for60", "trump": "H"}, "15, 20"),
    ("forty-one", {"bids": [0, 3, 3, 3]}, "1 to 13"),
    ("forty-one", {"bids": [14, 3, 3, 3]}, "1 to 13"),
    ("forty-one", {"bids": [3, 3, 3]}, "1 to 13"),
    ("forty-one", {"bids": [3, 3, 3, 3.0]}, "1 to 13"),
    ("forty-one", {"bidder": "N"}, "1 to 13"),
])
def test_contracts_the_game_does_not_allow(game: str, bad: Any, words: str) -> None:
    with pytest.raises(DuplicateError, match=words):
        check_contract(build_rules(game), bad)


def test_a_played_hand_scores_what_its_contract_allows() -> None:
    """Every hand the engine plays scores a pair its own contract's ``contract_scores``
    holds (the scoring is the engine's, not the test's)."""
    import random

    from forties.bots import play_hand
    from forties.players import make_bot
    from forties.record import hand_summary

    rng = random.Random(5)
    for preset in ("merrimack-valley", "auction-45", "forty-one"):
        rules = build_rules(preset)
        for n in range(1, 7):
            board = make_boards(rules, n, DealKey(bytes([n + 40] * 32)))[-1]
            state = board.game(rules)
            play_hand(state, [make_bot("basic", rng) for _ in range(4)])
            s = hand_summary(state)
            if isinstance(state, FortyOneState):
                raw: dict[str, Any] = {"bids": list(state.bids)}
            elif s.get("bidder") is None:
                raw = {"bidder": None}
            else:
                raw = {"bidder": s["bidder"], "bid": s["bid"], "trump": s["trump"]}
            assert scores_of_hand(state) in contract_scores(rules, check_contract(rules, raw))


def test_the_hand_at_its_first_lead_is_the_boards_in_that_contract() -> None:
    rules = build_rules("merrimack-valley")
    board = make_boards(rules, 3, DealKey(bytes(32)))[2]
    st = contract_start(rules, board.deal, board.dealer,
                        check_contract(rules, {"bidder": "W", "bid": "25", "trump": "C"}))
    assert isinstance(st, FortyFivesState) and st.phase is Phase.PLAY
    assert (st.bidder, st.bid, st.trump, st.dealer) == (3, 25, 0, board.dealer)
    held = 0
    for h in st.hands:
        assert h.bit_count() == 5
        held |= h
    dealt = set(itertools.chain(*board.deal.hands, board.deal.kitty, board.deal.stock))
    assert {c for c in range(52) if held >> c & 1} <= dealt
    f41 = build_rules("forty-one")
    b41 = make_boards(f41, 1, DealKey(bytes(32)))[0]
    st41 = contract_start(f41, b41.deal, b41.dealer, {"bids": [4, 3, 2, 3]})
    assert isinstance(st41, FortyOneState) and st41.bids == [4, 3, 2, 3]
    assert [sorted(c for c in range(52) if h >> c & 1) for h in st41.hands] == \
        [sorted(h) for h in b41.deal.hands]
    assert contract_start(f41, b41.deal, b41.dealer, {"bids": [2, 3, 2, 3]}) is None


def may_name(rules: Any, board: Any, seat: int, suit: str) -> bool:
    try:
        contract_start(rules, board.deal, board.dealer,
                       {"bidder": seat, "bid": "20", "trump": suit})
    except ValueError:
        return False
    return True


def test_the_phone_reports_the_contract_and_the_board_page_shows_it_with_its_par(
        client: TestClient, service: FakeService) -> None:
    made = new_session(client, "merrimack-valley")
    sid, key = made["session"], made["tables"]
    url = f"/api/dup/{sid}/report"
    # 4 pairs: board 1 at two tables in round 1
    c1 = {"bidder": "N", "bid": "20", "trump": "S"}
    # (20-10 is a score of the game, but not of a bid of 30: made 30, set -30)
    assert "cannot be scored on North 30 in spades" in refused(client.post(url, json={
        "key": key, "board": 1, "table": 1, "ns": 20, "ew": 10,
        "contract": {**c1, "bid": "30"}}), code="contract")
    assert "15, 20, 25, 30" in refused(client.post(url, json={
        "key": key, "board": 1, "table": 1, "ns": 20, "ew": 10,
        "contract": {**c1, "bid": "35"}}))
    body, _ = stored(service, sid)
    assert body["session"]["results"] == [] and not body.get("plays")
    r = client.post(url, json={"key": key, "board": 1, "table": 1, "ns": 20, "ew": 10,
                               "contract": c1})
    assert r.status_code == 200, r.text
    assert r.json()["contract"] == {"bidder": 0, "bid": "20", "trump": "S"}
    # hidden while table 2 plays the board: no contract, no par, no score
    page = client.post(f"/api/dup/{sid}/board/1", json={}).json()
    assert page["shown"] is False
    assert not {"rows", "hands", "contract", "par"} & set(page)
    c2 = {"bidder": "E", "bid": "25", "trump": "H"}
    r = client.post(url, json={"key": key, "board": 1, "table": 2, "ns": 10, "ew": -25,
                               "contract": c2})
    assert r.status_code == 200, r.text
    page = client.post(f"/api/dup/{sid}/board/1", json={}).json()
    assert page["shown"] is True
    rows = {row["table"]: row for row in page["rows"]}
    assert rows[1]["contract"] == {"bidder": 0, "bid": "20", "trump": "S"}
    assert (rows[1]["ns_score"], rows[1]["ew_score"]) == (20, 10)
    assert rows[2]["contract"] == {"bidder": 1, "bid": "25", "trump": "H"}
    assert (rows[2]["ns_score"], rows[2]["ew_score"]) == (10, -25)
    # each par was asked of the pars' process on the board's hand in that contract
    pool = service.par_pool  # type: ignore[attr-defined]
    _, session = stored(service, sid)
    board = session.boards[0]
    rules = build_rules("merrimack-valley")
    assert len(pool.asked) == 2
    for st, c in zip(pool.asked, (c1, c2), strict=True):
        want = contract_start(rules, board.deal, board.dealer, check_contract(rules, c))
        assert want is not None and st.hands == want.hands
        assert (st.bidder, st.bid, st.trump) == (want.bidder, want.bid, want.trump)
    for _ in range(500):  # (the pars are worked out on another thread)
        page = client.post(f"/api/dup/{sid}/board/1", json={}).json()
        if all(row["par"] for row in page["rows"]):
            break
        asyncio.run(asyncio.sleep(0.02))
    rows = {row["table"]: row for row in page["rows"]}
    for t, seats in ((1, [0, 2]), (2, [1, 3])):
        par = rows[t]["par"]
        assert par["side"] == seats and par["drawn"] is True
        assert 0 <= par["points"] <= 30 and par["points"] % 5 == 0
        want = par_json(pool.asked[t - 1], PAR_BUDGET)
        assert want is not None and {k: par[k] for k in want} == want
    assert "asked" not in str(page)


def test_a_trump_the_bidder_may_not_name_and_the_directors_corrections(
        client: TestClient, service: FakeService) -> None:
    made = new_session(client, "auction-45", boards=3)
    sid, key, director = made["session"], made["tables"], made["key"]
    _, session = stored(service, sid)
    rules = build_rules("auction-45")
    # Auction 45: the bidder must hold a card of the trump he names (a seat lacks a suit
    # on one of three boards but about once in ten million sessions)
    n, seat, suit = next((b.number, s, x) for b in session.boards for s in range(4)
                         for x in "CDHS" if not may_name(rules, b, s, x))
    ns, ew = (20, 10) if seat % 2 == 0 else (10, 20)
    # the director is told (he printed the slips)
    assert "may not name that trump" in refused(client.post(f"/api/dup/{sid}/report", json={
        "key": director, "board": n, "table": 1, "ns": ns, "ew": ew,
        "contract": {"bidder": seat, "bid": "20", "trump": suit}}), code="trump")
    assert stored(service, sid)[1].results == {}
    # the tables' phone is not (its refusal would tell a player of the board's cards):
    # the contract is kept as it came, with no par
    r = client.post(f"/api/dup/{sid}/report", json={
        "key": key, "board": n, "table": 2, "ns": ns, "ew": ew,
        "contract": {"bidder": seat, "bid": "20", "trump": suit}})
    assert r.status_code == 200, r.text
    kept = stored(service, sid)[0]["plays"][f"{n}/2"]
    assert kept["contract"]["trump"] == suit and kept["par"] is None
    assert client.post(f"/api/dup/{sid}/correct", json={  # (the director takes it out)
        "key": director, "board": n, "table": 2, "ns": None, "ew": None}).status_code == 200
    board = session.boards[0]
    ok = next(x for x in "CDHS" if may_name(rules, board, 0, x))
    assert client.post(f"/api/dup/{sid}/report", json={
        "key": key, "board": 1, "table": 1, "ns": 20, "ew": 10,
        "contract": {"bidder": "N", "bid": "20", "trump": ok}}).status_code == 200
    # the director corrects the result: a new contract replaces the old; with none sent
    # the old stays where it fits the new scores, else it is taken out; null takes it out
    north = {"bidder": 0, "bid": "20", "trump": ok}
    assert "cannot be scored" in refused(client.post(f"/api/dup/{sid}/correct", json={
        "key": director, "board": 1, "table": 1, "ns": 10, "ew": 20,
        "contract": {"bidder": "N", "bid": "20", "trump": ok}}), code="contract")
    assert client.post(f"/api/dup/{sid}/correct", json={
        "key": director, "board": 1, "table": 1, "ns": 20, "ew": 5}).status_code == 200
    body, _ = stored(service, sid)
    assert body["plays"]["1/1"]["contract"] == north  # (20-5 fits North's 20 made)
    assert client.post(f"/api/dup/{sid}/correct", json={
        "key": director, "board": 1, "table": 1, "ns": 20, "ew": 5,
        "contract": None}).status_code == 200
    body, _ = stored(service, sid)
    assert "1/1" not in body["plays"]
    assert client.post(f"/api/dup/{sid}/correct", json={
        "key": director, "board": 1, "table": 1, "ns": 0, "ew": 0,
        "contract": {"bidder": None}}).status_code == 200
    body, _ = stored(service, sid)
    assert body["plays"]["1/1"]["contract"] == {"bidder": None, "bid": None, "trump": None}
    assert client.post(f"/api/dup/{sid}/correct", json={
        "key": director, "board": 1, "table": 1, "ns": 10, "ew": 20}).status_code == 200
    body, _ = stored(service, sid)
    assert "1/1" not in body["plays"]  # (10-20 is no hand thrown in)
    assert client.post(f"/api/dup/{sid}/correct", json={
        "key": director, "board": 1, "table": 1, "ns": 0, "ew": 0}).status_code == 200
    # a report with no contract is still taken: the board page shows its score alone
    assert client.post(f"/api/dup/{sid}/report", json={
        "key": key, "board": 1, "table": 2, "ns": 0, "ew": 0}).status_code == 200
    rows = client.post(f"/api/dup/{sid}/board/1", json={}).json()["rows"]
    assert [r.get("contract") for r in rows] == [None, None]
    v = client.get(f"/api/dup/{sid}").json()
    assert v["bidding"] == {"bids": ["20", "25", "30"], "no_bid": True}


def test_forty_one_reports_each_seats_bid(client: TestClient, service: FakeService) -> None:
    made = new_session(client, "forty-one", boards=1)
    sid, key = made["session"], made["tables"]
    url = f"/api/dup/{sid}/report"
    pool = service.par_pool  # type: ignore[attr-defined]
    pool.hold.clear()  # (the par is not needed here: it never comes back)
    assert "cannot be scored on bids 4, 3, 2, 3" in refused(client.post(url, json={
        "key": key, "board": 1, "table": 1, "ns": 12, "ew": 6,
        "contract": {"bids": [4, 3, 2, 3]}}), code="contract")
    assert "1 to 13" in refused(client.post(url, json={
        "key": key, "board": 1, "table": 1, "ns": 6, "ew": 6, "contract": {"bids": [4]}}))
    assert client.post(url, json={"key": key, "board": 1, "table": 1, "ns": 6, "ew": 6,
                                  "contract": {"bids": [4, 3, 2, 3]}}).status_code == 200
    # bids too few: the hand is thrown in, 0-0, and no par is asked
    assert "cannot be scored" in refused(client.post(url, json={
        "key": key, "board": 1, "table": 2, "ns": 2, "ew": 0,
        "contract": {"bids": [1, 2, 1, 2]}}), code="contract")
    assert client.post(url, json={"key": key, "board": 1, "table": 2, "ns": 0, "ew": 0,
                                  "contract": {"bids": [1, 2, 1, 2]}}).status_code == 200
    assert len(pool.asked) == 1 and pool.asked[0].bids == [4, 3, 2, 3]
    rows = client.post(f"/api/dup/{sid}/board/1", json={}).json()["rows"]
    assert [r["contract"] for r in rows] == [{"bids": [4, 3, 2, 3]}, {"bids": [1, 2, 1, 2]}]
    assert client.get(f"/api/dup/{sid}").json()["bidding"] == {"tricks": [1, 13]}
