"""A leak-test harness for games with hidden information (issue 12), for any rule system.

Drive a game over HTTP as usual, and call :meth:`LeakScan.step` after each command (and
:meth:`LeakScan.full` at the moments worth a full scan, such as just before the end). The
harness knows every secret from the server's own stream (the stored events with their
``readers``): each string an event sealed for some seats holds is a secret of those seats from
that version until it first appears in a public event (a card played, a hand shown) or the
seed is revealed; when the same string is later sealed for other seats (a card discarded face
down, shuffled back and drawn by another), those seats may read it from then on. Every byte each *other* reader receives on every read path is scanned for
every secret live at that moment:

- readers: a spectator (no token), every other seat's token, the umpire's token (reading as a
  spectator outside an inspection), and any extra tokens given (a tournament player's);
- paths: ``GET /games/{id}``, ``/events``, ``/events/stream`` (SSE, per connection),
  ``/state`` (and ``?at=`` every version in a full scan), ``/timeline``, ``/record``,
  ``/legal-commands`` of every seat, ``/dice``, ``/annotations``, ``/disputes``, a fork
  attempt (and the fork, read with its seat tokens), the tournament's NDJSON export and
  archive (given ``tournament``), ``herald export`` and ``herald replay show`` / ``verify``
  on that export (full scans).

``GameCreated`` (and a tournament's ``TournamentCreated``) is the public set-up (its options may
list a deck's cards: which cards exist is public, where each one is is the secret): it is left
out of the scan, and out of what counts
as made public. The owners' own copies are scanned too, as a control: a seat must see each of its live
secrets somewhere (else the scan proves nothing). ``secret_values`` picks the strings of an
event's data that are secret (default: every string leaf that is not a seat id or a name
already public); pass your own for card ids that are not distinctive strings.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec

SecretValues = Callable[[str, dict[str, Any]], Iterable[str]]


def string_leaves(data: Any) -> Iterable[str]:
    """Every string in a JSON value, keys excluded."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from string_leaves(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from string_leaves(value)


def default_secret_values(event_type: str, data: dict[str, Any]) -> Iterable[str]:
    """Every string leaf but a command's ``type`` (what kind of decision it was is told by
    the public events beside it)."""
    if event_type == "DecisionTaken":
        data = {k: v for k, v in data.items() if k != "command"} | {
            "command": {k: v for k, v in data.get("command", {}).items() if k != "type"}}
    return string_leaves(data)


@dataclass
class Secret:
    value: str
    seats: frozenset[str]
    since: int  # the version of the sealed event that holds it
    until: int | None = None  # the first version where it is public


@dataclass
class Reader:
    name: str
    token: str | None
    seats: frozenset[str] = frozenset()


