"""The accounts' issue, done: four people make accounts with passkeys through the account
page (each browser its own virtual authenticator, over the DevTools protocol), play a
rated game of Merrimack Valley 45s two against two (the first auction and draw through
the table's pages, every seat tapping; the rest through websocket seat clients holding
the seat links the pages were given when they joined, signed in), and the first two
find the game in their own history with the ratings and statistics this test works out
by itself from the game's record: the statistics by its own walk over the record's
hands (through the engine, not through ``forties.stats``), the ratings with openskill as
docs/ratings.md describes them (not through ``forties.ratings``); one of them signs out
and in again with his passkey first. A player who hides his history hides the game from
a third account's view of him; a guest at a rated table is told why the game cannot
start.

The server is ``forties serve`` in its own process, opened as http://localhost:PORT (a
passkey belongs to a domain name, never to an IP address); it listens on 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from forties import Record, new_game
from forties.fortyfives import FortyFivesState
from tests.client import SeatClient
from tests.helpers_web import ServerProcess, basic_player, serving, stop_all

from .pages import DESKTOP, PHONE, TABLET, body, catalog, new_page, play_until, until, wait_ready

PRESET = "merrimack-valley"  # played by its usual rules: a house rule would not be rated
FAMILY = PRESET  # (each preset is rated, and counted, on its own: docs/ratings.md)

# docs/ratings.md: openskill's Weng-Lin Plackett-Luce with these settings, and the rating a
# player reads
MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0, 0.0001


def shown(mu: float, sigma: float) -> int:
    """The rating a player reads (docs/ratings.md): 1000 + 25 (mu - 3 sigma), rounded."""
    return round(1000 + 25 * (mu - 3 * sigma))


# ----- the server and the people ------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``forties serve`` as its own process on 127.0.0.1 (its own SQLite file; no pars)."""
    with serving(ServerProcess(tmp_path_factory.mktemp("done"))) as srv:
        yield srv


def localhost(srv: ServerProcess) -> str:
    return f"http://localhost:{srv.port}"


@dataclass
class Person:
    """One browser (its own context, cookies and storage) with its own authenticator."""

    name: str
    page: Any
    cdp: Any
    authenticator: str
    account: str = ""
    seat: int = -1
    token: str = ""
    lang: str = "en"

    def words(self, key: str, **values: Any) -> str:
        """A sentence of the pages in this browser's language, with its values."""
        return catalog(self.lang)[key].format(**values)

    def passkeys(self) -> list[dict[str, Any]]:
        """The passkeys the authenticator holds."""
        got = self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})
        return list(got["credentials"])

    def api(self, base: str, path: str) -> Any:
        """GET ``path`` as this browser (its cookies): the JSON answer (200 only)."""
        r = self.page.request.get(base + path)
        assert r.status == 200, f"{path}: {r.status} {r.text()}"
        return r.json()


def person(browser: Any, name: str, viewport: dict[str, int], lang: str = "en") -> Person:
    """A new browser context whose page has a platform authenticator of its own (a phone's
    or a laptop's: CTAP2, internal, resident keys, the user verified)."""
    page = new_page(browser, viewport, lang)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return Person(name, page, cdp, made["authenticatorId"], lang=lang)


def said(page: Any, text: str) -> None:
    """Wait until the page's status line says ``text``."""
    until(page, "(text) => document.getElementById('status').textContent === text",
          f"the status line saying {text!r}", arg=text)


def sign_up(p: Person, base: str) -> None:
    """Make ``p``'s account through the account page, as a person would: the name typed,
    the passkey made by the authenticator; then the page shows the account."""
    page = p.page
    page.goto(base + "/account")
    wait_ready(page)
    page.fill("#signup-name", p.name)
    page.click("#signup")
    # the recovery codes to keep, then the account
    page.wait_for_selector("#codes li")
    assert page.locator("#codes li").count() == 10
    said(page, p.words("account.welcome", name=p.name))
    page.click("#codes-done")
    assert page.is_hidden("#codes-box") and page.inner_text("#me-name") == p.name
    me = p.api(base, "/api/account")["account"]
    assert me["name"] == p.name
    p.account = me["id"]
    keys = p.passkeys()
    assert len(keys) == 1 and keys[0]["rpId"] == "localhost" and keys[0]["isResidentCredential"]


