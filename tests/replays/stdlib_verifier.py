"""A third party's verifier of a `herald-record/2` record, written from docs/record-format.md
alone: the Python standard library only (json, hashlib, hmac, datetime), nothing of Herald's.

It checks what the page says anyone can check without the rules: the chain up to the signed
head (and receipts), the seed commitment, the draw numbers, every die from the seed, and every
seal once the seed is revealed. It returns the problems found, in words; none: the record holds.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from datetime import datetime, timedelta, timezone

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
STANDARD_DICE = {"saladin-combat": ["blank", "blank", "stroke", "stroke", "double", "slash"]}


def _float(x: float) -> str:
    text = repr(x)
    if "e" not in text and "inf" not in text and "nan" not in text:
        return text
    if 1e-5 <= abs(x) < 1e-4:  # plain notation from 1e-5 on: Python writes 1.5e-05
        mantissa, exponent = text.split("e")
        digits = mantissa.lstrip("-").replace(".", "")
        return ("-" if x < 0 else "") + "0." + "0" * (-int(exponent) - 1) + digits.rstrip("0")
    mantissa, exponent = text.split("e")
    return f"{mantissa}e{int(exponent)}"


def _encode(value) -> str:
    """JSON as json.dumps writes it (sorted keys, no white space, UTF-8), floats as the page says."""
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _encode(value[k]) for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_encode(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def canonical(value) -> bytes:
    return _encode(value).encode()


def time_text(at) -> str:
    if isinstance(at, str):
        return at
    moment = EPOCH + timedelta(microseconds=at)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"


def _draw_bytes(seed: bytes, game: str, client_seed: str, n: int):
    k = 0
    while True:
        yield hmac.new(seed, f"{game}|{client_seed}|{n}|{k}".encode(), hashlib.sha256).digest()
        k += 1


def uniform(seed: bytes, game: str, client_seed: str, n: int, m: int) -> int:
    limit = 2**32 - (2**32 % m)
    for block in _draw_bytes(seed, game, client_seed, n):
        for i in range(0, 32, 4):
            x = int.from_bytes(block[i:i + 4], "big")
            if x < limit:
                return x % m
    raise AssertionError


def faces_of(kind: str, die_kinds: dict[str, list]) -> list | None:
    if kind in die_kinds:
        return die_kinds[kind]
    if kind in STANDARD_DICE:
        return STANDARD_DICE[kind]
    found = re.fullmatch(r"d([1-9][0-9]*)", kind)
    return list(range(1, int(found[1]) + 1)) if found else None


def blind_client_seed(events: list, offered: dict) -> tuple[str, list[str]]:
    """The client seed of a game whose seeds are blind: SHA-256 (hex) of the JSON, sorted keys
    and no white space, of {seat: seed} over every seat but the bots', each seed from the
    SeatTaken or SeedGiven that gave it; every one recorded after GameCreated (which holds the
    commitment) and before the first draw."""
    problems, seeds, first_draw = [], {}, None
    for version, type_, data, _, _, _ in events:
        if type_ in ("SeatTaken", "SeedGiven") and data.get("seed") is not None:
            if first_draw is not None:
                problems.append(f"version {version}: a seat's seed given after the first draw (version {first_draw})")
            seeds[data["seat"]] = data["seed"]
        if first_draw is None and isinstance(data, dict) and "draws" in data:
            first_draw = version
    bots = set(offered.get("bots", {}))
    seats = [v for v in events[0][2]["seats"] if v not in bots]
    missing = [s for s in seats if s not in seeds]
    if missing and first_draw is not None:
        problems.append(f"dice drawn before seat(s) {', '.join(missing)} gave their seed")
    text = json.dumps(seeds, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest(), problems


def verify(record: dict, die_kinds: dict[str, list] | None = None, receipts: list[dict] = ()) -> list[str]:
    """The problems of ``record`` (parsed JSON); ``die_kinds`` as GET /rules/{rules} serves them."""
    problems: list[str] = []
    if record.get("format") != "herald-record/2":
        return [f"not a herald-record/2 record: {record.get('format')!r}"]
    header = record["header"]
    game = header["game"].lower()
    rules_prefix = header["rules"] + "."
    events = []  # (version, type, data, recorded_at, salt, for)
    prev, last_at, hashes = "0" * 64, None, {}
    for version, item in enumerate(record["events"], start=1):
        type_, data = item[0], item[1]
        if type_.startswith("."):
            type_ = rules_prefix + type_[1:]
        at = item[2] if len(item) > 2 and item[2] is not None else None
        recorded_at = time_text(at) if at is not None else last_at
        salt, readers = (item[3]["salt"], item[3]["for"]) if len(item) == 4 else (None, None)
        hashed = data
        if salt is not None:
            hashed = {"sealed": hashlib.sha256(bytes.fromhex(salt) + canonical(data)).hexdigest(),
                      "for": sorted(readers)}
        prev = hashlib.sha256(canonical({"game": game, "version": version, "type": type_, "data": hashed,
                                         "prev_hash": prev, "recorded_at": recorded_at})).hexdigest()
        hashes[version] = prev
        events.append((version, type_, data, recorded_at, salt, readers))
        last_at = recorded_at
    head = record["head"]
    if head != {"version": len(events), "hash": prev}:
        problems.append(f"the chain recomputed ends at version {len(events)} hash {prev}, not at the head {head}")
    signature = record.get("signature")
    if signature and (signature["version"], signature["hash"]) != (head["version"], head["hash"]):
        problems.append("the signature names another head")
    for receipt in receipts:
        if hashes.get(receipt["version"]) != receipt["hash"]:
            problems.append(f"the receipt for version {receipt['version']} does not hold")
    if not events or events[0][1] != "GameCreated":
        return problems + ["the first event is not GameCreated"]
    created = events[0][2]
    if created.get("seed_commitment") != record["seed_commitment"]:
        problems.append("seed_commitment differs from GameCreated's")

    seed = bytes.fromhex(record["seed"]) if record.get("seed") else None
    if seed is not None and hashlib.sha256(seed).hexdigest() != record["seed_commitment"]:
        problems.append("the seed does not match its commitment")
        seed = None
    fork = header.get("fork")
    draw_key = fork["game"].lower() if fork and fork.get("dice") == "same" else game
    client_seed = header["client_seed"]
    blind = [data for _, type_, data, _, _, _ in events if type_ == "SeatsOffered" and data.get("blind_seeds")]
    if blind:  # seeds chosen blind: each person's seat gives its own after the commitment
        client_seed, problems_ = blind_client_seed(events, blind[0])
        problems += problems_
    expected = 0
    previous = None
    for version, type_, data, _, salt, readers in events:
        if type_ == "VoidedCardsReshuffled" and previous not in ("DecisionsVoided", "VoidedCardsReshuffled"):
            problems.append(f"version {version}: a void's reshuffle that does not follow a DecisionsVoided")
        previous = type_
        if type_ in ("DiceRolled", "DiceForced", "CardsShuffled", "VoidedCardsReshuffled"):
            for n in data["draws"]:
                if n != expected:
                    problems.append(f"version {version}: draw {n} out of sequence, expected {expected}")
                expected = n + 1
        copied = fork is not None and version <= fork["version"]
        if seed is not None and type_ == "DiceRolled" and not copied:
            faces = faces_of(data["kind"], die_kinds or {})
            if faces is None:
                problems.append(f"version {version}: no faces known for die kind {data['kind']!r}")
                continue
            for n, face in zip(data["draws"], data["faces"], strict=True):
                if faces[uniform(seed, draw_key, client_seed, n, len(faces))] != face:
                    problems.append(f"version {version}: draw {n} shows {face!r}, not what the seed gives")
        if type_ in ("CardsShuffled", "VoidedCardsReshuffled") and len(data["draws"]) != max(data["size"] - 1, 0):
            problems.append(f"version {version}: a shuffle of {data['size']} cards takes {data['size'] - 1} draws")
        if seed is not None:
            if isinstance(data, dict) and data.keys() == {"sealed", "for"}:
                problems.append(f"version {version}: still sealed though the seed is revealed")
            if salt is not None:
                own = hmac.new(seed, f"seal|{game}|{version}".encode(), hashlib.sha256).hexdigest()
                if own != salt:
                    problems.append(f"version {version}: the salt is not the one the seed gives")
    if created.get("clock"):
        problems += check_clock(created["clock"], events)
    return problems


def check_clock(clock: dict, events: list) -> list[str]:
    """The clock arithmetic of a clocked game (the page's "Clocks"): each TimeUsed and FlagFell
    states the time from its ``since`` version's recorded time to its own, in whole
    milliseconds rounded down, and each seat's time left follows from the time control."""
    problems = []
    times = {version: datetime.fromisoformat(at) for version, _, _, at, _, _ in events}
    per_move = clock.get("days_per_move", 0) * 86_400_000
    start = per_move if clock["kind"] == "correspondence" else clock.get("base_seconds", 0) * 1000
    delay = clock.get("delay_seconds", 0) * 1000 if clock["kind"] == "delay" else 0
    increment = clock.get("increment_seconds", 0) * 1000 if clock["kind"] == "fischer" else 0
    left: dict[str, int] = {}
    for version, type_, data, _, _, _ in events:
        if type_ not in ("TimeUsed", "FlagFell"):
            continue
        seat, since = data["seat"], data["since"]
        if not 1 <= since < version:
            problems.append(f"version {version}: a clock cannot start at version {since}")
            continue
        used = (times[version] - times[since]) // timedelta(milliseconds=1)
        if used != data["used_ms"]:
            problems.append(f"version {version}: {used} ms passed since version {since}, not {data['used_ms']}")
        had = left.get(seat, start)
        allowed = had + delay
        if type_ == "FlagFell":
            if data["allowed_ms"] != allowed or data["used_ms"] <= allowed:
                problems.append(f"version {version}: {seat} had {allowed} ms; its flag had not fallen")
            continue
        if data["used_ms"] > allowed:
            problems.append(f"version {version}: {seat} used {data['used_ms']} ms of {allowed}: its flag had fallen")
        expected = per_move if clock["kind"] == "correspondence" else had - max(0, data["used_ms"] - delay) + increment
        if data["left_ms"] != expected:
            problems.append(f"version {version}: {seat} has {expected} ms left, not {data['left_ms']}")
        left[seat] = data["left_ms"]
    return problems
