"""The pages a player with an account comes back to: "My games" (``/me/games``), a
player's page (``/players/{id}``: ratings, the rating history, statistics per game and per
partnership, recent games) and the leaderboards (``/leaderboard``, ``/leaderboard/{family}``),
with the JSON they are drawn from (``/api/history/...``).

Everything is read through the games' index (``web.games``: ``Games.games_of``,
``stats_of``, ``ratings_of``, ``history_of``, ``leaderboard``), which writes each finished
game once; nothing is recomputed from records on a page view. This module shapes what
those give for the pages: each seat of a game with its side, a page to link to (an
account's) or "a former player" (a deleted one's), the partners' and the opponents' seats,
each side's score, the rating's change and why a rated game did not count (as a code of
``ratings.REASONS``, which the pages say in the reader's language); the leaderboard's
established and provisional players apart; the statistics' rates (points a hand, the
par's rate). A game family is a preset, as ``web.games`` and ``forties.ratings`` keep
them.

An account that hides its history (``Account.hidden``) has its games and its
partnerships shown to itself only; its ratings and its statistics per game stay on its page
and the leaderboards. Every API answer is one line of JSON, and each counts against the
``lookups`` rate a minute before it reads.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..ratings import PAIRING_DAY_LIMIT, PAIRING_WINDOW_S, RATED_FAMILIES, REASONS, SHARE_GAMES
from .accounts import DELETED, FORMER_PLAYER, Account, account_of, accounts_of
from .games import ACTIVE_DAYS, Games, games_of_app
from .http import Refused, one_line, rates_of

BODY_MAX = 1024  # these routes read no body
PAGE_SIZE = 20  # games a page of "My games"
RECENT = 10  # games on a player's page
HISTORY_POINTS = 500  # the latest points of a rating's history, a game
FAMILIES = RATED_FAMILIES  # a game family is a preset (web.games, forties.ratings)
NO_CACHE = {"Cache-Control": "no-store"}
STATIC = Path(__file__).parent / "static"
# why a rated game did not count: the code of the sentence web.games keeps (the pages say
# it in the reader's language)
WHY_CODES = {sentence: code for code, sentence in REASONS.items()}
# the limits those sentences name, as forties.ratings sets them (the pages put them in)
WHY_VALUES = {"games": PAIRING_DAY_LIMIT, "hours": PAIRING_WINDOW_S // 3600,
              "last": SHARE_GAMES}


# ----- what a request asks for -----------------------------------------------------------


def family_of(raw: Any, required: bool = False) -> str | None:
    """A game family asked for (``FAMILIES``), None for none; Refused for another."""
    if raw is None or raw == "":
        if required:
            raise Refused("say which game", code="family")
        return None
    if not isinstance(raw, str) or raw not in FAMILIES:
        raise Refused("there is no such game: choose one of " + ", ".join(FAMILIES),
                      404 if required else 400, code="family")
    return raw


def account_id_of(raw: Any, what: str = "player") -> str:
    """An account's id as the server makes them (URL-safe, at most 24 characters)."""
    if not isinstance(raw, str) or not 0 < len(raw) <= 24 or not all(
            c.isascii() and (c.isalnum() or c in "-_") for c in raw):
        raise Refused(f"there is no such {what}", 404 if what == "player" else 400,
                      code=what)
    return raw


def before_of(raw: Any) -> float | None:
    """The next page's mark: the last game's finishing time (seconds since 1970)."""
    if raw is None or raw == "":
        return None
    ok = isinstance(raw, str) and 0 < len(raw) <= 24 and raw.isascii() and all(
        c.isdigit() or c == "." for c in raw) and raw.count(".") <= 1 and raw != "."
    value = float(raw) if ok else math.nan
    if not math.isfinite(value) or not 0 <= value < 1e11:
        raise Refused("before is a time: seconds since 1970", code="before")
    return value


