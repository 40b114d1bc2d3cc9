"""The pages a player with an account comes back to (``forties.web.history``): My games
(newest first, paged, filtered by game and by partner, names as typed, a deleted account as
"a former player", the score, won or lost, the rating's change or why the game did not
count, the replay and record links), a player's page (ratings with the provisional ones
marked, their history, statistics per game and per partnership, recent games), the
leaderboards (active players only, provisional ones apart), and privacy (an account that
hides its history shows its games to itself only). The games' index is filled with rows the
tests write themselves (``tests.history_helpers``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.ratings import REASONS
from forties.web.accounts import COOKIE
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates
from tests.accounts_helpers import make_account, sign_in
from tests.history_helpers import add_game, delete_account, set_rating, set_stats

from .helpers_scale import db, pg  # noqa: F401  (PostgreSQL, once a session)

DAY = 86400.0


def app_client(tmp_path: Path, db_url: str | None = None, **limits: Any) -> TestClient:
    app = create_app(ServerSettings(db_url=db_url or f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **(Rates.lifted() | limits))))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The app in process over SQLite, and over a PostgreSQL database of its own."""
    url = request.getfixturevalue("db") if request.param == "postgresql" else None
    with app_client(tmp_path, url) as c:
        yield c


def you(account_id: str, side: int, name: str = "Me") -> dict[str, Any]:
    return {"name": name, "kind": "person", "account": account_id, "side": side}


def guest(name: str, side: int) -> dict[str, Any]:
    return {"name": name, "kind": "person", "account": None, "side": side}


def computer(level: str, side: int) -> dict[str, Any]:
    return {"name": f"Computer ({level})", "kind": "computer", "level": level,
            "account": None, "side": side}


def names(game: dict[str, Any], seats: list[int]) -> list[str | None]:
    return [game["seats"][s]["name"] for s in seats]


def test_a_guest_is_asked_to_sign_in(client: TestClient) -> None:
    r = client.get("/api/history/me/games")
    assert r.status_code == 401 and r.json()["code"] == "signin"
    assert "\n" not in r.json()["error"]


def test_my_games_newest_first_with_who_played_and_how_it_went(
        client: TestClient) -> None:
    paul, _ = make_account(client, "Paul")
    gone, _ = make_account(client, "Gone Soon")
    me = sign_in(client, "Marie")
    now = 1_800_000_000.0
    # an older unrated game: Marie and Paul against a guest and a computer player, lost
    add_game(client, "t1", "merrimack-valley", now - 2 * DAY,
             [you(me.id, 0), guest("Mémé Thérèse", 1), you(paul.id, 0, "Paul"),
              computer("expert", 1)], scores=[80, 120], winners=[1])
    # a newer rated game that counted: Marie won, 1000 -> 1012
    add_game(client, "t2", "auction-45", now - DAY,
             [you(me.id, 0), you(gone.id, 1, "Gone Soon"), guest("Zoé", 0), guest("Bob", 1)],
             scores=[125, 60], winners=[0], rated=True, counted=True,
             ratings={0: (1000.0, 1012.4)})
    # the newest: rated but not counted (a guest played): the reason's sentence, as
    # web.games keeps it, said by its code
    add_game(client, "t3", "forty-one", now, [you(me.id, 0), guest("Ali", 1),
                                               you(paul.id, 0, "Paul"), guest("Sami", 1)],
             scores=[41, 12], winners=[0], rated=True, counted=False, why=REASONS["guest"])
    delete_account(client, gone.id)
    got = client.get("/api/history/me/games").json()
    assert [g["table"] for g in got["games"]] == ["t3", "t2", "t1"]
    assert got["more"] is False and got["next"] is None
    t3, t2, t1 = got["games"]
    assert names(t1, t1["partners"]) == ["Paul"]
    assert names(t1, t1["opponents"]) == ["Mémé Thérèse", None]
    assert t1["seats"][3]["kind"] == "computer"
    assert t1["seats"][3]["level"] == "expert"
    assert t1["won"] is False and t1["rated"] is False and t1["rating"] is None
    assert [(s["seats"], s["score"], s["mine"]) for s in t1["sides"]] == \
        [([0, 2], 80, True), ([1, 3], 120, False)]
    # the deleted account (web.games names its seat so): no page to link to
    assert t2["seats"][1] == t2["seats"][1] | {"name": "a former player", "former": True,
                                               "id": None}
    assert t2["won"] is True and t2["rating"] == {"before": 1000, "after": 1012,
                                                   "change": 12}
    assert names(t2, t2["partners"]) == ["Zoé"]
    assert t3["counted"] is False and t3["why"] == "guest" and t3["rating"] is None
    assert t1["seats"][2]["id"] == paul.id  # an account's name links to its page
    assert t3["replay"] == "/replay?table=t3" and t3["record"] == "/api/tables/t3/record"
    assert got["partners"] == [{"id": paul.id, "name": "Paul", "former": False}]


