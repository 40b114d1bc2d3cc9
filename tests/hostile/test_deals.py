"""Hostile: deals nobody can predict (issue 32, point 4).

A web table's whole record is public once a hand is over: every card of every finished
hand. Before, each hand's deck was ``random.Random(seed * 1_000_003 + hand)``'s shuffle
with a 48-bit seed, so a stranger could search the seeds offline for the one that deals
the published hand 0 and then knew every later hand. Now a web table deals from a 256-bit
key of ``secrets`` (``state.keyed_deck``) that no client ever sees.

What these tests can show: where the key comes from and how long it is, that the deals
are the key's, that no frame, page or record carries the key, and that the old search
(run here on a space made small enough to finish) no longer finds the deals. That 2^256
keys cannot be searched, or that keyed BLAKE2b's words are unpredictable without the key,
is not something a test can show: it rests on the key's source and length and on the hash.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import random
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets
from alembic import command
from alembic.config import Config
from starlette.testclient import TestClient

from forties import new_game
from forties.cards import CARD_NAMES
from forties.record import Record, Recorder, referee
from forties.rules import build_rules, rules_from_json
from forties.state import Deal, DealError, DealKey, keyed_deck
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits
from forties.web.store import MIGRATIONS
from tests.helpers_web import ServerProcess, serving

LIMITS = Limits(bot_delay=0.0, par=False, messages_per_second=1000.0, message_burst=1000.0,
                tables_per_minute=1000)
WAIT = 30.0  # seconds for any one frame: a frame that never comes fails, never hangs


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[Any, TestClient, Path]]:
    """The web app in this process (so that ``secrets`` can be watched), its database."""
    db = tmp_path / "t.db"
    app = create_app(ServerSettings(db_url=f"sqlite:///{db}", limits=LIMITS))
    with TestClient(app) as client:
        yield app, client, db


def stored_row(db: Path, table: str) -> dict[str, Any]:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT * FROM tables WHERE id = ?", (table,)).fetchone()
    assert row is not None, table
    return dict(row)


def new_table(client: TestClient) -> str:
    r = client.post("/api/tables", json={"preset": "merrimack-valley", "name": "Ann",
                                         "level": "random"})
    assert r.status_code == 200, r.text
    return str(r.json()["table"])


def _deck(seed: int, hand: int) -> list[int]:
    """Hand ``hand``'s deck of ``seed`` as the old derivation (and the command line) deal it."""
    deck = list(range(52))
    random.Random(seed * 1_000_003 + hand).shuffle(deck)
    return deck


def deal_of(deck: list[int]) -> Deal:
    """The deal Merrimack Valley makes of ``deck`` (dealer and hand do not change it)."""
    return new_game("merrimack-valley", seed=0).deal_from_deck(deck)


