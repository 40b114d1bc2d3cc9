"""The games' index (``forties.web.games``): seats linked to the accounts that took them,
the rated setting (chosen before the start, refused with a guest at the table), each
finished game indexed once (on its end, after a restart, by two processes at once),
checked against what the test works out itself from the game's record; a device's seats
claimed by the account made on it; the players' games, statistics and leaderboards."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties import Record
from forties.ratings import PAIRING_DAY_LIMIT, REASONS, Rating, pair_key, rate_game
from forties.record import replay_record
from forties.stats import Tally, game_stats
from forties.web.accounts import SUSPENDED
from forties.web.games import Games
from forties.web.store import Store
from tests.accounts_helpers import accounts, make_account
from tests.games_helpers import (
    app_of,
    as_,
    games,
    play_out,
    rematch,
    rows,
    service,
    settled,
    sqlite_url,
    start,
    table_of,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_of(sqlite_url(tmp_path)) as c:
        yield c


def four(client: TestClient) -> tuple[list[str], list[str]]:
    """Four accounts: their ids and session keys."""
    made = [make_account(client, name) for name in ("Aïcha", "Bernard", "Chloé", "Dmitri")]
    return [a.id for a, _ in made], [k for _, k in made]


def expected(record_json: dict[str, Any]) -> dict[str, Any]:
    """What the test works out from the record alone: the sides, the winning seats, the
    scores, the hands."""
    state = replay_record(Record.from_json(record_json))
    assert state is not None and state.over
    sides = [list(s) for s in state.sides]
    w = state.winner
    won = set(w) if isinstance(w, tuple) else set(sides[w]) if isinstance(w, int) else set()
    rec = Record.from_json(record_json)
    played = sum(1 for k in range(len(rec.hands)) if not _thrown_in(rec, k))
    return {"sides": sides, "won": won, "scores": list(state.scores),
            "hands": len(record_json["hands"]), "played": played}


def _thrown_in(rec: Record, k: int) -> bool:
    """Whether hand ``k`` of the record was thrown in (nobody bid)."""
    import dataclasses

    st = replay_record(dataclasses.replace(rec, hands=rec.hands[:k + 1]))
    assert st is not None
    return bool(st.thrown_in)


def played(client: TestClient, keys: list[str | None], rated: bool = False,
           options: dict[str, Any] | None = None, preset: str = "merrimack-valley"
           ) -> tuple[str, dict[int, str], dict[str, Any]]:
    table, tokens = table_of(client, keys, rated=rated, options=options, preset=preset)
    assert start(client, table, tokens[0]).status_code == 200
    play_out(client, table, tokens)
    settled(client)
    record = client.get(f"/api/tables/{table}/record").json()
    return table, tokens, record



async def index_at_once(url: str, table: Any) -> list[bool]:
    """``table``'s game indexed by two stores of ``url`` at the same moment (two
    processes): whether each wrote it."""
    stores = [Store(url) for _ in range(2)]
    try:
        return list(await asyncio.gather(*(Games(s).index(table, 1.0) for s in stores)))
    finally:
        for s in stores:
            s.close()


def test_a_finished_game_is_indexed_once_as_its_record_says(client: TestClient) -> None:
    ids, keys = four(client)
    table, _, record = played(client, list(keys))
    want = expected(record)
    [game] = rows(client, "select * from games where table_id = :t", t=table)
    assert game.family == game.preset == "merrimack-valley"
    assert game.hands == want["hands"] and not game.rated and not game.counted
    assert json.loads(game.result)["winner"] == sorted(want["won"])
    assert json.loads(game.result)["scores"] == want["scores"]
    assert [s["account"] for s in json.loads(game.seats)] == ids
    players = rows(client, "select * from game_players where table_id = :t order by seat",
                   t=table)
    assert [p.account_id for p in players] == ids
    for p in players:
        side = next(i for i, s in enumerate(want["sides"]) if p.seat in s)
        partner = [ids[s] for s in want["sides"][side] if s != p.seat]
        assert (p.side, p.partners.split(), bool(p.won)) == \
            (side, partner, p.seat in want["won"])
        # its seat's statistics: the game won or not, its hands played (thrown in aside)
        mine = json.loads(p.stats)
        assert (mine["games"], mine["won"], mine["hands"]) == \
            (1, int(p.seat in want["won"]), want["played"])
        assert Tally.from_json(mine) == game_stats(record).seats[p.seat]
    # the totals: one game each, in the family and with the one partner (the side's)
    totals = {(r.account_id, r.partner_id): (r.games, json.loads(r.body)) for r in
              rows(client, "select * from account_stats")}
    sides = game_stats(record).sides
    assert totals == {
        (ids[s], x): (1, (game_stats(record).seats[s] if x == "" else
                          sides[tuple(side)]).to_json())
        for side in want["sides"] for s in side
        for x in ("", *[ids[o] for o in side if o != s])}
    # indexed again (the sweep, another process): nothing more
    live = client.portal.call(service(client).live, table)  # type: ignore[union-attr]
    assert client.portal.call(games(client).index, live.table, time.time()) is False  # type: ignore[union-attr]
    assert client.portal.call(games(client).index_missing) == 0  # type: ignore[union-attr]
    assert len(rows(client, "select * from game_players where table_id = :t", t=table)) == 4
    assert {r.games for r in rows(client, "select * from account_stats")} == {1}


def test_two_processes_index_the_same_game_once(tmp_path: Path) -> None:
    with app_of(sqlite_url(tmp_path)) as client:
        _, keys = four(client)
        service(client).turns.on_game_over = None  # (this process does not index it)
        table, _, _ = played(client, list(keys))
        assert rows(client, "select * from games") == []
        live = client.portal.call(service(client).live, table)  # type: ignore[union-attr]

        # two indexes over two stores of the same file: two processes at once
        assert sorted(client.portal.call(  # type: ignore[union-attr]
            index_at_once, sqlite_url(tmp_path), live.table)) == [False, True]
        assert len(rows(client, "select * from games")) == 1
        assert len(rows(client, "select * from game_players")) == 4
        assert {r.games for r in rows(client, "select * from account_stats")} == {1}


def test_a_game_that_ended_before_a_restart_is_indexed_when_the_server_starts(
        tmp_path: Path) -> None:
    with app_of(sqlite_url(tmp_path)) as client:
        ids, keys = four(client)
        service(client).turns.on_game_over = None  # (the process stopped before it did)
        table, _, _ = played(client, list(keys))
        assert rows(client, "select * from games") == []
    with app_of(sqlite_url(tmp_path)) as client:  # (its start looks for such games)
        deadline = time.monotonic() + 30
        while not rows(client, "select * from games") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [r.table_id for r in rows(client, "select * from games")] == [table]
        assert sorted(r.account_id for r in rows(client, "select * from game_players")) \
            == sorted(ids)


def test_seats_are_linked_to_the_accounts_that_took_them(client: TestClient) -> None:
    host, host_key = make_account(client, "Hôte")
    other, other_key = make_account(client, "Invitée")
    table, _ = table_of(client, [host_key, None, other_key, None])
    links = {r.seat: r.account_id for r in rows(
        client, "select * from seat_accounts where table_id = :t", t=table)}
    assert links == {0: host.id, 2: other.id}  # (the guests' seats have none)
    made = as_(client, host_key).post("/api/play", json={"preset": "forty-one"}).json()
    assert [(r.seat, r.account_id) for r in rows(
        client, "select * from seat_accounts where table_id = :t", t=made["table"])] == \
        [(0, host.id)]


def test_a_suspended_account_sits_as_a_guest(client: TestClient) -> None:
    who, key = make_account(client, "Suspendu")
    client.portal.call(accounts(client).set_status, who.id, SUSPENDED)  # type: ignore[union-attr]
    made = as_(client, key).post("/api/play", json={"preset": "forty-one"}).json()
    assert rows(client, "select * from seat_accounts where table_id = :t",
                t=made["table"]) == []


def test_a_public_seat_taken_from_the_lobby_is_linked(client: TestClient) -> None:
    who, key = make_account(client, "Lobby")
    made = as_(client, None).post("/api/tables", json={"preset": "merrimack-valley",
                                                       "public": True}).json()
    got = as_(client, key).post(f"/api/tables/{made['table']}/join",
                                json={"seat": 1, "name": "Lobby"})
    assert got.status_code == 200
    assert [(r.seat, r.account_id) for r in rows(
        client, "select * from seat_accounts where table_id = :t", t=made["table"])] == \
        [(1, who.id)]


def test_a_rematch_keeps_its_seats_accounts(client: TestClient) -> None:
    ids, keys = four(client)
    table, tokens, _ = played(client, [keys[0], None, keys[2], keys[3]])
    again = rematch(client, table, 1, tokens[1])  # (asked by the guest)
    play_out(client, again, tokens)  # (the same keys: a rematch keeps each seat's)
    settled(client)
    assert sorted((r.seat, r.account_id) for r in rows(
        client, "select * from game_players where table_id = :t", t=again)) == \
        [(0, ids[0]), (2, ids[2]), (3, ids[3])]


def test_a_rated_tables_rematch_is_rated_and_counts(client: TestClient) -> None:
    ids, keys = four(client)
    table, tokens, _ = played(client, list(keys), rated=True, options={})
    again = rematch(client, table, 0, tokens[0])
    live = client.portal.call(service(client).live, again)  # type: ignore[union-attr]
    assert live.table.settings.rated is True
    assert client.get(f"/api/tables/{again}").json()["settings"]["rated"] is True
    play_out(client, again, tokens)
    settled(client)
    [game] = rows(client, "select * from games where table_id = :t", t=again)
    assert game.rated and game.counted
    assert {r.subject: r.games for r in rows(client, "select * from ratings")
            if r.subject in ids} == dict.fromkeys(ids, 2)


def test_a_rematch_that_cannot_be_rated_is_unrated_from_its_start(
        client: TestClient) -> None:
    """One of the accounts was suspended meanwhile (it would sit as a guest): the rematch
    is not rated, and its table says so from the first card."""
    ids, keys = four(client)
    table, tokens, _ = played(client, list(keys), rated=True, options={})
    client.portal.call(accounts(client).set_status, ids[2], SUSPENDED)  # type: ignore[union-attr]
    again = rematch(client, table, 0, tokens[0])
    assert client.get(f"/api/tables/{again}").json()["settings"]["rated"] is False
    # an unrated table's rematch stays unrated
    plain, plain_tokens, _ = played(client, list(keys), options={})
    other = rematch(client, plain, 0, plain_tokens[0])
    assert client.get(f"/api/tables/{other}").json()["settings"]["rated"] is False


def test_an_account_changes_nothing_of_what_its_seat_sees(client: TestClient) -> None:
    """A seat of an account's gets its table's one view, as a guest's seat does: the same
    frame's fields, its view the engine's view of that seat, no account's id in it."""
    ids, keys = four(client)
    seen = []
    for who in (list(keys), [None] * 4):
        table, tokens = table_of(client, who, options={})
        live = client.portal.call(service(client).live, table)  # type: ignore[union-attr]
        with client.websocket_connect(f"/ws/{table}?token={tokens[1]}") as ws:
            ws.send_json({"type": "hello", "seq": 0})
            frame = ws.receive_json()
        assert frame["view"] == json.loads(json.dumps(live.table.view(1)))
        assert not any(i in json.dumps(frame) for i in ids)
        seen.append(frame)
    assert set(seen[0]) == set(seen[1]) and set(seen[0]["view"]) == set(seen[1]["view"])
    assert set(seen[0]["table"]) == set(seen[1]["table"])