def test_why_a_game_did_not_count_names_the_limits_ratings_sets(client: TestClient) -> None:
    """The sentences of the limits on repeated pairings take their numbers from
    forties.ratings (the game's "why_values"), in every language: none is written in."""
    import re

    from forties.ratings import PAIRING_DAY_LIMIT, PAIRING_WINDOW_S, SHARE_GAMES
    from tests.web.pages import catalog

    me = sign_in(client, "Marie")
    for k, code in enumerate(("pairing_day", "pairing_share")):
        add_game(client, code, "merrimack-valley", 1_800_000_000.0 + k,
                 [you(me.id, 0), guest("A", 1), guest("B", 0), guest("C", 1)],
                 scores=[120, 0], winners=[0], rated=True, counted=False, why=REASONS[code])
    got = {g["table"]: g for g in client.get("/api/history/me/games").json()["games"]}
    values = {"games": PAIRING_DAY_LIMIT, "hours": PAIRING_WINDOW_S // 3600,
              "last": SHARE_GAMES}
    for code in ("pairing_day", "pairing_share"):
        assert got[code]["why"] == code and got[code]["why_values"] == values
        for lang in ("en", "fr", "ar"):
            sentence = catalog(lang)[f"history.why.{code}"]
            assert not re.search(r"\d", sentence), (lang, sentence)
            assert re.findall(r"\{(\w+)\}", sentence) and \
                set(re.findall(r"\{(\w+)\}", sentence)) <= set(values)
        # the page's English, filled in, is the server's own sentence
        assert catalog("en")[f"history.why.{code}"].format(**values) == REASONS[code]


def test_my_games_a_page_at_a_time(client: TestClient) -> None:
    me = sign_in(client, "Marie")
    for k in range(25):
        add_game(client, f"g{k:02}", "merrimack-valley", 1_800_000_000.0 + k,
                 [you(me.id, 0), guest("A", 1), guest("B", 0), guest("C", 1)],
                 scores=[120, 0], winners=[0])
    first = client.get("/api/history/me/games").json()
    assert [g["table"] for g in first["games"]] == [f"g{k:02}" for k in range(24, 4, -1)]
    assert first["more"] is True and first["next"] == 1_800_000_005.0
    second = client.get(f"/api/history/me/games?before={first['next']}").json()
    assert [g["table"] for g in second["games"]] == [f"g{k:02}" for k in range(4, -1, -1)]
    assert second["more"] is False and second["next"] is None
    assert client.get("/api/history/me/games?before=1800000000").json()["games"] == []


def test_my_games_filtered_by_game_and_by_partner(client: TestClient) -> None:
    # two ids that a LIKE pattern would confuse: "_" matches any one character
    ann, _ = make_account(client, "Ann")
    bob, _ = make_account(client, "Bob")
    me = sign_in(client, "Marie")
    seats = lambda p: [you(me.id, 0), guest("X", 1), you(p, 0), guest("Y", 1)]  # noqa: E731
    add_game(client, "ann-mv", "merrimack-valley", 1.0, seats(ann.id), [1, 0], [0])
    add_game(client, "bob-mv", "merrimack-valley", 2.0, seats(bob.id), [1, 0], [0])
    add_game(client, "bob-41", "forty-one", 3.0, seats(bob.id), [1, 0], [0])
    get = lambda q: [g["table"] for g in client.get(  # noqa: E731
        f"/api/history/me/games?{q}").json()["games"]]
    assert get("family=merrimack-valley") == ["bob-mv", "ann-mv"]
    assert get(f"partner={bob.id}") == ["bob-41", "bob-mv"]
    assert get(f"partner={ann.id}&family=merrimack-valley") == ["ann-mv"]
    assert get(f"partner={ann.id}&family=forty-one") == []
    partners = client.get("/api/history/me/games").json()["partners"]
    assert sorted(p["name"] for p in partners) == ["Ann", "Bob"]


