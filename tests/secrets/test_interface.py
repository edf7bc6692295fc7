"""Issue 12: "view(state, seat) has no default that shows everything"; "a rule system declares,
per event, who may read it"; sealed rolls stay out of the dice statistics."""

from __future__ import annotations

from datetime import datetime, timezone
from uuid import UUID

import pytest

from domain.events import DiceRolled
from domain.game import chain
from domain.rules.base import RuleSystem
from domain.rules.registry import RULE_SYSTEMS
from tests.conftest import new_game, post


def test_the_base_view_shows_nothing():
    with pytest.raises(NotImplementedError):
        RuleSystem().view(object(), None)


@pytest.mark.parametrize("system", sorted(RULE_SYSTEMS))
def test_every_rule_system_says_what_each_seat_sees(system):
    """Its own ``view``, or its declared ``board``'s (base.py, "The contract")."""
    rules = RULE_SYSTEMS[system]
    assert type(rules).view is not RuleSystem.view or rules.board is not None, f"{system} must write its own view"


def test_a_rule_system_that_says_no_view_is_refused():
    from domain.rules.base import check_declared, keeps_no_secrets

    class Blind(RuleSystem):
        id = "blind"
        violations: dict = {}
        section_fields = (None, None)
        determinize = keeps_no_secrets

    with pytest.raises(TypeError, match="view"):
        check_declared(Blind())


def test_which_rule_systems_keep_secrets():
    secret = {s for s, r in RULE_SYSTEMS.items() if r.has_secrets}
    assert {"open-table", "kingdoms-of-crusaders"} <= secret and not {"saladin", "saxon-shore"} & secret


def test_a_sealed_roll_stays_out_of_the_dice_statistics(client, herald):
    game = new_game(client)
    post(client, game, "alice", {"type": "roll", "label": "open", "dice": "2d6"})
    stored = herald.games.game(UUID(game["id"]))
    sealed = DiceRolled(draws=[2], kind="d6", faces=[6], purpose="secret", seat="bob")
    seed = herald.secrets.server_seed(stored.id)
    herald.store.append(*chain(stored.id, stored.version + 1, stored.head, [sealed], datetime.now(timezone.utc),
                               [frozenset({"bob"})], seed))
    report = client.get(f"/games/{game['id']}/dice").json()
    assert [k["rolls"] for k in report["kinds"] if k["kind"] == "d6"] == [2]
