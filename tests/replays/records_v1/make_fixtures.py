"""How these herald-record/1 fixtures were made: run once with the code at ff3bb76, the last
before herald-record/2 (records exported then must verify and import for ever). Kept to show
what they hold; running it now would export herald-record/2."""
import json, random, sys, tempfile, os
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import msgspec
from fastapi.testclient import TestClient
from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
out = Path(__file__).resolve().parent
tmp = tempfile.mkdtemp()
herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/h.db"}, admin_token="adm",
                signing_key_path=Path(tmp) / "key.pem")
app = create_app(herald, Settings(admin_token="adm"))
c = TestClient(app)
def new(rules, seats, **kw):
    r = c.post("/games", json={"rules": rules, "seats": {s: {"player": s.title()} for s in seats}, **kw}); assert r.status_code == 201, r.text; return r.json()
def cmd(g, seat, command):
    r = c.post(f"/games/{g['id']}/commands", json={"seat": seat, "command": command}, headers={"Authorization": f"Bearer {g['seat_tokens'][seat]}"}); assert r.status_code == 201, r.text
def save(name, raw):
    (out / name).write_bytes(raw)
# 1. open table: deck, hands (sealed), rolls, note, end -> seed revealed; signed
g = new("open-table", ["alice", "bob"], client_seed="fixture", options={"decks": {"town": [f"card-{i:02d}" for i in range(20)]}})
cmd(g, "alice", {"type": "shuffle", "deck": "town"})
cmd(g, "alice", {"type": "take", "deck": "town", "count": 2})
cmd(g, "bob", {"type": "take", "deck": "town", "count": 3})
cmd(g, "alice", {"type": "draw", "deck": "town", "count": 1})
hand = c.get(f"/games/{g['id']}", headers={"Authorization": f"Bearer {g['seat_tokens']['bob']}"}).json()
print(hand["view"])
cmd(g, "alice", {"type": "roll", "label": "attack", "dice": "3d6"})
cmd(g, "bob", {"type": "note", "text": "Zoë moves — “quoted”", "payload": {"x": [1, 2, {"y": None}]}})
# the same game as bob sees it before the end
save("open_table_bob_live.json", c.get(f"/games/{g['id']}/record", headers={"Authorization": f"Bearer {g['seat_tokens']['bob']}"}).content)
save("open_table_spectator_live.json", c.get(f"/games/{g['id']}/record").content)
cmd(g, "alice", {"type": "end", "outcome": {"winner": "alice", "reason": "fixture"}})
cmd(g, "bob", {"type": "end", "outcome": {"winner": "alice", "reason": "fixture"}})
save("open_table_ended.json", c.get(f"/games/{g['id']}/record").content)
(out / "server_public_key.txt").write_text(c.get("/keys").json()["keys"][0]["key"] + "\n")
# 2. saxon shore study game, random listed commands for 150 decisions
g = new("saxon-shore", ["p1", "p2"], seed="ab" * 32)
rnd = random.Random(5)
for i in range(150):
    st = c.get(f"/games/{g['id']}").json()
    if st["status"] == "ended": break
    seat = st["to_act"][0]
    lc = c.get(f"/games/{g['id']}/legal-commands", params={"seat": seat}, headers={"Authorization": f"Bearer {g['seat_tokens'][seat]}"}).json()["commands"]
    done = [x for x in lc if x["type"] == "done"]
    cmd(g, seat, done[0] if done and rnd.random() < 0.5 else rnd.choice(lc))
save("saxon_shore_study.json", c.get(f"/games/{g['id']}/record").content)
print(sorted(p.name for p in out.iterdir()))
