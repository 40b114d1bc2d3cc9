"""Signing up and in with passkeys (WebAuthn, the ``webauthn`` library), the printed
recovery codes, a second device, the account's list of passkeys, and the account's page.

Signing up is one step: a name, then the browser's passkey (``signup/begin`` gives the
options, ``signup/finish`` checks the authenticator's answer, makes the account
(``Accounts.create``), keeps the passkey, signs the browser in and answers with
``RECOVERY_COUNT`` recovery codes, shown once and kept only hashed). Signing in asks the
browser for any passkey of this site (a discoverable credential: no name to type); the
passkey names its account, its signature is checked with the public key kept at sign-up,
and its signature counter must move on (a counter that goes back is a copied key).

The site a passkey belongs to (its RP ID) is the host of the site's public address
(``--public-url``), or, where none is given or the public address is a loopback one, the
host the request names; the origin the browser must have signed is that site's too.

Every challenge is kept in the ``challenges`` table under the SHA-256 of an opaque key the
browser is given: used once (taken whatever the answer), for ``CHALLENGE_SECONDS``. A code
for another device (``link``) is kept the same way, for ``LINK_SECONDS``, and used up by
the passkey it adds. Recovery codes are ``recovery_codes`` rows (hashed), each used once;
making new ones ends the old ones.

Removing a passkey: an account keeps at least one way in. Its last passkey may be removed
only while it has an unused recovery code (the page says so), and the account then signs
in with a code and adds a passkey.

Limits: ``signups`` a minute for each sign-up begun, ``signins`` for each sign-in begun,
recovery code or device code tried (``limits.Rates``); the bodies of these routes are at
most ``BODY_MAX``, and every challenge, code and credential field is checked for its type
and length before any of it is decoded. Every refusal is one line of JSON.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import options_to_json_dict
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .account_schema import challenges_t, credentials_t, recovery_t
from .accounts import (
    ACTIVE,
    SUSPENDED,
    Account,
    accounts_of,
    check_name,
    key_hash,
    require_account,
)
from .guard import LOOPBACK_NAMES, origin_of
from .http import Refused, json_body, one_line, rates_of
from .store import Store
from .text import line

STATIC = Path(__file__).parent / "static"
BODY_MAX = 8 * 1024  # a passkey's answer (a registration's attestation with it)
SITE_NAME = "forties"
CHALLENGE_SECONDS = 300.0
LINK_SECONDS = 600.0
RECOVERY_COUNT = 10
PASSKEYS_MAX = 20  # passkeys on one account
LABEL_MAX = 40
CHALLENGE_KEY_MAX = 64  # the opaque id of a challenge (``secrets.token_urlsafe(32)``: 43)
CREDENTIAL_ID_MAX = 400  # characters of base64url (300 bytes)
# the most characters of base64url of each field of a passkey's answer
FIELD_MAX = {"clientDataJSON": 1500, "attestationObject": 6000,
             "authenticatorData": 1000, "signature": 700, "userHandle": 200}
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off paper
RECOVERY_LENGTH = 10  # characters of a recovery code (printed as two groups of five)
LINK_LENGTH = 12  # characters of a device code (three groups of four)
CODE_MAX = 40  # characters of a typed code, spaces and dashes included
B64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
SIGNUP, SIGNIN, ADD, LINK = "signup", "signin", "add", "link"

# the account's passkeys' routes (and the sign-up's and sign-in's): their bodies may be
# ``BODY_MAX`` (``app.body_limit``)
PREFIXES = ("/api/account/signup", "/api/account/signin", "/api/account/passkeys",
            "/api/account/link", "/api/account/recover")


# ----- the site a passkey belongs to -------------------------------------------------------


@dataclass(frozen=True)
class Site:
    """The relying party: its id (a host name) and the origin its pages have."""

    rp_id: str
    origin: str


def site_of(request: Request) -> Site:
    """The site of the request: its public address's (``app.state.door``), or the address
    the request names where no public one is known or that one is a loopback address (a
    server on this machine, opened as ``localhost``: WebAuthn refuses an IP address)."""
    door = getattr(request.app.state, "door", None)
    public = origin_of(door.public_url) if door is not None and door.public_url else None
    own = origin_of(f"{request.url.scheme}://{request.headers.get('host', '')}")
    origin = public
    if public is None or (own is not None and _loopback(public) and _loopback(own)):
        origin = own
    host = urlsplit(origin).hostname if origin else None
    if origin is None or not host:
        raise Refused("this server's address cannot be used with passkeys", code="site")
    return Site(rp_id=host, origin=origin)


def _loopback(origin: str) -> bool:
    host = (urlsplit(origin).hostname or "").lower()
    return host in LOOPBACK_NAMES or f"[{host}]" in LOOPBACK_NAMES


# ----- what a request holds, checked before any work ------------------------------------------


def b64url(raw: Any, most: int, what: str) -> str:
    """``raw`` if it is base64url text of 1 to ``most`` characters, else ``Refused``."""
    if not isinstance(raw, str) or not raw:
        raise Refused(f"{what} is missing", code="passkey")
    if len(raw) > most:
        raise Refused(f"{what} is too long (at most {most} characters)", code="passkey")
    if not B64URL.fullmatch(raw):
        raise Refused(f"{what} is not base64url text", code="passkey")
    return raw


def b64_bytes(text: str) -> bytes:
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def b64_text(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def credential_of(body: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """The passkey's answer in ``body["credential"]`` (the browser's
    ``PublicKeyCredential`` as JSON), with only what is read of it, every field checked
    (``fields``: those of ``response`` it must have), or ``Refused``."""
    raw = body.get("credential")
    if not isinstance(raw, dict):
        raise Refused("credential must be the passkey's answer (an object)", code="passkey")
    cid = b64url(raw.get("id"), CREDENTIAL_ID_MAX, "the passkey's id")
    if raw.get("rawId", cid) != cid:
        raise Refused("the passkey's id and rawId differ", code="passkey")
    if raw.get("type", "public-key") != "public-key":
        raise Refused("the credential is not a passkey (type public-key)", code="passkey")
    response = raw.get("response")
    if not isinstance(response, dict):
        raise Refused("the passkey's answer has no response", code="passkey")
    kept: dict[str, Any] = {}
    for name in fields:
        kept[name] = b64url(response.get(name), FIELD_MAX[name], f"the passkey's {name}")
    handle = response.get("userHandle")
    if handle not in (None, ""):
        kept["userHandle"] = b64url(handle, FIELD_MAX["userHandle"], "the passkey's userHandle")
    transports = response.get("transports")
    names: list[str] = []
    if isinstance(transports, list):
        names = [t for t in transports[:8] if isinstance(t, str) and len(t) <= 20
                 and t.isascii() and t.replace("-", "").isalnum()]
    return {"id": cid, "rawId": cid, "type": "public-key", "response": kept,
            "transports": names}


def challenge_key(body: dict[str, Any]) -> str:
    """The challenge's opaque id in ``body["challenge"]``, checked."""
    return b64url(body.get("challenge"), CHALLENGE_KEY_MAX, "the challenge")


