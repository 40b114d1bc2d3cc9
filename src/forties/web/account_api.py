"""The account's own routes: who is signed in here, the account's sessions (each ended
from its page), signing out, hiding its games from others.

Signing up and in (passkeys, recovery codes, another device) is ``web.passkeys``'; the
account's games, statistics and ratings are ``web.games``'. Every answer is one line of
JSON; a guest asking for an account's own data gets 401.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .accounts import accounts_of, require_account
from .http import Refused, json_body, one_line

BODY_MAX = 4 * 1024


@one_line()
async def me(request: Request) -> Response:
    """{"account": {...}} for a browser signed in, {"account": null} for a guest."""
    got = await accounts_of(request.app.state).signed_in(request)
    return JSONResponse({"account": None if got is None else got[0].to_json()},
                        headers={"Cache-Control": "no-store"})


@one_line()
async def sign_out(request: Request) -> Response:
    """End this browser's session (a guest's sign-out does nothing, and says so). Its body,
    {} or none, is read first: one over the limit is refused before anything ends."""
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    accounts = accounts_of(request.app.state)
    got = await accounts.signed_in(request)
    if got is not None:
        await accounts.end_session(got[0].id, got[1].id)
    answer = JSONResponse({"ok": True, "signed_out": got is not None})
    accounts.clear_cookie(answer)
    return answer


@one_line()
async def sessions(request: Request) -> Response:
    """The account's sessions (this one marked ``current``), the latest used first."""
    account, current = await require_account(request)
    listed = await accounts_of(request.app.state).sessions_of(account.id)
    return JSONResponse({"sessions": [s.to_json(s.id == current.id) for s in listed]},
                        headers={"Cache-Control": "no-store"})


@one_line()
async def end_session(request: Request) -> Response:
    """End one of the account's sessions: {"id": ...} (another device signed out)."""
    account, current = await require_account(request)
    body = await json_body(request, BODY_MAX)
    if not await accounts_of(request.app.state).end_session(account.id, body.get("id")):
        raise Refused("the account has no such session", 404, code="session")
    answer = JSONResponse({"ok": True})
    if body.get("id") == current.id:
        accounts_of(request.app.state).clear_cookie(answer)
    return answer


@one_line()
async def privacy(request: Request) -> Response:
    """{"hidden": true|false}: the account's games hidden from other people, or not."""
    account, _ = await require_account(request)
    body = await json_body(request, BODY_MAX)
    hidden = body.get("hidden")
    if not isinstance(hidden, bool):
        raise Refused("hidden must be true or false")
    await accounts_of(request.app.state).set_hidden(account.id, hidden)
    return JSONResponse({"ok": True, "hidden": hidden})


ROUTES: list[BaseRoute] = [
    Route("/api/account", me, methods=["GET"]),
    Route("/api/account/signout", sign_out, methods=["POST"]),
    Route("/api/account/sessions", sessions, methods=["GET"]),
    Route("/api/account/sessions/end", end_session, methods=["POST"]),
    Route("/api/account/privacy", privacy, methods=["POST"]),
]