# ----- what the pages show -------------------------------------------------------------------


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def person(account_id: str | None, names: Mapping[str, str]) -> dict[str, Any]:
    """An account as a page names it: its name and page, or a former player's."""
    name = names.get(account_id or "")
    if not account_id or name is None or name == FORMER_PLAYER:
        return {"id": None, "name": FORMER_PLAYER, "former": True}
    return {"id": account_id, "name": name, "former": False}


def _seat(i: int, raw: Any) -> dict[str, Any]:
    item = raw if isinstance(raw, dict) else {}
    account = item.get("account")
    name = item.get("name") if isinstance(item.get("name"), str) else None
    seat: dict[str, Any] = {"seat": i, "side": _int(item.get("side")), "kind": "person",
                            "id": None, "name": name, "former": False}
    if isinstance(account, str) and account:
        seat["id"] = account
    elif item.get("kind") == "computer":
        level = item.get("level")
        seat.update(kind="computer", name=None,
                    level=level if isinstance(level, str) else None)
    elif name == FORMER_PLAYER:  # (a deleted account: web.games names it so)
        seat["former"] = True
    return seat


def game_entry(g: Mapping[str, Any]) -> dict[str, Any]:
    """One finished game (as ``Games.games_of`` gives it) as the account played it."""
    seats = [_seat(i, s) for i, s in enumerate(g.get("seats") or [])]
    mine, my_side = g.get("seat"), g.get("side")
    partners = [s["seat"] for s in seats if s["seat"] != mine and s["side"] == my_side]
    opponents = [s["seat"] for s in seats if s["seat"] != mine and s["side"] != my_side]
    sides = sorted({s["side"] for s in seats if s["side"] is not None})
    result = g.get("result")
    scores = result.get("scores") if isinstance(result, dict) else None
    if not isinstance(scores, list) or not all(_int(x) is not None for x in scores):
        scores = None
    side_scores: list[int | None] = [None] * len(sides)
    if scores is not None and len(scores) == len(sides):
        side_scores = list(scores)
    elif scores is not None and len(scores) == len(seats):  # (each player's own score)
        for s in seats:
            s["score"] = scores[s["seat"]]
    why = None if (g.get("counted") or not g.get("rated")) else (g.get("why") or None)
    before, after = g.get("rating_before"), g.get("rating_after")
    rating = None
    if g.get("rated") and g.get("counted") and isinstance(after, (int, float)):
        rating = {"before": None if before is None else round(before), "after": round(after),
                  "change": None if before is None else round(after) - round(before)}
    table = str(g.get("table"))
    return {
        "table": table, "family": g.get("family"), "preset": g.get("preset"),
        "finished": g.get("finished"), "hands": g.get("hands") or 0, "seat": mine,
        "won": bool(g.get("won")), "rated": bool(g.get("rated")),
        "counted": bool(g.get("counted")),
        "why": WHY_CODES.get(why, why) if isinstance(why, str) else None,
        "why_values": dict(WHY_VALUES) if isinstance(why, str) else None,
        "rating": rating, "seats": seats, "partners": partners, "opponents": opponents,
        "sides": [{"side": side, "seats": [s["seat"] for s in seats if s["side"] == side],
                   "score": side_scores[k], "mine": side == my_side}
                  for k, side in enumerate(sides)],
        "replay": f"/replay?table={table}", "record": f"/api/tables/{table}/record",
    }


async def games_page(games: Games, account_id: str, family: str | None,
                     partner: str | None, before: float | None,
                     size: int = PAGE_SIZE) -> dict[str, Any]:
    """A page of the account's games, newest first: {"games", "more", "next"} (``next``:
    the ``before`` of the page after it)."""
    got = await games.games_of(account_id, family=family, partner=partner, before=before,
                               limit=size + 1)
    shown_games = [game_entry(g) for g in got[:size]]
    more = len(got) > size
    return {"games": shown_games, "more": more,
            "next": shown_games[-1]["finished"] if more else None}


