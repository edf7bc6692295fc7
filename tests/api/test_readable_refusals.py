"""Issue 24 point 2: a body over the limit is answered 413 problem+json that an ordinary
client reads. Python's urllib sends ``Connection: close`` and its whole body before it reads
a byte of the answer: a server that answers early and closes leaves it a reset connection
("Connection reset by peer", the outside tester's 16.7 MB record). Herald answers, reads the
rest of the body and throws it away (up to 4 times the record limit), then closes
(api/transfer.py, guard_body). Against a real uvicorn server (``herald serve``)."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import random
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import httpx
import pytest

from api.transfer import guard_body
from tests.conftest import start_server

LIMIT = 2**20  # the server's record limit here: HERALD_MAX_RECORD_BODY
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = start_server(tmp_path_factory.mktemp("refusals"), {"HERALD_MAX_RECORD_BODY": str(LIMIT)})
    yield running
    running.process.terminate()
    running.process.wait(timeout=30)


def urllib_post(url: str, body, headers: dict[str, str]) -> tuple[int, str, dict]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], json.loads(answer.read())
    except urllib.error.HTTPError as error:  # not a ConnectionResetError nor a BrokenPipeError
        return error.code, error.headers["Content-Type"], json.loads(error.read())


def big_body(size: int) -> bytes:
    return b'{"header": "' + b"x" * size + b'"}'


@pytest.mark.parametrize("size", [LIMIT + 1, 3 * LIMIT, 4 * LIMIT - 100])
def test_urllib_reads_the_413_of_a_body_declared_too_large(server, size):
    status, media, problem = urllib_post(server.url + "/records/verify", big_body(size), JSON)
    assert (status, media, problem["code"]) == (413, "application/problem+json", "too_large")
    assert str(LIMIT) in problem["detail"]


def test_urllib_reads_the_413_of_a_chunked_body_that_grows_too_large(server):
    """No Content-Length: the body is refused once it passes the limit as it streams in."""
    def parts():
        yield b'{"header": "'
        for _ in range(3 * LIMIT // 65536):
            yield b"x" * 65536
        yield b'"}'

    status, media, problem = urllib_post(server.url + "/records/verify", parts(), JSON)
    assert (status, media, problem["code"]) == (413, "application/problem+json", "too_large")


def test_urllib_reads_the_413_of_a_gzip_body_decoding_too_large_and_of_a_bomb(server):
    rnd = random.Random(24)
    words = [bytes(rnd.choice(b"abcdefghij") for _ in range(8)) for _ in range(5000)]
    text = b'{"header": "' + b" ".join(rnd.choice(words) for _ in range(2 * LIMIT // 9)) + b'"}'
    zipped = gzip.compress(text)
    assert len(zipped) < LIMIT < len(text)  # under the limit as sent, past it decoded, at under 5:1
    status, _, problem = urllib_post(server.url + "/viewer/record", zipped, {**JSON, "Content-Encoding": "gzip"})
    assert (status, problem["code"]) == (413, "too_large")
    bomb = gzip.compress(bytes(64 * LIMIT), 9)
    status, _, problem = urllib_post(server.url + "/records/verify", bomb, {**JSON, "Content-Encoding": "gzip"})
    assert (status, problem["code"]) == (413, "compression_ratio")


def test_urllib_reads_refusals_made_before_any_byte_of_the_body(server):
    """Refusals ahead of reading: a content coding not taken, a body that is not JSON."""
    status, _, problem = urllib_post(server.url + "/records/verify", big_body(LIMIT // 2),
                                     {**JSON, "Content-Encoding": "br"})
    assert (status, problem["code"]) == (415, "unsupported_encoding")
    status, _, problem = urllib_post(server.url + "/records/verify", big_body(LIMIT // 2),
                                     {"Content-Type": "text/plain"})
    assert (status, problem["code"]) == (415, "unsupported_media_type")


def test_httpx_reads_the_413_and_its_connection_is_not_reused(server):
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(2):
            refused = client.post("/records/verify", content=big_body(2 * LIMIT), headers=JSON)
            assert refused.status_code == 413 and refused.json()["code"] == "too_large"
            assert refused.headers["connection"] == "close"
        assert client.get("/health").status_code == 200  # a new connection, the server well


def test_a_body_within_the_limit_is_read_and_judged(server):
    status, _, problem = urllib_post(server.url + "/records/verify", big_body(LIMIT - 100), JSON)
    assert (status, problem["code"]) == (422, "invalid_body")


def test_a_client_waiting_for_100_continue_gets_the_413_without_sending_its_body(server):
    """curl's way for a large body: ``Expect: 100-continue``; the refusal comes instead of the
    100, and the connection closes (the body it did not send is not the next request)."""
    target = urlsplit(server.url)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
    connection.putrequest("POST", "/records/verify")
    for name, value in {**JSON, "Content-Length": str(10 * LIMIT), "Expect": "100-continue"}.items():
        connection.putheader(name, value)
    connection.endheaders()
    answer = connection.getresponse()
    assert answer.status == 413 and answer.getheader("Connection") == "close"
    assert json.loads(answer.read())["code"] == "too_large"
    connection.close()


async def _asgi(app, headers: list[tuple[bytes, bytes]], parts: list[bytes], drain: int) -> tuple[list, int]:
    """``app`` behind guard_body with a body in ``parts``; the messages sent and parts read."""
    sent: list[dict] = []
    given = 0

    async def receive() -> dict:
        nonlocal given
        if given < len(parts):
            given += 1
            return {"type": "http.request", "body": parts[given - 1], "more_body": given < len(parts)}
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
    await guard_body(app, scope, receive, send, drain)
    return sent, given


async def _refuse_at_once(scope, receive, send) -> None:
    await send({"type": "http.response.start", "status": 413, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"{}"})


def test_the_guard_drains_within_its_bound_and_closes():
    parts = [b"x" * 1000] * 10
    length = [(b"content-length", b"10000")]
    sent, read = asyncio.run(_asgi(_refuse_at_once, length, parts, drain=20_000))
    assert read == 10  # all of it read, after the answer's bytes were sent
    assert (b"connection", b"close") in sent[0]["headers"]
    assert [m.get("body") for m in sent[1:]] == [b"{}", b""] and sent[-1].get("more_body") is False
    sent, read = asyncio.run(_asgi(_refuse_at_once, length, parts, drain=5_000))
    assert read == 0 and (b"connection", b"close") in sent[0]["headers"]  # declared past the bound: not read
    sent, read = asyncio.run(_asgi(_refuse_at_once, [(b"transfer-encoding", b"chunked")], parts, drain=5_000))
    assert read == 6  # chunked: read until past the bound, then closed
    sent, read = asyncio.run(_asgi(_refuse_at_once, [*length, (b"expect", b"100-continue")], parts, drain=20_000))
    assert read == 0 and (b"connection", b"close") in sent[0]["headers"]  # the client waits for a 100


def test_the_guard_leaves_a_read_body_and_a_bodiless_request_alone():
    async def read_then_answer(scope, receive, send) -> None:
        while (await receive()).get("more_body"):
            pass
        await _refuse_at_once(scope, receive, send)

    sent, read = asyncio.run(_asgi(read_then_answer, [(b"content-length", b"2000")], [b"x" * 1000] * 2, 10))
    assert read == 2 and sent[0]["headers"] == [(b"content-length", b"2")] and len(sent) == 2
    sent, read = asyncio.run(_asgi(_refuse_at_once, [(b"content-length", b"0")], [], 10))
    assert sent[0]["headers"] == [(b"content-length", b"2")] and len(sent) == 2
