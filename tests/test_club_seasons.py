"""A club's seasons on the web (forties.web.seasons): a director sets one up, the club's
hall evenings within its dates add up (read from the store as the hall reads them), the
standings page's answer, its exports, and who may do what. The numbers expected are the
evenings' own boards (the hall's standings), added up here."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from forties.hall.season import CSV_COLUMNS, SEASON_NUMBER, couple_key
from forties.web.seasons import seasons_of
from tests.accounts_helpers import app_client
from tests.clubs_helpers import Person, call, client, clubs
from tests.seasons_helpers import CAMPBELL, DOYLE, GILLIS, ROSS, make_evening, make_season, play

__all__ = ["client"]

LOCALE = Path(__file__).resolve().parents[1] / "src" / "forties" / "web" / "locale"


def board_wins(board: dict[str, object]) -> dict[tuple[str, str], int]:
    return {couple_key(s["names"]): len(s["won"])  # type: ignore[index]
            for s in board["standings"]}  # type: ignore[attr-defined]


def test_a_seasons_evenings_add_up_as_their_boards_say(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    a = play(client, *make_evening(ann, club, "2026-01-09T19:30"),
             [DOYLE, CAMPBELL, ROSS, GILLIS])
    # the same couples a week later, typed the other way round and in other cases
    b = play(client, *make_evening(ann, club, "2026-01-31T23:59"),
             [("jim burke", "MARY DOYLE"), ROSS, (CAMPBELL[1], CAMPBELL[0])])
    # after the last day (not in the season), and one still being played
    play(client, *make_evening(ann, club, "2026-02-01T00:00"), [DOYLE, CAMPBELL])
    eid, key = make_evening(ann, club, "2026-01-20T19:30", games=3, title="Snow night")
    play(client, eid, key, [DOYLE, GILLIS], games=1)
    # an evening of another club on the same days is not this club's
    bob = Person(client, "Bob")
    bobs, key = make_evening(bob, bob.make_club("Other"), "2026-01-10T19:30")
    play(client, bobs, key, [DOYLE, CAMPBELL])
    # even entered in this club's calendar (as no route does), and an evening gone
    for ref in (bobs, "gone"):
        call(client, clubs(client).add_event, club, "hall", ref, "Not ours",
             datetime(2026, 1, 11, tzinfo=UTC).timestamp(), "hall")
    sid = make_season(ann, club)
    # anyone with the address sees the standings: a guest here
    r = client.get(f"/api/clubs/{club}/seasons/{sid}")
    assert r.status_code == 200, r.text
    got = r.json()
    want: dict[tuple[str, str], int] = {}
    for board in (a, b):
        for k, n in board_wins(board).items():
            want[k] = want.get(k, 0) + n
    assert {couple_key(s["names"]): s["total"] for s in got["standings"]} == want
    assert {couple_key(s["names"]): s["evenings"] for s in got["standings"]} == {
        couple_key(DOYLE): 2, couple_key(CAMPBELL): 2, couple_key(ROSS): 2,
        couple_key(GILLIS): 1}
    assert [(e["date"], e["title"], e["state"], e["counted"]) for e in got["evenings"]] == [
        ("2026-01-09", "Friday 45s", "over", True),
        ("2026-01-20", "Snow night", "playing", False),
        ("2026-01-31", "Friday 45s", "over", True)]
    assert got["season"] == {"id": sid, "name": "Winter", "starts": "2026-01-01",
                             "ends": "2026-01-31",
                             "rule": {"best": None, "ties": "cut", "prizes": 3},
                             "zone": "UTC"}
    assert got["club"]["id"] == club and got["missing"] == 2
    # its last day is past, but an evening is still being played: not over
    assert got["closed"] is True and got["over"] is False


def test_a_season_is_closed_only_after_its_last_day(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    play(client, *make_evening(ann, club, "2026-01-09T19:30"), [DOYLE, CAMPBELL])
    sid = make_season(ann, club)
    seasons = seasons_of(client.app.state)  # type: ignore[attr-defined]
    for day, closed in (("2026-01-31T23:59:59", False), ("2026-02-01T00:00:00", True)):
        seasons.clock = datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp
        got = client.get(f"/api/clubs/{club}/seasons/{sid}").json()
        assert (got["closed"], got["over"]) == (closed, closed)


def test_an_unchanged_season_answers_in_a_few_bytes_and_a_result_changes_it(
        client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    eid, key = make_evening(ann, club, "2026-01-09T19:30", games=2)
    play(client, eid, key, [DOYLE, CAMPBELL], games=1)
    sid = make_season(ann, club)
    url = f"/api/clubs/{club}/seasons/{sid}"
    first = client.get(url).json()
    assert first["standings"] == []  # the evening is not over yet
    assert client.get(f"{url}?since={first['version']}").json() == {
        "version": first["version"], "same": True}
    play(client, eid, key, [], games=1)  # its last game
    after = client.get(f"{url}?since={first['version']}").json()
    assert after["version"] != first["version"]
    assert after["standings"][0]["names"] == list(DOYLE)


def test_the_exports_are_the_standings_as_csv_and_json(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    a = play(client, *make_evening(ann, club, "2026-01-09T19:30", title="Parish night"),
             [DOYLE, CAMPBELL])
    b = play(client, *make_evening(ann, club, "2026-01-16T19:30", games=3),
             [CAMPBELL, DOYLE])
    sid = make_season(ann, club, best=1)
    r = client.get(f"/api/clubs/{club}/seasons/{sid}/export/csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert f'filename="season-{sid}.csv"' in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == [*CSV_COLUMNS, "E1 2026-01-09 Parish night", "E2 2026-01-16 Friday 45s"]
    per = {k: [board_wins(a)[k], board_wins(b)[k]] for k in board_wins(a)}
    for row in rows[1:]:
        games = per[couple_key((row[2], row[3]))]
        assert [int(x) for x in row[len(CSV_COLUMNS):]] == games
        assert int(row[4]) == max(games)  # best 1
        assert int(row[5]) == sum(games)
    r = client.get(f"/api/clubs/{club}/seasons/{sid}/export/json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.json()["format"] == "forties-season/1"
    assert r.json()["rule"] == {"best": 1, "ties": "cut", "prizes": 3}


def test_a_director_sets_seasons_up_and_removes_them_a_member_cannot(
        client: TestClient) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    club = ann.make_club()
    assert bob.join(club, ann.invite(club)).status_code == 200
    sid = make_season(ann, club, best=8, ties="split", prizes=2)
    listed = ann.get(f"/api/clubs/{club}/seasons").json()
    assert listed["director"] is True
    assert listed["seasons"] == [{"id": sid, "name": "Winter", "starts": "2026-01-01",
                                  "ends": "2026-01-31",
                                  "rule": {"best": 8, "ties": "split", "prizes": 2},
                                  "zone": "UTC"}]
    assert bob.get(f"/api/clubs/{club}/seasons").json()["director"] is False
    assert client.get(f"/api/clubs/{club}/seasons").json()["director"] is False
    r = bob.post(f"/api/clubs/{club}/seasons", {"name": "Mine", "starts": "2026-01-01",
                                                 "ends": "2026-01-02"})
    assert r.status_code == 403 and r.json()["code"] == "not_director"
    assert bob.post(f"/api/clubs/{club}/seasons/{sid}/remove").status_code == 403
    assert ann.ok(f"/api/clubs/{club}/seasons/{sid}/remove") == {"ok": True}
    assert ann.get(f"/api/clubs/{club}/seasons").json()["seasons"] == []
    assert client.get(f"/api/clubs/{club}/seasons/{sid}").status_code == 404


def test_a_bad_season_is_one_line_and_makes_nothing(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    good = {"name": "Winter", "starts": "2026-01-01", "ends": "2026-03-31"}
    for bad, says in [
            ({"name": ""}, "give the season a name"),
            ({"name": "x" * 81}, "at most 80"),
            ({"starts": "2026-13-01"}, "starts must be a date"),
            ({"ends": "31/03/2026"}, "ends must be a date"),
            ({"ends": "2025-12-31"}, "ends on or after"),
            ({"ends": "2027-03-01"}, "at most 400 days"),
            ({"starts": "1999-12-31"}, "between the years"),
            ({"rule": {"best": 0}}, "best must be"),
            ({"rule": {"ties": "vote"}}, "ties must be"),
            ({"rule": {"prizes": 99}}, "prizes must be"),
            ({"rule": "best"}, "rule is an object"),
            ({"when": "now"}, "unknown field")]:
        r = ann.post(f"/api/clubs/{club}/seasons", {**good, **bad})
        assert r.status_code == 400, (bad, r.text)
        assert says in r.json()["error"] and "\n" not in r.json()["error"]
    assert ann.get(f"/api/clubs/{club}/seasons").json()["seasons"] == []


def test_the_pages_are_served_and_odd_ids_are_not(client: TestClient) -> None:
    for path in ("/club/abc/seasons", "/club/abc/season/xyz",
                 "/club/abc/season/xyz/projector"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "season.js" in client.get("/club/abc/season/xyz").text
    assert "seasons.js" in client.get("/club/abc/seasons").text
    for path in ("/club/abc/season/" + "x" * 30, "/club/a%20b/seasons",
                 "/club/abc/season/%C3%A9"):
        assert client.get(path).status_code == 404


def test_the_pages_say_how_the_seasons_number_is_made_as_the_export_does() -> None:
    with open(LOCALE / "en.po", "rb") as f:
        en = {str(m.id): str(m.string) for m in read_po(f) if m.id}
    assert en["season.draws.how"] == SEASON_NUMBER


def totals(client: TestClient, url: str) -> list[tuple[int, tuple[str, str], int]]:
    """(place, couple, total) of the season's standings, best first."""
    return [(s["place"], couple_key(s["names"]), s["total"])
            for s in client.get(url).json()["standings"]]