def typed_code(raw: Any, length: int, what: str) -> str:
    """A code as typed (spaces, dashes and case do not matter), or ``Refused``."""
    if not isinstance(raw, str) or not 0 < len(raw) <= CODE_MAX:
        raise Refused(f"type the {what}", code="code")
    code = "".join(ch for ch in raw.lower() if ch not in " -\u00a0\t")
    if len(code) != length or any(ch not in CODE_ALPHABET for ch in code):
        raise Refused(f"a {what} has {length} letters and digits", code="code")
    return code


def new_code(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def printed(code: str, group: int) -> str:
    """A code as shown and printed: groups of ``group`` characters joined by dashes."""
    return "-".join(code[i:i + group] for i in range(0, len(code), group))


def label_of(raw: Any, agent: str | None) -> str:
    """A passkey's label: the one given, or the kind of device the browser says it is."""
    if isinstance(raw, str) and line(raw, LABEL_MAX):
        return line(raw, LABEL_MAX)
    agent = agent or ""
    for word, name in (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
                       ("Windows", "Windows"), ("Macintosh", "Mac"), ("CrOS", "Chromebook"),
                       ("Linux", "Linux")):
        if word in agent:
            return name
    return "passkey"


def agent_of(request: Request) -> str:
    return line(request.headers.get("user-agent", ""), 120)


# ----- the tables -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Passkey:
    """A passkey of an account, as its page lists it (never its key)."""

    id: str
    label: str
    created: float
    last_used: float | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "created": self.created,
                "last_used": self.last_used}