# ----- rated tables ---------------------------------------------------------------------------


def test_a_rated_table_with_a_guest_does_not_start_and_says_who(client: TestClient) -> None:
    _, keys = four(client)
    table, tokens = table_of(client, [keys[0], keys[1], None, keys[3]], rated=True,
                             options={}, names=["Aïcha", "Bernard", "Zoé", "Dmitri"])
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["settings"]["rated"] is True  # (the table's public JSON says it)
    r = start(client, table, tokens[0])
    assert r.status_code == 409 and r.json()["code"] == "rated_guests"
    assert "Zoé" in r.json()["error"] and "\n" not in r.json()["error"]
    assert client.get(f"/api/tables/{table}").json()["status"] == "waiting"
    # the host makes it unrated: it starts, and its game does not count
    assert client.post(f"/api/tables/{table}/rated",
                       json={"token": tokens[0], "rated": False}).json()["settings"][
                           "rated"] is False
    assert start(client, table, tokens[0]).status_code == 200
    play_out(client, table, tokens)
    settled(client)
    [game] = rows(client, "select * from games where table_id = :t", t=table)
    assert not game.rated and not game.counted and game.why == REASONS["not_marked"]


def test_the_lobby_says_which_public_tables_are_rated(client: TestClient) -> None:
    _, keys = four(client)
    made = {}
    for rated in (True, False):
        body = as_(client, keys[0]).post("/api/tables", json={
            "preset": "merrimack-valley", "name": "Ann", "public": True,
            "rated": rated}).json()
        made[body["table"]] = (rated, body["token"])
    lobby = {t["table"]: t["rated"] for t in client.get("/api/lobby").json()}
    assert {k: lobby[k] for k in made} == {k: r for k, (r, _) in made.items()}
    # the host changes it while the table waits: the lobby follows
    table = next(k for k, (r, _) in made.items() if r)
    assert client.post(f"/api/tables/{table}/rated", json={
        "token": made[table][1], "rated": False}).status_code == 200
    assert {t["table"]: t["rated"] for t in client.get("/api/lobby").json()}[table] is False