def test_each_web_table_deals_from_its_own_256_bits_of_secrets(
        app_client: tuple[Any, TestClient, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The key is drawn by ``secrets.token_bytes`` (watched here), 32 bytes; two tables'
    keys differ; the table's deals are ``keyed_deck``'s under it; the database row keeps
    it beside no seed (0). Failed before: the row had no key, only a 48-bit seed."""
    app, client, db = app_client
    real = secrets.token_bytes
    drawn: list[bytes] = []

    def watched(n: int | None = None) -> bytes:
        out = real(n)
        drawn.append(out)
        return out

    monkeypatch.setattr(secrets, "token_bytes", watched)
    tables = [new_table(client) for _ in range(2)]
    keys = []
    for table in tables:
        row = stored_row(db, table)
        assert row.get("deal_key"), f"table {table} stores no deal key: {row}"
        key = bytes.fromhex(row["deal_key"])
        assert len(key) * 8 >= 256 and key in drawn  # from secrets, all of it
        assert row["seed"] == 0
        keys.append(key)
        st = app.state.service.tables[table].table.state
        assert st.deal == st.deal_from_deck(keyed_deck(DealKey(key), 0))
        assert st.deal_for(1) == st.deal_from_deck(keyed_deck(DealKey(key), 1))
    assert keys[0] != keys[1]


def test_the_old_search_no_longer_finds_a_tables_deals(
        app_client: tuple[Any, TestClient, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack of issue 32, on a space made small: ``secrets.randbits`` draws from 2^12
    numbers here (the attacker's search is 2^48 shuffles; this one 4,096). Hand 0's deal,
    as the record publishes it once the hand is over, is searched for among
    ``Random(seed * 1_000_003 + 0)``'s shuffles; a seed that deals it would give hand 1
    away. Failed before: the search found the table's seed and dealt its hand 1. Now no
    seed deals hand 0 (the key is drawn by ``token_bytes``, left alone here)."""
    app, client, _ = app_client
    real = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda k: real(min(k, 12)))
    table = new_table(client)
    t = app.state.service.tables[table].table
    published = t.rec.record.hands[0].deal  # what the record shows once hand 0 is over
    next_hand = t.state.deal_for(1)  # what the attacker is after
    found = [(seed, deal_of(_deck(seed, 1)) == next_hand) for seed in range(1 << 12)
             if deal_of(_deck(seed, 0)) == published]
    assert found == [], f"the old search found the seed and predicted hand 1: {found}"


def test_an_old_table_in_the_database_deals_on_as_before(tmp_path: Path) -> None:
    """A database as the server left it before deal keys (migrated to revision 0002, a
    table's row with its int seed and no key column) is opened by this server: the
    migration adds the column, and the table deals every hand from its seed exactly as
    before (``Random(seed * 1_000_003 + hand)``'s shuffle), its computers' generators keyed
    by the seed as before."""
    new_db, old_db = tmp_path / "new.db", tmp_path / "old.db"
    with TestClient(create_app(ServerSettings(db_url=f"sqlite:///{new_db}",
                                              limits=LIMITS))) as client:
        table = new_table(client)  # (its row and events, copied below as an old table's)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    engine = sa.create_engine(f"sqlite:///{old_db}")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    engine.dispose()
    with sqlite3.connect(old_db) as conn:
        conn.execute("ATTACH DATABASE ? AS new", (str(new_db),))
        columns = [r[1] for r in conn.execute("PRAGMA main.table_info(tables)")]
        assert "deal_key" not in columns
        conn.execute(f"INSERT INTO tables SELECT {', '.join(columns)} FROM new.tables")
        conn.execute("UPDATE tables SET seed = 424242")
        conn.execute("INSERT INTO events SELECT * FROM new.events")
        conn.execute("INSERT INTO seat_keys SELECT * FROM new.seat_keys")
    app = create_app(ServerSettings(db_url=f"sqlite:///{old_db}", limits=LIMITS))
    with TestClient(app) as client:
        assert client.get(f"/api/tables/{table}").status_code == 200  # (loads it)
        t = app.state.service.tables[table].table
        assert stored_row(old_db, table)["deal_key"] is None
        assert t.seed == 424242 and t.computer_key() == f"424242:{t.version}"
        assert t.state.deal == deal_of(_deck(424242, 0))
        for hand in range(1, 4):
            assert t.state.deal_for(hand) == deal_of(_deck(424242, hand))


# ----- nothing a client receives carries the key ----------------------------------------------


def forms_of(key: bytes) -> list[str]:
    """Every way the key could be written down: hex (both cases), base64 (both alphabets,
    padded or not), its decimal number (either byte order), and either half's hex."""
    b64 = base64.b64encode(key).decode()
    url = base64.urlsafe_b64encode(key).decode()
    return [key.hex(), key.hex().upper(), b64, b64.rstrip("="), url, url.rstrip("="),
            str(int.from_bytes(key, "big")), str(int.from_bytes(key, "little")),
            key[:16].hex(), key[16:].hex()]


async def recv(ws: Any) -> str:
    return str(await asyncio.wait_for(ws.recv(), WAIT))


async def play_two_hands(srv: ServerProcess) -> tuple[str, list[str]]:
    """A public table played by seat 0 (the first legal action each time) with random
    computers until hand 2 is dealt or the game is over; everything the server said to
    anyone: the lobby, the summary and the record before and after, every frame to the
    seat, and a spectator's."""
    said: list[str] = []
    async with httpx.AsyncClient(base_url=srv.http, timeout=WAIT) as http:
        made = (await http.post("/api/tables", json={
            "preset": "merrimack-valley", "name": "Ann", "level": "random",
            "public": True})).json()
        table, token = made["table"], made["token"]
        said.append(json.dumps(made))
        for path in ("/api/lobby", f"/api/tables/{table}", f"/api/tables/{table}/record"):
            said.append((await http.get(path)).text)
        r = await http.post(f"/api/tables/{table}/start", json={"token": token})
        assert r.status_code == 200, r.text
        said.append(r.text)
        async with websockets.connect(f"{srv.ws}/ws/{table}?token={token}",
                                      max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "seq": 0}))
            status, hand, readied = "", 0, -1
            while hand < 2 and status != "over":
                text = await recv(ws)
                said.append(text)
                frame = json.loads(text)
                assert frame["type"] != "error", frame
                status = frame.get("table", {}).get("status", status)
                view = frame.get("view")
                if view is None:
                    continue
                hand = view["hand_index"]
                if status == "review" and readied != hand:
                    readied = hand
                    await ws.send(json.dumps({"type": "ready"}))
                elif status == "playing" and view["to_act"] == 0 and view["legal"]:
                    await ws.send(json.dumps({"type": "act", "action": view["legal"][0],
                                              "version": view["version"]}))
        async with websockets.connect(f"{srv.ws}/ws/{table}", max_size=2**22) as spectator:
            await spectator.send(json.dumps({"type": "hello", "seq": 0}))
            text = await recv(spectator)
            assert json.loads(text)["type"] == "snapshot", text
            said.append(text)
        for path in ("/api/lobby", f"/api/tables/{table}", f"/api/tables/{table}/record"):
            said.append((await http.get(path)).text)
    return table, said


