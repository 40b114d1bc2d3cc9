"""A table's websocket reaching a process that does not run the table is relayed to the
one that does (its owner, ``forties.web.owners``).

Each server process with Redis opens a private door: a unix socket, served by the same
app as the public port, that only processes of this machine can reach (on Linux in the
abstract namespace: no file, and it vanishes with the process; elsewhere a socket file in
a folder only this user can open). The door's address and the key it asks for are in the
owner's lease. The process a client reaches accepts the websocket, opens one to the
owner's door (the same path and query, the key in ``x-forties-relay``) and passes the
frames through both ways as they are, without reading them: the owner does all the work
of the table (the connection's checks, its rate, its seat's key) and the relaying process
none but copying. A connection whose relay key is not the owner's is refused.

When the owner dies, its door is shut (the connection is refused at once): the relaying
process closes its clients' connections (code 1012, "restart"); each reconnects, and the
process it reaches finds the door shut, takes the lease over and runs the table itself,
loading it from the database. Nothing acknowledged is lost: every move was committed
before it was told, and a client sends again what it had sent and not seen applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .owners import Owner, Owners, connect_door, valid_table_id

log = logging.getLogger("forties.web")
HEADER = "x-forties-relay"  # the owner's key, on a relayed connection
OPEN_SECONDS = 5.0  # the longest a relay waits for the owner's door to answer
RESTART = 1012  # the close code that tells a client to reconnect (the owner went away)
TRIES = 3  # owners looked up for one connection before it is served here


class Door:
    """This process's private door: a unix socket for the relayed websockets."""

    def __init__(self, name: str) -> None:
        self.folder: Path | None = None
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if sys.platform.startswith("linux"):
            self.address = "\0forties-relay-" + name
        else:  # pragma: no cover (Linux has the abstract namespace)
            self.folder = Path(tempfile.mkdtemp(prefix="forties-relay-"))
            self.address = str(self.folder / "door")
        self.sock.bind(self.address)
        self.sock.listen(1024)
        self.sock.setblocking(False)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def open_door(owners: Owners) -> socket.socket:
    """Bind this process's private door (served beside the public port): its socket."""
    door = Door(owners.origin)
    owners.address = door.address
    return door.sock


def relayed_here(owners: Owners, websocket: WebSocket) -> bool | None:
    """Whether the connection was relayed here by another process (None: it says so with
    a key that is not this process's)."""
    given = websocket.headers.get(HEADER)
    if given is None:
        return False
    if hmac.compare_digest(given.encode("utf-8", "replace"), owners.key.encode("ascii")):
        return True
    return None


async def route(owners: Owners, websocket: WebSocket, table_id: str) -> bool:
    """Send an accepted websocket to its table's owner: True when it was relayed (and is
    over now), or refused; False when this process serves it (it owns the table now,
    or the owner cannot be reached from here)."""
    here = relayed_here(owners, websocket)
    if here is None:
        await websocket.send_text(json.dumps({"type": "error", "code": "token",
                                              "message": "that relay key is not this "
                                                         "server's"}))
        await websocket.close(4403)
        return True
    if here or not valid_table_id(table_id):
        return False  # (an id no table has: refused as such where it is served)
    for _ in range(TRIES):
        owner = await owners.claim(table_id)
        if owner is None:
            return False
        if owner.machine != owners.machine or owner.address is None:
            return False  # another machine's: the database lets this process serve it
        try:
            upstream = await _open(owner, websocket)
        except Exception as e:  # stalled or refusing: the client tries again in a moment
            log.warning("table %s: its process did not take the connection (%s: %s)",
                        table_id, type(e).__name__, e)
            with contextlib.suppress(Exception):
                await websocket.close(RESTART)
            return True
        if upstream is not None:
            await _pump(websocket, upstream)
            return True
        if await owners.take_over(table_id, owner):
            return False
    return False


async def _open(owner: Owner, websocket: WebSocket) -> Any:
    """A websocket to the owner's door for this client (None: the door is shut, so the
    owner is gone)."""
    from websockets.asyncio.client import connect

    path = websocket.url.path + (f"?{websocket.url.query}" if websocket.url.query else "")
    # (the client's Origin and address were checked here, by the guard and the transport,
    # and are not checked again: the owner counts no relayed connection per address)
    headers = {HEADER: owner.key}
    assert owner.address is not None
    try:
        sock = await connect_door(owner.address, OPEN_SECONDS)
    except (ConnectionRefusedError, FileNotFoundError):
        return None
    return await connect(f"ws://relay{path}", sock=sock, additional_headers=headers,
                         compression=None, max_size=None, ping_interval=None,
                         open_timeout=OPEN_SECONDS, proxy=None, user_agent_header=None)


async def _pump(websocket: WebSocket, upstream: Any) -> None:
    """Pass frames both ways until one side closes; then close the other the same way."""
    from websockets.exceptions import ConnectionClosed

    async def down() -> int:
        try:
            async for message in upstream:
                if isinstance(message, str):
                    await websocket.send_text(message)
                else:
                    await websocket.send_bytes(message)
        except ConnectionClosed:
            pass
        rcvd = upstream.close_code
        return RESTART if rcvd in (None, 1006, 1011, 1001) else int(rcvd)

    async def up() -> None:
        try:
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                if msg.get("text") is not None:
                    await upstream.send(msg["text"])
                elif msg.get("bytes") is not None:
                    await upstream.send(msg["bytes"])
        except (WebSocketDisconnect, RuntimeError, ConnectionClosed):
            return

    to_client = asyncio.ensure_future(down())
    from_client = asyncio.ensure_future(up())
    try:
        await asyncio.wait({to_client, from_client}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if from_client.done():  # the client went: the owner is told
            to_client.cancel()
            with contextlib.suppress(Exception):
                await upstream.close()
        else:  # the owner closed it (or went away): the client is told
            from_client.cancel()
            code = RESTART
            with contextlib.suppress(Exception):
                code = to_client.result()
            with contextlib.suppress(Exception):
                await websocket.close(code)
        for t in (to_client, from_client):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        with contextlib.suppress(Exception):
            await upstream.close()


__all__ = ["HEADER", "RESTART", "Door", "open_door", "relayed_here", "route"]
