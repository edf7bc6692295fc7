"""openapi/openapi.json is the contract third-party clients read: it must match the app."""

import json
from pathlib import Path

from api.openapi import document

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_matches_the_app():
    assert json.loads(document()) == json.loads(COMMITTED.read_text()), (
        "openapi/openapi.json drifted from the app: run `make openapi` and commit it"
    )


def test_every_documented_schema_resolves():
    spec = json.loads(COMMITTED.read_text())
    text = json.dumps(spec)
    for name in spec["components"]["schemas"]:
        assert name
    import re

    for ref in set(re.findall(r'"#/components/schemas/([^"]+)"', text)):
        assert ref in spec["components"]["schemas"], ref
    assert "/games/{game_id}/commands" in spec["paths"]
    body = spec["paths"]["/games/{game_id}/commands"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/CommandRequest"}


# -- issue 18: a typed contract -------------------------------------------------------------------
def _operations(spec):
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            yield path, method, operation


def _validator(spec, schema):
    import jsonschema_rs

    return jsonschema_rs.validator_for({**schema, "components": spec["components"]})


def test_every_request_and_response_has_an_example_that_fits_its_schema():
    spec = json.loads(COMMITTED.read_text())
    checked = 0
    for path, method, operation in _operations(spec):
        media = list(operation.get("requestBody", {}).get("content", {}).items())
        for status, answer in operation["responses"].items():
            media += [(f"{status} {kind}", m) for kind, m in (answer.get("content") or {}).items()]
        for where, found in media:
            assert "example" in found or "examples" in found, f"{method.upper()} {path} {where}: no example"
            if "schema" in found and "json" in where:
                errors = [e.message for e in _validator(spec, found["schema"]).iter_errors(found["example"])]
                assert not errors, f"{method.upper()} {path} {where}: the example does not fit: {errors[:3]}"
                checked += 1
    assert checked > 300


def test_commands_views_and_lists_are_typed():
    """"Link the command body to the per-rule-system command schemas (a discriminated union per
    rule system, reachable from the route), type each rule system's view, give list items types"."""
    from domain.rules.registry import RULE_SYSTEMS
    from domain.rules.schemas import command_schema_name, view_schema_name

    spec = json.loads(COMMITTED.read_text())
    schemas = spec["components"]["schemas"]
    command = schemas["CommandRequest"]["properties"]["command"]
    legal = schemas["LegalCommands"]
    assert legal["discriminator"]["propertyName"] == "rules"
    for system in RULE_SYSTEMS.values():
        ref = {"$ref": f"#/components/schemas/{command_schema_name(system)}"}
        assert ref in command["anyOf"], f"{system.id}'s commands are not reachable from POST /commands"
        union = schemas[command_schema_name(system)]
        assert union["discriminator"]["propertyName"] == "type" and "anyOf" not in union
        mapping = union["discriminator"]["mapping"]
        assert sorted(mapping.values()) == sorted(o["$ref"] for o in union["oneOf"]), system.id
        assert {"$ref": f"#/components/schemas/{view_schema_name(system)}"} in \
            schemas["CommandResponse"]["properties"]["view"]["anyOf"]
        own = schemas[legal["discriminator"]["mapping"][system.id].rsplit("/", 1)[-1]]
        assert own["properties"]["rules"] == {"const": system.id} and "rules" in own["required"]
        assert own["properties"]["commands"]["items"] == ref
        assert own["properties"]["labels"]["items"] == {"type": "string"}

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "array":
                items = node.get("items")
                assert items and items != {"type": "object"}, f"{where}: list items have no type"
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")

    walk(spec["paths"], "paths")
    walk(schemas, "schemas")
    for name, schema in schemas.items():
        for field, value in (schema.get("properties") or {}).items():
            assert value != {} or (name, field) == ("Inspection", "state"), f"{name}.{field} is untyped"


def test_operation_ids_are_the_route_names_and_links_follow_them():
    spec = json.loads(COMMITTED.read_text())
    ids = [op["operationId"] for _, _, op in _operations(spec)]
    assert len(ids) == len(set(ids))
    for name in ("create_game", "post_command", "legal_commands", "get_game", "check_command"):
        assert name in ids
    for _, _, operation in _operations(spec):
        for answer in operation["responses"].values():
            for link in (answer.get("links") or {}).values():
                assert link["operationId"] in ids, link


def test_the_document_is_the_same_under_every_supported_python():
    """Python 3.13 renamed http.HTTPStatus phrases (422 "Unprocessable Entity" became
    "Unprocessable Content", 413 "Request Entity Too Large" became "Content Too Large"): the
    problems' descriptions are Herald's own RFC 9110 phrases, whatever the interpreter."""
    text = document()
    assert "Unprocessable Content" in text and "Content Too Large" in text
    assert "Unprocessable Entity" not in text and "Request Entity Too Large" not in text


# -- issue 27: a contract that generated clients use as they are --------------------------------------
def test_a_second_validator_accepts_the_document():
    """openapi-spec-validator (the python-openapi project's) reads the whole document as OpenAPI
    3.1: every schema, reference, parameter, security requirement."""
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation.validators import OpenAPIV31SpecValidator

    spec = json.loads(COMMITTED.read_text())
    assert spec["openapi"].startswith("3.1")
    validate(spec, cls=OpenAPIV31SpecValidator)


def test_every_route_reading_a_token_says_so_with_the_bearer_scheme():
    """"A bearer securitySchemes applied per route": the routes that act need a token; the reads
    a seat's token widens (its hidden cards) accept one; the rest take none."""
    spec = json.loads(COMMITTED.read_text())
    assert spec["components"]["securitySchemes"]["bearer"] == {**spec["components"]["securitySchemes"]["bearer"],
                                                               "type": "http", "scheme": "bearer"}
    security = {op["operationId"]: op.get("security") for _, _, op in _operations(spec)}
    needs, accepts = [{"bearer": []}], [{"bearer": []}, {}]
    for name in ("post_command", "check_command", "annotate", "dispute", "rule", "inspection", "abandon",
                 "release", "import_record", "claim", "my_games", "pair_round", "register_player"):
        assert security[name] == needs, name
    for name in ("get_game", "legal_commands", "list_events", "stream_events", "state_at", "timeline", "get_record",
                 "fork", "game_analysis", "create_game", "create_tournament"):  # issue 30: a director's token
        assert security[name] == accepts, name
    for name in ("list_games", "list_rules", "health", "verify_record"):
        assert security[name] is None, name
    for _, _, operation in _operations(spec):  # the token travels by the scheme, never as a parameter
        assert not [p for p in operation.get("parameters", []) if p["name"].lower() == "authorization"]


def test_the_live_feed_is_an_event_stream():
    spec = json.loads(COMMITTED.read_text())
    answer = spec["paths"]["/games/{game_id}/events/stream"]["get"]["responses"]["200"]
    assert list(answer["content"]) == ["text/event-stream"]
    assert answer["content"]["text/event-stream"]["example"].startswith("id: ")

