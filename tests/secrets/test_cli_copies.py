"""Issue 12: "herald export" and "herald replay show" keep the secrets; "herald replay verify"
on a spectator's copy says which events are sealed and that their seals are not yet provable,
on a seat's copy proves that seat's own seals. The CLI's own ``main`` runs in-process on the
store the API wrote (the console script is that function; the live-server tests run it as one)."""

from __future__ import annotations

import contextlib
import io

import pytest

from api.cli import main
from tests.conftest import post
from tests.secrets.leak import without_set_up
from tests.secrets.test_open_table_hands import COURT


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(args))
    return code, out.getvalue()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_exports_by_reader_verify_and_show_without_leaking(client, backend, monkeypatch, tmp_path):
    for key, value in backend.env.items():
        monkeypatch.setenv(key, value)
    game = client.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": "Ann"}, "p2": {"player": "Bo"}},
                                       "options": {"decks": {"court": COURT}}}).json()

    def send(seat, command):
        response = post(client, game, seat, command)
        assert response.status_code == 201, response.text
        return response.json()

    send("p1", {"type": "shuffle", "deck": "court"})
    p1 = send("p1", {"type": "take", "deck": "court", "count": 2})["events"][2]["data"]["cards"]
    p2 = send("p2", {"type": "take", "deck": "court", "count": 2})["events"][2]["data"]["cards"]

    spectator, mine = tmp_path / "spectator.json", tmp_path / "p1.json"
    assert cli("export", game["id"], "-o", str(spectator))[0] == 0
    assert cli("export", game["id"], "--token", game["seat_tokens"]["p1"], "-o", str(mine))[0] == 0
    seen, own_copy = without_set_up(spectator.read_bytes()), without_set_up(mine.read_bytes())  # less the deck list
    assert not any(card.encode() in seen for card in p1 + p2)
    assert all(card.encode() in own_copy for card in p1) and not any(card.encode() in own_copy for card in p2)

    code, verified = cli("replay", "verify", str(spectator))
    assert code == 0, verified
    assert "2 event(s) sealed in this copy" in verified and "not provable until the seed is revealed" in verified
    assert "version(s) 6 for p1; version(s) 9 for p2" in verified
    code, own = cli("replay", "verify", str(mine))
    assert code == 0, own
    assert "1 sealed event(s) held with their salt, each proven against its seal by the chain: version(s) 6" in own

    code, shown = cli("replay", "show", str(spectator))
    assert code == 0 and "version 6 is sealed for Ann" in shown and not any(card in shown for card in p1 + p2)
    code, shown_mine = cli("replay", "show", str(mine), "--step", "8")  # p1's copy folds past its own draw
    assert "Ann's hand: 2 cards" in shown_mine and "sealed" not in shown_mine
