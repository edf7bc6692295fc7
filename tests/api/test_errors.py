"""Issue 18, "One way through api/": every error Herald's rules raise shares one base (code,
message, rule), and one place (api/errors.py, ``status_of``) turns it into a problem, for
FastAPI's routes and the plain-ASGI command route alike."""

from __future__ import annotations

import ast
import uuid
from pathlib import Path

import msgspec
import pytest

from api.errors import Conflict, NotFound, status_of
from api.store import secrets_id
from domain.creation import ForkNotNow, ForkRefused
from domain.errors import DomainError, NotNow, RecordError, SetupRefused
from domain.events import UnknownEventType
from domain.game import IncompatibleRecord, Recorded
from domain.rng import NeedsSeed, RecordMismatch
from domain.rules.base import RuleViolation
from domain.tournaments.model import TournamentConflict, TournamentInvalid
from tests.conftest import new_game, post

API = Path(__file__).resolve().parents[2] / "api"
DOMAIN_KINDS = {"RuleViolation", "TournamentInvalid", "TournamentConflict", "SetupRefused", "ForkRefused",
                "ForkNotNow", "DomainError", "RecordError", "IncompatibleRecord", "UnknownEventType", "NeedsSeed",
                "RecordMismatch"}


def test_every_error_has_the_one_base_with_code_message_and_rule():
    for error in (RuleViolation("x.y", "m", "1.2"), TournamentInvalid("bad", "m"), TournamentConflict("c", "m"),
                  SetupRefused("s", "m"), ForkRefused("f", "m"), ForkNotNow("n", "m"), NotFound("m"),
                  Conflict("m", code="stale_version")):
        assert isinstance(error, DomainError)
        assert (error.message, bool(error.code)) == ("m", True)
        assert hasattr(error, "rule")


def test_each_kind_maps_to_one_status():
    assert status_of(RuleViolation("open-table.x", "m")) == (422, "Illegal command")
    assert status_of(TournamentConflict("round_unfinished", "m"))[0] == 409
    assert status_of(ForkNotNow("seed_not_revealed", "m"))[0] == 409
    assert isinstance(ForkNotNow("n", "m"), NotNow)
    assert status_of(TournamentInvalid("bad", "m")) == (422, "Unprocessable content")
    assert status_of(SetupRefused("bad_seat", "m")) == (422, "Unprocessable content")
    assert status_of(NotFound("m")) == (404, "Not found")


def test_a_record_this_server_cannot_fold_is_a_domain_error_of_one_code_each():
    """Issue 31: the four errors of a record that cannot be folded share the one base and
    are mapped once (api/errors.py), each with its own code."""
    made = {IncompatibleRecord("recorded under x 0.1"): (409, "incompatible_record"),
            UnknownEventType("nonsense.Thing"): (409, "unknown_event_type"),
            NeedsSeed("the order is hidden"): (409, "needs_seed"),
            RecordMismatch(3, "no draw here"): (422, "record_mismatch")}
    for error, (status, code) in made.items():
        assert isinstance(error, RecordError) and isinstance(error, DomainError)
        assert (status_of(error)[0], error.code) == (status, code)
        assert error.message and str(error) == error.message
    assert isinstance(UnknownEventType("x"), ValueError)  # still refused wherever a malformed event is
    assert RecordMismatch(3, "no draw here").draw == 3


def _stored_beside(herald, game: dict, change) -> str:
    """A copy of ``game``'s stored events under a new id, ``change`` applied to each (as a
    database written by another server version holds it)."""
    copy = uuid.uuid4()
    for event in herald.store.stream(uuid.UUID(game["id"])):
        herald.store.append(change(Recorded(copy, event.version, event.timestamp, event.type, dict(event.data),
                                            event.prev_hash, event.hash)))
    vault = herald.store.secrets(uuid.UUID(game["id"]))
    herald.store.append(msgspec.structs.replace(vault, originator_id=secrets_id(copy), originator_version=1, game=copy))
    return str(copy)


