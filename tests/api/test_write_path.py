"""Issue 31, "one write path through the committer for every write": every event Herald
stores is appended by the committer (api/committer.py), which tells the written hooks — the
live streams, the bots, the results process — after each write. A write that went round it
(as a player's registration once did, straight to ``store.append``) is missed by everything
those hooks feed: a live stream sleeps through it until its next poll."""

from __future__ import annotations

import ast
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("domain", "projections", "replays", "analysis", "api")
WRITES = {"append", "save", "insert_events"}  # the store's own append, the library's save, the recorder's insert


def _store_writes(tree: ast.AST) -> list[ast.Attribute]:
    """Every ``<...>.store.append`` (``save``), ``store.append`` and ``<...>.recorder.insert_events``
    named in ``tree``, called or handed on."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or node.attr not in WRITES:
            continue
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        if name in {"store", "recorder"}:
            found.append(node)
    return found


def test_nothing_but_the_committer_writes_to_the_store():
    """The store's ``append`` is named once in production code: where the bootstrap hands it to
    the one Committer; no service appends, saves or inserts by itself."""
    handed = []
    for folder in PRODUCTION:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            writes = _store_writes(tree)
            where = path.relative_to(ROOT).as_posix()
            if where == "api/bootstrap.py":
                arguments = {id(a) for call in ast.walk(tree) if isinstance(call, ast.Call)
                             and getattr(call.func, "id", "") == "Committer" for a in call.args}
                assert writes and all(id(w) in arguments for w in writes), "the bootstrap only hands append on"
                handed += writes
                continue
            assert not writes, f"{where}:{writes[0].lineno} writes to the store round the committer"
    assert len(handed) == 1


def test_every_kind_of_write_is_told_to_the_written_hooks(client, herald):
    """A name's registration, a game's creation with a vouched seat, a claim, a command and a
    tournament's creation each reach the hooks the committer tells (a live stream, the bots,
    the results process listen there)."""
    told: list[str] = []
    herald.committer.written_hooks.append(
        lambda games, events: told.extend(getattr(e, "type", type(e).__name__) for e in events))

    zed = client.post("/players", json={"name": "Zed"})
    assert zed.status_code == 201, zed.text
    assert told == ["PlayerRegistered"]
    bob = client.post("/players", json={"name": "Bob"}).json()

    made = client.post("/games", json={"rules": "open-table", "seats": {
        "alice": {"player": "Zed", "player_token": zed.json()["player_token"]}, "bob": {"player": "Bob"}}})
    assert made.status_code == 201, made.text
    assert told[2:] == ["GameCreated", "GameSecrets", "SeatClaimed"]

    game = made.json()
    claimed = client.post(f"/games/{game['id']}/seats/bob/claim", headers={"Authorization": f"Bearer {bob['player_token']}"})
    assert claimed.status_code == 201, claimed.text
    assert told[5:] == ["SeatClaimed", "GameSecrets"]

    rolled = client.post(f"/games/{game['id']}/commands", headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"},
                         json={"seat": "alice", "command": {"type": "roll", "label": "x", "dice": "1d6"}})
    assert rolled.status_code == 201, rolled.text
    assert told[7:] == ["DecisionTaken", "DiceRolled"]

    cup = client.post("/tournaments", json={"name": "Cup", "rules": "open-table", "format": "swiss", "rounds": 1})
    assert cup.status_code == 201, cup.text
    assert told[9:] == ["TournamentCreated", "TournamentKeys"]


def test_a_name_taken_first_is_refused_as_taken_not_as_a_stale_write(client):
    """The registration's own refusal, through the committer's write: 409 ``name_taken``."""
    assert client.post("/players", json={"name": "Yan"}).status_code == 201
    again = client.post("/players", json={"name": "Yan"})
    assert (again.status_code, again.json()["code"]) == (409, "name_taken")