class Passkeys:
    """The passkeys, challenges and recovery codes in the store (``passkeys_of``)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    # challenges and device codes: kept hashed, taken once

    async def keep(self, purpose: str, body: dict[str, Any], account_id: str | None = None,
                   key: str | None = None) -> str:
        """Keep a challenge (or a device code, ``key``) for ``purpose``: its key."""
        key = key or secrets.token_urlsafe(32)
        now = self.clock()

        def work(conn: Connection) -> None:
            # (the stale ones go as new ones come: at most the limits' minutes of them)
            conn.execute(challenges_t.delete().where(
                challenges_t.c.created < now - max(CHALLENGE_SECONDS, LINK_SECONDS)))
            if purpose == LINK:  # one device code open at a time for an account
                conn.execute(challenges_t.delete().where(
                    challenges_t.c.purpose == LINK, challenges_t.c.account_id == account_id))
            conn.execute(challenges_t.insert(), {
                "key_hash": key_hash(key), "purpose": purpose, "account_id": account_id,
                "body": json.dumps(body), "created": now})
        await self.store.run(work)
        return key

    async def take(self, key: str, purpose: str, peek: bool = False
                   ) -> tuple[str | None, dict[str, Any]] | None:
        """The account and body of the live challenge ``key`` of ``purpose``, used up
        (``peek``: left in place); None for a key unknown, used, stale or of another
        purpose."""
        h = key_hash(key)
        most = LINK_SECONDS if purpose == LINK else CHALLENGE_SECONDS
        now = self.clock()

        def work(conn: Connection) -> tuple[str | None, dict[str, Any]] | None:
            row = conn.execute(sa.select(challenges_t).where(
                challenges_t.c.key_hash == h)).first()
            if row is None or row.purpose != purpose:
                return None
            if not peek or now - row.created > most:
                done = conn.execute(challenges_t.delete().where(
                    challenges_t.c.key_hash == h))
                if not done.rowcount:  # taken by another request at the same moment
                    return None
            if now - row.created > most:
                return None
            return row.account_id, json.loads(row.body)
        return await self.store.run(work)

    # passkeys

    async def add(self, account_id: str, user_handle: str, credential_id: str,
                  public_key: bytes, sign_count: int, transports: list[str],
                  label: str) -> Passkey:
        """Keep a new passkey of the account; ``Refused`` (409) if that passkey is kept
        already (for this account or another)."""
        now = self.clock()
        row = {"id": credential_id, "account_id": account_id, "user_handle": user_handle,
               "public_key": b64_text(public_key), "sign_count": sign_count,
               "transports": " ".join(transports)[:200], "label": label, "created": now,
               "last_used": None}

        def work(conn: Connection) -> bool:
            if conn.execute(sa.select(credentials_t.c.id).where(
                    credentials_t.c.id == credential_id)).first() is not None:
                return False
            conn.execute(credentials_t.insert(), row)
            return True
        try:
            made = await self.store.run(work)
        except sa.exc.IntegrityError:
            made = False
        if not made:
            raise Refused("this passkey is kept already", 409, code="passkey_taken")
        return Passkey(credential_id, label, now, None)

    async def known(self, credential_id: str) -> bool:
        return await self.store.run(lambda conn: conn.execute(sa.select(
            credentials_t.c.id).where(credentials_t.c.id == credential_id)).first()
            is not None)

    async def get(self, credential_id: str) -> Any:
        """The passkey's row (None: not kept)."""
        return await self.store.run(lambda conn: conn.execute(sa.select(
            credentials_t).where(credentials_t.c.id == credential_id)).first())

    async def used(self, credential_id: str, old_count: int, new_count: int) -> bool:
        """The passkey signed in: its counter moved on from ``old_count`` (False: another
        sign-in moved it first)."""
        now = self.clock()

        def work(conn: Connection) -> bool:
            done = conn.execute(credentials_t.update().where(
                credentials_t.c.id == credential_id,
                credentials_t.c.sign_count == old_count).values(
                sign_count=new_count, last_used=now))
            return bool(done.rowcount)
        return await self.store.run(work)

    async def of(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, the oldest first."""
        def work(conn: Connection) -> list[Passkey]:
            rows = conn.execute(sa.select(credentials_t).where(
                credentials_t.c.account_id == account_id).order_by(
                credentials_t.c.created, credentials_t.c.id)).all()
            return [Passkey(r.id, r.label or "passkey", r.created, r.last_used)
                    for r in rows]
        return await self.store.run(work)

    async def user_handle(self, account_id: str) -> str | None:
        """The user handle the account's passkeys carry (None: it has none)."""
        return await self.store.run(lambda conn: conn.execute(sa.select(
            credentials_t.c.user_handle).where(
            credentials_t.c.account_id == account_id).limit(1)).scalar())

    async def rename(self, account_id: str, credential_id: str, label: str) -> bool:
        def work(conn: Connection) -> bool:
            done = conn.execute(credentials_t.update().where(
                credentials_t.c.id == credential_id,
                credentials_t.c.account_id == account_id).values(label=label))
            return bool(done.rowcount)
        return await self.store.run(work)

    async def remove(self, account_id: str, credential_id: str) -> None:
        """Remove one of the account's passkeys: ``Refused`` (404) if it has none such,
        (409) if it is the last and no unused recovery code is left."""
        def work(conn: Connection) -> str:
            ids = set(conn.execute(sa.select(credentials_t.c.id).where(
                credentials_t.c.account_id == account_id)).scalars())
            if credential_id not in ids:
                return "none"
            if len(ids) == 1 and not _codes_left(conn, account_id):
                return "last"
            conn.execute(credentials_t.delete().where(
                credentials_t.c.id == credential_id,
                credentials_t.c.account_id == account_id))
            return "ok"
        got = await self.store.run(work)
        if got == "none":
            raise Refused("the account has no such passkey", 404, code="passkey")
        if got == "last":
            raise Refused("this is the account's last passkey and it has no recovery code "
                          "left: add another passkey, or make new recovery codes, first",
                          409, code="last_passkey")

    # recovery codes

    async def new_codes(self, account_id: str) -> list[str]:
        """``RECOVERY_COUNT`` new recovery codes for the account (as printed); the old
        ones stop working."""
        codes = [new_code(RECOVERY_LENGTH) for _ in range(RECOVERY_COUNT)]
        now = self.clock()

        def work(conn: Connection) -> None:
            conn.execute(recovery_t.delete().where(recovery_t.c.account_id == account_id))
            conn.execute(recovery_t.insert(), [
                {"code_hash": key_hash(f"{account_id}:{c}"), "account_id": account_id,
                 "created": now, "used": None} for c in codes])
        await self.store.run(work)
        return [printed(c, 5) for c in codes]

    async def use_code(self, account_id: str, code: str, keep: bool = False) -> bool:
        """Use up one of the account's recovery codes (False: not one, or used);
        ``keep``: only say whether it is one, unused."""
        h = key_hash(f"{account_id}:{code}")
        now = self.clock()

        def work(conn: Connection) -> bool:
            if keep:
                return conn.execute(sa.select(recovery_t.c.code_hash).where(
                    recovery_t.c.code_hash == h, recovery_t.c.account_id == account_id,
                    recovery_t.c.used.is_(None))).first() is not None
            done = conn.execute(recovery_t.update().where(
                recovery_t.c.code_hash == h, recovery_t.c.account_id == account_id,
                recovery_t.c.used.is_(None)).values(used=now))
            return bool(done.rowcount)
        return await self.store.run(work)

    async def codes_left(self, account_id: str) -> int:
        return await self.store.run(lambda conn: _codes_left(conn, account_id))


def _codes_left(conn: Connection, account_id: str) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(recovery_t).where(
        recovery_t.c.account_id == account_id, recovery_t.c.used.is_(None))).scalar() or 0)