def test_only_the_host_rates_a_table_and_only_before_the_start(client: TestClient) -> None:
    _, keys = four(client)
    table, tokens = table_of(client, [keys[0], keys[1]], options={})
    r = client.post(f"/api/tables/{table}/rated", json={"token": tokens[1], "rated": True})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table}/rated", json={"token": tokens[0], "rated": "yes"})
    assert r.status_code == 400 and "true or false" in r.json()["error"]
    assert client.post(f"/api/tables/{table}/rated", json={"token": tokens[0],
                                                          "rated": True}).status_code == 200
    live = client.portal.call(service(client).live, table)  # type: ignore[union-attr]
    assert live.table.settings.rated is True
    assert start(client, table, tokens[0]).status_code == 200
    r = client.post(f"/api/tables/{table}/rated", json={"token": tokens[0], "rated": False})
    assert r.status_code == 409
    assert client.get(f"/api/tables/{table}").json()["settings"]["rated"] is True


def test_the_rated_setting_is_kept_through_a_restart(tmp_path: Path) -> None:
    with app_of(sqlite_url(tmp_path)) as client:
        _, keys = four(client)
        table, tokens = table_of(client, [keys[0]])
        client.post(f"/api/tables/{table}/rated", json={"token": tokens[0], "rated": True})
    with app_of(sqlite_url(tmp_path)) as client:
        assert client.get(f"/api/tables/{table}").json()["settings"]["rated"] is True


