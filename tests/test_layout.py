"""DESIGN.md, "Layout" and "The rule-system interface": import directions and purity."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from domain.rules.registry import RULE_SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "domain": {"domain"},
    "projections": {"domain", "projections"},
    "replays": {"domain", "projections", "replays"},
    "analysis": {"domain", "analysis"},  # the rollouts need the rules only (issue 19)
}
FIRST_PARTY = {"domain", "projections", "replays", "api", "tests", "bench", "analysis"}
IMPURE = {"random", "time", "os", "socket", "subprocess", "secrets", "threading", "urllib", "requests", "httpx"}


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layers_import_only_inward(layer):
    for path in (ROOT / layer).rglob("*.py"):
        for name in imports(path):
            top = name.split(".")[0]
            if top in FIRST_PARTY:
                assert top in ALLOWED[layer], f"{path.relative_to(ROOT)} imports {name}"


def test_no_rule_system_imports_another():
    rules = ROOT / "domain" / "rules"
    systems = {p.name for p in rules.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for system in systems:
        for path in (rules / system).rglob("*.py"):
            for name in imports(path):
                parts = name.split(".")
                if parts[:2] == ["domain", "rules"] and len(parts) > 2 and parts[2] in systems:
                    assert parts[2] == system, f"{path.relative_to(ROOT)} imports {name}"


def test_rule_code_reads_no_clock_random_or_environment():
    for path in (ROOT / "domain").rglob("*.py"):
        for name in imports(path):
            assert name.split(".")[0] not in IMPURE, f"{path.relative_to(ROOT)} imports {name}"
        text = path.read_text()
        for call in ("datetime.now", "datetime.utcnow", "date.today", "uuid4(", "os.environ"):
            assert call not in text, f"{path.relative_to(ROOT)} calls {call}"


LAYOUT = ("commands.py", "state.py", "events.py", "rules.py", "evolve.py", "view.py", "narrate.py", "data.py",
          "labels.py", "violations.json", "engine.py", "RULES_NOTES.md")


def test_every_rule_system_has_the_standard_modules():
    """One package layout for every rule system (issue 18; PROTOCOL's list): rules.py holds decide
    and its helpers, more modules are allowed beside it, none of these is missing."""
    rules = ROOT / "domain" / "rules"
    systems = sorted(p for p in rules.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert {p.name for p in systems} == {type(r).__module__.split(".")[2] for r in RULE_SYSTEMS.values()}
    for system in systems:
        missing = [name for name in LAYOUT if not (system / name).is_file()]
        assert not missing, f"{system.relative_to(ROOT)} lacks {', '.join(missing)}"


@pytest.mark.parametrize("notes", sorted((ROOT / "domain" / "rules").glob("*/RULES_NOTES.md")), ids=lambda p: p.parent.name)
def test_rules_notes_cite_rulebooks_by_title_not_by_a_path_outside_the_repository(notes):
    """Issue 26 point 18: RULES_NOTES cite the rulebook by title and section, so a reader of the
    repository can follow; never a file outside it (``shared/rulebooks/...``)."""
    text = notes.read_text()
    assert "shared/rulebooks" not in text and "/work/" not in text
    assert "rulebook" in text.lower()