def passkeys_of(state: Any) -> Passkeys:
    """The app's passkeys (made on first use over the app's store)."""
    got: Passkeys | None = getattr(state, "passkeys", None)
    if got is None:
        got = state.passkeys = Passkeys(state.store, accounts_of(state).clock)
    return got


# ----- the ceremonies ---------------------------------------------------------------------------


def registration(site: Site, user_handle: bytes, name: str,
                 exclude: list[str] | None = None) -> tuple[dict[str, Any], str]:
    """The browser's options to make a passkey (resident, user verification preferred,
    no attestation) and their challenge (base64url)."""
    options = generate_registration_options(
        rp_id=site.rp_id, rp_name=SITE_NAME, user_name=name, user_id=user_handle,
        user_display_name=name, timeout=int(CHALLENGE_SECONDS * 1000),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, require_resident_key=True,
            user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=b64_bytes(c))
                             for c in exclude or []])
    return options_to_json_dict(options), b64_text(options.challenge)


def verified_registration(site: Site, credential: dict[str, Any], challenge: str) -> Any:
    """The library's check of a new passkey's answer, or ``Refused`` (400) in one line."""
    try:
        return verify_registration_response(
            credential=credential, expected_challenge=b64_bytes(challenge),
            expected_rp_id=site.rp_id, expected_origin=site.origin)
    except Exception as e:  # (the library's own, and whatever odd bytes make it raise)
        raise Refused(f"the passkey's answer was not accepted: {why(e)}",
                      code="passkey") from None


