"""How ``saline_1_0_0.json`` was made: run once with the code of saline 1.0.0 (the commit before
issue 26's out-of-turn windows), a seeded game of listed commands through the real HTTP path,
played to its end (seed revealed). Records of 1.0.0 must verify for ever (test_windows.py).
Kept to show what it holds; running it now would record saline 1.1.0."""
import random, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from fastapi.testclient import TestClient
from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
tmp = tempfile.mkdtemp()
herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp}/h.db"}, admin_token="adm",
                signing_key_path=Path(tmp) / "key.pem")
c = TestClient(create_app(herald, Settings(admin_token="adm")))
g = c.post("/games", json={"rules": "saline", "seats": {s: {"player": s.upper()} for s in ("p1", "p2", "p3")},
                           "client_seed": "fixture"}).json()
rnd = random.Random(26)
while True:
    st = c.get(f"/games/{g['id']}").json()
    if st["status"] == "ended":
        break
    seat = st["to_act"][0]
    listed = c.get(f"/games/{g['id']}/legal-commands", params={"seat": seat},
                   headers={"Authorization": f"Bearer {g['seat_tokens'][seat]}"}).json()["commands"]
    plays = [x for x in listed if x["type"] == "play"]
    rest = [x for x in listed if x["type"] != "play"]
    command = rnd.choice(plays) if plays and (not rest or rnd.random() < 0.3) else rnd.choice(rest)
    r = c.post(f"/games/{g['id']}/commands", json={"seat": seat, "command": command},
               headers={"Authorization": f"Bearer {g['seat_tokens'][seat]}"})
    assert r.status_code == 201, r.text
(Path(__file__).parent / "saline_1_0_0.json").write_bytes(c.get(f"/games/{g['id']}/record").content)
(Path(__file__).parent / "saline_1_0_0_key.txt").write_text(c.get("/keys").json()["keys"][0]["key"] + "\n")
