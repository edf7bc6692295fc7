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
    for system in RULE_SYSTEMS.values():
        union = schemas[command_schema_name(system)]
        assert union in command["anyOf"], f"{system.id}'s commands are not reachable from POST /commands"
        assert union["discriminator"]["propertyName"] == "type"
        mapping = union["discriminator"]["mapping"]
        assert len(mapping) == len(union["anyOf"]), system.id
        assert {"$ref": f"#/components/schemas/{view_schema_name(system)}"} in \
            schemas["CommandResponse"]["properties"]["view"]["anyOf"]
    assert schemas["LegalCommands"]["properties"]["commands"]["items"]["anyOf"] == command["anyOf"]
    assert schemas["LegalCommands"]["properties"]["labels"]["items"] == {"type": "string"}

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
