"""The OpenAPI document as a typed contract a generator can build a client from (issue 18).

FastAPI and msgspec write the document from the routes and wire types; this module completes it
where they cannot know more:

- each rule system's command union (``SaladinCommand``: ``oneOf`` its commands, discriminated
  on ``type``), view (``SaladinView``) and choices (``SaxonShoreChoice``), named per rule
  system (domain/rules/schemas.py), and the places that carry them: ``CommandRequest.command``,
  every ``view``, and ``LegalCommands``, one schema per rule system discriminated on ``rules``;
- the bearer security scheme, on the routes that need or accept a token (``doc(token=...)``);
- readable ``operationId``s (the route's function name), so a generated client reads
  ``create_game``, ``post_command``, ``legal_commands``;
- an example on every request body and every response: real ones for commands, views and legal
  commands (from each rule system's opening position), and for every other schema one built from
  the schema itself, checked against it by tests/api/test_openapi.py.

Only the document changes: request handling, the command route's fast path included, decodes
as before (the typed union is what the rule system's own ``parse_command`` checks anyway).
"""

from __future__ import annotations

import functools
import re
from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import msgspec

from api.http import BEARER, declare_storable
from domain.creation import first_events, game_created
from domain.game import game_rng, project_game, take_decision
from domain.rules.base import RuleSystem
from domain.rules.registry import RULE_SYSTEMS
from domain.rules.schemas import choice_schema_name, command_schema_name, components, schema_prefix, view_schema_name
from replays.record import build_record
from replays.record_format import encode_record

REF = "#/components/schemas/{name}"
PROBLEM = "application/problem+json"
SECURITY_SCHEMES = {BEARER: {
    "type": "http", "scheme": "bearer",
    "description": "`Authorization: Bearer <token>`. Which token a route takes is in its description: a "
                   "seat's token (shown once by POST /games, or a tournament's my-games) acts for that seat and "
                   "reads its hidden cards; a player token (POST /players, a tournament registration) claims "
                   "seats and lists a tournament player's games; a director token runs its tournament; the "
                   "umpire's (HERALD_ADMIN_TOKEN) rules, inspects and imports. A route whose security lists "
                   "`{}` too takes no token as well (a spectator's read)."}}


def install(app: Any) -> None:
    """Complete the app's OpenAPI document with :func:`apply` the first time it is built."""
    base = app.openapi
    completed: list[int] = []

    def openapi() -> dict[str, Any]:
        document = base()
        if id(document) not in completed:
            apply(document, operation_ids(document))
            # as JSON holds it (a tuple default becomes a list), in place: the document in memory
            # then equals the committed file read back, not only its bytes
            document.update(msgspec.json.decode(msgspec.json.encode(document)))
            completed.append(id(document))
        return document

    app.openapi = openapi


def operation_ids(document: dict[str, Any]) -> dict[tuple[str, str], str]:
    """(path, method) → the name of the function that answers it: FastAPI writes an
    operation's id as that name, then the path and method with every non-word character as
    ``_`` (``create_game_games_post``)."""
    out = {}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            suffix = re.sub(r"\W", "_", path) + f"_{method}"
            found = operation.get("operationId", "")
            if found.endswith(suffix) and len(found) > len(suffix):
                out[(path, method)] = found[: -len(suffix)]
    return out


def systems() -> list[RuleSystem]:
    return [RULE_SYSTEMS[system_id] for system_id in sorted(RULE_SYSTEMS)]


def apply(document: dict[str, Any], operation_ids: dict[tuple[str, str], str]) -> None:
    """Complete ``document`` in place (see the module's docstring). ``operation_ids``: (path,
    method) → the route function's name."""
    found = document.setdefault("components", {}).setdefault("schemas", {})
    for system in systems():
        found.update(components(system))
    _type_properties(found)
    _legal_commands_per_system(found)
    _security(document)
    _plain_names(document)
    names = list(operation_ids.values())
    renamed = {}
    for (path, method), name in operation_ids.items():
        operation = document["paths"].get(path, {}).get(method)
        if operation is not None and names.count(name) == 1:
            renamed[operation["operationId"]] = name
            operation["operationId"] = name
    for operations in document["paths"].values():  # the OpenAPI links name their operations too
        for operation in operations.values():
            for answer in operation.get("responses", {}).values():
                for link in (answer.get("links") or {}).values():
                    link["operationId"] = renamed.get(link.get("operationId"), link.get("operationId"))
    declare_storable(document)
    for operations in document["paths"].values():
        for operation in operations.values():
            _examples(operation, found)
    document["components"]["schemas"] = dict(sorted(found.items()))


