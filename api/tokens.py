"""Bearer tokens: made at random, kept only as hashes, compared in constant time.

Every token Herald hands out (seat, director, tournament player, registered player) is
stored as the SHA-256 of its UTF-8 bytes and checked with ``hmac.compare_digest`` on bytes,
so a token of any characters (non-ASCII included) is refused cleanly, never a 500. Seat
tokens of tournament games are derived from the server's key rather than stored, so a
player can fetch their own again (``/tournaments/{id}/my-games``) and the database holds
no token at all.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh random token (32 bytes, URL-safe text)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What is stored of a token: the hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(stored_hash: str, token: str | None) -> bool:
    """Whether ``token`` is the one ``stored_hash`` was made from (constant time)."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(stored_hash.encode(), hash_token(token).encode())


def same_secret(expected: str | None, given: str | None) -> bool:
    """Whether a configured secret (the admin token) equals the one given (constant time,
    on the UTF-8 bytes of their hashes, so the lengths and characters never matter)."""
    if not expected or not given:
        return False
    return matches(hash_token(expected), given)


def derived_token(key: bytes, *parts: str) -> str:
    """A token derived from the server's secret ``key`` and what it is for (for example a
    tournament game's id and seat): the same every time, unguessable without the key."""
    digest = hmac.new(key, "|".join(parts).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
