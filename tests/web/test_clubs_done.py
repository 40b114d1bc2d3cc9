"""The clubs' issue, done: a director makes an account with a passkey on a phone's page,
makes a club, two online evenings of its calendar and a season over them (best evening
counted), directs both evenings from her signed-in pages (couples of people, whose seats
websocket clients play from the players' own links, and couples of computer players);
the season's standings page and its JSON and CSV exports are then the test's own
arithmetic over the evenings' results (games won, evenings attended, prizes, the best-N
rule, places and ties). Then a duplicate session online: twelve boards of Auction 45,
four partnerships (one all computers, one with a computer in its second seat, at a fixed
level), played out by the people's seat clients from their play links; every board's
matchpoints and each partnership's total and percentage are worked out here from the
hands the board tables' records hold, and compared with the session page (in the
browser), every board's page and both exports. Every frame each person's seat received
is that seat's view of its board table naming no card it may not know then, and before a
partnership finished a board, the board's page (and the seat's answer) held none of its
cards. The director's pages (the club, the season, the session) are opened at 360 pixels
in English and French: nothing scrolls sideways and nothing is logged as an error.

One server in this process (computers without delay), one browser; the people's seat
clients run in an event loop of their own thread (Playwright's holds the main one)."""

from __future__ import annotations

import asyncio
import csv
import io
import threading
import time
import unicodedata
from collections.abc import Callable, Coroutine, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from forties.duplicate import scores_of_hand
from forties.record import Record, replay_record
from forties.table import Table
from tests.client import SeatClient
from tests.helpers_engine import card_tokens, leaks
from tests.helpers_web import basic_player, knowledge_by_version, stop_all

from .conftest import serving
from .pages import PHONE, catalog, get
from .test_browser_passkeys import NO_SIDEWAYS, local
from .test_browser_regulars import post, signed_up

GAME = "auction-45"
BOARDS = 12
# partnership 2 has a computer in its second seat, partnership 3 is all computers
PAIRS = [{"name": "Ann & Bob"}, {"name": "Cy & Di", "one_computer": "basic"},
         {"name": "Bots", "computer": "basic"}, {"name": "Ed & Flo"}]
# the season's two evenings: couples of people (their seats played from their own links)
# and couples of computer players; on the second, Ann and Bob's names are typed another way
EVENINGS = [("2026-01-09", [("Ann Smith", "Bob Jones", "people"),
                            ("Cy Roy", "Di Lee", "people"),
                            ("Ed Bot", "Flo Bot", "computer"),
                            ("Gus Bot", "Hal Bot", "computer")]),
            ("2026-01-16", [("bob JONES", "ann smith", "people"),
                            ("Cy Roy", "Di Lee", "computer"),
                            ("Ed Bot", "Flo Bot", "computer"),
                            ("Ida Bot", "Jo Bot", "computer")])]
