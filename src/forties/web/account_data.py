"""A player's own data: every row kept about the account downloaded as one JSON file,
and the account deleted (its games stay, its name "a former player" where it sat), the
work being ``web.account_admin``'s, as the operator's ``forties admin accounts`` does it.

Both routes count ``account_data`` a minute from the address before anything else, then
need the request's own session: nobody downloads or deletes another's account. Deleting
asks the account's name again (``{"confirm": NAME}``, compared as names are), a POST with
a JSON body like every other change (the ``Guard`` refuses another site's), and ends
every session of the account, this browser's cookie cleared.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from . import account_admin
from .account_api import BODY_MAX
from .accounts import accounts_of, name_key, require_account
from .http import Refused, json_body, one_line, rates_of


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@one_line()
async def export(request: Request) -> Response:
    """The account's data, a JSON download (``forties-ACCOUNT.json``)."""
    await rates_of(request.app.state).take("account_data", _client(request))
    account, _ = await require_account(request)
    store = accounts_of(request.app.state).store
    data = await store.run(lambda conn: account_admin.export(conn, account.id))
    return Response(json.dumps(data, ensure_ascii=False, indent=1),
                    media_type="application/json", headers={
                        "Content-Disposition":
                            f'attachment; filename="forties-{account.id}.json"',
                        "Cache-Control": "no-store"})


@one_line()
async def delete(request: Request) -> Response:
    """Delete the account: ``{"confirm": <its name>}``; every session ended."""
    await rates_of(request.app.state).take("account_data", _client(request))
    account, _ = await require_account(request)
    body = await json_body(request, BODY_MAX)
    confirm = body.get("confirm")
    if not isinstance(confirm, str) or name_key(confirm) != name_key(account.name):
        raise Refused("type the account's name to confirm that it is to be deleted",
                      code="confirm")
    accounts = accounts_of(request.app.state)
    try:
        await accounts.store.run(lambda conn: account_admin.delete(conn, account.id))
    except account_admin.InPlay as e:
        raise Refused(str(e), 409, code="in_play") from None
    except account_admin.AccountError as e:  # (deleted meanwhile by another request)
        raise Refused(str(e), 409) from None
    answer = JSONResponse({"ok": True, "deleted": True})
    accounts.clear_cookie(answer)
    return answer


ROUTES: list[BaseRoute] = [
    Route("/api/account/export", export, methods=["GET"]),
    Route("/api/account/delete", delete, methods=["POST"]),
]