def sign_out_and_in(p: Person, base: str) -> None:
    """``p`` signs out on his account page, then in again with his passkey (no name typed:
    the authenticator offers the site's passkey), its counter moved on."""
    page = p.page
    page.goto(base + "/account")
    wait_ready(page)
    count = p.passkeys()[0]["signCount"]
    page.click("#signout")
    said(page, p.words("account.signed_out"))
    assert page.is_visible("#signin") and page.is_hidden("#signed")
    assert p.page.request.get(base + "/api/account").json() == {"account": None}
    page.click("#signin")
    said(page, p.words("account.welcome", name=p.name))
    assert page.is_visible("#signed") and page.inner_text("#me-name") == p.name
    assert p.api(base, "/api/account")["account"]["id"] == p.account
    assert p.passkeys()[0]["signCount"] > count


# ----- what the test works out itself from the record ---------------------------------------


def blank() -> dict[str, Any]:
    """A seat's or a side's figures before the game's first hand (this server works out
    no pars: no hand is counted against one)."""
    return {"games": 1, "finished": 0, "won": 0, "hands": 0, "hands_won": 0, "points": 0,
            "took": 0, "bids": {}, "par_hands": 0, "par_equal": 0, "par_better": 0,
            "par_worse": 0}


def expected_stats(record: dict[str, Any]) -> tuple[list[dict[str, Any]],
                                                    dict[tuple[int, ...], dict[str, Any]],
                                                    list[int], int]:
    """Each seat's and each partnership's statistics of the game in ``record``, the final
    scores and the winning side, read hand by hand: the engine plays the record's actions
    again and this walk reads what it shows (the bidder, his bid, the card points each
    side took, the scores before and after); a hand is won by the bidders when their
    score went up, else by the others."""
    rec = Record.from_json(record)
    st = new_game(rec.rules, first_dealer=rec.first_dealer, deal=rec.hands[0].deal)
    assert isinstance(st, FortyFivesState)
    sides = [tuple(sorted(s)) for s in st.sides]
    seats = [blank() for _ in range(st.n)]
    teams = {s: blank() for s in sides}
    for h, hand in enumerate(rec.hands):
        if h:
            st.next_hand(hand.deal)
        before = list(st.scores)
        for text in hand.actions:
            st.apply(text)
        assert st.hand_over or st.over, f"hand {h} of the finished game is not finished"
        if st.thrown_in:
            continue
        delta = [a - b for a, b in zip(st.scores, before, strict=True)]
        bidders = st.side_of[st.bidder]
        made = delta[bidders] > 0
        # (Merrimack Valley: the bidders score what they took if it reaches the bid, else
        # lose the bid: the walk's reading of "made" agrees with the bid itself)
        assert made == (st.points[bidders] >= st.bid), (h, st.points, st.bid, delta)
        value = str(st.bid)
        for i, side in enumerate(sides):
            won = made == (i == bidders)
            units = [teams[side], *(seats[s] for s in side)]
            for u in units:
                u["hands"] += 1
                u["hands_won"] += won
                u["points"] += delta[i]
                u["took"] += st.points[i]
            if i == bidders:
                for u in (teams[side], seats[st.bidder]):
                    count = u["bids"].setdefault(value, {"made": 0, "set": 0})
                    count["made" if made else "set"] += 1
    assert st.over
    winner = st.winner
    assert isinstance(winner, int)
    for i, side in enumerate(sides):
        for u in [teams[side], *(seats[s] for s in side)]:
            u["finished"] = 1
            u["won"] = int(i == winner)
    return seats, teams, list(st.scores), winner