def _assert_problem(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert (body["status"], body["code"], body["type"]) == (status, code, f"/problems/{code}")


@pytest.mark.parametrize("path", ["", "/events", "/state", "/state?version=1", "/legal-commands?seat=alice",
                                  "/timeline", "/record"])
def test_a_game_recorded_under_rules_this_server_lacks_is_409_incompatible_record(client, herald, path):
    """Once translated by hand in the games service (three places), now by the one handler:
    the same problem as before on every read, the current board and a past one alike."""
    game = new_game(client)
    post(client, game, "alice", {"type": "roll", "label": "x", "dice": "1d6"})

    def older(event: Recorded) -> Recorded:
        if event.type == "GameCreated":
            event.data["rules_version"] = "0.0.1"
        return event

    copy = _stored_beside(herald, game, older)
    _assert_problem(client.get(f"/games/{copy}{path}"), 409, "incompatible_record")


def test_a_command_on_a_game_this_server_cannot_load_is_the_same_problem(client, herald):
    """Through the plain-ASGI command route too (it answers through the same mapping)."""
    game = new_game(client)

    def older(event: Recorded) -> Recorded:
        event.data["rules_version"] = "0.0.1"
        return event

    copy = _stored_beside(herald, game, older)
    _assert_problem(client.post(f"/games/{copy}/commands", json={"seat": "alice", "command": {"type": "pass"}},
                                headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"}), 409, "incompatible_record")


def test_a_game_holding_an_event_type_this_server_does_not_know_is_409_unknown_event_type(client, herald):
    """A newer server's event in the store: the game cannot be folded here; a problem, not a 500."""
    game = new_game(client)
    post(client, game, "alice", {"type": "roll", "label": "x", "dice": "1d6"})

    def newer(event: Recorded) -> Recorded:
        return msgspec.structs.replace(event, type="nonsense.Thing") if event.version == 2 else event

    copy = _stored_beside(herald, game, newer)
    _assert_problem(client.get(f"/games/{copy}"), 409, "unknown_event_type")
    assert client.get("/problems/unknown_event_type", headers={"Accept": "application/json"}).json()["status"] == 409


def test_no_service_or_route_translates_a_domain_error_itself():
    """The services let domain errors through: no ``except RuleViolation: raise Invalid(...)``
    (a handler that catches a domain error among other failures, "this record cannot be
    replayed", says something else and may)."""
    for path in [*API.rglob("*.py")]:
        if path.name == "errors.py" or ".venv" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ExceptHandler) or node.type is None:
                continue
            caught = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
            if not caught or not caught <= DOMAIN_KINDS:  # a record unreadable for any reason is its own problem
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Raise) and isinstance(inner.exc, ast.Call):
                    made = getattr(inner.exc.func, "id", None) or getattr(inner.exc.func, "attr", "")
                    assert made not in {"Invalid", "Illegal", "Conflict", "Forbidden", "NotFound"}, (
                        f"{path.relative_to(API.parent)}:{inner.lineno} translates a domain error itself")


def test_an_illegal_command_reads_the_same_through_both_routes(client):
    """The plain-ASGI command route and the FastAPI check route answer one problem."""
    game = new_game(client)
    body = {"type": "roll", "label": "x", "dice": "0d6"}
    recorded = post(client, game, "alice", body)
    checked = client.post(f"/games/{game['id']}/commands/check", json={"seat": "alice", "command": body},
                          headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    assert recorded.status_code == 422
    assert recorded.headers["content-type"] == "application/problem+json"
    assert checked.json() == {"accepted": False, "problem": recorded.json()}
    assert recorded.json()["title"] == "Illegal command"


def test_a_refused_set_up_and_a_tournament_conflict_are_problems(client):
    refused = client.post("/games", json={"rules": "open-table", "seats": {"Bad Seat": {"player": "A"}}})
    assert (refused.status_code, refused.json()["code"]) == (422, "bad_seat")
    assert refused.headers["content-type"] == "application/problem+json"
    made = client.post("/tournaments", json={"name": "Cup", "rules": "open-table", "format": "swiss",
                                             "rounds": 1}).json()
    paired = client.post(f"/tournaments/{made['id']}/rounds",
                         headers={"Authorization": f"Bearer {made['director_token']}"})
    assert paired.status_code == 409  # no players: a TournamentConflict, mapped once
    assert paired.headers["content-type"] == "application/problem+json"
    assert paired.json()["title"] == "Conflict"


def test_every_kind_of_domain_error_comes_back_whole_from_a_worker_process():
    """Expensive reads run in worker processes (api/work.py): an error raised there is pickled
    back, and must be raised again with its kind, code, message, rule and problems."""
    import pickle

    for error in (RuleViolation("x.y", "m", "1.2"), TournamentInvalid("bad", "m"), SetupRefused("s", "m"),
                  ForkNotNow("n", "m"), NotFound("m"), Conflict("m", code="stale_version"),
                  IncompatibleRecord("recorded under x 0.1"), RecordMismatch(3, "no draw here"),
                  DomainError("c", "m", problems=["p"])):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert vars(again) == vars(error)
