"""A table's websocket reaching a process that does not run the table is handed over whole
to the one that does (its owner, ``forties.web.owners``).

Each server process with Redis opens a private door: a unix socket of packets that only
processes of this machine can reach (on Linux in the abstract namespace: no file, and it
vanishes with the process; elsewhere a socket file in a folder only this user can open).
Its address and the key it asks for are in the owner's lease. Before answering the
websocket's handshake, the process the client reached passes the connection itself to the
owner through that door (its file descriptor, ``SCM_RIGHTS``, with the key and the request
it read), closes its own copy without a word and forgets it; the owner serves the
connection as if the client had connected to it (``serving_now``'s uvicorn, the same checks
of address, origin and seat). From then on the connection costs the other process
nothing: no frame is copied, and the owner sees the client's own address. A packet whose
key is not the owner's is dropped, its connection closed unread.

When the owner dies, its door is shut (a connection to it is refused at once) and the
connections it held die with it: each client reconnects, and the process it reaches finds
the door shut, takes the lease over and runs the table itself, loading it from the
database. Nothing acknowledged is lost: every move was committed before it was told, and a
client sends again what it had sent and not seen applied.

A connection that cannot be handed over (a request over ``HAND_MAX``, an ASGI server that
does not name the connection in the scope) is served where it is: the database keeps any
two processes serving one table from applying a move twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import socket
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from .owners import Owner, Owners, connect_door, valid_table_id
from .serving import serving_now
from .transport import TRANSPORT

log = logging.getLogger("forties.web")
OPEN_SECONDS = 5.0  # the longest a hand-over waits for the owner's door
TRIES = 3  # owners looked up for one connection before it is served here
HAND_MAX = 256 * 1024  # the largest request handed over with its connection


def open_door(owners: Owners) -> None:
    """Bind this process's private door (``taking_hands`` serves it)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    if sys.platform.startswith("linux"):
        address = "\0forties-door-" + owners.origin
    else:  # pragma: no cover (Linux has the abstract namespace)
        address = str(Path(tempfile.mkdtemp(prefix="forties-door-")) / "door")
    sock.bind(address)
    sock.listen(1024)
    sock.setblocking(False)
    owners.address, owners.door = address, sock


async def taking_hands(owners: Owners) -> None:
    """Serve the connections the other processes hand over (until cancelled)."""
    sock = owners.door
    if sock is None:
        return
    loop = asyncio.get_running_loop()
    try:
        while True:
            try:
                conn, _ = await loop.sock_accept(sock)
            except OSError as e:  # (too many open files: wait a moment)
                log.warning("the private door: %s", e)
                await asyncio.sleep(0.5)
                continue
            try:
                await _take(owners, conn, loop)
            except Exception:
                log.exception("a connection handed over could not be served")
            finally:
                conn.close()
    finally:
        sock.close()


async def _take(owners: Owners, conn: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
    """One connection handed over: checked, then served by this process's uvicorn."""
    conn.setblocking(False)
    readable: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(conn.fileno(), ready)
    try:
        await asyncio.wait_for(readable, OPEN_SECONDS)
    finally:
        loop.remove_reader(conn.fileno())
    data, fds, _, _ = socket.recv_fds(conn, HAND_MAX, 1)
    if not fds:
        return
    key, _, request = data.partition(b"\n")
    server = serving_now()
    if server is None or not hmac.compare_digest(key, owners.key.encode("ascii")):
        for fd in fds:
            os.close(fd)
        if server is not None:
            log.warning("a connection was handed over with a key that is not this "
                        "server's: closed")
        return
    client = socket.socket(fileno=fds[0])
    config = server.config

    def protocol() -> Any:
        return config.http_protocol_class(config=config, server_state=server.server_state,
                                          app_state=server.lifespan.state)

    _, proto = await loop.connect_accepted_socket(protocol, client)
    proto.data_received(request)


async def route(owners: Owners, websocket: WebSocket, table_id: str) -> bool:
    """Hand a websocket (not yet accepted) to its table's owner: True when it was handed
    over (it is no longer this process's); False when this process serves it (it owns the
    table now, or the owner cannot be reached from here)."""
    if not valid_table_id(table_id):
        return False  # (an id no table has: refused as such where it is served)
    for _ in range(TRIES):
        owner = await owners.claim(table_id)
        if owner is None:
            return False
        if owner.machine != owners.machine or owner.address is None:
            return False  # another machine's: the database lets this process serve it
        handed = await _hand(owner, websocket)
        if handed is not None:
            return handed
        if await owners.take_over(table_id, owner):  # its door is shut: it is gone
            return False
    return False


def _request(scope: Mapping[str, Any]) -> bytes:
    """The websocket's HTTP request as the client sent it (as uvicorn reads it back)."""
    target = scope["raw_path"] + (b"?" + scope["query_string"] if scope["query_string"]
                                  else b"")
    lines = [b"GET " + target + b" HTTP/1.1"]
    lines += [name + b": " + value for name, value in scope["headers"]]
    return b"\r\n".join(lines) + b"\r\n\r\n"


async def _hand(owner: Owner, websocket: WebSocket) -> bool | None:
    """Hand the client's connection itself to the owner, before its handshake is
    answered: True when it was (this process forgets it), None when the owner's door is
    shut (it is gone), False when it cannot be handed (it is served here)."""
    transport = websocket.scope.get("extensions", {}).get(TRANSPORT)
    raw = transport.get_extra_info("socket") if transport is not None else None
    if raw is None or owner.address is None or \
            websocket.client_state != WebSocketState.CONNECTING:
        return False
    data = owner.key.encode("ascii") + b"\n" + _request(websocket.scope)
    if len(data) > HAND_MAX:
        return False
    try:
        door = await connect_door(owner.address, OPEN_SECONDS)
    except (ConnectionRefusedError, FileNotFoundError):
        return None
    except OSError:
        return False
    try:
        door.settimeout(OPEN_SECONDS)
        socket.send_fds(door, [data], [raw.fileno()])
    except OSError:
        return False
    finally:
        door.close()
    # Forgotten here without a word: closing this process's copy of the connection sends
    # nothing (the owner holds it open); uvicorn then hears it gone.
    transport.abort()
    with contextlib.suppress(Exception):
        async with asyncio.timeout(OPEN_SECONDS):
            while (await websocket._receive())["type"] != "websocket.disconnect":
                pass
    return True


__all__ = ["HAND_MAX", "open_door", "route", "taking_hands"]