def test_a_director_edits_a_season_in_place_and_its_standings_follow(
        client: TestClient) -> None:
    """Its name, dates, rule and time zone changed: the same id and page, and the
    standings, their version and the exports show the new season at once."""
    ann = Person(client, "Ann")
    club = ann.make_club()
    # Doyle wins all 3 games of the first evening; Campbell all 2 of each of the next two
    play(client, *make_evening(ann, club, "2026-01-09T19:30", games=3), [DOYLE, CAMPBELL])
    play(client, *make_evening(ann, club, "2026-01-16T19:30"), [CAMPBELL, DOYLE])
    play(client, *make_evening(ann, club, "2026-01-23T19:30"), [CAMPBELL, DOYLE])
    # 22:00 on January 31 in Halifax: February 1 in UTC
    play(client, *make_evening(ann, club, "2026-02-01T02:00"), [ROSS, GILLIS])
    sid = make_season(ann, club, ends="2026-01-10", name="Wintr", best=1)
    url = f"/api/clubs/{club}/seasons/{sid}"
    first = client.get(url).json()
    assert totals(client, url) == [(1, couple_key(DOYLE), 3), (2, couple_key(CAMPBELL), 0)]
    # the typo, the last day, every evening counted, shared ties, the club's own days
    got = ann.ok(url, {"name": "Winter", "ends": "2026-01-31",
                       "rule": {"best": None, "ties": "split", "prizes": 2},
                       "zone": "America/Halifax"})
    season = {"id": sid, "name": "Winter", "starts": "2026-01-01", "ends": "2026-01-31",
              "rule": {"best": None, "ties": "split", "prizes": 2},
              "zone": "America/Halifax"}
    assert got == {"ok": True, "season": season, "url": f"/club/{club}/season/{sid}"}
    assert ann.get(f"/api/clubs/{club}/seasons").json()["seasons"] == [season]
    after = client.get(f"{url}?since={first['version']}").json()
    assert after["version"] != first["version"] and after["season"] == season
    # every evening: Campbell 0 + 2 + 2 = 4 passes Doyle's 3 + 0 + 0; Ross's 2 counts
    assert totals(client, url) == [(1, couple_key(CAMPBELL), 4), (2, couple_key(DOYLE), 3),
                                   (3, couple_key(ROSS), 2), (4, couple_key(GILLIS), 0)]
    assert [e["date"] for e in after["evenings"]] == [
        "2026-01-09", "2026-01-16", "2026-01-23", "2026-01-31"]
    rows = list(csv.reader(io.StringIO(client.get(f"{url}/export/csv").text)))
    assert [(r[0], r[2], r[4]) for r in rows[1:]] == [
        ("1", CAMPBELL[0], "4"), ("2", DOYLE[0], "3"), ("3", ROSS[0], "2"),
        ("4", GILLIS[0], "0")]
    assert client.get(f"{url}/export/json").json()["rule"] == season["rule"]
    # only the rule sent: the rest stays; each couple's best evening puts Doyle first again
    got = ann.ok(url, {"rule": {"best": 1}})
    assert got["season"] == {**season, "rule": {"best": 1, "ties": "cut", "prizes": 3}}
    assert totals(client, url)[:2] == [(1, couple_key(DOYLE), 3),
                                       (2, couple_key(CAMPBELL), 2)]