def expected_ratings(winners: list[str], losers: list[str]) -> dict[str, tuple[float, float]]:
    """Four newcomers' (mu, sigma) after one counted game, two against two (each of the
    four accounts, and each partnership as one player, keyed "a+b"), by openskill."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)
    out: dict[str, tuple[float, float]] = {}
    players = model.rate([[model.rating() for _ in winners], [model.rating() for _ in losers]],
                         ranks=[1, 2])
    for names, team in zip([winners, losers], players, strict=True):
        for name, r in zip(names, team, strict=True):
            out[name] = (r.mu, r.sigma)
    pairs = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    for names, team in zip([winners, losers], pairs, strict=True):
        out["+".join(sorted(names))] = (team[0].mu, team[0].sigma)
    return out


def test_the_openskill_reading_gives_the_docs_worked_example() -> None:
    """The test's own reading of docs/ratings.md (openskill called directly) gives the
    players' figures of the docs' worked example: Anne and Ben beat Chloé and an expert."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)
    (anne, ben), (chloe, _) = model.rate(
        [[model.rating(27, 5), model.rating(25, SIGMA)],
         [model.rating(30, 3), model.rating(26, 2)]], ranks=[1, 2])
    got = [(round(r.mu, 3), round(r.sigma, 3), shown(r.mu, r.sigma)) for r in (anne, ben, chloe)]
    assert got == [(28.223, 4.913, 1337), (28.396, 7.920, 1116), (29.560, 2.994, 1514)]


# ----- the rest of the game, through the seat links the pages hold ----------------------------


def play_out(ws: str, table: str, tokens: list[str], limit: float = 120.0) -> dict[str, Any]:
    """Play the game to its end with one websocket seat client a token (each as the basic
    computer player would), on a loop of its own in its own thread (the browser's loop
    holds this one); the last view."""
    result: dict[str, Any] = {}

    async def run() -> None:
        clients = [SeatClient(ws, table, tok).autoplay(basic_player).start() for tok in tokens]
        try:
            await asyncio.gather(*(c.wait_for(lambda c: c.over, limit) for c in clients))
            result["view"] = clients[0].view
            result["errors"] = [e for c in clients for e in c.errors]
        finally:
            await stop_all(clients)

    def main() -> None:
        try:
            asyncio.run(run())
        except BaseException as e:  # (given to the test's thread below)
            result["error"] = e

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    thread.join(limit + 10)
    assert not thread.is_alive(), "the seat clients did not stop"
    if "error" in result:
        raise result["error"]
    return result


# ----- the test ---------------------------------------------------------------------


def make_table(host: Person, base: str) -> tuple[str, list[str]]:
    """The host makes a private Merrimack Valley table from the home page and goes to it:
    (its id, the invitation links, seat 1 to 3 in order)."""
    page = host.page
    page.goto(base + "/")
    wait_ready(page)
    page.select_option("#t-preset", PRESET)
    page.fill("#t-name", host.name)
    page.click("#create")
    page.wait_for_selector("#created", state="visible")
    links = page.eval_on_selector_all("#invites input", "xs => xs.map(x => x.value)")
    assert len(links) == 3 and all(x.startswith(base + "/t/") for x in links)
    page.click("#go")
    page.wait_for_url("**/t/**")
    wait_ready(page)
    table = page.url.split("/t/")[1].split("#")[0]
    return table, links


def join(p: Person, link: str) -> None:
    """``p`` opens his invitation, signed in, and takes the seat under his name."""
    p.page.goto(link)
    p.page.wait_for_selector("#join-name", state="visible")
    p.page.fill("#join-name", p.name)
    p.page.click("#join-go")
    wait_ready(p.page)


def seat_link(p: Person, table: str) -> str:
    """The seat's key the page was given when it joined (kept in the browser's storage)."""
    token = p.page.evaluate("(t) => localStorage.getItem('forties.seat.' + t)", table)
    assert isinstance(token, str) and token, f"{p.name}'s page holds no seat at {table}"
    return token