def tally(body: Any) -> dict[str, Any]:
    """A statistics total (``forties.stats``' counts) with its rates worked out."""
    t = body if isinstance(body, dict) else {}
    counts = {k: v for k, v in t.items() if _int(v) is not None}
    raw_bids = t.get("bids")
    bids: dict[Any, Any] = raw_bids if isinstance(raw_bids, dict) else {}
    clean = {str(k): {"made": _int(c.get("made")) or 0, "set": _int(c.get("set")) or 0}
             for k, c in bids.items() if isinstance(c, dict)}
    hands = counts.get("hands", 0)
    par = counts.get("par_hands", 0)
    return counts | {
        "bids": clean,
        "points_a_hand": round(counts.get("points", 0) / hands, 2) if hands else None,
        "par_rate": round(counts.get("par_equal", 0) / par, 4) if par else None,
    }


def _rank(family: Any) -> tuple[int, str]:
    return (FAMILIES.index(family) if family in FAMILIES else len(FAMILIES), str(family))


async def profile(request: Request, games: Games, account: Account,
                  owner: bool) -> dict[str, Any]:
    """A player's page: ratings, their history, statistics and (unless hidden from the
    reader) partnerships and recent games."""
    aid = account.id
    show_all = owner or not account.hidden
    ratings: list[dict[str, Any]] = []
    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    for r in await games.ratings_of(aid):
        entry = {"family": r["family"], "rating": r["shown"], "games": r["games"],
                 "provisional": r["provisional"]}
        if r["subject"] == aid:
            ratings.append(entry)
        elif show_all and r.get("partner"):
            pairs[(r["family"], r["partner"])] = {"rating": entry}
    ratings.sort(key=lambda x: _rank(x["family"]))
    history: dict[str, list[dict[str, Any]]] = {}
    for r in ratings:
        points = await games.history_of(aid, r["family"], limit=HISTORY_POINTS)
        history[r["family"]] = [{"at": p["at"], "rating": round(p["shown"])} for p in points
                                if isinstance(p.get("shown"), (int, float))
                                and math.isfinite(p["shown"])]
    got = await games.stats_of(aid)
    stats = [{"family": f, "stats": tally(body)} for f, body in
             sorted(got["families"].items(), key=lambda x: _rank(x[0]))]
    names: dict[str, str] = {}
    for p in got["partnerships"]:
        names[p["partner"]] = p["name"]
        if show_all:
            pairs.setdefault((p["family"], p["partner"]), {})["stats"] = tally(p)
    for _, partner in pairs:
        if partner not in names:
            other = await accounts_of(request.app.state).get(partner)
            names[partner] = FORMER_PLAYER if other is None or other.status == DELETED \
                else other.name
    partnerships: list[dict[str, Any]] = [
        {"family": f, "partner": person(p, names), "rating": v.get("rating"),
         "stats": v.get("stats")} for (f, p), v in pairs.items()]
    partnerships.sort(key=lambda x: (_rank(x["family"]), x["partner"]["name"].casefold()))
    out: dict[str, Any] = {
        "player": {"id": aid, "name": account.name, "since": account.created,
                   "hidden": account.hidden, "yours": owner},
        "ratings": ratings, "history": history, "stats": stats,
        "partnerships": partnerships if show_all else None, "games": None, "more": False}
    if show_all:
        page = await games_page(games, aid, None, None, None, RECENT)
        out["games"], out["more"] = page["games"], page["more"]
    return out


async def board(games: Games, family: str, now: float) -> dict[str, Any]:
    """A game's leaderboard: the active players (``web.games``: a rated game lately),
    established ones ranked; provisional ones listed apart, unranked."""
    listed = [{"id": r["account"], "name": r["name"], "rating": r["shown"],
               "games": r["games"], "provisional": r["provisional"]}
              for r in await games.leaderboard(family, now)]  # (in the ratings' order)
    ranked = [x for x in listed if not x["provisional"]]
    for i, x in enumerate(ranked):
        x["rank"] = i + 1
    return {"family": family, "active_days": ACTIVE_DAYS, "players": ranked,
            "provisional": [x for x in listed if x["provisional"]]}


