"""Issue 18, "One way through api/": every error Herald's rules raise shares one base (code,
message, rule), and one place (api/errors.py, ``status_of``) turns it into a problem, for
FastAPI's routes and the plain-ASGI command route alike."""

from __future__ import annotations

import ast
from pathlib import Path

from api.errors import Conflict, NotFound, status_of
from domain.creation import ForkNotNow, ForkRefused
from domain.errors import DomainError, NotNow, SetupRefused
from domain.rules.base import RuleViolation
from domain.tournaments.model import TournamentConflict, TournamentInvalid
from tests.conftest import new_game, post

API = Path(__file__).resolve().parents[2] / "api"
DOMAIN_KINDS = {"RuleViolation", "TournamentInvalid", "TournamentConflict", "SetupRefused", "ForkRefused",
                "ForkNotNow", "DomainError"}


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