def indexed(p: Person, base: str, table: str) -> dict[str, Any]:
    """Wait until ``p``'s games (the API, as his browser asks it) hold ``table`` (indexed
    with its ratings in one transaction); that game."""
    found: dict[str, Any] = {}

    def ready() -> bool:
        for g in p.api(base, "/api/me/games")["games"]:
            if g["table"] == table:
                found.update(g)
                return True
        return False

    deadline = 30.0
    end = time.monotonic() + deadline
    while not ready():
        assert time.monotonic() < end, f"{table} not in {p.name}'s games in {deadline} s"
        p.page.wait_for_timeout(100)
    return found


def test_two_accounts_play_a_rated_game_with_two_more_and_find_it_in_their_history(
        site: ServerProcess, browser: Any) -> None:
    base = localhost(site)
    anne = person(browser, "Anne", PHONE)
    bashir = person(browser, "Bashir", DESKTOP, "fr")
    chloe = person(browser, "Chloé", TABLET)
    dede = person(browser, "Dédé", PHONE)
    people = [anne, bashir, chloe, dede]
    for p in people:
        sign_up(p, base)

    # Anne's table, rated before the start; Bashir across (seat 1), Chloé her partner (2)
    table, links = make_table(anne, base)
    for p, link in zip([bashir, chloe, dede], links, strict=True):
        join(p, link)
    host = anne.page
    host.wait_for_function("document.querySelectorAll('#waiting li[data-seat]').length === 4"
                           " && !document.querySelector('#waiting').textContent"
                           ".includes('empty')")
    host.check("#rated")
    for p in people[1:]:
        p.page.wait_for_function("(want) => document.getElementById('rated-note')"
                                 ".textContent === want", arg=p.words("waiting.rated_yes"))
    host.click("#start")
    pages = [p.page for p in people]
    for p in people:
        until(p.page, "document.body.dataset.phase === 'auction'", "the game begun")
        p.seat = int(body(p.page, "you"))
        p.token = seat_link(p, table)
    assert [p.seat for p in people] == [0, 1, 2, 3]

    # the auction and the draw through the pages (every seat taps), to the first lead
    play_until(pages, lambda: body(host, "phase") == "play", limit=60)
    # then the seats' own links play on (the pages leave the table: one client a seat)
    for p in people:
        p.page.goto(base + "/account")
    last = play_out(site.ws, table, [p.token for p in people])
    assert last["view"]["over"] and not last["errors"], last["errors"]
    # the finished rated table's review says, beside Rematch, that a rematch is rated too
    # when it can be (Bashir's page, back at the table by the seat his browser keeps)
    bashir.page.goto(base + f"/t/{table}#token={bashir.token}")
    bashir.page.wait_for_function(
        "(want) => document.getElementById('rematch-rated')?.textContent === want",
        arg=bashir.words("review.rematch_rated"))
    assert bashir.page.get_attribute("#rematch", "aria-describedby") == "rematch-rated"

    # what the test expects, worked out from the record: the statistics, the ratings
    record = anne.api(base, f"/api/tables/{table}/record")
    seats, teams, scores, winner = expected_stats(record)
    winners = [p.account for p in people if p.seat % 2 == winner]
    losers = [p.account for p in people if p.seat % 2 != winner]
    rated = expected_ratings(winners, losers)
    for p in people:
        indexed(p, base, table)
    for p in people:  # (every seat's figures, through the API)
        partner = people[(p.seat + 2) % 4]
        pair = "+".join(sorted([p.account, partner.account]))
        side = tuple(sorted([p.seat, partner.seat]))
        check_figures(p, base, partner, seats[p.seat], teams[side], rated[p.account],
                      rated[pair])
    # Anne comes back another day: signed out, she signs in with her passkey
    sign_out_and_in(anne, base)
    # Anne and Bashir find the game in their own games, rated as the test expects
    for p in (anne, bashir):
        (g,) = [g for g in p.api(base, "/api/me/games")["games"] if g["table"] == table]
        mu, sigma = rated[p.account]
        assert (g["won"], g["rated"], g["counted"], g["why"]) == (
            p.seat % 2 == winner, True, True, None), g
        assert (round(g["rating_before"]), round(g["rating_after"])) == (1000, shown(mu, sigma)), g
        assert g["result"]["scores"] == scores, g
        assert g["partners"] == [people[(p.seat + 2) % 4].account], g

    # and each in the browser: My games, then their player pages
    for p in (anne, bashir):
        partner = people[(p.seat + 2) % 4]
        others = [q for q in people if q.seat % 2 != p.seat % 2]
        mu, sigma = rated[p.account]
        my_games_shows(p, base, table, partner, others, scores, p.seat % 2 == winner,
                       shown(mu, sigma))
        pair_mu, pair_sigma = rated["+".join(sorted([p.account, partner.account]))]
        player_page_shows(p, base, seats[p.seat], shown(mu, sigma), partner,
                          shown(pair_mu, pair_sigma))

    # Bashir hides his history (his account page's box): Chloé no longer sees his games,
    # he still sees his own
    hide(bashir, base)
    page = chloe.page
    page.goto(f"{base}/players/{bashir.account}")
    wait_ready(page)
    assert page.is_visible("#hidden-note") and page.locator("li.game").count() == 0
    assert page.inner_text("#hidden-note") == chloe.words("history.hidden_note")
    page.goto(f"{base}/players/{anne.account}")  # (Anne's, not hidden: the game is there)
    wait_ready(page)
    assert page.locator(f"li.game[data-table='{table}']").count() == 1
    refused = chloe.page.request.get(f"{base}/api/players/{bashir.account}/games")
    assert refused.status == 403 and set(refused.json()) == {"error", "code"}
    assert refused.json()["code"] == "hidden"
    theirs = chloe.api(base, f"/api/players/{anne.account}/games")["games"]
    assert [g["table"] for g in theirs] == [table]
    assert table in [g["table"] for g in bashir.api(base, "/api/me/games")["games"]]

    # a guest at a rated table: the start is refused, the host's page says why
    guest_refused(anne, browser, base)
    for p in people:
        assert not p.page.errors, (p.name, p.page.errors)
        p.page.context.close()