def why(e: Exception) -> str:
    """A short reason from the library's refusal, without the answer's own text."""
    text = str(e).lower()
    for word, said in (("origin", "it was made on another site"),
                       ("rp id", "it belongs to another site"),
                       ("challenge", "it answers another request"),
                       ("signature", "its signature is wrong"),
                       ("sign count", "its counter went back (a copied passkey?)"),
                       ("user presence", "nobody was there to approve it"),
                       ("user was not present", "nobody was there to approve it")):
        if word in text:
            return said
    return "it could not be read"


async def signed_in_answer(request: Request, account: Account,
                           extra: dict[str, Any] | None = None) -> Response:
    """A new session for ``account`` on this browser (its cookie set), and the account;
    the session the browser held before (if any) is ended, not left behind."""
    accounts = accounts_of(request.app.state)
    before = await accounts.signed_in(request)
    if before is not None:
        await accounts.end_session(before[0].id, before[1].id)
    key = await accounts.new_session(account.id, agent_of(request))
    answer = JSONResponse({"ok": True, "account": account.to_json(), **(extra or {})},
                          headers={"Cache-Control": "no-store"})
    accounts.set_cookie(answer, key)
    return answer


def can_sign_in(account: Account | None) -> Account:
    if account is None or account.status not in (ACTIVE, SUSPENDED):
        raise Refused("this passkey's account is no longer here", 401, code="signin")
    if account.status == SUSPENDED:
        raise Refused("this account is suspended by the site's operator: it cannot sign "
                      "in", 403, code="suspended")
    return account


async def take_rate(request: Request, kind: str) -> None:
    await rates_of(request.app.state).take(
        kind, request.client.host if request.client else "unknown")


# ----- the routes -------------------------------------------------------------------------------


@one_line()
async def signup_begin(request: Request) -> Response:
    """{"name"} -> {"challenge", "options"}: a new passkey's options for a new account
    (the name checked and free now; ``signup_finish`` makes it)."""
    body = await json_body(request, BODY_MAX)
    await take_rate(request, "signups")
    name = check_name(body.get("name"))
    if await accounts_of(request.app.state).name_taken(name):
        raise Refused("that name is taken: choose another", 409, code="name_taken")
    site = site_of(request)
    handle = secrets.token_bytes(16)
    options, challenge = registration(site, handle, name)
    key = await passkeys_of(request.app.state).keep(SIGNUP, {
        "challenge": challenge, "name": name, "user_handle": b64_text(handle)})
    return JSONResponse({"challenge": key, "options": options},
                        headers={"Cache-Control": "no-store"})


@one_line()
async def signup_finish(request: Request) -> Response:
    """{"challenge", "credential", "label"?} -> the new account, signed in, and its
    recovery codes (shown once)."""
    body = await json_body(request, BODY_MAX)
    key = challenge_key(body)
    credential = credential_of(body, ("clientDataJSON", "attestationObject"))
    site = site_of(request)
    passkeys = passkeys_of(request.app.state)
    got = await passkeys.take(key, SIGNUP)
    if got is None:
        raise Refused("this sign-up has expired or was used: start again", 400,
                      code="challenge")
    kept = got[1]
    made = verified_registration(site, credential, kept["challenge"])
    cid = b64_text(made.credential_id)
    if cid != credential["id"]:
        raise Refused("the passkey's id is not the one it made", code="passkey")
    if await passkeys.known(cid):
        raise Refused("this passkey is kept already", 409, code="passkey_taken")
    account = await accounts_of(request.app.state).create(kept["name"])
    await passkeys.add(account.id, kept["user_handle"], cid, made.credential_public_key,
                       made.sign_count, credential["transports"],
                       label_of(body.get("label"), agent_of(request)))
    codes = await passkeys.new_codes(account.id)
    return await signed_in_answer(request, account, {"recovery_codes": codes})


