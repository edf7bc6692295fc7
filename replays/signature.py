"""Ed25519 signatures over a record's chain head: whoever holds the server's public key
can check that this server exported a record ending at that head."""

from __future__ import annotations

import hashlib

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ALGORITHM = "ed25519"


class Signature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A signature over ``{"game", "version", "hash"}`` (canonical JSON) by ``key``."""

    alg: str
    key: str  # the public key, 32 bytes in hex
    version: int
    hash: str
    sig: str


def message(game: str, version: int, head_hash: str) -> bytes:
    return msgspec.json.encode({"game": game, "version": version, "hash": head_hash}, order="sorted")


def public_hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def key_id(public: str) -> str:
    """A short fingerprint of a public key."""
    return hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16]


def sign(private: Ed25519PrivateKey, game: str, version: int, head_hash: str) -> Signature:
    sig = private.sign(message(game, version, head_hash))
    return Signature(ALGORITHM, public_hex(private.public_key()), version, head_hash, sig.hex())


def check(signature: Signature, game: str) -> bool:
    """True when ``signature`` is a valid Ed25519 signature by its own key."""
    if signature.alg != ALGORITHM:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(signature.key))
        key.verify(bytes.fromhex(signature.sig), message(game, signature.version, signature.hash))
    except (ValueError, InvalidSignature):
        return False
    return True