def js_number(x: float) -> str:
    """A number as JavaScript's String() writes it (12, 12.5, 11.82)."""
    return str(int(x)) if x == int(x) else repr(x)


def close(got: float, want: float) -> bool:
    return math.isclose(got, want, rel_tol=0, abs_tol=1e-9)


def check_figures(p: Person, base: str, partner: Person, mine: dict[str, Any],
                  ours: dict[str, Any], rating: tuple[float, float],
                  pair: tuple[float, float]) -> None:
    """``p``'s statistics and ratings as the server keeps them (its JSON): his own in the
    game's family and his partnership's with ``partner``, equal to the test's own."""
    got = p.api(base, f"/api/players/{p.account}/stats")
    family = got["stats"]["families"][FAMILY]
    assert {k: family.get(k) for k in mine} == mine, (p.name, family, mine)
    (theirs,) = [x for x in got["stats"]["partnerships"] if x["partner"] == partner.account]
    assert {k: theirs.get(k) for k in ours} == ours, (p.name, theirs, ours)
    ratings = {(r["subject"], r["family"]): r for r in got["ratings"]}
    key = "+".join(sorted([p.account, partner.account]))
    assert set(ratings) == {(p.account, FAMILY), (key, FAMILY)}, ratings
    for subject, (mu, sigma) in ((p.account, rating), (key, pair)):
        r = ratings[(subject, FAMILY)]
        assert close(r["mu"], mu) and close(r["sigma"], sigma) and r["games"] == 1, \
            (p.name, subject, r, mu, sigma)