# ----- a device's seats claimed ---------------------------------------------------------------


def test_a_guest_who_makes_an_account_keeps_the_games_of_this_device(
        client: TestClient) -> None:
    made = as_(client, None).post("/api/play", json={"preset": "merrimack-valley",
                                                    "options": {"target": 40},
                                                    "level": "random"}).json()
    play_out(client, made["table"], {0: made["token"]})
    settled(client)
    assert len(rows(client, "select * from games where table_id = :t", t=made["table"])) == 1
    assert rows(client, "select * from game_players") == []  # (a guest's game)
    who, key = make_account(client, "Nouvelle")
    r = as_(client, key).post("/api/account/claim", json={"seats": [
        {"table": made["table"], "token": made["token"]}]})
    assert r.status_code == 200 and r.json() == {"ok": True, "claimed": 1}
    mine = client.get("/api/me/games").json()["games"]
    assert [g["table"] for g in mine] == [made["table"]]
    assert mine[0]["seat"] == 0 and mine[0]["counted"] is False
    assert [(r.account_id, r.games) for r in rows(client, "select * from account_stats")] \
        == [(who.id, 1)]
    # claimed again: nothing added twice
    assert client.post("/api/account/claim", json={"seats": [
        {"table": made["table"], "token": made["token"]}]}).json()["claimed"] == 1
    assert [r.games for r in rows(client, "select * from account_stats")] == [1]


