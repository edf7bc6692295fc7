"""The server's Ed25519 signing key: configured (HERALD_SIGNING_KEY, a PEM file), or
generated on first start into the data folder and kept there."""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from api.files import private_dir, tighten


class SigningKeyError(Exception):
    """The configured signing key cannot be read."""


def signing_key(default_path: Path) -> Ed25519PrivateKey:
    configured = os.environ.get("HERALD_SIGNING_KEY")
    path = Path(configured) if configured else default_path
    if path.exists():
        if not configured:
            tighten(path)  # the server's own file; a configured one is the operator's
        return _load(path)
    if configured:
        raise SigningKeyError(f"HERALD_SIGNING_KEY names {path}, which does not exist")
    key = Ed25519PrivateKey.generate()
    private_dir(path.parent)
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    # Written whole under a private name, then linked into place: processes starting
    # together on one data folder all end up with the one key that was linked first.
    staging = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as f:
        f.write(pem)
        f.flush()
        os.fsync(f.fileno())
    try:
        os.link(staging, path)
    except FileExistsError:
        return _load(path)
    finally:
        staging.unlink()
    return key


def _load(path: Path) -> Ed25519PrivateKey:
    try:
        key = load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError) as error:
        raise SigningKeyError(f"{path}: not an unencrypted PEM private key: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{path}: not an Ed25519 key")
    return key


def derived_key(key: Ed25519PrivateKey, purpose: str) -> bytes:
    """A secret for ``purpose`` derived from the signing key, so every server sharing the key
    (HERALD_SIGNING_KEY) derives the same one and nothing more is kept at rest."""
    raw = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return hmac.new(raw, f"herald|{purpose}".encode(), hashlib.sha256).digest()
