"""No card leaks while it sits in a hand (DESIGN.md "Hidden information"; issue 12): whole
Kingdoms of Crusaders games (2 and 4 players) played through the API by random legal commands, each
seat with its own token; after every command the shared leak harness (tests/secrets/leak.py)
scans what every other reader (a spectator, every other seat, the umpire) receives on the game,
its newest events, board, timeline and every seat's legal commands; at the start, in the middle
and before the last placement it scans every read path: the whole event list, the live stream
(SSE), the board at every version, the record, dice, annotations, disputes, forks, and
`herald export` / `herald replay show`. Each card is a secret of its holder from the event that
deals it (``DrawnCards``) until it is placed face up (or the hands are shown at the end)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from tests.conftest import ADMIN_TOKEN
from tests.secrets.leak import LeakScan


def card_ids(event_type: str, data: dict[str, Any]) -> Iterable[str]:
    """The secrets of a Kingdoms of Crusaders record: the ids of the cards drawn into a hand."""
    if event_type == "kingdoms-of-crusaders.DrawnCards":
        return [card["id"] for card in data["cards"]]
    return []


@pytest.mark.slow  # over 20 s of this 2-core machine (README, "Tests"): make test-slow, run by CI
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players,every,full_at,last", [(2, 1, {1, 20}, True), (4, 4, {16}, False)])
def test_no_card_leaks_from_a_hand_on_any_read_path(client, herald, tmp_path, backend, players, every, full_at, last):
    """Two players: a quick scan after every command, full scans after the preparation, in the
    middle and before the move that may end the game. Four players: a quick scan after every
    round (a card stays in its hand at least a round, but for one drawn and placed at once), a
    full scan in the fourth round."""
    seats = {f"p{i}": {"player": name} for i, name in
             enumerate(["Baldwin", "Bohemond", "Raymond", "Joscelin"][:players], 1)}
    made = client.post("/games", json={"rules": "kingdoms-of-crusaders", "seats": seats})
    assert made.status_code == 201, made.text
    game = made.json()
    scan = LeakScan(client, herald, game, umpire_token=ADMIN_TOKEN, secret_values=card_ids)
    rnd = random.Random(f"koc-leaks-{players}")
    commands = 0
    last_full = False
    while True:
        summary = client.get(f"/games/{game['id']}").json()
        if not summary["to_act"]:
            break
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        markers = len(client.get(f"/games/{game['id']}", headers=auth).json()["view"]["markers"])
        if last and markers == 4 and not last_full:  # before the move that may end the game
            scan.full(tmp_path)  # (an umpire's fork is recorded: the version moves on)
            last_full = True
            summary = client.get(f"/games/{game['id']}").json()
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        posted = client.post(f"/games/{game['id']}/commands", headers=auth,
                             json={"seat": seat, "command": rnd.choice(listed["commands"]),
                                   "expected_version": summary["version"]})
        assert posted.status_code == 201, posted.text
        commands += 1
        if commands % every == 0:
            scan.step()
        if commands in full_at:
            scan.full(tmp_path)
    assert summary["status"] == "ended"
    # the scan checked something: cards were secret, other readers were scanned for them, and each
    # holder saw its own cards (the control)
    dealt = {s.value for s in scan.secrets()}
    assert len(dealt) == 5 * players + commands - 1  # the deal, then one card a turn
    assert scan.secrets_checked and scan.scanned > 10_000
    assert scan.owners_saw >= scan.secrets_checked