@one_line()
async def signin_begin(request: Request) -> Response:
    """{} -> {"challenge", "options"}: a request for any passkey of this site."""
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    await take_rate(request, "signins")
    site = site_of(request)
    options = generate_authentication_options(
        rp_id=site.rp_id, timeout=int(CHALLENGE_SECONDS * 1000),
        user_verification=UserVerificationRequirement.PREFERRED)
    key = await passkeys_of(request.app.state).keep(
        SIGNIN, {"challenge": b64_text(options.challenge)})
    return JSONResponse({"challenge": key, "options": options_to_json_dict(options)},
                        headers={"Cache-Control": "no-store"})


@one_line()
async def signin_finish(request: Request) -> Response:
    """{"challenge", "credential"} -> the passkey's account, signed in."""
    body = await json_body(request, BODY_MAX)
    key = challenge_key(body)
    credential = credential_of(body, ("clientDataJSON", "authenticatorData", "signature"))
    site = site_of(request)
    passkeys = passkeys_of(request.app.state)
    got = await passkeys.take(key, SIGNIN)
    if got is None:
        raise Refused("this sign-in has expired or was used: start again", 400,
                      code="challenge")
    row = await passkeys.get(credential["id"])
    if row is None:
        raise Refused("this passkey is not known here (was it removed?)", 401,
                      code="unknown_passkey")
    handle = credential["response"].get("userHandle")
    if handle is not None and handle.rstrip("=") != row.user_handle:
        raise Refused("this passkey does not belong to its account", 401, code="passkey")
    try:
        done = verify_authentication_response(
            credential=credential, expected_challenge=b64_bytes(got[1]["challenge"]),
            expected_rp_id=site.rp_id, expected_origin=site.origin,
            credential_public_key=b64_bytes(row.public_key),
            credential_current_sign_count=int(row.sign_count or 0))
    except Exception as e:
        raise Refused(f"the passkey's answer was not accepted: {why(e)}", 401,
                      code="passkey") from None
    account = can_sign_in(await accounts_of(request.app.state).get(row.account_id))
    if not await passkeys.used(row.id, int(row.sign_count or 0), done.new_sign_count):
        raise Refused("this passkey was used at the same moment elsewhere: try again", 409,
                      code="passkey")
    return await signed_in_answer(request, account)


@one_line()
async def recover(request: Request) -> Response:
    """{"name", "code"} -> the account signed in with one of its recovery codes (used up),
    and how many are left; the page then asks for a new passkey."""
    body = await json_body(request, BODY_MAX)
    await take_rate(request, "signins")
    code = typed_code(body.get("code"), RECOVERY_LENGTH, "recovery code")
    name = body.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= 200:
        raise Refused("type the account's name", code="name")
    account = await accounts_of(request.app.state).by_name(name)
    passkeys = passkeys_of(request.app.state)
    # (a suspended account's code is checked, not used up: it may serve once the
    # suspension ends)
    if account is None or not await passkeys.use_code(
            account.id, code, keep=account.status != ACTIVE):
        raise Refused("that name and recovery code do not go together (or the code was "
                      "used)", 401, code="recovery")
    can_sign_in(account)
    return await signed_in_answer(request, account,
                                  {"codes_left": await passkeys.codes_left(account.id)})


@one_line()
async def new_recovery_codes(request: Request) -> Response:
    """{} -> ten new recovery codes for the signed-in account (the old ones end)."""
    account, _ = await require_account(request)
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    codes = await passkeys_of(request.app.state).new_codes(account.id)
    return JSONResponse({"recovery_codes": codes}, headers={"Cache-Control": "no-store"})


@one_line()
async def passkey_list(request: Request) -> Response:
    """The account's passkeys and how many recovery codes it has left."""
    account, _ = await require_account(request)
    passkeys = passkeys_of(request.app.state)
    return JSONResponse({"passkeys": [p.to_json() for p in await passkeys.of(account.id)],
                         "codes_left": await passkeys.codes_left(account.id)},
                        headers={"Cache-Control": "no-store"})


