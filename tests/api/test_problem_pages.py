"""Issue 18: "Problem `type` links (`/problems/...`) answer with a page that explains the
problem". Every problem type the code can raise is found in the source (api/problems.py reads
it), and each one's page is fetched, as HTML and as JSON."""

from __future__ import annotations

import html

import pytest

from api.problems import EXPLAINED, catalogue, scan
from domain.rules.base import SHARED_VIOLATIONS
from domain.rules.registry import RULE_SYSTEMS


def test_the_catalogue_finds_every_code_the_source_raises():
    """Every place outside the rule systems that raises a problem gives its code where the source
    says it (a literal, a constant), except the ones that pass on a code already raised elsewhere
    (a RuleViolation's, as the service translates it); the rule systems' codes are their own
    declarations (``RuleSystem.violations``)."""
    found, unresolved = scan()
    assert {u.code for u in unresolved} <= {"error.code"}, unresolved
    codes = {code for code, _, _ in found}
    for expected in ("not_your_turn", "stale_version", "not_found", "malformed_json", "unsupported_media_type",
                     "audit.bad_at_version"):
        assert expected in codes, expected
    assert not any(site.module.startswith("domain.rules.") for _, site, _ in found)
    problems = catalogue()
    for expected in ("saladin.not_enough_orders", "kingdoms-of-crusaders.sector_full", "saxon-shore.bad_map"):
        assert problems[expected].rule_system == expected.partition(".")[0] and problems[expected].rules, expected
    service_codes = {code for code in codes if "." not in code}
    unexplained = sorted(service_codes - set(EXPLAINED))
    assert not unexplained, f"problems with no words in api/problems.py EXPLAINED: {unexplained}"


def test_every_code_a_rule_system_raises_is_declared_by_it():
    """base.py, "The contract": a rule system declares every code its RuleViolations carry. Every
    code its package's source raises (``RuleViolation(code, …)``, its ``violation(reason, …)``)
    is one it declares, or a shared one; and every code it declares is raised there (none stale)."""
    found, unresolved = scan(("domain/rules",), skip=None)
    assert not unresolved, unresolved
    raised: dict[str, set[str]] = {}
    for code, site, _ in found:
        if site.module.startswith("domain.rules."):
            raised.setdefault(site.module.split(".")[2], set()).add(code)
    for system in RULE_SYSTEMS.values():
        package = type(system).__module__.split(".")[2]
        own = raised.get(package, set()) - set(SHARED_VIOLATIONS)
        assert own <= set(system.violations), f"{system.id} raises undeclared codes: {sorted(own - set(system.violations))}"
        assert set(system.violations) <= own, f"{system.id} declares codes it never raises: {sorted(set(system.violations) - own)}"
    base = raised.get("base", set())
    assert base <= set(SHARED_VIOLATIONS), base


def test_every_problem_type_answers_with_a_page(client):
    problems = catalogue()
    assert len(problems) > 150
    for code, problem in problems.items():
        page = client.get(problem.type, headers={"Accept": "text/html"})
        assert page.status_code == 200, (code, page.text)
        assert page.headers["content-type"].startswith("text/html")
        assert f"<code>{code}</code>" in page.text and html.escape(problem.explanation.split("`")[0][:40]) in page.text
        as_json = client.get(problem.type, headers={"Accept": "application/json"}).json()
        assert as_json["code"] == code and as_json["status"] == problem.status and as_json["explanation"]
        if problem.rule_system:
            assert as_json["examples"], f"{code}: no message shown"


def test_a_problem_answered_links_to_its_own_page(client):
    from tests.conftest import new_game, post

    game = new_game(client, rules="saladin", seats=("crusaders", "ayyubids"), scenario="hattin")
    to_act = client.get(f"/games/{game['id']}").json()["to_act"][0]
    other = "ayyubids" if to_act == "crusaders" else "crusaders"
    refused = post(client, game, other, {"type": "pass"})
    assert refused.status_code == 422
    link = refused.json()["type"]
    explained = client.get(link, headers={"Accept": "application/json"}).json()
    assert explained["code"] == refused.json()["code"] and explained["status"] == 422
    index = client.get("/problems", headers={"Accept": "application/json"}).json()
    assert any(p["type"] == link for p in index["problems"])
    assert client.get("/problems/no.such-thing").status_code == 404


@pytest.mark.parametrize("accept", ["text/html,application/xhtml+xml", "*/*", None])
def test_a_browser_gets_html(client, accept):
    headers = {"Accept": accept} if accept else {}
    page = client.get("/problems/stale_version", headers=headers)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Read the game again" in page.text


def test_a_problem_with_its_own_title_is_only_that_problem():
    """A HeraldError that titles one problem (``Text that cannot be stored``) titles no other
    code: ``integer_out_of_range`` had that title, raised as an ``Unstorable`` with its code."""
    import api.app  # noqa: F401 - every route module, so every HeraldError class is defined
    from api import errors

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    problems = catalogue()
    assert problems["integer_out_of_range"].title == "Integer out of range"
    assert problems["integer_out_of_range"].status == 400
    generic = {errors.HeraldError.title} | {c.title for c in subclasses(errors.HeraldError)
                                            if c.__module__ == errors.__name__}
    for cls in subclasses(errors.HeraldError):
        if cls.title in generic:
            continue  # the generic kinds (Not found, Conflict…) title many codes
        titled = {code for code, p in problems.items() if p.title == cls.title}
        assert titled == {cls.code}, (cls.__name__, titled)
