"""The clubs' routes (``web.clubs`` keeps the clubs): the club's page, making a club,
its invite links and joining by one, directors and members, leaving, and the evenings a
director makes from the club's page (hall evenings, ``web.hall``, with the club's house
rules as their default, entered in its calendar).

Every change reads a body of at most ``BODY_MAX`` bytes, counts one ``clubs`` a minute
from the address (``limits.Rates``) and needs a signed-in account; the club's page counts
one ``lookups``. Every answer is one line of JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from . import hall
from .accounts import account_of, require_account
from .clubs import PLACES, add_event, check_id, check_title, clubs_of, parse_when
from .http import Refused, json_body, one_line, rates_of

BODY_MAX = 8 * 1024
STATIC = Path(__file__).parent / "static"
# what an evening made from the club's page may say of itself, beside when and where
# (the rest of ``hall.settings_from_request``'s form; the preset and options default to
# the club's house rules)
EVENING_KEYS = frozenset({"title", "games", "preset", "options", "prizes", "places",
                          "tie_break", "cookie_jar", "cookie_jar_rule", "booby", "bye_wins",
                          "duplicate", "present_to_win", "turn_seconds"})


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def _change(request: Request, empty: bool = False) -> dict[str, Any]:
    """A change's body, one ``clubs`` counted from the address."""
    body = await json_body(request, BODY_MAX, empty_is_nothing=empty)
    await rates_of(request.app.state).take("clubs", _address(request))
    return body


def _no_store(body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def page(request: Request) -> Response:
    """The clubs' one page: the account's clubs (/clubs), a club (/club/ID), joining one
    (/club/ID/join#key=...)."""
    club_id = request.path_params.get("id")
    if club_id is not None and (len(club_id) > 24 or not all(
            c.isascii() and (c.isalnum() or c in "-_") for c in club_id)):
        return HTMLResponse("<p>No such club.</p>", status_code=404)
    return FileResponse(STATIC / "club.html", media_type="text/html")


@one_line()
async def mine(request: Request) -> Response:
    """The clubs the account belongs to."""
    me, _ = await require_account(request)
    return _no_store({"clubs": await clubs_of(request.app.state).mine(me)})


@one_line()
async def create(request: Request) -> Response:
    """A new club: {"name", "preset", "options"}; the account its first director."""
    body = await _change(request)
    me, _ = await require_account(request)
    club = await clubs_of(request.app.state).create(me, body)
    return _no_store({"ok": True, "club": club.id, "url": f"/club/{club.id}"})


@one_line()
async def show(request: Request) -> Response:
    """The club as its page shows it to this browser's account (or to a guest)."""
    await rates_of(request.app.state).take("lookups", _address(request))
    me = await account_of(request)
    return _no_store(await clubs_of(request.app.state).page(request.path_params["id"], me))


@one_line()
async def change(request: Request) -> Response:
    """A director renames the club or changes its house rules: {"name"?, "preset"?,
    "options"?}."""
    body = await _change(request)
    me, _ = await require_account(request)
    extra = sorted(set(body) - {"name", "preset", "options"})
    if extra:
        raise Refused(f"unknown field {extra[0][:40]!r}", code="bad")
    club = await clubs_of(request.app.state).change(me, request.path_params["id"], body)
    return _no_store({"ok": True, "name": club.name, **club.rules})


@one_line()
async def invite(request: Request) -> Response:
    """A director's new invite link: {"days"?, "uses"?}."""
    body = await _change(request, empty=True)
    me, _ = await require_account(request)
    got = await clubs_of(request.app.state).invite(me, request.path_params["id"], body)
    return _no_store({"ok": True, **got})


@one_line()
async def join(request: Request) -> Response:
    """Join the club by an invite link's key: {"key"}."""
    body = await _change(request)
    me, _ = await require_account(request)
    club_id = request.path_params["id"]
    role = await clubs_of(request.app.state).join(me, club_id, body.get("key"))
    return _no_store({"ok": True, "role": role, "url": f"/club/{club_id}"})


@one_line()
async def set_role(request: Request) -> Response:
    """A director makes a member a director or a director a member: {"account",
    "role"}."""
    body = await _change(request)
    me, _ = await require_account(request)
    await clubs_of(request.app.state).set_role(me, request.path_params["id"],
                                               body.get("account"), body.get("role"))
    return _no_store({"ok": True})


@one_line()
async def remove(request: Request) -> Response:
    """A director removes a member: {"account"}."""
    body = await _change(request)
    me, _ = await require_account(request)
    await clubs_of(request.app.state).remove(me, request.path_params["id"],
                                             body.get("account"))
    return _no_store({"ok": True})


@one_line()
async def leave(request: Request) -> Response:
    """The account leaves the club."""
    await _change(request, empty=True)
    me, _ = await require_account(request)
    await clubs_of(request.app.state).leave(me, request.path_params["id"])
    return _no_store({"ok": True})


@one_line()
async def evening(request: Request) -> Response:
    """A director makes a hall evening from the club: {"title", "when" (UTC), "where"
    ("hall" or "online"), and any of the new-evening form's settings}; the club's house
    rules unless it names a preset of its own (its options alone go over the club's). The
    evening enters the club's calendar."""
    body = await _change(request)
    me, _ = await require_account(request)
    clubs = clubs_of(request.app.state)
    club = await clubs.as_director(me, check_id(request.path_params["id"]))
    where = body.get("where")
    if where not in PLACES:
        raise Refused('where must be "hall" or "online"', code="where")
    when = parse_when(body.get("when"))
    extra = sorted(set(body) - EVENING_KEYS - {"when", "where"})
    if extra:
        raise Refused(f"unknown setting {extra[0][:40]!r}", code="bad")
    title = check_title(body.get("title") or club.name)
    obj = {k: v for k, v in body.items() if k in EVENING_KEYS}
    obj.update(title=title, online=where == "online")
    if "preset" not in obj:
        # the club's game: its house rules, the evening's own options over them (options
        # that are not an object go to the hall's form as they are, which refuses them)
        given = obj.get("options", {})
        obj.update(preset=club.preset,
                   options={**club.options, **given} if isinstance(given, dict) else given)
    await clubs.has_room(club.id)
    made = await hall.make_evening(hall.evenings_of(request), obj, _address(request),
                                   club=club.id)
    entry = await add_event(clubs, club.id, "hall", made["evening"], title, when, where)
    return _no_store({"ok": True, "event": entry, **made,
                      "director": f"/hall/{made['evening']}/director"})


ROUTES: list[BaseRoute] = [
    Route("/clubs", page, methods=["GET"]),
    Route("/club/{id}", page, methods=["GET"]),
    Route("/club/{id}/join", page, methods=["GET"]),
    Route("/api/clubs", mine, methods=["GET"]),
    Route("/api/clubs", create, methods=["POST"]),
    Route("/api/clubs/{id}", show, methods=["GET"]),
    Route("/api/clubs/{id}", change, methods=["POST"]),
    Route("/api/clubs/{id}/invite", invite, methods=["POST"]),
    Route("/api/clubs/{id}/join", join, methods=["POST"]),
    Route("/api/clubs/{id}/role", set_role, methods=["POST"]),
    Route("/api/clubs/{id}/remove", remove, methods=["POST"]),
    Route("/api/clubs/{id}/leave", leave, methods=["POST"]),
    Route("/api/clubs/{id}/evenings", evening, methods=["POST"]),
]

__all__ = ["BODY_MAX", "ROUTES"]
