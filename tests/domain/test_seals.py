"""DESIGN.md, "Hidden information": the seal vectors of ../shared/vectors/seals.json, and the
chain over the sealed form."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

import pytest

from domain import seals
from domain.chain import link_hash
from domain.events import DecisionTaken
from domain.game import chain

VECTORS = json.loads((Path(__file__).parent / "seals_vectors.json").read_text())
SEED = bytes.fromhex(VECTORS["server_seed_hex"])
GAME = UUID(VECTORS["game_id"])


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: f"v{c['version']}")
def test_seal_vectors(case):
    """"SEAL = sha256(salt || canonical data).hexdigest() and salt = HMAC-SHA256(server_seed,
    f"seal|{game_id}|{version}")"."""
    salt = seals.salt(SEED, GAME, case["version"])
    assert salt.hex() == case["salt_hex"]
    assert seals.canonical(case["data"]) == case["canonical_utf8"].encode()
    assert seals.seal(salt, case["data"]) == case["seal_sha256_hex"]


def test_the_chain_covers_the_sealed_form_not_the_data():
    """"The hash chain covers the sealed form, so every reader ... verifies the whole chain"."""
    now = datetime(2026, 11, 30, tzinfo=timezone.utc)
    event = DecisionTaken(seat="p2", command={"type": "discard", "card": "QH"})
    [sealed] = chain(GAME, 7, "0" * 64, [event], now, [frozenset({"p2"})], SEED)
    [public] = chain(GAME, 7, "0" * 64, [event], now)
    salt = seals.salt(SEED, GAME, 7)
    assert sealed.readers == ("p2",) and sealed.seal == seals.seal(salt, sealed.data)
    form = {"sealed": sealed.seal, "for": ["p2"]}
    assert sealed.hashed_data == form
    assert sealed.hash == link_hash("game", GAME, 7, "DecisionTaken", form, "0" * 64, now.isoformat(timespec="microseconds"))
    assert sealed.hash != public.hash and public.hashed_data == public.data
    assert seals.is_sealed_form(form) and not seals.is_sealed_form(sealed.data)