BEST, PRIZES = 1, 3  # the season counts each couple's best evening; 3 prize places


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on 127.0.0.1 in a thread of this process: computer players without delay,
    no pars, every rate lifted."""
    from forties.web.limits import Rates
    from forties.web.service import Limits

    limits = Limits(bot_delay=0.0, par=False, review_seconds=600.0, grace_seconds=600.0,
                    messages_per_second=1000.0, message_burst=1000.0, **Rates.lifted())
    with serving(tmp_path_factory.mktemp("clubsdone"), limits) as url:
        yield url


class Players:
    """The people's seat clients, in an event loop of their own thread."""

    def __init__(self, ws: str) -> None:
        self.ws = ws
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.clients: list[SeatClient] = []

    def call(self, coro: Coroutine[Any, Any, Any], timeout: float = 30.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def sit(self, url: str, seed: int | None = None) -> SeatClient:
        """A client that plays the seat of ``url`` (``/t/TABLE#token=...``) by itself: as
        the basic computer player would, or (``seed``) any legal action at random; the
        people play differently, so that two tables of one board part ways."""
        table, token = url.removeprefix("/t/").split("#token=")

        async def start() -> SeatClient:
            c = SeatClient(self.ws, table, token)
            return (c.autoplay(basic_player) if seed is None else c.autoplay(None, seed)).start()
        c: SeatClient = self.call(start())
        self.clients.append(c)
        return c

    def leave_finished(self) -> None:
        """Each seat whose game is over leaves its table, as a person's page does when it
        moves on to the next table (a browser keeps at most so many connections)."""
        done = [c for c in self.clients if not c.stopped and c.view and c.view.get("over")]
        if done:
            self.call(stop_all(done))

    def stop(self) -> None:
        self.call(stop_all(self.clients))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def players(site: str) -> Iterator[Players]:
    p = Players(site.replace("http://", "ws://"))
    try:
        yield p
    finally:
        p.stop()


def until(done: Callable[[], bool], what: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"{what} did not happen in {limit} s"
        time.sleep(0.1)


def ok(page: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST from the director's page (her session's cookie): the answer, 200 only."""
    got = post(page, path, body)
    assert got["status"] == 200, (path, got)
    return dict(got["body"])


def record_of(base: str, url: str) -> dict[str, Any]:
    """The finished game's record, as the seat of ``url`` downloads it."""
    table, token = url.removeprefix("/t/").split("#token=")
    got: dict[str, Any] = get(base, f"/api/tables/{table}/record?token={token}")
    return got


def watched(page: Any) -> list[str]:
    """The errors ``page`` logs from now on (console errors and uncaught exceptions)."""
    errors: list[str] = []

    def console(m: Any) -> None:
        if m.type == "error":
            errors.append(m.text)
    page.on("console", console)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


# ----- the season: the test's own arithmetic ------------------------------------------------


def fold(names: Any) -> tuple[str, ...]:
    """docs/clubs.md: the same couple whichever way round, however capitals and spaces were
    typed (and accents written: NFKC)."""
    return tuple(sorted(" ".join(unicodedata.normalize("NFKC", n).casefold().split())
                        for n in names))


def season_expected(evenings: list[dict[str, Any]]) -> dict[str, Any]:
    """The standings docs/clubs.md describes, from each evening's couples, games won and
    prizes: {"standings": [...], "ties": [...]} as the season's JSON writes them."""
    numbers: dict[tuple[str, ...], int] = {}
    rows: dict[int, dict[str, Any]] = {}
    for i, ev in enumerate(evenings, 1):
        here = {}
        for c in sorted(ev["couples"]):
            n = numbers.setdefault(fold(ev["couples"][c]), len(numbers) + 1)
            here[c] = n
            row = rows.setdefault(n, {"couple": n, "nights": [], "prizes": []})
            row["names"] = list(ev["couples"][c])  # (the last evening's names)
            row["nights"].append({"evening": i, "couple": c, "games": ev["wins"][c]})
        for a in ev["awards"]:
            for c in a["couples"]:
                rows[here[c]]["prizes"].append({"evening": i, "prize": a["prize"],
                                                "how": a["how"],
                                                "shared": len(a["couples"]) > 1})
    for row in rows.values():
        nights = row["nights"]
        best = sorted(range(len(nights)), key=lambda k: (-nights[k]["games"], k))[:BEST]
        for k, x in enumerate(nights):
            x["counted"] = k in best
        row["total"] = sum(x["games"] for x in nights if x["counted"])
        row["games"] = sum(x["games"] for x in nights)
        row["evenings"] = len(nights)
    order = sorted(rows.values(), key=lambda r: (-r["total"], -r["games"], r["couple"]))
    ties = []
    i = 0
    while i < len(order):
        group = [r for r in order[i:] if (r["total"], r["games"]) ==
                 (order[i]["total"], order[i]["games"])]
        tie = None
        if len(group) > 1 and i + 1 <= PRIZES:
            tie = f"place-{i + 1}"
            ties.append({"key": tie, "couples": sorted(r["couple"] for r in group),
                         "places": list(range(i + 1, i + 1 + len(group))),
                         "method": "split", "cut": None})
        for r in group:
            r["place"], r["tie"] = i + 1, tie
        i += len(group)
    return {"standings": order, "ties": ties}


def season_csv_rows(expected: dict[str, Any], dates: list[str]) -> list[list[str]]:
    """docs/clubs.md's CSV, row by row."""
    head = ["place", "couple", "name 1", "name 2", "total", "games", "evenings", "prizes",
            "tie", "not counted", *(f"E{i} {d} Evening {i}" for i, d in enumerate(dates, 1))]
    out = [head]
    for r in expected["standings"]:
        per = [""] * len(dates)
        for x in r["nights"]:
            per[x["evening"] - 1] = str(x["games"])
        prizes = " ".join(f"E{p['evening']}:{'booby' if p['prize'] == 0 else p['prize']}"
                          for p in r["prizes"])
        out.append([str(r["place"]), str(r["couple"]), *r["names"], str(r["total"]),
                    str(r["games"]), str(r["evenings"]), prizes,
                    "split" if r["tie"] else "",
                    " ".join(f"E{x['evening']}" for x in r["nights"] if not x["counted"]),
                    *per])
    return out


def play_evening(site: str, director: Any, players: Players, eid: str,
                 couples: list[tuple[str, str, str]]) -> dict[str, Any]:
    """The director registers ``couples`` on the evening's director page (signed in, no
    key) and begins it; each person's seat is played from their own link; the evening's
    results as the test reads them: {"couples", "wins", "awards"}, each person's table
    checked against its record."""
    director.goto(f"{site}/hall/{eid}/director")
    director.wait_for_selector("#links a")
    for a, b, kind in couples:
        before = director.inner_text("#added")
        director.fill("#name-a", a)
        director.fill("#name-b", b)
        director.select_option("#players", kind)
        director.click("#add")
        director.wait_for_function("(t) => document.getElementById('added').textContent"
                                   " !== t", arg=before)
        assert director.inner_text("#error") == ""
    links = ok(director, f"/api/hall/{eid}/director", {})["players"]
    assert len(links) == 2 * sum(kind == "people" for *_, kind in couples)
    director.click("#begin")
    keys = [p["url"].split("#key=")[1] for p in links]
    seated: dict[str, dict[str, Any]] = {}  # a person's table -> where and who

    def over() -> bool:
        players.leave_finished()
        for key in keys:
            s = post(director, f"/api/hall/{eid}/seat", {"key": key})["body"]
            if s.get("status") == "playing" and s["url"] not in seated:
                players.sit(s["url"], None if s["couple"] % 2 else len(seated))
                seated[s["url"]] = {"game": s["game"], "table": s["table"],
                                    "couple": s["couple"]}
        phase = get(site, f"/api/hall/{eid}")["status"]["phase"]
        return phase in ("prizes", "finished")

    until(over, f"evening {eid}'s two games")
    export = get(site, f"/api/hall/{eid}/export/json")
    couples_of = {c["couple"]: tuple(c["names"]) for c in export["couples"]}
    wins = dict.fromkeys(couples_of, 0)
    for g in export["games"]:
        assert g["sitting_out"] is None, g  # (four couples: two tables, no bye)
        for t in g["tables"]:
            assert t["reported"] and t["winner"] in couples_of, t
            wins[t["winner"]] += 1
    # each table a person sat at: the winner reported is the one its record shows
    for url, where in seated.items():
        state = replay_record(Record.from_json(record_of(site, url)))
        assert state is not None and state.over
        w = state.winner
        assert w is not None
        sides = state.sides[w] if isinstance(w, int) else tuple(w)
        table = export["games"][where["game"] - 1]["tables"][where["table"] - 1]
        mine = players_seat(url, players)
        assert (table["winner"] == where["couple"]) == (mine in sides), (where, table)
    return {"couples": couples_of, "wins": wins, "awards": export["awards"]}


def players_seat(url: str, players: Players) -> int:
    """The seat the client of ``url`` sat in (its snapshot says)."""
    table, token = url.removeprefix("/t/").split("#token=")
    c = next(c for c in players.clients if c.url.endswith(f"/ws/{table}?token={token}"))
    return int(next(f["you"] for f in c.frames if f["type"] == "snapshot"))


# ----- the duplicate session: the test's own arithmetic --------------------------------------


def board_rows(played: dict[tuple[int, int], tuple[int, int, int, int]], board: int
               ) -> list[dict[str, Any]]:
    """docs/clubs.md's matchpoints on ``board`` from each table's (N-S pair, E-W pair, N-S
    score, E-W score): 2 for each result beaten, 1 for each tie, in each direction, what
    is compared being a side's score minus its opponents'; the top 2 (k - 1)."""
    tables = sorted(t for b, t in played if b == board)
    net = {t: played[(board, t)][2] - played[(board, t)][3] for t in tables}
    top = 2 * (len(tables) - 1)
    rows = []
    for t in tables:
        ns_pair, ew_pair, ns, ew = played[(board, t)]
        ns_mp = sum(2 if net[t] > net[u] else 1 if net[t] == net[u] else 0
                    for u in tables if u != t)
        ew_mp = sum(2 if -net[t] > -net[u] else 1 if net[t] == net[u] else 0
                    for u in tables if u != t)
        rows.append({"table": t, "ns": ns_pair, "ew": ew_pair, "ns_score": ns,
                     "ew_score": ew, "ns_matchpoints": ns_mp, "ew_matchpoints": ew_mp,
                     "top": top, "ns_percent": percent(ns_mp, top),
                     "ew_percent": percent(ew_mp, top)})
    return rows


def percent(points: int, top: int) -> float:
    return 50.0 if top == 0 else round(float(Fraction(100 * points, top)), 2)


def dup_standings(rows: dict[int, list[dict[str, Any]]], pairs: int) -> list[dict[str, Any]]:
    """Each partnership's matchpoints over its boards, its percentage of the tops, ranked
    by it; partnerships level, by how often their results beat each other's on the same
    cards (same board, same direction); still level, a shared rank."""
    mp, top, boards = dict.fromkeys(range(1, pairs + 1), 0), dict.fromkeys(
        range(1, pairs + 1), 0), dict.fromkeys(range(1, pairs + 1), 0)
    held: dict[tuple[int, str], dict[int, int]] = {}
    for b, rs in rows.items():
        for r in rs:
            for side, other, d in (("ns", "ew", "N-S"), ("ew", "ns", "E-W")):
                p = r[side]
                mp[p] += r[f"{side}_matchpoints"]
                top[p] += r["top"]
                boards[p] += 1
                held.setdefault((b, d), {})[p] = r[f"{side}_score"] - r[f"{other}_score"]
    pct = {p: Fraction(100 * mp[p], top[p]) for p in mp}
    order = sorted(mp, key=lambda p: (-pct[p], p))
    out = []
    i = 0
    while i < len(order):
        group = [p for p in order if pct[p] == pct[order[i]]]
        beat = {p: sum(1 for res in held.values() if p in res
                       for q in group if q in res and res[p] > res[q]) for p in group}
        group.sort(key=lambda p: (-beat[p], p))
        for p in group:
            level = [q for q in group if beat[q] == beat[p]]
            out.append({"rank": i + 1 + group.index(level[0]), "tied": len(level) > 1,
                        "pair": p, "boards": boards[p], "matchpoints": mp[p],
                        "top": top[p], "percent": round(float(pct[p]), 2)})
        i += len(group)
    return out


def board_frames(frames: list[dict[str, Any]], seat: int, board: int,
                 record: dict[str, Any]) -> list[int]:
    """Every frame a seat received at its board table is the engine's view of that seat
    then (``Table.seat_view``: the board over once its hand is), of that board, naming no
    card the seat may not know then; the last is the board over. Returns the versions
    checked."""
    known = knowledge_by_version(record)
    assert frames[0]["type"] == "snapshot" and frames[0]["table"]["board"] == board
    checked: list[int] = []
    for f in frames:
        if "view" not in f:
            continue
        v = dict(f["view"])
        version = v.pop("version")
        state, allowed = known[version]
        expected = dict(Table.seat_view(state, seat))
        if state.hand_over:
            expected["over"] = True
        assert v == expected, f"seat {seat} of board {board}: the frame at version {version}"
        bad = leaks({k: x for k, x in f.items() if k != "table"}, allowed[seat])
        assert not bad, f"seat {seat} of board {board} received {bad} at version {version}"
        checked.append(version)
    assert checked and checked[-1] == max(known) and known[max(known)][0].hand_over
    return checked


# ----- the test ----------------------------------------------------------------------------


def test_a_clubs_season_and_a_duplicate_session_online(site: str, browser: Any,
                                                       players: Players) -> None:
    base = local(site)
    director, _ = signed_up(browser, base, "en", "Dora Director", PHONE)
    errors = watched(director)
    # the club, from My clubs, its games to 5 points
    director.goto(f"{base}/clubs")
    director.wait_for_function("document.body?.dataset.ready === '1'")
    director.fill("#new-name", "The Friday Club")
    director.fill("#new-target", "5")
    director.click("#new-go")
    director.wait_for_url("**/club/*")
    director.wait_for_function("document.body?.dataset.ready === '1'")
    club = director.url.split("/club/")[1].split("?")[0]
    # its two evenings online, two games each, in its calendar (as the club's page adds
    # them, two prizes and a booby prize, couples level sharing a prize)
    eids = []
    for i, (day, _) in enumerate(EVENINGS, 1):
        made = ok(director, f"/api/clubs/{club}/evenings", {
            "title": f"Evening {i}", "when": f"{day}T19:30", "where": "online", "games": 2,
            "prizes": 2, "booby": True, "tie_break": "split"})
        eids.append(made["evening"])
    # the season, set up on the club's seasons page: the best evening, ties shared
    director.goto(f"{base}/club/{club}/seasons")
    director.wait_for_selector("#new-box:not([hidden])")
    director.fill("#new [name=name]", "January")
    director.fill("#new [name=starts]", "2026-01-01")
    director.fill("#new [name=ends]", "2026-01-31")
    director.select_option("#new [name=counted]", "best")
    director.fill("#new [name=best]", str(BEST))
    director.select_option("#new [name=ties]", "split")
    director.fill("#new [name=prizes]", str(PRIZES))
    director.click("#new button[type=submit]")
    director.wait_for_url(f"**/club/{club}/season/*")
    season = director.url.split("/season/")[1].split("?")[0].split("/")[0]
    # the evenings, directed and played
    results = [play_evening(base, director, players, eid, couples)
               for eid, (_, couples) in zip(eids, EVENINGS, strict=True)]
    # the season, worked out here, against its page's JSON and both exports
    want = season_expected(results)
    api = f"/api/clubs/{club}/seasons/{season}"
    got = get(site, api)
    assert got["over"] and got["rule"] == {"best": BEST, "ties": "split", "prizes": PRIZES}
    assert [e["state"] for e in got["evenings"]] == ["over", "over"]
    fields = ("place", "couple", "names", "total", "games", "evenings", "nights", "prizes",
              "tie")
    assert [{k: s[k] for k in fields} for s in got["standings"]] == \
        [{k: r[k] for k in fields} for r in want["standings"]]
    assert got["ties"] == want["ties"]
    exported = get(site, f"{api}/export/json")
    assert exported["standings"] == got["standings"] and exported["ties"] == got["ties"]
    with director.expect_download() as download:  # (the page's own link)
        director.goto(f"{base}/club/{club}/season/{season}")
        director.wait_for_selector("#season-standings tr[data-couple]")
        director.click("#csv-link")
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert list(csv.reader(io.StringIO(text))) == \
        season_csv_rows(want, [d for d, _ in EVENINGS])
    # the standings page, as it reads (English and French), at 360 px
    for lang in ("en", "fr"):
        director.goto(f"{base}/club/{club}/season/{season}?lang={lang}")
        director.wait_for_selector("#season-standings tr[data-couple]")
        shown = director.eval_on_selector_all(
            "#season-standings tbody tr", "rs => rs.map(r => [Number(r.dataset.couple),"
            " r.cells[0].textContent, r.querySelector('.names').firstChild.textContent,"
            " r.cells[2].textContent])")
        assert shown == [[r["couple"], str(r["place"]), " & ".join(r["names"]),
                          str(r["total"])] for r in want["standings"]]
        assert director.inner_text("#standings-h") == catalog(lang)["season.standings"]
        assert director.evaluate(NO_SIDEWAYS), f"the season's page in {lang}"
    assert errors == []

    # ----- the duplicate session ---------------------------------------------------------
    made = ok(director, "/api/dup", {"club": club, "when": "2026-01-23T19:30", "game": GAME,
                                     "boards": BOARDS, "mode": "online",
                                     "partnerships": PAIRS, "title": "Pairs night"})
    sid = made["session"]
    keys = {(p["pair"], p["member"]): p["url"].split("#key=")[1] for p in made["players"]}
    assert sorted(keys) == [(1, 0), (1, 1), (2, 0), (4, 0), (4, 1)]  # (people only)
    seated: dict[str, tuple[int, int, int, int, int]] = {}  # url: pair, member, board...
    hidden = 0

    def over() -> bool:
        nonlocal hidden
        players.leave_finished()
        view = get(site, f"/api/dup/{sid}")
        assert not card_tokens({k: v for k, v in view.items() if k != "id"}), view
        for (pair, member), key in keys.items():
            s = post(director, f"/api/dup/{sid}/seat", {"key": key})["body"]
            if s.get("status") != "playing" or s["url"] in seated:
                continue
            assert not card_tokens({k: v for k, v in s.items() if k != "url"}), s
            # before the partnership plays the board, its page shows none of its cards
            b = post(director, f"/api/dup/{sid}/board/{s['board']}", {"key": key})
            assert b["status"] == 200 and not b["body"]["shown"], b
            assert not card_tokens(b["body"]), b
            hidden += 1
            players.sit(s["url"], None if pair == 4 else len(seated))
            direction = next(x["direction"] for x in s["boards"] if x["board"] == s["board"])
            seat = (0 if direction == "N-S" else 1) + 2 * member
            seated[s["url"]] = (pair, member, s["board"], seat, s["table"])
        return bool(view["status"] == "over")

    until(over, "the duplicate session's twelve boards")
    assert hidden == len(seated) == BOARDS * 5  # (each person, each board)
    # every frame each person's seat received; each table's result from its record
    view = get(site, f"/api/dup/{sid}")
    at = {(b, t["table"]): (t["ns"], t["ew"]) for r in view["rounds"] for b in r["boards"]
          for t in r["tables"]}
    played: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    for url, (_pair, _member, board, seat, table) in seated.items():
        record = record_of(site, url)
        c = next(c for c in players.clients if c.url.endswith(
            "/ws/" + url.removeprefix("/t/").replace("#token=", "?token=")))
        board_frames(c.frames, seat, board, record)
        state = replay_record(Record.from_json(record))
        assert state is not None and state.hand_over
        played[(board, table)] = (*at[(board, table)], *scores_of_hand(state))
    assert sorted(played) == sorted(at) and len(played) == 2 * BOARDS
    rows = {b: board_rows(played, b) for b in range(1, BOARDS + 1)}
    standings = dup_standings(rows, len(PAIRS))
    # the session's JSON, every board's page, both exports
    assert {int(b): rs for b, rs in view["results"].items()} == rows
    assert [{**s, "pair": s["pair"]["number"]} for s in view["standings"]] == \
        [{**s, "factored": float(s["matchpoints"])} for s in standings]
    for b in range(1, BOARDS + 1):
        page = post(director, f"/api/dup/{sid}/board/{b}", {})["body"]
        assert page["shown"] and [{k: r[k] for k in rows[b][0]} for r in page["rows"]] == \
            rows[b], f"board {b}'s page"
    exported = get(site, f"/api/dup/{sid}/export/json")
    assert {x["board"]: x["results"] for x in exported["boards"]} == rows
    assert exported["standings"] == view["standings"]
    text = director.evaluate(f"fetch('/api/dup/{sid}/export/csv').then((r) => r.text())")
    lines = list(csv.reader(io.StringIO(text)))
    cut = lines.index([])
    assert [[int(x) if x.lstrip("-").isdigit() else x for x in r]
            for r in lines[1:cut]] == [
        [b, r["table"], r["ns"], r["ew"], r["ns_score"], r["ew_score"], r["ns_matchpoints"],
         r["ew_matchpoints"], r["top"], f"{r['ns_percent']}", f"{r['ew_percent']}"]
        for b in range(1, BOARDS + 1) for r in rows[b]]
    assert [[r[0], r[1], r[4], r[7]] for r in lines[cut + 2:]] == [
        [f"{s['rank']}{'=' if s['tied'] else ''}", str(s["pair"]), str(s["matchpoints"]),
         str(s["percent"])] for s in standings]
    # the session's page in the browser: its standings and every board's results
    director.goto(f"{base}/dup/{sid}")
    director.wait_for_selector("#standings tbody tr")
    director.wait_for_selector(f"table.results[data-board='{BOARDS}']")
    assert director.eval_on_selector_all(
        "#standings tbody tr", "rs => rs.map(r => [Number(r.dataset.pair),"
        " r.cells[0].textContent, Number(r.cells[3].firstChild.textContent)])") == \
        [[s["pair"], f"{s['rank']}{'=' if s['tied'] else ''}", s["matchpoints"]]
         for s in standings]
    assert director.eval_on_selector_all(
        "table.results tbody tr", "rs => rs.map(r => [Number(r.closest('table')"
        ".dataset.board), Number(r.dataset.table), Number(r.dataset.nsScore),"
        " Number(r.dataset.ewScore), Number(r.dataset.nsMp), Number(r.dataset.ewMp)])") == \
        [[b, r["table"], r["ns_score"], r["ew_score"], r["ns_matchpoints"],
          r["ew_matchpoints"]] for b in range(1, BOARDS + 1) for r in rows[b]]
    # the director's pages at 360 px, in English and French: the club's (its calendar: the
    # two evenings and the session), and the session's, opened from the calendar (no key)
    for lang in ("en", "fr"):
        words = catalog(lang)
        director.goto(f"{base}/club/{club}?lang={lang}")
        director.wait_for_function("document.body?.dataset.ready === '1'")
        assert director.inner_text("#evening-h") == words["club.evening.heading"]
        assert director.locator("#past li").count() == 3
        assert director.evaluate(NO_SIDEWAYS), f"the club's page in {lang}"
        director.click(f"#past li[data-event='{sid}'] a.direct")
        director.wait_for_url(f"**/dup/{sid}/director")
        director.wait_for_selector("#links li")
        director.wait_for_selector(".round[data-round='3']")
        assert director.inner_text("h1") == words["dup.director.title"]
        assert director.evaluate(NO_SIDEWAYS), f"the session's director page in {lang}"
    assert errors == [] and director.errors == []
    director.context.close()
