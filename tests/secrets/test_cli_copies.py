"""Issue 12: "herald export" and "herald replay show" keep the secrets; "herald replay verify"
on a spectator's copy says which events are sealed and that their seals are not yet provable,
on a seat's copy proves that seat's own seals (the real console script, a real server)."""

from __future__ import annotations

import httpx

from tests.secrets.leak import without_set_up
from tests.secrets.test_open_table_hands import COURT


def test_exports_by_reader_verify_and_show_without_leaking(live_server, tmp_path):
    http = httpx.Client(base_url=live_server.url, timeout=30)
    game = http.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": "Ann"}, "p2": {"player": "Bo"}},
                                     "options": {"decks": {"court": COURT}}}).json()

    def send(seat, command):
        r = http.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": command},
                      headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})
        assert r.status_code == 201, r.text
        return r.json()

    send("p1", {"type": "shuffle", "deck": "court"})
    p1 = send("p1", {"type": "take", "deck": "court", "count": 2})["events"][2]["data"]["cards"]
    p2 = send("p2", {"type": "take", "deck": "court", "count": 2})["events"][2]["data"]["cards"]

    spectator, mine = tmp_path / "spectator.json", tmp_path / "p1.json"
    live_server.cli("export", game["id"], "-o", str(spectator), check=True)
    live_server.cli("export", game["id"], "--token", game["seat_tokens"]["p1"], "-o", str(mine), check=True)
    seen, own_copy = without_set_up(spectator.read_bytes()), without_set_up(mine.read_bytes())  # less the deck list
    assert not any(card.encode() in seen for card in p1 + p2)
    assert all(card.encode() in own_copy for card in p1) and not any(card.encode() in own_copy for card in p2)

    verified = live_server.cli("replay", "verify", str(spectator))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "2 event(s) sealed in this copy" in verified.stdout and "not provable until the seed is revealed" in verified.stdout
    assert "version(s) 6 for p1; version(s) 9 for p2" in verified.stdout
    own = live_server.cli("replay", "verify", str(mine))
    assert own.returncode == 0, own.stdout + own.stderr
    assert "1 sealed event(s) held with their salt, each proven against its seal by the chain: version(s) 6" in own.stdout

    shown = live_server.cli("replay", "show", str(spectator))
    assert shown.returncode == 0, shown.stderr
    assert "version 6 is sealed for p1" in shown.stdout and not any(card in shown.stdout for card in p1 + p2)
    shown_mine = live_server.cli("replay", "show", str(mine), "--step", "8")  # p1's copy folds past its own draw
    assert "p1's hand: 2 card(s)" in shown_mine.stdout and "sealed" not in shown_mine.stdout
