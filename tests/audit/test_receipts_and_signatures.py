"""Issue 5: receipts prove a record still holds every receipted head; Ed25519 signatures
prove which server exported it."""

from __future__ import annotations

import copy

from api.bootstrap import Herald
from tests.conftest import new_game, post
from tests.records import expanded


def played(client):
    game = new_game(client)
    receipts = []
    for i in range(4):
        body = post(client, game, "alice" if i % 2 else "bob", {"type": "roll", "label": f"r{i}", "dice": "2d6"}).json()
        receipts.append(body["head"])
    return game, receipts, expanded(client.get(f"/games/{game['id']}/record").content)


def verify(client, record, receipts=(), key=None):
    body = {"record": record, "receipts": list(receipts)}
    if key:
        body["public_key"] = key
    response = client.post("/records/verify", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_receipts_hold_in_an_honest_record(client):
    _, receipts, record = played(client)
    key = client.get("/keys").json()["keys"][0]["key"]
    verdict = verify(client, record, receipts, key)
    assert verdict == {"ok": True, "problems": [], "notes": verdict["notes"]}


def test_a_cut_tail_is_caught_by_a_receipt(client):
    _, receipts, record = played(client)
    cut = copy.deepcopy(record)
    cut["events"] = cut["events"][:5]
    cut["head"] = {"version": 5, "hash": cut["events"][-1]["hash"]}
    cut["signature"] = None
    assert verify(client, cut)["ok"]  # internally consistent ...
    verdict = verify(client, cut, receipts)  # ... but the receipts name versions it no longer has
    assert not verdict["ok"]
    assert {p["version"] for p in verdict["problems"]} == {7, 9}
    assert all("cut" in p["what"] for p in verdict["problems"])


def test_a_rewritten_history_with_a_consistent_chain_is_caught_by_a_receipt(client):
    """Rewrite a die face and re-hash the chain from there: the chain checks out, the receipt does not."""
    from uuid import UUID

    from domain.game import event_hash

    _, receipts, record = played(client)
    forged = copy.deepcopy(record)
    events = forged["events"]
    events[2]["data"]["faces"] = [6, 6] if events[2]["data"]["faces"] != [6, 6] else [1, 1]
    prev = events[1]["hash"]
    for e in events[2:]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(UUID(forged["header"]["game"]), e["version"], e["type"], e["data"],
                                      e["prev_hash"], e["recorded_at"])
    forged["head"] = {"version": events[-1]["version"], "hash": prev}
    forged["signature"] = None
    verdict = verify(client, forged, receipts)
    assert not verdict["ok"]
    assert {p["version"] for p in verdict["problems"] if "receipt" in p["what"]} == {3, 5, 7, 9}


def test_one_removed_event_and_one_changed_field_are_named(client):
    _, _, record = played(client)
    removed = copy.deepcopy(record)
    del removed["events"][3]
    verdict = verify(client, removed)
    assert not verdict["ok"] and verdict["problems"][0]["version"] == 5
    changed = copy.deepcopy(record)
    changed["events"][3]["data"]["command"]["label"] = "edited"
    verdict = verify(client, changed)
    assert not verdict["ok"] and 4 in {p["version"] for p in verdict["problems"]}
    assert any("hash mismatch" in p["what"] for p in verdict["problems"])


def test_a_signature_fails_against_another_servers_key(client, backend, tmp_path):
    _, _, record = played(client)
    assert record["signature"]["alg"] == "ed25519"
    other = Herald(env=backend.env, signing_key_path=tmp_path / "other-key.pem")
    try:
        assert other.public_key != client.get("/keys").json()["keys"][0]["key"]
        verdict = verify(client, record, key=other.public_key)
        assert not verdict["ok"] and "not by the key given" in verdict["problems"][0]["what"]
        assert verify(client, record, key=client.get("/keys").json()["keys"][0]["key"])["ok"]
    finally:
        other.close()


def test_a_tampered_signature_fails(client):
    _, _, record = played(client)
    record["signature"]["sig"] = ("00" if record["signature"]["sig"][:2] != "00" else "11") + record["signature"]["sig"][2:]
    verdict = verify(client, record)
    assert not verdict["ok"] and verdict["problems"][0]["what"] == "the signature does not verify"
