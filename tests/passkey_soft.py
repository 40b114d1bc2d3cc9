"""A software authenticator for the tests: passkeys (EC P-256, ES256) made and used in
Python, answering the server's WebAuthn options as a browser with a platform
authenticator would (attestation "none", user present and verified).

``SoftAuthenticator`` keeps its passkeys (private key, site, user handle, counter):

- ``register(options, origin)``: the answer to ``navigator.credentials.create()`` for the
  server's registration options (``options["rp"]["id"]`` is the site), as the JSON the
  browser's ``PublicKeyCredential.toJSON()`` gives; the new passkey is kept;
- ``sign_in(options, origin, credential_id=None)``: the answer to
  ``navigator.credentials.get()`` for the server's authentication options, signed by the
  passkey ``credential_id`` (by default the newest kept for the options' site), its
  counter moved on by one;
- ``rp_id``, ``counter`` and ``user_handle`` (keyword arguments of both) make the answers
  a hostile client sends: another site's, a counter gone back, another account's handle.

``sign_up(client, name, origin)`` and ``sign_in(client, origin)`` run the whole exchange
against a server (an in-process ``TestClient`` or an ``httpx.Client`` of a live one) and
return its last answer: other tests sign up quickly with them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import encode_cbor

FLAG_UP, FLAG_UV, FLAG_AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON writes bytes."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftPasskey:
    """One passkey: its id, key, site (RP ID), user handle and signature counter."""

    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    counter: int = 0

    def cose_key(self) -> bytes:
        """The public key as COSE (EC2, P-256, ES256), as the authenticator hands it."""
        numbers = self.key.public_key().public_numbers()
        return encode_cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})


def client_data(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                       "crossOrigin": False}).encode()


@dataclass
class SoftAuthenticator:
    """A device's passkeys (see the module's words)."""

    passkeys: list[SoftPasskey] = field(default_factory=list)

    def register(self, options: dict[str, Any], origin: str, *, rp_id: str | None = None,
                 flags: int = FLAG_UP | FLAG_UV) -> dict[str, Any]:
        """The answer to registration ``options`` made on a page of ``origin`` (the site
        ``rp_id``, by default the options' own); the new passkey is kept."""
        site = rp_id or options["rp"]["id"]
        passkey = SoftPasskey(id=secrets.token_bytes(16),
                              key=ec.generate_private_key(ec.SECP256R1()), rp_id=site,
                              user_handle=unb64(options["user"]["id"]))
        self.passkeys.append(passkey)
        auth_data = (hashlib.sha256(site.encode()).digest()
                     + bytes([flags | FLAG_AT]) + struct.pack(">I", passkey.counter)
                     + bytes(16) + struct.pack(">H", len(passkey.id)) + passkey.id
                     + passkey.cose_key())
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(passkey.id), "rawId": b64(passkey.id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data(
                    "webauthn.create", options["challenge"], origin)),
                    "attestationObject": b64(attestation), "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def passkey(self, credential_id: str | bytes | None = None,
                rp_id: str | None = None) -> SoftPasskey:
        """A kept passkey: by its id, else the newest for ``rp_id`` (any site: None)."""
        if credential_id is not None:
            want = unb64(credential_id) if isinstance(credential_id, str) else credential_id
            return next(p for p in self.passkeys if p.id == want)
        return next(p for p in reversed(self.passkeys) if rp_id in (None, p.rp_id))

    def sign_in(self, options: dict[str, Any], origin: str,
                credential_id: str | bytes | None = None, *, rp_id: str | None = None,
                counter: int | None = None, user_handle: bytes | None = None,
                flags: int = FLAG_UP | FLAG_UV) -> dict[str, Any]:
        """The answer to authentication ``options`` on a page of ``origin``, signed by
        a kept passkey (its counter moved on by one, or set to ``counter``)."""
        site = rp_id or options["rpId"]
        passkey = self.passkey(credential_id, None if credential_id else options["rpId"])
        passkey.counter = passkey.counter + 1 if counter is None else counter
        auth_data = (hashlib.sha256(site.encode()).digest() + bytes([flags])
                     + struct.pack(">I", passkey.counter))
        data = client_data("webauthn.get", options["challenge"], origin)
        signature = passkey.key.sign(auth_data + hashlib.sha256(data).digest(),
                                     ec.ECDSA(hashes.SHA256()))
        return {"id": b64(passkey.id), "rawId": b64(passkey.id), "type": "public-key",
                "response": {"clientDataJSON": b64(data),
                             "authenticatorData": b64(auth_data), "signature": b64(signature),
                             "userHandle": b64(user_handle if user_handle is not None
                                               else passkey.user_handle)},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}


def origin_of(client: Any) -> str:
    """The origin of the pages of the server ``client`` speaks to."""
    url = urlsplit(str(client.base_url))
    return f"{url.scheme}://{url.netloc}"


def sign_up(client: Any, name: str, device: SoftAuthenticator | None = None,
            origin: str | None = None) -> Any:
    """Sign up as ``name`` with a new passkey of ``device`` (a new one by default): the
    server's answer to the sign-up's finish (the client now holds the session cookie)."""
    device = device if device is not None else SoftAuthenticator()
    begun = client.post("/api/account/signup/begin", json={"name": name})
    assert begun.status_code == 200, begun.text
    got = begun.json()
    answer = device.register(got["options"], origin or origin_of(client))
    return client.post("/api/account/signup/finish",
                       json={"challenge": got["challenge"], "credential": answer})


def sign_in(client: Any, device: SoftAuthenticator, origin: str | None = None,
            credential_id: str | bytes | None = None) -> Any:
    """Sign in with a passkey of ``device``: the server's answer to the sign-in's finish."""
    begun = client.post("/api/account/signin/begin", json={})
    assert begun.status_code == 200, begun.text
    got = begun.json()
    answer = device.sign_in(got["options"], origin or origin_of(client), credential_id)
    return client.post("/api/account/signin/finish",
                       json={"challenge": got["challenge"], "credential": answer})


__all__ = ["SoftAuthenticator", "SoftPasskey", "b64", "origin_of", "sign_in", "sign_up",
           "unb64"]