def passkey_id(body: dict[str, Any]) -> str:
    return b64url(body.get("id"), CREDENTIAL_ID_MAX, "the passkey's id")


@one_line()
async def passkey_rename(request: Request) -> Response:
    """{"id", "label"}: a passkey of the account named anew."""
    account, _ = await require_account(request)
    body = await json_body(request, BODY_MAX)
    cid = passkey_id(body)
    raw = body.get("label")
    label = line(raw, LABEL_MAX) if isinstance(raw, str) else ""
    if not label:
        raise Refused(f"a passkey's name has 1 to {LABEL_MAX} characters", code="label")
    if not await passkeys_of(request.app.state).rename(account.id, cid, label):
        raise Refused("the account has no such passkey", 404, code="passkey")
    return JSONResponse({"ok": True, "label": label})


@one_line()
async def passkey_remove(request: Request) -> Response:
    """{"id"}: one of the account's passkeys removed (never its last way in)."""
    account, _ = await require_account(request)
    body = await json_body(request, BODY_MAX)
    await passkeys_of(request.app.state).remove(account.id, passkey_id(body))
    return JSONResponse({"ok": True})


async def adding(request: Request, account: Account) -> tuple[Site, dict[str, Any], str]:
    """A new passkey's options for ``account`` (its own passkeys excluded) and their
    challenge's body."""
    passkeys = passkeys_of(request.app.state)
    have = [p.id for p in await passkeys.of(account.id)]
    if len(have) >= PASSKEYS_MAX:
        raise Refused(f"an account has at most {PASSKEYS_MAX} passkeys: remove one first",
                      409, code="passkeys_max")
    handle = await passkeys.user_handle(account.id) or b64_text(secrets.token_bytes(16))
    site = site_of(request)
    options, challenge = registration(site, b64_bytes(handle), account.name, have)
    return site, options, json.dumps({"challenge": challenge, "user_handle": handle})


@one_line()
async def add_begin(request: Request) -> Response:
    """{} -> a new passkey's options for the signed-in account, on this device (a
    challenge kept: counted with the sign-ins, so that one account cannot fill the
    challenges' table)."""
    account, _ = await require_account(request)
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    await take_rate(request, "signins")
    _, options, kept = await adding(request, account)
    key = await passkeys_of(request.app.state).keep(ADD, json.loads(kept), account.id)
    return JSONResponse({"challenge": key, "options": options},
                        headers={"Cache-Control": "no-store"})


async def add_finish_for(request: Request, body: dict[str, Any], account_id: str | None,
                         kept: dict[str, Any]) -> tuple[Account, Any]:
    """Check the new passkey's answer and keep it for the challenge's account (a device
    code's passkey: the code used up then, not before the answer is found good)."""
    credential = credential_of(body, ("clientDataJSON", "attestationObject"))
    site = site_of(request)
    account = can_sign_in(await accounts_of(request.app.state).get(account_id or ""))
    made = verified_registration(site, credential, kept["challenge"])
    cid = b64_text(made.credential_id)
    if cid != credential["id"]:
        raise Refused("the passkey's id is not the one it made", code="passkey")
    if "link" in kept and not await take_link(passkeys_of(request.app.state), kept["link"],
                                              account.id):
        raise Refused("this device code was used or has expired: make a new one on your "
                      "other device", 404, code="link")
    passkey = await passkeys_of(request.app.state).add(
        account.id, kept["user_handle"], cid, made.credential_public_key, made.sign_count,
        credential["transports"], label_of(body.get("label"), agent_of(request)))
    return account, passkey


@one_line()
async def add_finish(request: Request) -> Response:
    """{"challenge", "credential", "label"?}: the new passkey kept for the account."""
    account, _ = await require_account(request)
    body = await json_body(request, BODY_MAX)
    key = challenge_key(body)
    credential_of(body, ("clientDataJSON", "attestationObject"))
    got = await passkeys_of(request.app.state).take(key, ADD)
    if got is None or got[0] != account.id:
        raise Refused("this request has expired or was used: start again", 400,
                      code="challenge")
    _, passkey = await add_finish_for(request, body, got[0], got[1])
    return JSONResponse({"ok": True, "passkey": passkey.to_json()})