def command_union() -> dict[str, Any]:
    """A command of the game's rule system: its ``<System>Command``, one union per rule system,
    each ``oneOf`` its commands discriminated on ``type``. The game's ``rules`` (GameSummary,
    LegalCommands) names which: ``pass`` or ``play`` mean different things in two rule systems,
    so no one discriminator spans them."""
    return {"anyOf": [{"$ref": REF.format(name=command_schema_name(s))} for s in systems()],
            "description": "A command of the game's rule system: the union the game's `rules` names ("
                           + ", ".join(f"`{s.id}`: {command_schema_name(s)}" for s in systems())
                           + "), each one of its commands by `type`."}


def view_union() -> dict[str, Any]:
    """Any rule system's view (``<System>View``): what the game's rule system shows the reader."""
    return {"anyOf": [{"$ref": REF.format(name=view_schema_name(s))} for s in systems() if s.view_type],
            "description": "The board as the reader may see it: the game's rule system's view."}


def _type_properties(found: dict[str, Any]) -> None:
    for name, schema in found.items():
        properties = schema.get("properties") or {}
        if "view" in properties and not properties["view"].get("anyOf"):
            properties["view"] = view_union()
        if name in ("CommandRequest", "CheckRequest") and "command" in properties:
            properties["command"] = command_union()


def _legal_commands_per_system(found: dict[str, Any]) -> None:
    """``LegalCommands`` as one schema per rule system (``SalineLegalCommands``: ``rules`` is
    ``"saline"``, ``commands`` are SalineCommand, ``choices`` SalineChoice), ``oneOf`` them
    discriminated on ``rules``: a client decodes a Saline ``play`` as Saline's, never as the
    open table's. A rule system that describes no choices lists none."""
    base = found.pop("LegalCommands")
    mapping = {}
    for system in systems():
        name = f"{schema_prefix(system)}LegalCommands"
        choice = choice_schema_name(system)
        choices = ({"type": "array", "items": {"$ref": REF.format(name=choice)}} if choice in found else
                   {"type": "array", "maxItems": 0, "items": {"type": "object", "additionalProperties": False},
                    "description": f"{system.title} describes no choices: every command is listed"})
        properties = {**base["properties"], "rules": {"const": system.id},
                      "commands": {"type": "array", "items": {"$ref": REF.format(name=command_schema_name(system))},
                                   "description": "Every command the seat may send now, each ready to post"},
                      "choices": {**choices, "default": []}}
        found[name] = {**base, "title": name, "properties": properties,
                       "description": f"{system.title}: {base.get('description', '')}"}
        mapping[system.id] = REF.format(name=name)
    found["LegalCommands"] = {"oneOf": [{"$ref": ref} for ref in mapping.values()],
                              "discriminator": {"propertyName": "rules", "mapping": mapping},
                              "description": base.get("description", "")}


def _security(document: dict[str, Any]) -> None:
    """The bearer scheme, applied where a route declares it (``doc(token=...)``) in place of
    FastAPI's ``authorization`` header parameter; a route that reads the header and says
    nothing of its token is a mistake this refuses to document."""
    document["components"]["securitySchemes"] = SECURITY_SCHEMES
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            params = operation.get("parameters", [])
            kept = [p for p in params if not (p["in"] == "header" and p["name"].lower() == "authorization")]
            if len(kept) < len(params):
                assert operation.get("security"), f"{method.upper()} {path} reads a token: declare doc(token=...)"
                operation["parameters"] = kept


def _plain_names(document: dict[str, Any]) -> None:
    """Components named after their module (msgspec's way when two types share a name, e.g.
    ``api.tournaments.Head``) get a plain name (``TournamentsHead``) and title: a generator
    makes one class per title and cannot hold two of one name."""
    found = document["components"]["schemas"]
    renames = {}
    for name in [n for n in found if "." in n]:
        parts = name.split(".")
        plain = parts[-2].capitalize() + parts[-1]
        renames[name] = plain if plain not in found else name.replace(".", "_")
    if not renames:
        return
    for old, new in renames.items():
        schema = found.pop(old)
        found[new] = {**schema, "title": new} if "title" in schema else schema

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in renames:
                node["$ref"] = REF.format(name=renames[ref.rsplit("/", 1)[-1]])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)


