"""Issue 12: redaction "by who is asking (seat token, tournament player token, umpire, nobody)",
on the tournament's paths too (archives and NDJSON exports); the director is the umpire whose
inspection is recorded."""

from __future__ import annotations

import pytest

from tests.secrets.leak import LeakScan
from tests.secrets.test_open_table_hands import COURT
from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, send


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)  # what a reader gets does not depend on the store
def test_player_tokens_read_their_own_seat_and_the_exports_keep_every_hand(client, herald, tmp_path, backend):
    run = open_tournament(client, ["Ann", "Bert"], rules="open-table", format="swiss", rounds=1,
                          options={"decks": {"court": COURT}})
    pair(client, run)
    table = run.rounds[-1]["tables"][0]
    game_id = table["game"]
    tokens = my_seat_tokens(client, run, 1)[game_id]
    seat_of = {player: seat for seat, player in table["seats"].items()}
    game = {"id": game_id, "seat_tokens": tokens}
    first = sorted(tokens)[0]
    send(client, game_id, first, tokens[first], {"type": "shuffle", "deck": "court"})
    for seat in sorted(tokens):
        send(client, game_id, seat, tokens[seat], {"type": "take", "deck": "court", "count": 2})

    ann = {"Authorization": f"Bearer {run.players['Ann']}"}
    hands = client.get(f"/games/{game_id}", headers=ann).json()["view"]["hands"]
    own = hands[seat_of["Ann"]]
    assert isinstance(own, list) and len(own) == 2 and hands[seat_of["Bert"]] == 2
    mine = client.get(f"/games/{game_id}/legal-commands", params={"seat": seat_of["Ann"]}, headers=ann)
    assert {c["card"] for c in mine.json()["commands"] if c["type"] == "play"} == set(own)

    director = run.director["Authorization"].split()[1]
    scan = LeakScan(client, herald, game, umpire_token=director, tournament=run.id,
                    extra={f"player {name}": (token, frozenset({seat_of[name]})) for name, token in run.players.items()})
    scan.full(tmp_path)
    assert scan.scanned > 300 and len(scan.live()) == 4 and {s.value for s in scan.live()} <= scan.owners_saw

    looked = client.post(f"/games/{game_id}/inspections", json={"reason": "hand count"}, headers=run.director)
    assert looked.status_code == 201, looked.text
    assert looked.json()["events"][0]["data"]["by"] == "director"
    assert len(looked.json()["state"]["hands"][seat_of["Bert"]]) == 2