def test_a_seat_another_account_keeps_is_left_alone(client: TestClient) -> None:
    owner, owner_key = make_account(client, "Owner")
    made = as_(client, owner_key).post("/api/play", json={"preset": "forty-one"}).json()
    _, thief_key = make_account(client, "Thief")
    r = as_(client, thief_key).post("/api/account/claim", json={"seats": [
        {"table": made["table"], "token": made["token"]},
        {"table": made["table"], "token": "A" * 32}]})
    assert r.json() == {"ok": True, "claimed": 0}
    assert [r.account_id for r in rows(client, "select * from seat_accounts")] == [owner.id]


# ----- reading ----------------------------------------------------------------------------------


def test_my_games_newest_first_with_filters(client: TestClient) -> None:
    ids, keys = four(client)
    first, _, _ = played(client, list(keys))
    second, _, _ = played(client, [keys[0], keys[2], keys[1], keys[3]])
    mine = as_(client, keys[0]).get("/api/me/games").json()["games"]
    assert [g["table"] for g in mine] == [second, first]
    assert mine[0]["seats"][0]["name"] == "P0"
    with_bernard = client.get(f"/api/me/games?partner={ids[1]}").json()["games"]
    assert [g["table"] for g in with_bernard] == [second]  # (Chloé was the partner first)
    assert [g["table"] for g in client.get("/api/me/games?limit=1").json()["games"]] == \
        [second]
    older = client.get(f"/api/me/games?before={mine[0]['finished']}").json()["games"]
    assert [g["table"] for g in older] == [first]
    assert client.get("/api/me/games?family=forty-one").json()["games"] == []
    stats = client.get(f"/api/players/{ids[0]}/stats").json()["stats"]
    assert stats["families"]["merrimack-valley"]["games"] == 2
    assert {(p["partner"], p["name"], p["games"]) for p in stats["partnerships"]} == \
        {(ids[2], "Chloé", 1), (ids[1], "Bernard", 1)}


def test_call_your_partners_hand_partners_are_found_by_the_partner_filter(
        client: TestClient) -> None:
    """Call Your Partner has no fixed sides: each partner listed for an account's filter
    (each hand's called partner, its partnership totals) finds the game they partnered
    in. (A game whose every bidder went alone has no partner to list: the next is
    played, at most a few, until one has.)"""
    ids, keys = four(client)
    fifth, key5 = make_account(client, "Émile")
    ids, keys = [*ids, fifth.id], [*keys, key5]
    for _ in range(5):
        table, _, record = played(client, list(keys), preset="call-your-partner",
                                  options={"target": 40, "lock_at": None})
        pairs = [p for p in game_stats(record).partnerships if len(set(p)) == 2]
        if pairs:
            break
    assert pairs, "five games of Call Your Partner without a called partner"
    checked = 0
    for seat, key in enumerate(keys):
        listed = [p["id"] for p in as_(client, key).get(
            "/api/history/me/games?family=call-your-partner").json()["partners"]]
        want = {ids[b if a == seat else a] for a, b in pairs if seat in (a, b)}
        assert want <= set(listed), (seat, listed)
        for partner in listed:  # (each found in a game: this one, or one before)
            found = [g["table"] for g in client.get(
                f"/api/history/me/games?partner={partner}").json()["games"]]
            assert found and (partner not in want or table in found), (seat, partner)
            checked += 1
    assert checked >= 2


def test_hidden_games_are_the_owners_alone(client: TestClient) -> None:
    ids, keys = four(client)
    played(client, list(keys))
    client.portal.call(accounts(client).set_hidden, ids[1], True)  # type: ignore[union-attr]
    r = as_(client, keys[0]).get(f"/api/players/{ids[1]}/games")
    assert r.status_code == 403 and r.json()["code"] == "hidden"
    # whom a hidden account plays with is hidden too; its own figures are public
    shown = as_(client, None).get(f"/api/players/{ids[1]}/stats").json()
    assert shown["hidden"] is True and shown["stats"]["partnerships"] == []
    assert shown["stats"]["families"] and all(r["partner"] is None for r in shown["ratings"])
    own = as_(client, keys[1]).get(f"/api/players/{ids[1]}/stats").json()
    assert own["hidden"] is False and own["stats"]["partnerships"]
    assert len(as_(client, keys[1]).get(f"/api/players/{ids[1]}/games").json()["games"]) \
        == 1
    assert len(as_(client, None).get(f"/api/players/{ids[0]}/games").json()["games"]) == 1