def my_games_shows(p: Person, base: str, table: str, partner: Person, others: list[Person],
                   scores: list[int], won: bool, rating: int) -> None:
    """``p``'s My games page lists the game: his partner, his opponents, the score (his
    side's marked), won or lost, and his rating's change from a newcomer's 1000."""
    page = p.page
    page.goto(base + "/me/games")
    wait_ready(page)
    item = page.locator(f"li.game[data-table='{table}']")
    assert item.count() == 1, f"{p.name}'s My games: {page.inner_text('#games')}"
    assert item.locator("strong.won, strong.lost").inner_text() == \
        p.words("history.won" if won else "history.lost")
    lines = item.locator("p").all_inner_texts()
    assert f"{p.words('history.partners')} {partner.name}" in lines, lines
    (against,) = [x for x in lines if x.startswith(p.words("history.opponents"))]
    assert all(o.name in against for o in others) and partner.name not in against, against
    score = item.locator("p.score")
    assert score.locator(".side.mine").inner_text().endswith(f" {scores[p.seat % 2]}")
    assert score.locator(".side:not(.mine)").inner_text().endswith(
        f" {scores[1 - p.seat % 2]}")
    change = rating - 1000
    assert item.locator("p.rating-line").inner_text() == p.words(
        "history.rating_change", change=f"+{change}" if change > 0 else str(change),
        rating=rating)


def player_page_shows(p: Person, base: str, mine: dict[str, Any], rating: int,
                      partner: Person, pair: int) -> None:
    """``p``'s page: his rating (provisional, one rated game), his statistics, and his
    partnership's rating, as the test worked them out."""
    page = p.page
    page.goto(f"{base}/players/{p.account}")
    wait_ready(page)
    assert page.inner_text("#name") == p.name
    line = page.locator(f"#ratings li[data-family='{FAMILY}']")
    assert line.inner_text().endswith(p.words("history.rating_provisional", rating=rating,
                                            games=1)), line.inner_text()
    rows = dict(zip(page.locator("#stats table.stats:not(.bids) th").all_inner_texts(),
                    page.locator("#stats table.stats:not(.bids) td").all_inner_texts(),
                    strict=True))
    assert rows == {
        p.words("history.stat.games"): "1",
        p.words("history.stat.won"): str(mine["won"]),
        p.words("history.stat.hands"): str(mine["hands"]),
        p.words("history.stat.hands_won"): str(mine["hands_won"]),
        p.words("history.stat.points_a_hand"): js_number(round(mine["points"] / mine["hands"], 2)),
        p.words("history.stat.par"): "– (0 / 0)",
    }, rows
    bids = {r.get_attribute("data-bid"): r.locator("td").all_inner_texts()
            for r in page.locator("#stats table.bids tbody tr").all()}
    assert bids == {k: [str(c["made"]), str(c["set"])] for k, c in mine["bids"].items()}
    pairs = page.inner_text("#pairs")
    assert partner.name in pairs and p.words("history.rating_provisional", rating=pair,
                                           games=1) in pairs, pairs


def hide(p: Person, base: str) -> None:
    """``p`` ticks "Hide my games from other people" on his account page."""
    page = p.page
    page.goto(base + "/account")
    wait_ready(page)
    page.check("#privacy")
    until(page, "(want) => document.getElementById('status').textContent === want",
          "the page saying the games are hidden", arg=p.words("account.privacy.hidden"))
    assert p.api(base, "/api/account")["account"]["hidden"] is True


def guest_refused(host: Person, browser: Any, base: str) -> None:
    """A rated table with a guest (no account) at it does not start; the host reads why."""
    table, links = make_table(host, base)
    guest = new_page(browser, PHONE)
    guest.goto(links[0])
    guest.wait_for_selector("#join-name", state="visible")
    guest.fill("#join-name", "Guest")
    guest.click("#join-go")
    wait_ready(guest)
    page = host.page
    page.check("#rated")
    guest.wait_for_function("(want) => document.getElementById('rated-note').textContent"
                            " === want", arg=catalog("en")["waiting.rated_yes"])
    page.click("#start")
    until(page, "(want) => document.getElementById('waiting-error').textContent === want",
          "the refusal of a rated start with a guest",
          arg=host.words("error.code.rated_guests"))
    assert page.locator("#waiting").is_visible()
    state = host.api(base, f"/api/tables/{table}")
    assert state["status"] == "waiting", state
    assert not guest.errors
    guest.context.close()