# -- examples ----------------------------------------------------------------------------------------
GAME_ID = "3f2b8c1e-5d4a-4e7b-9c2d-6a1f0e9b7c55"
HASH = "9b1c3f6e2a4d8b7c5e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d"
NAME_HINTS = {  # a plausible value for a string field, by its name
    "id": GAME_ID, "game": GAME_ID, "game_id": GAME_ID, "tournament_id": GAME_ID,
    "seat": "crusaders", "player": "Guy de Lusignan", "name": "Guy de Lusignan",
    "rules": "saladin", "rule_system": "saladin", "scenario": "hattin", "rules_version": "2.1.0",
    "hash": HASH, "prev_hash": HASH, "data_hash": HASH, "seed_commitment": HASH, "commitment": HASH,
    "signature": "c2lnbmF0dXJl", "public_key": "cHVibGljIGtleQ", "token": "tok_4qK9xY2mN7pR3sT8vW1zA6bC",
    "recorded_at": "2026-11-30T12:00:00Z", "created_at": "2026-11-30T12:00:00Z",
    "reason": "the die rolled off the table", "text": "Raymond charges too early", "note": "Raymond charges too early",
    "detail": "what went wrong, in words", "title": "Battle of Hattin", "description": "what it is",
    "client_seed": "table 4", "type": "activate", "code": "saladin.not_enough_orders",
}


def example(schema: dict[str, Any], found: dict[str, Any], name: str = "", depth: int = 0) -> Any:
    """A value that fits ``schema``: its own example if it has one, else one built from it."""
    if "example" in schema:
        return schema["example"]
    if schema.get("examples"):
        return schema["examples"][0]
    if "$ref" in schema:
        target = schema["$ref"].rsplit("/", 1)[-1]
        return _component_example(target, found) if target in _real_examples() else \
            example(found[target], found, name, depth + 1)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"] or schema[key]
            return example(options[0], found, name, depth + 1)
    if "allOf" in schema:
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            value = example(part, found, name, depth + 1)
            merged.update(value if isinstance(value, dict) else {})
        return merged
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        out = {}
        properties = schema.get("properties", {})
        for field in schema.get("required", []):
            out[field] = example(properties.get(field, {}), found, field, depth + 1)
        extra = schema.get("additionalProperties")
        if not out and isinstance(extra, dict) and depth < 6:
            out[_key(name)] = example(extra, found, _key(name), depth + 1)
        return out
    if kind == "array":
        count = max(1, schema.get("minItems", 1)) if depth < 6 else schema.get("minItems", 0)
        return [example(schema.get("items", {}), found, name.rstrip("s"), depth + 1) for _ in range(count)]
    if kind == "string":
        return _string(schema, name)
    if kind == "integer":
        low = schema.get("minimum", 1)
        return max(low, min(3, schema.get("maximum", 3)))
    if kind == "number":
        return float(schema.get("minimum", 1.5))
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return {}


def _key(name: str) -> str:
    return {"seats": "crusaders", "seat_tokens": "crusaders", "tokens": "crusaders", "options": "option",
            "by_seat": "crusaders", "lances": "field", "counts": "blank", "expected": "blank"}.get(name, "key")


def _string(schema: dict[str, Any], name: str) -> str:
    fmt = schema.get("format")
    if fmt == "uuid":
        return GAME_ID
    if fmt == "date-time":
        return "2026-11-30T12:00:00Z"
    if fmt == "date":
        return "2026-11-30"
    if fmt in ("uri", "url"):
        return "https://herald.example/games/" + GAME_ID
    value = NAME_HINTS.get(name, "text")
    pattern = schema.get("pattern")
    if pattern and not re.search(pattern, value):
        value = next((v for v in ("crusaders", "3", "abc", "a" * 16) if re.search(pattern, v)), value)
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    value = value.ljust(low, "x")
    return value[:high] if high else value


def _component_example(name: str, found: dict[str, Any]) -> Any:
    return _real_examples()[name]