@dataclass
class LeakScan:
    client: Any  # a TestClient (or httpx.Client) on the app
    herald: Any  # the app's Herald: the harness reads the server's own stream for the secrets
    game: dict[str, Any]  # the POST /games response (id, seat_tokens)
    umpire_token: str | None = None
    extra: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)  # name -> (token, seats)
    tournament: str | None = None  # the game's tournament: its NDJSON export and archive are scanned too
    secret_values: SecretValues = default_secret_values
    min_length: int = 2  # shorter strings are not scanned for (they occur everywhere)
    scanned: int = 0  # (reader, path, secret) checks made
    secrets_checked: set[str] = field(default_factory=set)
    owners_saw: set[str] = field(default_factory=set)

    @property
    def id(self) -> str:
        return self.game["id"]

    def readers(self) -> list[Reader]:
        out = [Reader("spectator", None)]
        out += [Reader(f"seat {s}", t, frozenset({s})) for s, t in sorted(self.game["seat_tokens"].items())]
        if self.umpire_token:
            out.append(Reader("umpire", self.umpire_token))
        out += [Reader(name, token, seats) for name, (token, seats) in sorted(self.extra.items())]
        return out

    # -- the secrets, from the server's own stream -------------------------------------------
    def secrets(self) -> list[Secret]:
        stream = self.herald.store.stream(UUID(self.id))
        seats = set(self.game["seat_tokens"])
        public: set[str] = set(seats)
        found: dict[tuple[str, frozenset[str]], Secret] = {}
        for event in stream:
            if event.type == "SeedRevealed" or (event.type == "GameCreated" and event.data.get("study")):
                for secret in found.values():
                    if secret.until is None:
                        secret.until = event.version
                continue
            if event.type == "GameCreated":
                continue
            if event.readers is None:
                leaves = set(string_leaves(event.data))
                for secret in found.values():
                    if secret.until is None and secret.value in leaves:
                        secret.until = event.version
                public |= leaves
                continue
            for value in self.secret_values(event.type, event.data):
                if len(value) < self.min_length or value in public:
                    continue
                readers = frozenset(event.readers)
                for secret in found.values():  # a card discarded face down, shuffled back and drawn by
                    if secret.value == value and secret.until is None:  # another seat: that seat holds it now
                        secret.seats |= readers
                key = (value, readers)
                if key not in found or found[key].until is not None:
                    found[key] = Secret(value, readers, event.version)
        return list(found.values())

    def live(self) -> list[Secret]:
        return [s for s in self.secrets() if s.until is None]

    # -- scanning ----------------------------------------------------------------------------
    def _headers(self, reader: Reader) -> dict[str, str]:
        return {"Authorization": f"Bearer {reader.token}"} if reader.token else {}

    def _check(self, reader: Reader, path: str, body: bytes, live: list[Secret]) -> None:
        body = without_set_up(body)
        for secret in live:
            if reader.seats & secret.seats:
                if secret.value.encode() in body:
                    self.owners_saw.add(secret.value)
                continue
            self.scanned += 1
            self.secrets_checked.add(secret.value)
            assert secret.value.encode() not in body, (
                f"LEAK: {reader.name} reads {secret.value!r} (secret of {sorted(secret.seats)} since version "
                f"{secret.since}) on {path}")

    def _get(self, reader: Reader, path: str) -> bytes:
        response = self.client.get(f"/games/{self.id}{path}", headers=self._headers(reader))
        assert response.status_code < 500, f"{path}: {response.status_code} {response.text[:200]}"
        return response.content

    def _sse(self, reader: Reader, version: int) -> bytes:
        """Every byte of one SSE connection up to the event at ``version``."""
        chunks = []
        with self.client.stream("GET", f"/games/{self.id}/events/stream", headers=self._headers(reader)) as r:
            assert r.status_code == 200
            last = False
            for line in r.iter_lines():
                chunks.append(line)
                last = last or line == f"id: {version}"
                if last and not line:  # the blank line that ends the last event
                    break
        return "\n".join(chunks).encode()

    def step(self) -> None:
        """A quick scan after a command: the current game, the newest events, the board,
        the timeline and every seat's legal commands, for every reader."""
        live = self.live()
        version = self.client.get(f"/games/{self.id}").json()["version"]
        after = max(0, version - 8)
        for reader in self.readers():
            for path in ("", f"/events?after={after}", "/state", f"/timeline?after={after}"):
                self._check(reader, path or "/games/{id}", self._get(reader, path), live)
            for seat in sorted(self.game["seat_tokens"]):
                self._check(reader, f"/legal-commands?seat={seat}", self._get(reader, f"/legal-commands?seat={seat}"),
                            live)

    def full(self, tmp_path: Path | None = None) -> None:
        """Every read path for every reader, the board at every version included."""
        live = self.live()
        version = self.client.get(f"/games/{self.id}").json()["version"]
        for reader in self.readers():
            paths = ["", "/events?limit=1000", "/timeline?limit=1000", "/record", "/dice", "/annotations", "/disputes",
                     "/forks"]
            paths += [f"/state?at={v}" for v in range(1, version + 1)]
            paths += [f"/legal-commands?seat={s}" for s in sorted(self.game["seat_tokens"])]
            for path in paths:
                self._check(reader, path or "/games/{id}", self._get(reader, path), live)
            self._check(reader, "/events/stream", self._sse(reader, version), live)
            if self.tournament is not None:
                for path in ("games", "archive"):
                    body = self.client.get(f"/tournaments/{self.tournament}/{path}", headers=self._headers(reader))
                    assert body.status_code == 200, body.text
                    self._check(reader, f"/tournaments/{{id}}/{path}", body.content, live)
            fork = self.client.post(f"/games/{self.id}/fork", json={"version": version, "dice": "fresh"},
                                    headers=self._headers(reader))
            self._check(reader, "POST /fork", fork.content, live)
            if fork.status_code == 201:  # the fork holds only what this reader may read, and keeps the rest sealed
                forked = fork.json()
                # the umpire's fork is a recorded inspection: its seat tokens read everything, a spectator nothing
                tokens = [None] + ([] if reader.name == "umpire" else list(forked["seat_tokens"].values()))
                for path in ("", "/events?limit=1000", "/record", "/timeline?limit=1000"):
                    for token in tokens:
                        headers = {"Authorization": f"Bearer {token}"} if token else {}
                        body = self.client.get(f"/games/{forked['id']}{path}", headers=headers).content
                        self._check(reader, f"fork {path}", body, live)
        if tmp_path is not None:
            self.cli(tmp_path, live)

    def cli(self, tmp_path: Path, live: list[Secret]) -> None:
        """``herald export`` (as a spectator and as each seat) and ``herald replay show`` on it,
        run in-process on the same store."""
        from api.cli import main
        from replays.record_format import encode_record

        for reader in self.readers():
            if reader.name == "umpire":
                continue
            record = self.herald.games.record(UUID(self.id), self.herald.games.reader(UUID(self.id), reader.token))
            data = encode_record(record)
            self._check(reader, "herald export", data, live)
            path = tmp_path / f"{self.id}-{reader.name.replace(' ', '-')}.json"
            path.write_bytes(data)
            for args in (["replay", "show", str(path)], ["replay", "verify", str(path)]):
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    main(args)
                self._check(reader, "herald " + " ".join(args[:2]), out.getvalue().encode(), live)


SET_UP = ("GameCreated", "TournamentCreated")  # public set-ups: a tournament's options may list a deck too


def without_set_up(body: bytes) -> bytes:
    """The body with its set-up events left out (JSON pages and records, SSE streams)."""
    if b"Created" not in body:
        return body
    if body.startswith((b"id: ", b":")) or b"\nevent: " in body:  # SSE: drop the GameCreated event's block
        blocks = body.split(b"\n\n")
        return b"\n\n".join(b for b in blocks if b"event: GameCreated" not in b)
    try:
        value = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return body
    return msgspec.json.encode(_drop_created(value))


def _drop_created(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get("type") in SET_UP and "hash" in value:
            return None
        return {k: _drop_created(v) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) >= 2 and value[0] in SET_UP and isinstance(value[1], dict):  # a format-2 record's event
            return None
        return [_drop_created(v) for v in value]
    return value
