"""Issue 24 point 2, HTTP as the ecosystem does it: request bodies may come gzipped
(``Content-Encoding: gzip``), decoded as they arrive within a limit counted on the decoded
bytes and a bound on the compression ratio; answers are gzipped for a client that asks
(``Accept-Encoding: gzip``), never the live stream. Bad input is never a 500 and never
changes the store (api/transfer.py, api/http.read_raw)."""

from __future__ import annotations

import gzip
import json
import random
import time
import tracemalloc
import zlib

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.errors import TooLarge
from api.transfer import MAX_RATIO, Inflater, MalformedGzip
from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, play_open_table

JSON = {"Content-Type": "application/json"}
GZIPPED = {**JSON, "Content-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}
ZIPPED = {"Accept-Encoding": "gzip"}
GIB_OF_ZEROS_CRC32 = 1533330096  # zlib.crc32(bytes(2**30)): the trailer of a whole 1 GiB member


def played(client, rolls: int = 30) -> dict:
    """An open-table game with ``rolls`` rolls, a draw and a shuffle."""
    game = new_game(client)
    for i in range(rolls):
        assert post(client, game, "alice", {"type": "roll", "label": f"roll {i}", "dice": "3d6"}).status_code == 201
    return game


def record_bytes(client, game: dict) -> bytes:
    response = client.get(f"/games/{game['id']}/record", headers=PLAIN)
    assert response.status_code == 200 and "content-encoding" not in response.headers
    return response.content


def zeros_bomb(mebibytes: int) -> bytes:
    """One gzip member of ``mebibytes`` MiB of zeros (with its true trailer when 1024), built
    from one compressed MiB repeated: a full flush makes every later MiB the same bytes."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    mib = bytes(2**20)
    first = z.compress(mib) + z.flush(zlib.Z_FULL_FLUSH)
    again = z.compress(mib) + z.flush(zlib.Z_FULL_FLUSH)
    end = z.flush()[:-8]  # the final empty block, without the trailer of one MiB
    crc = GIB_OF_ZEROS_CRC32 if mebibytes == 1024 else zlib.crc32(bytes(mebibytes * 2**20))
    trailer = crc.to_bytes(4, "little") + (mebibytes * 2**20 % 2**32).to_bytes(4, "little")
    return first + again * (mebibytes - 1) + end + trailer


def test_the_bomb_is_a_true_gzip_stream():
    assert gzip.decompress(zeros_bomb(3)) == bytes(3 * 2**20)
    assert len(zeros_bomb(1024)) < 1_100_000  # a 1 GiB body in about 1 MB


def test_a_gzipped_record_verifies_as_the_plain_one(client):
    game = played(client)
    raw = record_bytes(client, game)
    plain = client.post("/records/verify", content=raw, headers=JSON)
    assert plain.status_code == 200 and plain.json()["ok"] is True, plain.text
    for encoding, body in (("gzip", gzip.compress(raw)), ("x-gzip", gzip.compress(raw, 1)),
                           ("identity, gzip", gzip.compress(raw)), ("GZIP", gzip.compress(raw)),
                           ("gzip", gzip.compress(raw[:1000]) + b"\0\0" + gzip.compress(raw[1000:]))):  # 2 members
        verified = client.post("/records/verify", content=body, headers={**JSON, "Content-Encoding": encoding})
        assert verified.status_code == 200, (encoding, verified.text)
        assert verified.json() == plain.json()
    assert client.post("/records/verify", content=raw, headers={**JSON, "Content-Encoding": "identity"}).json() \
        == plain.json()


def test_a_gzipped_record_opens_in_the_viewer_and_a_gzipped_command_is_recorded(client):
    game = played(client, 3)
    raw = record_bytes(client, game)
    opened = client.post("/viewer/record", content=gzip.compress(raw), headers=GZIPPED)
    assert opened.status_code == 200 and opened.json()["verdict"]["ok"] is True
    command = json.dumps({"seat": "alice", "command": {"type": "roll", "label": "zipped", "dice": "1d6"}}).encode()
    recorded = client.post(f"/games/{game['id']}/commands", content=gzip.compress(command),
                           headers={**GZIPPED, "Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    assert recorded.status_code == 201, recorded.text
    created = client.post("/games", content=gzip.compress(json.dumps(
        {"rules": "open-table", "seats": {"alice": {"player": "Alice"}}}).encode()), headers=GZIPPED)
    assert created.status_code == 201, created.text


@pytest.mark.parametrize("path", ["/records/verify", "/viewer/record", "/games"])
def test_a_broken_gzip_stream_is_a_400_naming_it(client, path):
    game = played(client, 2)
    zipped = gzip.compress(record_bytes(client, game))
    for body, says in ((zipped[: len(zipped) // 2], "ends early"), (zipped[:-4], "ends early"),
                       (b"not gzip at all", "not a valid gzip stream"), (b"", "empty"),
                       (zipped[:20] + bytes(b ^ 0xFF for b in zipped[20:40]) + zipped[40:], "gzip")):
        refused = client.post(path, content=body, headers=GZIPPED)
        assert refused.status_code == 400, (body[:30], refused.text)
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "malformed_gzip" and says in refused.json()["detail"]


@pytest.mark.parametrize("encoding", ["br", "deflate", "zstd", "compress", "gzip, gzip", "gzip, br", "*"])
def test_another_content_coding_is_a_415_naming_those_taken(client, encoding):
    game = played(client, 1)
    for path in ("/records/verify", f"/games/{game['id']}/commands"):
        refused = client.post(path, content=b"{}", headers={**JSON, "Content-Encoding": encoding,
                                                            "Authorization": f"Bearer {game['seat_tokens']['alice']}"})
        assert refused.status_code == 415, refused.text
        assert refused.json()["code"] == "unsupported_encoding"
        assert "gzip" in refused.json()["detail"] and "identity" in refused.json()["detail"]
        assert refused.headers["accept-encoding"] == "gzip, identity"  # RFC 7694


def test_a_gzip_bomb_is_refused_early_holding_little(client):
    """1 GiB of zeros in about 1 MB: refused once the first MiB or so is decoded."""
    bomb = zeros_bomb(1024)
    started = time.monotonic()
    refused = client.post("/records/verify", content=bomb, headers=GZIPPED)
    assert time.monotonic() - started < 5
    assert refused.status_code == 413 and refused.json()["code"] == "compression_ratio", refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    tracemalloc.start()
    try:
        inflater = Inflater(64 * 2**20)
        with pytest.raises(TooLarge) as caught:
            for at in range(0, len(bomb), 65536):
                inflater.feed(bomb[at:at + 65536])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.code == "compression_ratio"
    assert inflater.size < 2 * 2**20 and peak < 4 * 2**20, (inflater.size, peak)


def test_the_limit_counts_the_decoded_bytes_and_the_bytes_sent(herald):
    """A body that compresses 10:1 (under the ratio bound) decoding past the limit is a 413, and
    so is one whose bytes as sent are past it (random bytes do not compress)."""
    limit = 2**20
    app = create_app(herald, Settings(admin_token=ADMIN_TOKEN, max_record_body=limit))
    rnd = random.Random(24)
    words = [bytes(rnd.choice(b"abcdefghij") for _ in range(8)) for _ in range(5000)]
    text = b'{"x": "' + b" ".join(rnd.choice(words) for _ in range(limit // 8)) + b'"}'
    zipped = gzip.compress(text)
    assert len(text) > limit > len(zipped) and len(text) / len(zipped) < MAX_RATIO
    random_bytes = rnd.randbytes(limit + 10)
    with TestClient(app) as client:
        decoded = client.post("/records/verify", content=zipped, headers=GZIPPED)
        assert decoded.status_code == 413 and decoded.json()["code"] == "too_large"
        assert "decodes to more than" in decoded.json()["detail"]
        sent = client.post("/records/verify", content=gzip.compress(random_bytes, 1), headers=GZIPPED)
        assert sent.status_code == 413 and sent.json()["code"] == "too_large"
        fits = client.post("/records/verify", content=gzip.compress(text[: limit - 2] + b'"}'), headers=GZIPPED)
        assert fits.status_code == 422, fits.text  # within the limit: read, and not a record


def test_the_inflater_takes_any_split_of_the_stream():
    text = json.dumps({"events": [{"version": i, "data": "x" * (i % 50)} for i in range(3000)]}).encode()
    zipped = gzip.compress(text)
    rnd = random.Random(7)
    for _ in range(20):
        inflater, parts, at = Inflater(len(text)), [], 0
        while at < len(zipped):
            step = rnd.choice((1, 7, 100, 4096, 65536))
            parts += inflater.feed(zipped[at:at + step])
            at += step
        inflater.finish()
        assert b"".join(parts) == text
    with pytest.raises(TooLarge):  # one byte too many
        inflater = Inflater(len(text) - 1)
        inflater.feed(zipped)
    inflater = Inflater(len(text))
    inflater.feed(zipped[:-1])
    with pytest.raises(MalformedGzip):
        inflater.finish()


def test_mangled_gzip_bodies_are_never_a_500_and_change_nothing(client):
    """A fuzz-ish loop: truncations, flipped bytes and random bytes in a gzip stream, on a
    record route and on the command route; never a 500, and the game is unchanged."""
    game = played(client, 3)
    zipped = gzip.compress(record_bytes(client, game))
    command = gzip.compress(json.dumps({"seat": "alice", "command": {"type": "roll", "label": "x",
                                                                     "dice": "1d6"}}).encode())
    auth = {"Authorization": f"Bearer {game['seat_tokens']['alice']}"}
    before = client.get(f"/games/{game['id']}/events", params={"limit": 1000}).json()
    rnd = random.Random(2024)
    for case in range(150):
        source = zipped if case % 2 else command
        mangled = bytearray(source)
        kind = case % 5
        if kind == 0:
            mangled = mangled[: rnd.randrange(len(mangled))]
        elif kind == 1:
            for _ in range(rnd.randint(1, 8)):
                mangled[rnd.randrange(len(mangled))] = rnd.randrange(256)
        elif kind == 2:
            mangled = bytearray(rnd.randbytes(rnd.randint(0, 3000)))
        elif kind == 3:
            mangled = mangled[:10] + rnd.randbytes(rnd.randint(1, 200)) + mangled[10:]
        else:
            mangled = b"\x1f\x8b" + rnd.randbytes(rnd.randint(0, 500))
        path = "/records/verify" if case % 2 else f"/games/{game['id']}/commands"
        if kind == 1 and case % 2 == 0:
            continue  # a flipped byte in a command's stream may still decode to a legal command
        answer = client.post(path, content=bytes(mangled), headers={**GZIPPED, **auth})
        assert answer.status_code in (200, 400, 413, 422), (case, answer.status_code, answer.text)
        assert answer.status_code == 200 or answer.headers["content-type"] == "application/problem+json"
    assert client.get(f"/games/{game['id']}/events", params={"limit": 1000}).json() == before


def _same_json_gzipped(client, path: str, **params) -> dict:
    zipped = client.get(path, params=params, headers=ZIPPED)
    plain = client.get(path, params=params, headers=PLAIN)
    assert zipped.status_code == plain.status_code == 200, zipped.text
    assert zipped.headers["content-encoding"] == "gzip", (path, zipped.headers)
    assert "content-encoding" not in plain.headers
    for answer in (zipped, plain):
        assert "accept-encoding" in answer.headers["vary"].lower()
    assert zipped.content == plain.content  # httpx decoded it: the same bytes as the plain answer
    return plain.headers


def test_large_answers_are_gzipped_for_a_client_that_asks(client):
    game = played(client, 20)
    _same_json_gzipped(client, f"/games/{game['id']}/record")
    _same_json_gzipped(client, f"/games/{game['id']}/events", limit=100)
    _same_json_gzipped(client, f"/games/{game['id']}/timeline")
    raw = client.get(f"/games/{game['id']}/record", headers=ZIPPED)
    assert raw.headers["content-length"] != str(len(raw.content))  # what travelled is the smaller


def test_tournament_exports_are_gzipped_too(client):
    rng = random.Random("exports")
    run = open_tournament(client, ["Ann", "Bert", "Cid", "Dora"], rules="open-table", format="swiss", rounds=1)
    pair(client, run)
    tokens = my_seat_tokens(client, run, 1)
    for table in run.rounds[-1]["tables"]:
        play_open_table(client, table["game"], tokens[table["game"]], rng, moves=4,
                        outcome={"winner": "p1", "reason": "simulated"})
    headers = _same_json_gzipped(client, f"/tournaments/{run.id}/games")
    assert headers["content-type"].startswith("application/x-ndjson")
    _same_json_gzipped(client, f"/tournaments/{run.id}/archive")


def test_small_answers_the_live_stream_and_remembered_positions_go_as_they_are(client):
    game = played(client, 30)
    for seat in ("alice", "bob"):  # both agree: the game ends, and so does its stream
        assert post(client, game, seat, {"type": "end", "outcome": {"draw": True}}).status_code == 201
    health = client.get("/health", headers=ZIPPED)
    assert health.status_code == 200 and "content-encoding" not in health.headers
    with client.stream("GET", f"/games/{game['id']}/events/stream", headers=ZIPPED) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in stream.headers
        text = "".join(stream.iter_text())  # the game has ended: the stream closes after its events
    assert text.count("event: DiceRolled") == 30
    for _ in range(2):  # a spectator's past position, rendered then answered from memory
        state = client.get(f"/games/{game['id']}/state", params={"at": 5}, headers=ZIPPED)
        assert state.status_code == 200 and state.json()["version"] == 5


@pytest.mark.parametrize("header, taken", [
    (b"gzip", True), (b"gzip, deflate, br, zstd", True), (b"GZIP;q=0.5", True), (b"br;q=1, gzip;q=0.1", True),
    (b"*", True), (b"x-gzip", True), (b"identity", False), (b"gzip;q=0", False), (b"gzip;q=0.0, *", False),
    (b"br, *;q=0", False), (b"", False), (b"deflate", False)])
def test_accept_encoding_is_read_with_its_weights(header, taken):
    from api.transfer import accepts_gzip

    assert accepts_gzip(header) is taken


def test_a_client_that_refuses_gzip_gets_the_answer_as_it_is(client):
    game = played(client, 20)
    refused = client.get(f"/games/{game['id']}/record", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused.headers and refused.headers["vary"] == "Accept-Encoding"
    assert refused.content == record_bytes(client, game)
