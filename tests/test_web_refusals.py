"""The engine's refusals through the websocket: the error frame keeps its code and English
line and carries the engine's own code and params beside them (docs/web-protocol.md), the
params naming only the refused seat's own cards and what the table knows; and the frame
goes to that seat alone, never to the other seats or a spectator."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio

from forties.cards import mask_names, mask_of, parse_card
from tests.client import SeatClient

from .helpers_web import ServerProcess, private_table, serving, stop_all

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving(ServerProcess(tmp_path_factory.mktemp("refusals"))) as srv:
        yield srv


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def http(server: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
        yield client


def pongs(c: SeatClient) -> int:
    return sum(1 for f in c.frames if f["type"] == "pong")


async def nothing_else_came(others: list[SeatClient]) -> None:
    """Each other connection answers a ping after the refusal, and got no error frame:
    a frame sent to it before would have come before the pong (frames keep their order)."""
    for c in others:
        before = pongs(c)
        await c.send({"type": "ping"})
        await c.wait_for(lambda c, before=before: pongs(c) > before)  # type: ignore[misc]
        assert not c.errors, (c.url, c.errors)


async def test_a_refusal_carries_its_code_and_goes_to_that_seat_alone(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    table, tokens = await private_table(http, "forty-one")
    seats = {s: SeatClient(server.ws, table, tok).start() for s, tok in tokens.items()}
    watcher = SeatClient(server.ws, table).start()
    everyone = [*seats.values(), watcher]
    try:
        for c in everyone:
            await c.wait_for(lambda c: c.view is not None)
        view = seats[0].view
        assert view is not None and view["phase"] == "auction"
        to_act = view["to_act"]

        # out of turn: "turn", naming the seat to act (public), the English line as before
        wrong = next(s for s in seats if s != to_act)
        out_of_turn = seats[wrong]
        assert out_of_turn.view is not None
        await out_of_turn.act(f"{wrong} play {out_of_turn.view['hand'][0]}")
        await out_of_turn.wait_for(lambda c: bool(c.errors))
        (err,) = out_of_turn.errors
        assert err["code"] == "turn" and err["refusal"] == "turn"
        assert err["params"] == {"seat": to_act}
        assert to_act == 0 and err["message"] == "it is Ann's turn, not yours"
        await nothing_else_came([c for c in everyone if c is not out_of_turn])
        out_of_turn.errors.clear()

        # the auction (3 tricks each: the bids come to 11 or more), then the play, until a
        # seat to play to a trick holds a card it may not play: it plays it
        for _ in range(60):
            c = next(c for c in seats.values() if c.view and c.view["legal"])
            v = c.view
            assert v is not None
            seat = v["seat"]
            if v["phase"] == "auction":
                action = f"{seat} bid 3"
            else:
                led = v["trick"]["cards"]
                held = [x for x in v["hand"] if led and x[1] == led[0][1]]
                other = [x for x in v["hand"] if held and x[1] != led[0][1]]
                if other:
                    break
                action = v["legal"][0]
            await c.act(action)
            await c.wait_for(lambda c, n=v["version"]: c.view["version"] > n)  # type: ignore
            for x in everyone:
                await x.wait_for(lambda x, n=v["version"]: x.view["version"] > n)  # type: ignore
        else:
            raise AssertionError("no seat ever held a card it could not play")

        suit = led[0][1]
        await c.act(f"{seat} play {other[0]}")
        await c.wait_for(lambda c: bool(c.errors))
        (err,) = c.errors
        own = mask_names(mask_of(parse_card(x) for x in held))
        name = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[suit]
        assert err == {"type": "error", "code": "illegal",
                       "message": f"must follow {name}: you hold {' '.join(own)}",
                       "refusal": "follow", "params": {"suit": suit, "cards": own}}
        assert set(err["params"]["cards"]) <= set(v["hand"])  # its own cards, nobody else's
        await nothing_else_came([x for x in everyone if x is not c])
        assert c.view is not None and c.view["version"] == v["version"]  # nothing played
    finally:
        await stop_all(everyone)


async def _forty_one_to_act(http: httpx.AsyncClient, server: ServerProcess
                            ) -> tuple[dict[int, SeatClient], dict[str, Any], SeatClient]:
    """A private Forty One table with every seat connected: the seats, the first view and
    the client of the seat to act."""
    table, tokens = await private_table(http, "forty-one")
    seats = {s: SeatClient(server.ws, table, tok).start() for s, tok in tokens.items()}
    for c in seats.values():
        await c.wait_for(lambda c: c.view is not None)
    v = seats[0].view
    assert v is not None
    return seats, v, seats[v["to_act"]]


async def test_a_refused_bid_carries_its_code(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    """A refusal of the auction has its code and params too (a pass in Forty One, a bid
    out of range), for the page to say in its language; the English line is as before."""
    seats, v, c = await _forty_one_to_act(http, server)
    try:
        await c.act(f"{v['to_act']} pass")
        await c.wait_for(lambda c: len(c.errors) == 1)
        await c.act(f"{v['to_act']} bid 14")
        await c.wait_for(lambda c: len(c.errors) == 2)
        assert c.errors == [
            {"type": "error", "code": "illegal", "message": "there is no pass in Forty One: "
             "bid the tricks you will take (1 to 13)", "refusal": "no-pass", "params": {}},
            {"type": "error", "code": "illegal", "message": "a bid is 1 to 13 tricks, not 14",
             "refusal": "bid-range", "params": {"bid": "14"}}]
    finally:
        await stop_all(list(seats.values()))


async def test_a_refusal_without_a_code_is_the_english_line_alone(
        http: httpx.AsyncClient, server: ServerProcess) -> None:
    """A line that is no action at all (no page sends one) is refused in English alone."""
    seats, v, c = await _forty_one_to_act(http, server)
    try:
        await c.act(f"{v['to_act']} dance")
        await c.wait_for(lambda c: bool(c.errors))
        (err,) = c.errors
        assert err["code"] == "bad" and "refusal" not in err and "params" not in err
        assert err["message"].startswith(f"not an action: '{v['to_act']} dance'")
    finally:
        await stop_all(list(seats.values()))