def test_no_seat_spectator_page_or_record_is_told_the_key(tmp_path: Path) -> None:
    """Everything a seat, a spectator and a stranger are sent while two hands are played
    holds the key in none of its forms, nor a seed; the published record passes ``forties
    check`` and its hands are the key's deals. Failed before: no key was stored (the row
    held a seed)."""
    with serving(ServerProcess(tmp_path, tables_per_minute=1000)) as srv:
        table, said = asyncio.run(play_two_hands(srv))
    row = stored_row(srv.db, table)
    assert row.get("deal_key"), f"table {table} stores no deal key: {row}"
    key = bytes.fromhex(row["deal_key"])
    everything = "\n".join(said)
    for form in forms_of(key):
        assert form not in everything, "the key reached a client"
    assert '"seed"' not in everything
    record = json.loads(said[-1])
    assert len(record["hands"]) >= 2
    verdict, status = referee(Record.from_json(record))  # what ``forties check`` says
    assert status == 0 and verdict["ok"] is True, verdict
    rules = rules_from_json(record["rules"])
    st = new_game(rules, seed=DealKey(key), first_dealer=record["first_dealer"])
    for h, hand in enumerate(record["hands"]):
        assert Deal.from_json(hand["deal"]) == st.deal_from_deck(keyed_deck(DealKey(key), h))


# ----- the command line's seeds are untouched ---------------------------------------------------


def test_a_seed_still_deals_pythons_shuffle_and_a_key_is_never_written() -> None:
    """A local game's seed deals as it always has (tests/test_state.py pins the formula,
    tests/test_cli.py the demo's whole game); a game dealing from a key writes neither the
    key nor a seed into its snapshot or record, and shows it as "DealKey(<secret>)"."""
    rules = build_rules("merrimack-valley")
    st = new_game(rules, seed=7)
    assert st.deal == deal_of(_deck(7, 0)) and st.to_json()["seed"] == 7
    key = DealKey.new()
    keyed = new_game(rules, seed=key)
    assert keyed.to_json()["seed"] is None
    assert key.hex() not in repr(keyed.__dict__) and key.hex() not in str(key)
    assert "seed" not in Recorder(keyed).record.to_json()
    with pytest.raises(TypeError):
        json.dumps({"seed": key})


# ----- the keyed shuffle itself -----------------------------------------------------------------

PINNED = ("5S AD 8S 7D 7H 4D 3C 4H QD AS QS 5H TD KH 6H 7C JH JS 9S JC QC 3H AH 3S 5D 2H 2S "
          "6S 4S KD KS 4C 2C 8H 9C TH 5C TC QH 8D 3D 9H AC TS 6D 7S JD 6C 9D 2D KC 8C")


def as_documented(key: bytes, hand: int) -> list[int]:
    """docs/rules-decisions.md's words for ``keyed_deck``, written again here."""
    words: list[int] = []
    block = 0

    def word() -> int:
        nonlocal block
        if not words:
            msg = b"forties/keyed-deal/1\0" + hand.to_bytes(8, "little") + \
                block.to_bytes(8, "little")
            digest = hashlib.blake2b(msg, key=key, digest_size=64).digest()
            words.extend(int.from_bytes(digest[i:i + 4], "little") for i in range(60, -4, -4))
            block += 1
        return words.pop()

    deck = list(range(52))
    for i in range(51, 0, -1):
        shift = 32 - (i + 1).bit_length()
        j = word() >> shift
        while j > i:
            j = word() >> shift
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_keyed_shuffle_is_the_documented_one_and_even() -> None:
    """A stored table's later hands depend on ``keyed_deck`` never changing: it is pinned
    (a fixed key's hand 0) and checked against the documented derivation written again;
    and over 5,200 hands of one key every card lands in every place about as often (a
    chi-square over the 52 x 52 counts, within five deviations of its mean: the counts are
    fixed by the key, so this cannot come out differently from one run to the next)."""
    key = DealKey(bytes(range(32)))
    assert " ".join(CARD_NAMES[c] for c in keyed_deck(key, 0)) == PINNED
    for hand in (0, 1, 17, 1000, 2**63):
        assert keyed_deck(key, hand) == as_documented(key.secret, hand)
    assert keyed_deck(DealKey(bytes(range(1, 33))), 0) != keyed_deck(key, 0)
    hands = 5200
    counts = [[0] * 52 for _ in range(52)]
    for hand in range(hands):
        for place, card in enumerate(keyed_deck(key, hand)):
            counts[place][card] += 1
    mean = hands / 52
    chi2 = sum((c - mean) ** 2 / mean for row in counts for c in row)
    df = 51 * 51
    assert abs(chi2 - df) < 5 * (2 * df) ** 0.5, chi2
    with pytest.raises(DealError):
        DealKey(b"short")
    with pytest.raises(DealError):
        keyed_deck(key, -1)