@functools.cache
def _real_examples() -> dict[str, Any]:
    """Real values from each rule system's opening position: its view from a spectator's
    chair, and the legal commands of the seat that acts first (and their labels)."""
    out: dict[str, Any] = {}
    for system in systems():
        state, seat = _opening(system)
        if system.view_type is not None:
            out[view_schema_name(system)] = msgspec.to_builtins(system.view(state, None))
        commands = msgspec.to_builtins(system.legal_commands(state, seat)) if seat else []
        if commands:
            out[command_schema_name(system)] = commands[0]
    saladin = RULE_SYSTEMS["saladin"]
    state, seat = _opening(saladin)
    commands = msgspec.to_builtins(saladin.legal_commands(state, seat))[:3]
    players = {"crusaders": "Guy de Lusignan", "ayyubids": "Saladin"}
    out["LegalCommands"] = {
        "rules": saladin.id, "version": 1, "seat": seat, "commands": commands,
        "labels": [saladin.label(state, seat, c, players) for c in commands],
        "prompt": saladin.prompt(state, seat, players), "choices": [], "complete": saladin.legal_complete}
    out["CommandRequest"] = {"seat": seat, "command": commands[0], "expected_version": 1}
    out["PortableRecord"] = _record()
    return out


def _record() -> dict[str, Any]:
    """A whole portable record (``herald-record/2``) that verifies: a study game of the open
    table (its seed public from the start) in which Alice rolls 2d6 for the opening roll."""
    created, seed = game_created("open-table", None, {"alice": "Alice", "bob": "Bob"}, "a1" * 32, study=True)
    now = datetime(2026, 11, 30, 12, tzinfo=timezone.utc)
    events = first_events(UUID(GAME_ID), created, now)
    game = project_game(None, events)
    events += take_decision(game, "alice", {"type": "roll", "label": "opening roll", "dice": "2d6"},
                            game_rng(game, seed), now, seed)
    return msgspec.json.decode(encode_record(build_record(events, seed.hex())))


def _opening(system: RuleSystem) -> tuple[Any, str | None]:
    scenario = next(iter(system.scenarios.values()))
    seats = scenario.seats[: max(2, scenario.min_players)]
    state = system.setup(scenario.id, seats, {})
    to_act = system.to_act(state)
    return state, (to_act[0] if to_act else None)


def _examples(operation: dict[str, Any], found: dict[str, Any]) -> None:
    for media in operation.get("requestBody", {}).get("content", {}).values():
        if "example" not in media and "examples" not in media and "schema" in media:
            media["example"] = example(media["schema"], found)
    for status, answer in operation.get("responses", {}).items():
        for content_type, media in (answer.get("content") or {}).items():
            if "example" in media or "examples" in media:
                continue
            if content_type == PROBLEM:
                media["example"] = _problem_example(int(status), answer.get("description", ""))
            elif content_type == "application/json" and "schema" in media:
                media["example"] = example(media["schema"], found)
            elif content_type == "text/csv":
                media["example"] = "rank,player,points\n1,Guy de Lusignan,3\n"
            elif content_type == "text/event-stream":
                media["example"] = 'id: 2\nevent: DecisionTaken\ndata: {"version": 2, "type": "DecisionTaken"}\n\n'
            elif content_type == "application/x-ndjson":
                media["example"] = f'{{"id": "{GAME_ID}", "rules": "saladin"}}\n'


PROBLEM_EXAMPLES = {
    400: ("malformed_json", "Malformed JSON", "the body is not JSON: unexpected end of input"),
    401: ("unauthorized", "Unauthorized", "send 'Authorization: Bearer <token>'"),
    403: ("wrong_token", "Forbidden", "that token does not act for seat 'crusaders'"),
    404: ("not_found", "Not found", f"no game {GAME_ID}"),
    405: ("http_405", "Method Not Allowed", "this path takes POST only"),
    409: ("stale_version", "Conflict", "expected version 4, the game is at version 5"),
    413: ("too_large", "Content too large", "the body is larger than 65536 bytes"),
    415: ("unsupported_media_type", "Unsupported Media Type", "send application/json"),
    422: ("saladin.not_enough_orders", "Illegal command", "Henry II's Charge costs 2 Orders; the Crusaders have 1"),
    429: ("too_many_requests", "Too many requests", "too many writes from this client; retry after 1 s"),
    503: ("database_unavailable", "Service unavailable", "the database cannot be reached; retry shortly"),
}


def _problem_example(status: int, description: str) -> dict[str, Any]:
    code, title, detail = PROBLEM_EXAMPLES.get(status, (f"http_{status}", description or "Error", "what went wrong"))
    out: dict[str, Any] = {"type": f"/problems/{code}", "title": title, "status": status, "detail": detail,
                           "code": code}
    if code.startswith("saladin."):
        out["rule"] = "Activation — Activating a Banner"
    return out