def test_a_deleted_accounts_seat_reads_a_former_player(client: TestClient) -> None:
    ids, keys = four(client)
    played(client, list(keys))
    service(client).store.engine.dispose()
    with service(client).store.engine.begin() as conn:
        import sqlalchemy as sa

        conn.execute(sa.text("update accounts set status = 'deleted' where id = :i"),
                     {"i": ids[1]})
    [game] = as_(client, keys[0]).get("/api/me/games").json()["games"]
    assert [s["name"] for s in game["seats"]] == ["P0", "a former player", "P2", "P3"]


def test_a_game_ending_after_its_players_forced_deletion_keeps_no_name(
        client: TestClient) -> None:
    """An operator deletes an account by force while its table plays: the game, indexed
    when it ends, names that seat "a former player" and stores the old name nowhere, and
    the deleted account gets back no statistics or rating of its own."""
    from forties.web import account_admin

    ids, keys = four(client)
    names = ["Aïcha", "Bernadette Zed", "Chloé", "Dmitri"]
    table, tokens = table_of(client, list(keys), rated=True, options={}, names=names)
    assert start(client, table, tokens[0]).status_code == 200
    client.portal.call(service(client).store.run,  # type: ignore[union-attr]
                       lambda conn: account_admin.delete(conn, ids[1], force=True))
    play_out(client, table, tokens)
    settled(client)
    [game] = rows(client, "select * from games where table_id = :t", t=table)
    assert [s["name"] for s in json.loads(game.seats)] == \
        ["Aïcha", "a former player", "Chloé", "Dmitri"]
    every = json.dumps([list(r) for r in rows(client, "select * from games")] +
                       [list(r) for r in rows(client, "select * from game_players")])
    assert "Bernadette" not in every
    assert rows(client, "select * from account_stats where account_id = :a",
                a=ids[1]) == []  # (its partner's totals with it are the partner's)
    assert rows(client, "select * from ratings where subject like :a",
                a=f"%{ids[1]}%") == []
    assert {r.subject for r in rows(client, "select * from ratings")} >= \
        {ids[0], ids[2], ids[3]}  # (the others' game counted)


# ----- ratings ---------------------------------------------------------------------------------


def test_rated_games_move_the_ratings_as_the_test_works_them_out(client: TestClient) -> None:
    ids, keys = four(client)
    ratings: dict[Any, Rating] = {}
    tables = []
    for _ in range(2):  # (the second game starts from the first's ratings)
        table, _, record = played(client, list(keys), rated=True, options={})
        want = expected(record)
        sides = [[ids[s] for s in side] for side in want["sides"]]
        ranks = [0 if set(side) & want["won"] else 1 for side in want["sides"]]
        before = dict(ratings)
        got = rate_game("merrimack-valley", sides, ranks=ranks, ratings=ratings)
        ratings.update(got.accounts)
        ratings.update(got.partnerships)
        [game] = rows(client, "select * from games where table_id = :t", t=table)
        assert game.rated and game.counted and game.why is None
        for p in rows(client, "select * from game_players where table_id = :t", t=table):
            was = before.get(p.account_id, Rating(25.0, 25.0 / 3, 0))
            assert (p.rating_before, p.rating_after) == \
                (was.display, ratings[p.account_id].display)
        tables.append(table)
    stored = {r.subject: r for r in rows(client, "select * from ratings")}
    assert set(stored) == {*ids, *("+".join(pair_key(a, b)) for a, b in
                                   [(ids[0], ids[2]), (ids[1], ids[3])])}
    for key, r in ratings.items():
        row = stored[key if isinstance(key, str) else "+".join(key)]
        assert (row.family, row.games) == ("merrimack-valley", 2)
        assert row.mu == pytest.approx(r.mu) and row.sigma == pytest.approx(r.sigma)
    history = client.portal.call(games(client).history_of, ids[0], "merrimack-valley")  # type: ignore[union-attr]
    assert [h["table"] for h in history] == tables
    assert history[-1]["shown"] == ratings[ids[0]].display
    # the leaderboard: the four, best first, provisional after two games
    board = client.get("/api/leaderboard/merrimack-valley").json()["leaders"]
    assert [b["account"] for b in board] == [k for k, _ in sorted(
        ((i, ratings[i]) for i in ids), key=lambda x: (-x[1].display, x[0]))]
    assert all(b["provisional"] for b in board)
    mine = as_(client, keys[0]).get("/api/me/games").json()["games"]
    assert mine[0]["change"] == ratings[ids[0]].display - mine[0]["rating_before"]