def test_a_season_edited_through_one_process_is_shown_edited_by_another(
        client: TestClient, tmp_path: Path) -> None:
    """Two processes over one store (as behind the proxy): the one that built the
    standings before answers with the new rule at once, under a new version."""
    ann = Person(client, "Ann")
    club = ann.make_club()
    play(client, *make_evening(ann, club, "2026-01-09T19:30", games=3), [DOYLE, CAMPBELL])
    play(client, *make_evening(ann, club, "2026-01-16T19:30"), [CAMPBELL, DOYLE])
    play(client, *make_evening(ann, club, "2026-01-23T19:30"), [CAMPBELL, DOYLE])
    sid = make_season(ann, club, best=1)
    url = f"/api/clubs/{club}/seasons/{sid}"
    with app_client(tmp_path) as other:  # (the same database file)
        before = other.get(url).json()
        assert [s["total"] for s in before["standings"]] == [3, 2]
        ann.ok(url, {"rule": None})  # every evening
        after = other.get(f"{url}?since={before['version']}").json()
        assert after["season"]["rule"]["best"] is None
        assert [(couple_key(s["names"]), s["total"]) for s in after["standings"]] == [
            (couple_key(CAMPBELL), 4), (couple_key(DOYLE), 3)]
        csv_rows = list(csv.reader(io.StringIO(other.get(f"{url}/export/csv").text)))
        assert [r[4] for r in csv_rows[1:]] == ["4", "3"]