def test_a_partner_filter_matches_the_whole_id_only(client: TestClient) -> None:
    me = sign_in(client, "Marie")
    add_game(client, "a", "merrimack-valley", 1.0,
             [you(me.id, 0), guest("X", 1), you("ab_cd", 0), guest("Y", 1)], [1, 0], [0])
    add_game(client, "b", "merrimack-valley", 2.0,
             [you(me.id, 0), guest("X", 1), you("abXcd", 0), guest("Y", 1)], [1, 0], [0])
    got = client.get("/api/history/me/games?partner=ab_cd").json()["games"]
    assert [g["table"] for g in got] == ["a"]
    assert client.get("/api/history/me/games?partner=ab").json()["games"] == []


def test_a_players_page_ratings_history_and_statistics(client: TestClient) -> None:
    now = 1_800_000_000.0
    paul, _ = make_account(client, "Paul")
    me = sign_in(client, "Marie")
    set_rating(client, me.id, "auction-45", mu=30.0, sigma=2.0, games=40, last=now,
               history=[(now - 2 * DAY, 1010.0), (now - DAY, 1050.0), (now, 1100.0)])
    set_rating(client, me.id, "forty-one", mu=25.0, sigma=7.0, games=3, last=now)
    set_rating(client, "+".join(sorted([me.id, paul.id])), "auction-45", mu=27.0,
               sigma=3.0, games=25, last=now)
    set_stats(client, me.id, "auction-45", "", {
        "games": 4, "finished": 4, "won": 3, "hands": 10, "hands_won": 6, "points": 75,
        "took": 300, "par_hands": 8, "par_equal": 6, "par_better": 1, "par_worse": 1,
        "bids": {"20": {"made": 2, "set": 1}, "30for60": {"made": 1, "set": 0}}})
    set_stats(client, me.id, "auction-45", paul.id, {"games": 2, "won": 2, "hands": 5,
                                                       "points": 40, "bids": {}})
    got = client.get(f"/api/history/players/{me.id}").json()
    assert got["player"]["name"] == "Marie" and got["player"]["id"] == me.id
    assert got["player"]["yours"] is True and got["player"]["since"] == me.created
    # 1000 + 25 (mu - 3 sigma): 1000 + 25 * 24 = 1600; 1000 + 25 * 4 = 1100
    assert got["ratings"] == [
        {"family": "auction-45", "rating": 1600, "games": 40, "provisional": False},
        {"family": "forty-one", "rating": 1100, "games": 3, "provisional": True}]
    assert got["history"]["auction-45"] == [
        {"at": now - 2 * DAY, "rating": 1010}, {"at": now - DAY, "rating": 1050},
        {"at": now, "rating": 1100}]
    stats = got["stats"][0]
    assert stats["family"] == "auction-45"
    assert stats["stats"]["points_a_hand"] == 7.5 and stats["stats"]["par_rate"] == 0.75
    assert stats["stats"]["bids"]["30for60"] == {"made": 1, "set": 0}
    [pair] = got["partnerships"]
    assert pair["partner"] == {"id": paul.id, "name": "Paul", "former": False}
    assert pair["rating"] == {"family": "auction-45", "rating": 1450, "games": 25,
                              "provisional": False}
    assert pair["stats"]["points_a_hand"] == 8.0
    # a stranger sees the same ratings, not as the owner
    client.cookies.clear()
    theirs = client.get(f"/api/history/players/{me.id}").json()
    assert theirs["player"]["yours"] is False and theirs["ratings"] == got["ratings"]


