"""JSON Schemas of each rule system's wire shapes, named by rule system, for the OpenAPI
contract (issues 18, 27): one component per command (``SaladinActivate``), the command union as
``SaladinCommand`` (``oneOf`` its commands, discriminated on ``type``), the view as
``SaladinView`` and the described choices as ``SaxonShoreChoice`` when the rule system declares
their types. Generated from the msgspec types themselves, so the schema a client reads is the
one the server validates with."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.rules.base import RuleSystem

REF = "#/components/schemas/{name}"


def schema_prefix(system: RuleSystem) -> str:
    """``kingdoms-of-crusaders`` → ``KingdomsOfCrusaders``."""
    return "".join(part.capitalize() for part in system.id.split("-"))


def command_schema_name(system: RuleSystem) -> str:
    return f"{schema_prefix(system)}Command"


def view_schema_name(system: RuleSystem) -> str:
    return f"{schema_prefix(system)}View"


def choice_schema_name(system: RuleSystem) -> str:
    return f"{schema_prefix(system)}Choice"


def components(system: RuleSystem) -> dict[str, dict[str, Any]]:
    """The rule system's named components: its command union (and its view, when typed),
    every type they use prefixed with the rule system's name, so two rule systems' ``Pass``
    commands never meet."""
    prefix = schema_prefix(system)
    named = {command_schema_name(system): system.command_type}
    if system.view_type is not None:
        named[view_schema_name(system)] = system.view_type
    if system.choice_type is not None:
        named[choice_schema_name(system)] = system.choice_type
    types = list(named.values())
    refs, found = msgspec.json.schema_components(types, ref_template=REF.replace("{name}", prefix + "{name}"))
    out = {}
    for name, schema in found.items():  # a generator names its classes by title: prefixed too
        out[prefix + name] = {**schema, "title": prefix + name} if "title" in schema else schema
    for name, ref in zip(named, refs):
        target = ref.get("$ref", "").rsplit("/", 1)[-1] if len(ref) == 1 else None
        if target == name:
            continue
        if target in out:  # a Struct named otherwise (``View``): the component takes the contract's name
            out[name] = {**out.pop(target), "title": name}
            _rename_refs(out, REF.format(name=target), REF.format(name=name))
        else:  # a union: its own component, one of its members by ``type`` (each type is one member)
            out[name] = {"oneOf": ref["anyOf"], **{k: v for k, v in ref.items() if k != "anyOf"}} \
                if "discriminator" in ref else ref
    return out


def _rename_refs(node: Any, old: str, new: str) -> None:
    if isinstance(node, dict):
        if node.get("$ref") == old:
            node["$ref"] = new
        for value in node.values():
            _rename_refs(value, old, new)
    elif isinstance(node, list):
        for value in node:
            _rename_refs(value, old, new)
