"""A client that knows nothing of any rule system: it reads what ``legal-commands`` lists (and
the ``choices`` it describes) and picks, seeded. Used by tests/rules/test_every_game_ends.py over
HTTP and by bench/bench_every_game_ends.py in process (issue 24 point 5).

Its habit (not a rule): a kind of command weighs as a kind, not per entry — it picks a command
``type`` uniformly among the types listed, then one command of that type — so a kind listed a
thousand times (trade offers, moves) does not drown a kind listed once (``done``, ``end-move``).

Composing from ``choices``: only the generic forms of a field's description are understood —
``{"one_of": [...]}``, a plain list of values (one of them), ``{"min": a, "max": b}`` numbers (a
value between). Keys ``type`` and ``description`` are the choice's own. A choice with any other
field (a form a rule system documents for itself: token counts, move paths, free text) is not
composed: the client would need that rule system's knowledge.
"""

from __future__ import annotations

import random
from typing import Any

META = ("type", "description")


def composable(choice: dict[str, Any]) -> bool:
    """Whether every field of ``choice`` is in a generic form this client understands."""
    for key, form in choice.items():
        if key in META:
            continue
        if isinstance(form, list) and form:
            continue
        if isinstance(form, dict) and set(form) == {"one_of"} and isinstance(form["one_of"], list) and form["one_of"]:
            continue
        if (isinstance(form, dict) and set(form) == {"min", "max"}
                and all(isinstance(form[k], (int, float)) and not isinstance(form[k], bool) for k in form)):
            continue
        return False
    return isinstance(choice.get("type"), str)


def compose(rnd: random.Random, choice: dict[str, Any]) -> dict[str, Any]:
    """One command composed from a composable choice, each field drawn from its form."""
    command: dict[str, Any] = {"type": choice["type"]}
    for key, form in choice.items():
        if key in META:
            continue
        if isinstance(form, list):
            command[key] = rnd.choice(form)
        elif "one_of" in form:
            command[key] = rnd.choice(form["one_of"])
        else:
            command[key] = round(rnd.uniform(form["min"], form["max"]), 1)
    return command


def pick(rnd: random.Random, commands: list[dict[str, Any]], choices: list[dict[str, Any]] = (),
         compose_share: float = 0.0) -> tuple[dict[str, Any], bool]:
    """The next command and whether it was composed (from a choice) rather than listed. With
    ``compose_share`` > 0, that share of the picks composes from a composable choice when one is
    described; otherwise a listed command, its type first."""
    described = [c for c in choices if composable(c)]
    if described and (not commands or rnd.random() < compose_share):
        return compose(rnd, rnd.choice(described)), True
    by_type: dict[str, list[dict[str, Any]]] = {}
    for command in commands:
        by_type.setdefault(str(command.get("type")), []).append(command)
    kind = rnd.choice(sorted(by_type))
    return rnd.choice(by_type[kind]), False
