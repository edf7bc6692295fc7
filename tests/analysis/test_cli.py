"""Issue 19: ``herald analyse FILE`` analyses a portable record offline, as the route would,
with a progress bar on stderr and the analysis as JSON on stdout."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from tests.analysis.test_routes import SEATS, finished, in_process_pool, play  # noqa: F401
from tests.conftest import new_game


def test_analyse_a_record_file(client, tmp_path):
    game = new_game(client, "saladin", SEATS, scenario="hattin")
    play(client, game, random.Random(8))
    record = client.get(f"/games/{game['id']}/record")
    assert record.status_code == 200
    path = tmp_path / "game.json"
    path.write_bytes(record.content)
    herald = str(Path(sys.executable).parent / "herald")
    done = subprocess.run([herald, "analyse", str(path), "--rollouts", "2", "--workers", "0"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["policy"] == "random" and body["rollouts"] == 2 and body["complete"]
    winner = client.get(f"/games/{game['id']}").json()["outcome"]["winner"]
    assert body["points"][-1]["win"][winner or "draw"] == 1.0  # a game's dice follow its id: some runs end drawn
    assert "rollouts" in done.stderr and "100%" in done.stderr  # the progress bar
    # the same analysis as the route's, rollout for rollout (same seeds)
    assert finished(client, f"/games/{game['id']}/analysis", {"rollouts": 2})["points"] == body["points"]


def test_analyse_refuses_what_it_cannot_analyse(tmp_path):
    herald = str(Path(sys.executable).parent / "herald")
    path = tmp_path / "not-a-record.json"
    path.write_text("{}")
    done = subprocess.run([herald, "analyse", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "herald:" in done.stderr