# ----- the routes ---------------------------------------------------------------------------


async def _limit(request: Request) -> None:
    """One more look at players' games from this address (``limits.Rates``)."""
    await rates_of(request.app.state).take(
        "lookups", request.client.host if request.client else "unknown")


async def _player(request: Request) -> Account:
    got = await accounts_of(request.app.state).get(account_id_of(request.path_params["id"]))
    if got is None or got.status == DELETED:
        raise Refused("there is no such player", 404, code="player")
    return got


def _filters(request: Request) -> tuple[str | None, str | None, float | None]:
    q = request.query_params
    partner = account_id_of(q["partner"], "partner") if q.get("partner") else None
    return family_of(q.get("family")), partner, before_of(q.get("before"))


@one_line()
async def my_games(request: Request) -> Response:
    """GET /api/history/me/games?family=&partner=&before=: the signed-in account's games,
    and the partners it has had (for the filter)."""
    await _limit(request)
    me = await account_of(request)
    if me is None:
        raise Refused("sign in first: this needs an account", 401, code="signin")
    family, partner, before = _filters(request)
    games = games_of_app(request)
    page = await games_page(games, me.id, family, partner, before)
    partners = {p["partner"]: p["name"] for p in (await games.stats_of(me.id))["partnerships"]}
    listed = sorted((person(i, partners) | {"id": i} for i in partners),
                    key=lambda p: (p["former"], p["name"].casefold(), p["id"]))
    return JSONResponse(page | {
        "player": {"id": me.id, "name": me.name, "hidden": me.hidden},
        "family": family, "partner": partner, "before": before, "partners": listed},
        headers=NO_CACHE)


@one_line()
async def player_games(request: Request) -> Response:
    """GET /api/history/players/{id}/games: a player's games, unless hidden from you."""
    await _limit(request)
    player = await _player(request)
    family, partner, before = _filters(request)
    me = await account_of(request)
    if player.hidden and (me is None or me.id != player.id):
        return JSONResponse({"hidden": True, "games": [], "more": False, "next": None},
                            headers=NO_CACHE)
    page = await games_page(games_of_app(request), player.id, family, partner, before)
    return JSONResponse(page | {"hidden": False}, headers=NO_CACHE)


@one_line()
async def player_page_data(request: Request) -> Response:
    """GET /api/history/players/{id}: what the player's page shows."""
    await _limit(request)
    player = await _player(request)
    me = await account_of(request)
    got = await profile(request, games_of_app(request), player,
                        me is not None and me.id == player.id)
    return JSONResponse(got, headers=NO_CACHE)


@one_line()
async def leaderboard(request: Request) -> Response:
    """GET /api/history/leaderboard/{family}."""
    await _limit(request)
    family = family_of(request.path_params["family"], required=True)
    assert family is not None
    return JSONResponse(await board(games_of_app(request), family, time.time()),
                        headers=NO_CACHE)


def _page(name: str) -> Callable[[Request], Any]:
    async def serve(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html")
    return serve


ROUTES: list[BaseRoute] = [
    Route("/me/games", _page("games.html")),
    Route("/players/{id}", _page("player.html")),
    Route("/leaderboard", _page("leaderboard.html")),
    Route("/leaderboard/{family}", _page("leaderboard.html")),
    Route("/api/history/me/games", my_games, methods=["GET"]),
    Route("/api/history/players/{id}", player_page_data, methods=["GET"]),
    Route("/api/history/players/{id}/games", player_games, methods=["GET"]),
    Route("/api/history/leaderboard/{family}", leaderboard, methods=["GET"]),
]

__all__ = ["BODY_MAX", "FAMILIES", "PAGE_SIZE", "ROUTES", "board", "game_entry",
           "games_page", "profile", "tally"]