@one_line()
async def link_new(request: Request) -> Response:
    """{} -> a code for another device (``LINK_SECONDS``, used once; a new one ends the
    last), and its link (``/account/link#CODE``)."""
    account, _ = await require_account(request)
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    code = new_code(LINK_LENGTH)
    await passkeys_of(request.app.state).keep(LINK, {}, account.id, key=code)
    shown = printed(code, 4)
    return JSONResponse({"code": shown, "url": f"/account/link#{shown}",
                         "seconds": LINK_SECONDS}, headers={"Cache-Control": "no-store"})


@one_line()
async def link_begin(request: Request) -> Response:
    """{"code"} -> a new passkey's options for the code's account, on this device."""
    body = await json_body(request, BODY_MAX)
    await take_rate(request, "signins")
    code = typed_code(body.get("code"), LINK_LENGTH, "device code")
    passkeys = passkeys_of(request.app.state)
    got = await passkeys.take(code, LINK, peek=True)
    if got is None or got[0] is None:
        raise Refused("this device code is not known, was used or has expired: make a new "
                      "one on your other device", 404, code="link")
    account = can_sign_in(await accounts_of(request.app.state).get(got[0]))
    _, options, kept = await adding(request, account)
    key = await passkeys.keep(ADD, json.loads(kept) | {"link": key_hash(code)}, account.id)
    return JSONResponse({"challenge": key, "options": options, "name": account.name},
                        headers={"Cache-Control": "no-store"})


@one_line()
async def link_finish(request: Request) -> Response:
    """{"challenge", "credential", "label"?}: the new passkey kept, the device code used
    up, this device signed in."""
    body = await json_body(request, BODY_MAX)
    key = challenge_key(body)
    credential_of(body, ("clientDataJSON", "attestationObject"))
    passkeys = passkeys_of(request.app.state)
    got = await passkeys.take(key, ADD)
    if got is None or "link" not in got[1]:
        raise Refused("this request has expired or was used: start again", 400,
                      code="challenge")
    account, passkey = await add_finish_for(request, body, got[0], got[1])
    return await signed_in_answer(request, account, {"passkey": passkey.to_json()})


async def take_link(passkeys: Passkeys, link_hash: str, account_id: str | None) -> bool:
    """Use up the device code whose hash is ``link_hash`` (False: used or stale)."""
    now = passkeys.clock()

    def work(conn: Connection) -> bool:
        done = conn.execute(challenges_t.delete().where(
            challenges_t.c.key_hash == link_hash, challenges_t.c.purpose == LINK,
            challenges_t.c.account_id == account_id,
            challenges_t.c.created >= now - LINK_SECONDS))
        return bool(done.rowcount)
    return await passkeys.store.run(work)


async def account_page(request: Request) -> Response:
    """The account's page (``/account``, and ``/account/link`` for another device)."""
    path = STATIC / "account.html"
    if not path.is_file():
        raise Refused("the browser client is not installed with this copy of forties", 404)
    return FileResponse(path, media_type="text/html")


ROUTES: list[BaseRoute] = [
    Route("/account", account_page, methods=["GET"]),
    Route("/account/link", account_page, methods=["GET"]),
    Route("/api/account/signup/begin", signup_begin, methods=["POST"]),
    Route("/api/account/signup/finish", signup_finish, methods=["POST"]),
    Route("/api/account/signin/begin", signin_begin, methods=["POST"]),
    Route("/api/account/signin/finish", signin_finish, methods=["POST"]),
    Route("/api/account/recover", recover, methods=["POST"]),
    Route("/api/account/recovery/new", new_recovery_codes, methods=["POST"]),
    Route("/api/account/passkeys", passkey_list, methods=["GET"]),
    Route("/api/account/passkeys/rename", passkey_rename, methods=["POST"]),
    Route("/api/account/passkeys/remove", passkey_remove, methods=["POST"]),
    Route("/api/account/passkeys/begin", add_begin, methods=["POST"]),
    Route("/api/account/passkeys/finish", add_finish, methods=["POST"]),
    Route("/api/account/link/new", link_new, methods=["POST"]),
    Route("/api/account/link/begin", link_begin, methods=["POST"]),
    Route("/api/account/link/finish", link_finish, methods=["POST"]),
]

__all__ = ["BODY_MAX", "CHALLENGE_SECONDS", "LINK_SECONDS", "PREFIXES", "RECOVERY_COUNT",
           "ROUTES", "Passkey", "Passkeys", "Site", "passkeys_of", "site_of"]
