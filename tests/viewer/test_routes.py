"""The viewer's routes without a browser: pages, assets (and nothing outside api/viewer/),
and POST /viewer/record, which folds a record without storing it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
from tests.conftest import new_game, post
from tests.records import expanded


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("viewer-routes") / "herald.db"
    herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    with TestClient(create_app(herald, Settings())) as test_client:
        yield test_client
    herald.close()


@pytest.mark.parametrize("path", ["/viewer", "/viewer/record", "/viewer/7f3c0b54-3f1e-4a43-9a51-5d5ad0a0e6b1"])
def test_pages_are_html(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert 'type="module"' in response.text


@pytest.mark.parametrize("asset", ["game.js", "home.js", "dice.js", "dom.js", "viewer.css", "renderers/index.js",
                                   "renderers/open-table.js", "renderers/saladin.js", "renderers/generic.js",
                                   "renderers/kingdoms-of-crusaders.js"])
def test_assets_are_served_with_their_types(client, asset):
    response = client.get(f"/viewer/assets/{asset}")
    assert response.status_code == 200
    expected = "text/css" if asset.endswith(".css") else "text/javascript"
    assert response.headers["content-type"].startswith(expected)


@pytest.mark.parametrize("path", ["/viewer/assets/%2e%2e/viewer_routes.py", "/viewer/assets/..%2fapp.py",
                                  "/viewer/assets/nope.js", "/viewer/assets/renderers"])
def test_nothing_outside_the_viewer_folder_is_served(client, path):
    response = client.get(path)
    assert response.status_code in (404, 422)
    assert response.headers["content-type"] == "application/problem+json"


def test_a_game_id_that_is_not_a_uuid_is_a_problem_not_a_page(client):
    response = client.get("/viewer/not-a-game")
    assert response.status_code == 422


def test_a_record_opened_in_the_viewer_gives_every_step_and_is_not_stored(client):
    game = new_game(client, seats=("p1", "p2"))
    post(client, game, "p1", {"type": "roll", "label": "charge", "dice": "2d6"})
    raw = client.get(f"/games/{game['id']}/record").content
    record = expanded(raw)
    games_before = client.get("/games").json()["games"]
    response = client.post("/viewer/record", content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code == 200, response.text
    opened = response.json()
    assert opened["verdict"]["ok"] is True and opened["head"] == opened["folded"] == len(record["events"])
    base = f"/viewer/records/{opened['key']}"
    events = client.get(f"{base}/events").json()
    assert events["events"] == record["events"] and events["next"] is None
    for e in record["events"]:
        step = client.get(f"{base}/state", params={"at": e["version"]}).json()
        assert step == client.get(f"/games/{game['id']}/state", params={"at": e["version"]}).json()
    timeline = client.get(f"{base}/timeline", params={"limit": 2}).json()
    assert [t["version"] for t in timeline["entries"]] == [1, 2] and timeline["next"] == 2
    assert client.get(f"{base}/outline").json()["version"] == len(record["events"])
    assert client.get("/games").json()["games"] == games_before
    # The same file again is the same key; another copy (format 1 of it) another.
    again = client.post("/viewer/record", content=raw, headers={"Content-Type": "application/json"}).json()
    assert again["key"] == opened["key"]
    assert client.post("/viewer/record", json=record).json()["key"] != opened["key"]
    assert client.get(f"{base}/state", params={"at": len(record["events"]) + 1}).status_code == 404
    missing = client.get("/viewer/records/0123456789abcdef/state", params={"at": 1})
    assert missing.status_code == 404 and missing.json()["code"] == "record_not_open"


def test_a_record_whose_chain_is_broken_is_refused_before_folding(client):
    game = new_game(client, seats=("p1",))
    post(client, game, "p1", {"type": "roll", "label": "charge", "dice": "2d6"})
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    rolled = next(e for e in record["events"] if e["type"] == "DiceRolled")
    rolled["data"]["faces"] = [f % 6 + 1 for f in rolled["data"]["faces"]]  # every die shows another face
    response = client.post("/viewer/record", json=record)
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "record_chain_broken" and problem["version"] == rolled["version"]
    assert "hash mismatch" in problem["detail"]


def test_a_rehashed_forgery_opens_but_says_it_does_not_verify(client):
    from uuid import UUID

    from domain.game import event_hash

    game = new_game(client, seats=("p1",), seed="ab" * 32)  # a study game: its dice are checkable now
    post(client, game, "p1", {"type": "roll", "label": "charge", "dice": "2d6"})
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    events = record["events"]
    rolled = next(e for e in events if e["type"] == "DiceRolled")
    rolled["data"]["faces"] = [f % 6 + 1 for f in rolled["data"]["faces"]]
    prev = events[rolled["version"] - 2]["hash"]
    for e in events[rolled["version"] - 1:]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(UUID(record["header"]["game"]), e["version"], e["type"], e["data"],
                                      e["prev_hash"], e["recorded_at"])
    record["head"] = {"version": events[-1]["version"], "hash": prev}
    record["signature"] = None
    body = client.post("/viewer/record", json=record).json()
    assert body["verdict"]["ok"] is False
    assert body["verdict"]["problems"][0]["draw"] is not None


@pytest.mark.parametrize("raw", [b"", b"[]", b"{", b'{"header": 1}'])
def test_bad_records_are_problems(client, raw):
    response = client.post("/viewer/record", content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422)
    assert response.headers["content-type"] == "application/problem+json"


def test_the_viewer_routes_stay_out_of_the_api_contract(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert not [p for p in paths if p.startswith("/viewer")]


def _play(client, game, rnd, limit):
    for _ in range(limit):
        summary = client.get(f"/games/{game['id']}").json()
        if not summary["to_act"]:
            return
        seat = summary["to_act"][0]
        legal = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat},
                           headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"}).json()["commands"]
        assert post(client, game, seat, rnd.choice(legal)).status_code == 201


def test_the_outline_marks_every_turn_and_phase_a_spectator_sees(client):
    """GET /viewer/games/{id}/outline (issue 19, the move list): a section starts at exactly the
    versions where the spectator's board (GET /state?at=N) shows another turn or phase, and it
    grows with the game without being folded again from the start."""
    import random

    game = new_game(client, "saladin", seats=("crusaders", "ayyubids"), scenario="arsuf", seed="b2" * 32)
    rnd = random.Random(19)
    _play(client, game, rnd, 40)
    first = client.get(f"/viewer/games/{game['id']}/outline").json()
    _play(client, game, rnd, 40)
    outline = client.get(f"/viewer/games/{game['id']}/outline").json()
    head = client.get(f"/games/{game['id']}").json()["version"]
    assert outline["version"] == head and first["version"] < head
    seen, want = None, []
    for version in range(1, head + 1):
        view = client.get(f"/games/{game['id']}/state", params={"at": version}).json()["view"]
        marks = (view["turn"], view["phase"])
        if marks != seen:
            want.append({"start": version, "turn": view["turn"], "phase": view["phase"]})
            seen = marks
    assert outline["sections"] == want
    assert outline["sections"][:len(first["sections"]) - 1] == first["sections"][:-1]
    assert len({s["turn"] for s in want}) >= 1 and len({s["phase"] for s in want}) >= 2


def test_the_outline_of_an_unknown_game_is_a_404(client):
    response = client.get("/viewer/games/7f3c0b54-3f1e-4a43-9a51-5d5ad0a0e6b1/outline")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize("path", ["/viewer/tournaments", "/viewer/tournaments/7f3c0b54-3f1e-4a43-9a51-5d5ad0a0e6b1"])
def test_the_tournament_pages_are_html(client, path):
    response = client.get(path)
    assert response.status_code == 200 and 'src="/viewer/assets/tournament.js"' in response.text