def test_a_bad_change_is_one_line_and_changes_nothing(client: TestClient) -> None:
    ann = Person(client, "Ann")
    club = ann.make_club()
    sid = make_season(ann, club, starts="2026-01-01", ends="2026-03-31", best=4)
    url = f"/api/clubs/{club}/seasons/{sid}"
    before = ann.get(f"/api/clubs/{club}/seasons").json()["seasons"]
    for bad, says in [
            ({"name": ""}, "give the season a name"),
            ({"name": None}, "at most 80"),
            ({"name": "x" * 81}, "at most 80"),
            ({"starts": "2026-13-01"}, "starts must be a date"),
            ({"ends": "31/03/2026"}, "ends must be a date"),
            ({"ends": "2026-W13-2"}, "ends must be a date"),
            ({"ends": None}, "ends must be a date"),
            ({"ends": "2025-12-31"}, "ends on or after"),  # (before the season's start)
            ({"starts": "2026-04-01"}, "ends on or after"),  # (after its end)
            ({"starts": "2025-02-01"}, "at most 400 days"),
            ({"starts": "1999-12-31", "ends": "2000-01-31"}, "between the years"),
            ({"rule": {"best": 0}}, "best must be"),
            ({"rule": {"ties": "vote"}}, "ties must be"),
            ({"rule": {"prizes": 99}}, "prizes must be"),
            ({"rule": "best"}, "rule is an object"),
            ({"zone": "Mars/Olympus"}, "there is no time zone"),
            ({"zone": "../etc/passwd"}, "name of a time zone"),
            ({"name": "Spring", "when": "now"}, "unknown field")]:
        r = ann.post(url, bad)
        assert r.status_code == 400, (bad, r.text)
        assert says in r.json()["error"] and "\n" not in r.json()["error"], (bad, r.text)
    assert ann.get(f"/api/clubs/{club}/seasons").json()["seasons"] == before