def test_hidden_games_are_shown_to_the_owner_only(client: TestClient) -> None:
    owner, key = make_account(client, "Private Pat")
    add_game(client, "secret", "merrimack-valley", 5.0,
             [you(owner.id, 0), guest("Q", 1), guest("R", 0), guest("S", 1)], [1, 0], [0])
    set_stats(client, owner.id, "merrimack-valley", "partner1", {"games": 1})
    set_stats(client, owner.id, "merrimack-valley", "", {"games": 1, "hands": 2})
    client.cookies.set(COOKIE, key)
    assert client.post("/api/account/privacy", json={"hidden": True}).json()["hidden"]
    mine = client.get(f"/api/history/players/{owner.id}").json()
    assert [g["table"] for g in mine["games"]] == ["secret"]
    assert mine["partnerships"] is not None and mine["player"]["hidden"] is True
    assert [g["table"] for g in client.get(
        f"/api/history/players/{owner.id}/games").json()["games"]] == ["secret"]
    for viewer in ("a guest", "another account"):
        client.cookies.clear()
        if viewer == "another account":
            sign_in(client, "Nosy Nell")
        page = client.get(f"/api/history/players/{owner.id}").json()
        assert page["games"] is None and page["partnerships"] is None, viewer
        assert page["stats"][0]["stats"]["hands"] == 2  # the statistics per game stay
        listed = client.get(f"/api/history/players/{owner.id}/games").json()
        assert listed == {"hidden": True, "games": [], "more": False, "next": None}, viewer
        assert "secret" not in client.get(f"/api/history/players/{owner.id}").text


def test_another_players_games_when_not_hidden(client: TestClient) -> None:
    other, _ = make_account(client, "Open Olga")
    add_game(client, "open", "forty-one", 5.0,
             [you(other.id, 0), guest("Q", 1), guest("R", 0), guest("S", 1)], [41, 3], [0])
    sign_in(client, "Marie")
    got = client.get(f"/api/history/players/{other.id}/games").json()
    assert got["hidden"] is False and [g["table"] for g in got["games"]] == ["open"]
    page = client.get(f"/api/history/players/{other.id}").json()
    assert [g["table"] for g in page["games"]] == ["open"]


def test_a_deleted_or_unknown_player_has_no_page(client: TestClient) -> None:
    gone, _ = make_account(client, "Gone")
    delete_account(client, gone.id)
    for who in (gone.id, "nobody"):
        r = client.get(f"/api/history/players/{who}")
        assert r.status_code == 404 and r.json()["code"] == "player"


def test_the_leaderboard_lists_active_players_provisional_apart(client: TestClient) -> None:
    import time
    now = time.time()
    accounts = {n: make_account(client, n)[0] for n in
                ("Ace", "Bea", "Cal", "Dot", "Eve", "Fay")}
    rate = lambda n, mu, sigma, games, last: set_rating(  # noqa: E731
        client, accounts[n].id, "auction-45", mu, sigma, games, last)
    rate("Ace", 30.0, 2.0, 50, now - DAY)           # 1600
    rate("Bea", 32.0, 2.0, 30, now - 29 * DAY)      # 1650
    rate("Cal", 30.0, 2.0, 60, now - DAY)           # 1600, more games than Ace
    rate("Dot", 40.0, 2.0, 50, now - 31 * DAY)      # not active: a month and a day
    rate("Eve", 28.0, 7.0, 5, now)                  # provisional
    rate("Fay", 35.0, 2.0, 50, now)                 # deleted below
    set_rating(client, f"{accounts['Ace'].id}+{accounts['Cal'].id}", "auction-45", 50.0,
               1.0, 50, now)  # a partnership: not on the players' board
    set_rating(client, accounts["Ace"].id, "forty-one", 50.0, 1.0, 50, now)
    delete_account(client, accounts["Fay"].id)
    got = client.get("/api/history/leaderboard/auction-45").json()
    assert [(p["rank"], p["name"], p["rating"]) for p in got["players"]] == \
        [(1, "Bea", 1650), (2, "Cal", 1600), (3, "Ace", 1600)]
    assert [(p["name"], p["rating"], p["provisional"]) for p in got["provisional"]] == \
        [("Eve", 1175, True)]
    assert got["active_days"] == 30
    for family in ("chess", "forty-fives"):  # (a game family is a preset)
        r = client.get(f"/api/history/leaderboard/{family}")
        assert r.status_code == 404 and r.json()["code"] == "family"


