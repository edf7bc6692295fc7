"""Issue 18: the fold stands on its own. Folding a record whose play an upheld ruling voided
needs nothing but the record (no history read back from a store), so such a record opens
in the viewer's record page and in ``herald replay show``."""

from __future__ import annotations

import json
import subprocess
import sys
from uuid import UUID

from domain.game import project_game
from replays.record import from_record_event
from replays.record_format import decode_record
from replays.show import show
from tests.conftest import ADMIN_TOKEN, new_game, post

UMPIRE = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def voided_record(client) -> dict:
    """An open-table game: a draw, a disputed roll and draw, an upheld ruling voiding from the roll."""
    game = new_game(client)
    post(client, game, "alice", {"type": "shuffle", "deck": "standard-54"})          # v2-3
    post(client, game, "alice", {"type": "draw", "deck": "standard-54", "count": 2})  # v4-5
    post(client, game, "bob", {"type": "roll", "label": "disputed", "dice": "2d6"})   # v6-7
    post(client, game, "bob", {"type": "draw", "deck": "standard-54", "count": 1})    # v8-9
    raised = client.post(f"/games/{game['id']}/disputes", json={"seat": "alice", "about_version": 6, "reason": "r"},
                         headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    ruled = client.post(f"/games/{game['id']}/rulings", headers=UMPIRE, json={
        "dispute": raised.json()["events"][0]["version"], "ruling": "upheld", "reason": "out of turn",
        "void_from": 6, "reveal_seed": True})
    assert ruled.status_code == 201, ruled.text
    assert client.get(f"/games/{game['id']}").json()["view"]["decks"]["standard-54"]["left"] == 52
    return client.get(f"/games/{game['id']}/record").json()


def test_a_voided_record_folds_from_its_own_events(client):
    raw = voided_record(client)
    record = decode_record(json.dumps(raw).encode())
    game_id = UUID(record.header.game)
    game = project_game(None, [from_record_event(game_id, e) for e in record.events])
    assert game.voided and game.state.decks["standard-54"].left == 52  # the voided draw is back in the deck


def test_a_voided_record_opens_in_the_viewer_record_page(client):
    raw = voided_record(client)
    opened = client.post("/viewer/record", json=raw)
    assert opened.status_code == 200, opened.text
    views = opened.json()
    assert views["verdict"]["ok"]
    last = client.get(f"/viewer/records/{views['key']}/state", params={"at": views["head"]}).json()
    assert last["view"]["decks"]["standard-54"]["left"] == 52
    before = client.get(f"/viewer/records/{views['key']}/state", params={"at": views["head"] - 1}).json()
    assert before == client.get(f"/games/{raw['header']['game']}/state", params={"at": views["head"] - 1}).json()


def test_a_voided_record_opens_in_herald_replay_show(client, tmp_path):
    raw = voided_record(client)
    path = tmp_path / "voided.json"
    path.write_text(json.dumps(raw))
    record = decode_record(path.read_bytes())
    voided_at = next(e.version for e in record.events if e.type == "DecisionsVoided")
    assert "52/54 left" in show(record, voided_at)  # the board the void leaves: the voided draw undone
    shown = subprocess.run([sys.executable, "-m", "api.cli", "replay", "show", str(path)],
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "52/54 left" in shown.stdout