def test_a_seat_the_computer_played_while_its_person_was_away_still_counts(
        client: TestClient) -> None:
    """(docs/ratings.md, docs/accounts.md) A person away (``Turns.away``, as the turn
    timer or a grace period ends does it) keeps the seat: the rated game counts for them
    too; and an account that hides its games stays on the leaderboard."""
    ids, keys = four(client)
    table, tokens = table_of(client, list(keys), rated=True, options={})
    assert start(client, table, tokens[0]).status_code == 200
    live = client.portal.call(service(client).live, table)  # type: ignore[union-attr]
    client.portal.call(service(client).turns.away, live, 3, None)  # type: ignore[union-attr]
    assert live.table.seats[3].away
    play_out(client, table, {s: k for s, k in tokens.items() if s != 3})
    settled(client)
    [game] = rows(client, "select * from games where table_id = :t", t=table)
    assert game.rated and game.counted
    [away] = rows(client, "select * from game_players where table_id = :t and seat = 3",
                  t=table)
    assert away.account_id == ids[3] and away.rating_after is not None
    client.portal.call(accounts(client).set_hidden, ids[3], True)  # type: ignore[union-attr]
    board = client.get("/api/leaderboard/merrimack-valley").json()["leaders"]
    assert ids[3] in [b["account"] for b in board]


def test_a_rated_game_with_computers_counts_at_their_fixed_ratings(
        client: TestClient) -> None:
    ids, keys = four(client)
    table, tokens = table_of(client, [keys[0]], rated=True, options={})
    assert start(client, table, tokens[0]).status_code == 200  # (basic computers in 1-3)
    play_out(client, table, tokens)
    settled(client)
    record = client.get(f"/api/tables/{table}/record").json()
    want = expected(record)
    sides = [[ids[0] if s == 0 else f"computer:{s}" for s in side] for side in want["sides"]]
    ranks = [0 if set(side) & want["won"] else 1 for side in want["sides"]]
    got = rate_game("merrimack-valley", sides, ranks=ranks, ratings={},
                    computers={f"computer:{s}": "basic" for s in (1, 2, 3)})
    [row] = rows(client, "select * from ratings")
    assert row.subject == ids[0] and row.mu == pytest.approx(got.accounts[ids[0]].mu)


def test_a_rated_table_with_house_rules_does_not_start(client: TestClient) -> None:
    _, keys = four(client)
    table, tokens = table_of(client, list(keys), rated=True, options={"target": 40})
    r = start(client, table, tokens[0])
    assert r.status_code == 409 and r.json()["code"] == "rated_house_rules"


def test_the_same_two_opponents_again_and_again_are_flagged(client: TestClient) -> None:
    ids, keys = four(client)
    for n in range(PAIRING_DAY_LIMIT + 1):
        table, tokens = table_of(client, [keys[0], keys[1]], rated=True, options={})
        assert start(client, table, tokens[0]).status_code == 200
        play_out(client, table, tokens)
        settled(client)
        [game] = rows(client, "select * from games where table_id = :t", t=table)
        if n < PAIRING_DAY_LIMIT:
            assert game.counted, n
    assert not game.counted and game.why == REASONS["pairing_day"]
    [flag] = rows(client, "select * from rating_flags")
    assert flag.table_id == table and set(flag.accounts.split()) == {ids[0], ids[1]}
    assert "met as opponents in 8" in flag.why
    assert {r.games for r in rows(client, "select * from ratings where subject in "
                                  "(:a, :b)", a=ids[0], b=ids[1])} == {PAIRING_DAY_LIMIT}