def test_the_pages_are_served_with_no_inline_script(client: TestClient) -> None:
    for path, script in (("/me/games", "games.js"), ("/players/abc", "player.js"),
                         ("/leaderboard", "leaderboard.js"),
                         ("/leaderboard/forty-one", "leaderboard.js")):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert f'<script type="module" src="/static/{script}"></script>' in r.text
        assert "<script>" not in r.text and "style=" not in r.text
        assert "script-src 'self'" in r.headers["content-security-policy"]
    player = client.get("/players/abc").text
    assert '<div id="regular-actions"></div>' in player


def test_the_readings_are_limited_a_minute(tmp_path: Path) -> None:
    with app_client(tmp_path, lookups_per_minute=2) as c:
        for _ in range(2):
            assert c.get("/api/history/leaderboard/forty-one").status_code == 200
        r = c.get("/api/history/leaderboard/forty-one")
        assert r.status_code == 429 and r.json()["code"] == "rate"
        assert c.get("/api/history/me/games").status_code == 429


def test_a_game_played_here_shows_in_both_partners_games(tmp_path: Path) -> None:
    """A real game (two accounts as partners, two guests), indexed by ``web.games`` at its
    end: each partner's My games has it, as its record says (hands, who won, each side's
    score), with the guests' names as typed; the partnership's statistics count it."""
    from forties.record import Record, replay_record
    from forties.stats import game_stats
    from tests.games_helpers import app_of, play_out, settled, sqlite_url, start, table_of

    with app_of(sqlite_url(tmp_path)) as c:
        ann, ann_key = make_account(c, "Ann")
        bob, bob_key = make_account(c, "Bob")
        table, tokens = table_of(c, [ann_key, None, bob_key, None],
                                 names=["Ann", "Zoé la guest", "Bob", "Karim"])
        assert start(c, table, tokens[0]).status_code == 200
        play_out(c, table, tokens)
        settled(c)
        record = c.get(f"/api/tables/{table}/record").json()
        state = replay_record(Record.from_json(record))
        assert state is not None and state.over
        w = state.winner
        won = set(w) if isinstance(w, tuple) else set(state.sides[w])
        for account, key, seat in ((ann, ann_key, 0), (bob, bob_key, 2)):
            c.cookies.set(COOKIE, key)
            [game] = c.get("/api/history/me/games").json()["games"]
            assert game["table"] == table and game["seat"] == seat
            assert game["hands"] == len(record["hands"])
            assert game["won"] is (seat in won)
            assert names(game, game["partners"]) == ["Bob" if seat == 0 else "Ann"]
            assert names(game, game["opponents"]) == ["Zoé la guest", "Karim"]
            assert [(s["seats"], s["score"]) for s in game["sides"]] == \
                [(list(side), score) for side, score in
                 zip(state.sides, state.scores, strict=True)]
            page = c.get(f"/api/history/players/{account.id}").json()
            assert page["stats"][0]["family"] == "merrimack-valley"
            shown = page["stats"][0]["stats"]
            # the statistics as forties.stats counts them from the record, and their rate
            mine = game_stats(record).seats[seat]
            assert (shown["games"], shown["hands"], shown["hands_won"], shown["points"]) == \
                (1, mine.hands, mine.hands_won, mine.points)
            assert shown["points_a_hand"] == round(mine.points / mine.hands, 2)
            assert shown["bids"] == {k: n.to_json() for k, n in mine.bids.items()}
            [pair] = page["partnerships"]
            assert pair["partner"]["name"] == ("Bob" if seat == 0 else "Ann")
            assert pair["stats"]["games"] == 1
        assert c.get(game["record"]).json()["hands"] == record["hands"]