def test_a_ratings_history_is_read_to_its_latest_points_only(client: TestClient) -> None:
    from forties.web.account_schema import rating_history_t
    from forties.web.games import HISTORY_MAX

    points = [{"subject": "s1", "family": "merrimack-valley", "table_id": f"t{i:04}",
               "at": 1000.0 + i, "mu": 25.0, "sigma": 8.0, "shown": float(i)}
              for i in range(HISTORY_MAX + 30)]
    client.portal.call(service(client).store.run,  # type: ignore[union-attr]
                       lambda conn: conn.execute(rating_history_t.insert(), points))
    got = client.portal.call(games(client).history_of, "s1", "merrimack-valley")  # type: ignore[union-attr]
    assert [p["table"] for p in got] == [p["table_id"] for p in points[-HISTORY_MAX:]]
    few = client.portal.call(games(client).history_of, "s1", "merrimack-valley", 3)  # type: ignore[union-attr]
    assert [p["shown"] for p in few] == [p["shown"] for p in points[-3:]]


def test_every_listing_query_has_a_limit(client: TestClient) -> None:
    """What the pages read of the index (an account's games, totals, ratings, a rating's
    history, a leaderboard) is bounded in the query itself."""
    import sqlalchemy as sa

    ids, keys = four(client)
    played(client, list(keys), rated=True, options={})
    said: list[str] = []

    def heard(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        said.append(statement)
    engine = service(client).store.engine
    sa.event.listen(engine, "before_cursor_execute", heard)
    try:
        g = games(client)
        for call in (lambda: g.games_of(ids[0]), lambda: g.stats_of(ids[0]),
                     lambda: g.ratings_of(ids[0]),
                     lambda: g.history_of(ids[0], "merrimack-valley"),
                     lambda: g.leaderboard("merrimack-valley", time.time())):
            said.clear()
            client.portal.call(call)
            listing = [q for q in said if q.lstrip().upper().startswith("SELECT")
                       and " IN (" not in q.upper()]  # (lookups of the ids listed)
            assert listing, call
            assert all("LIMIT" in q.upper() for q in listing), listing
    finally:
        sa.event.remove(engine, "before_cursor_execute", heard)


# ----- PostgreSQL -------------------------------------------------------------------------------


def test_on_postgresql_a_rated_game_is_indexed_once_by_two_processes(db: str) -> None:
    with app_of(db) as client:
        ids, keys = four(client)
        service(client).turns.on_game_over = None  # (indexed below, by two at once)
        table, tokens = table_of(client, list(keys), rated=True, options={})
        assert start(client, table, tokens[0]).status_code == 200
        play_out(client, table, tokens)
        settled(client)
        record = client.get(f"/api/tables/{table}/record").json()
        live = client.portal.call(service(client).live, table)  # type: ignore[union-attr]

        # two processes' connections at once
        assert sorted(client.portal.call(  # type: ignore[union-attr]
            index_at_once, db, live.table)) == [False, True]
        want = expected(record)
        sides = [[ids[s] for s in side] for side in want["sides"]]
        ranks = [0 if set(side) & want["won"] else 1 for side in want["sides"]]
        got = rate_game("merrimack-valley", sides, ranks=ranks, ratings={})
        stored = {r.subject: r for r in rows(client, "select * from ratings")}
        assert {k: (pytest.approx(v.mu), v.games) for k, v in got.accounts.items()} == \
            {k: (stored[k].mu, stored[k].games) for k in ids}
        assert len(rows(client, "select * from rating_history")) == 6
        assert sorted((p.account_id, bool(p.won)) for p in rows(
            client, "select * from game_players")) == sorted(
                (ids[s], s in want["won"]) for s in range(4))
        assert {r.games for r in rows(client, "select * from account_stats")} == {1}


def test_a_table_that_cannot_be_read_is_indexed_unread_once(tmp_path: Path) -> None:
    with app_of(sqlite_url(tmp_path)) as client:
        _, keys = four(client)
        service(client).turns.on_game_over = None
        table, _, _ = played(client, list(keys))
    store = Store(sqlite_url(tmp_path))  # (the server stopped: its events broken)
    with store.engine.begin() as conn:
        import sqlalchemy as sa

        conn.execute(sa.text("update events set body = 'not json' where table_id = :t "
                             "and seq = 2"), {"t": table})
    store.close()
    with app_of(sqlite_url(tmp_path)) as client:
        got = games(client)
        client.portal.call(got.index_missing)  # type: ignore[union-attr]
        [game] = rows(client, "select * from games")
        assert game.table_id == table and not game.counted and "could not be read" in \
            game.why
        assert rows(client, "select * from game_players") == []
        assert client.portal.call(got.missing) == []  # type: ignore[union-attr]
