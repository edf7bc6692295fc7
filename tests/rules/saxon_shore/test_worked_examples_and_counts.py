"""The rulebook's worked examples as tests, and legal-command counts from fixed positions
(a change in command generation shows up here)."""

from domain.rules.saxon_shore.events import EventDrawn
from domain.rules.saxon_shore.state import Job, Prompt

from .helpers import DONE, events_of, legal, new_game, position, stop, then


def test_s11_example_a_4_then_a_2_is_event_42():
    """§11: "you roll a 4 on the first die and a 2 on the second die, the resultant number is 42"."""
    game = position(owners={"Kent": "p1"}, **then(Job("event", "p1")))
    drawn = [e for e in events_of(game, "p1", DONE, [4, 2]) if isinstance(e, EventDrawn)]
    assert drawn[0].number == 42 and drawn[0].name == "Boats"


def test_s2_1_example_kent_population_three_is_its_carrying_capacity():
    from domain.rules.saxon_shore.state import capacity
    game = position(provinces={"Kent": {"road": True, "city": True, "monastery": True, "ravage": 1}})
    assert capacity(position().state, "Kent") == 3
    assert capacity(game.state, "Kent") == 5  # 3 - 1 + 1 + 1 + 1


def test_counts_opening_picks():
    game = new_game(5)
    assert len(legal(game, "p1")) == 36
    assert len(legal(game, "p2")) == 0


def test_counts_improve_phase():
    game = position(owners={"Kent": "p1", "Surrey": "p1"}, res={"p1": {"wheat": 1, "gold": 1, "iron": 1}},
                    provinces={"Kent": {"ravage": 1}}, prompt=Prompt("phase", "p1", args=("improve",)), jobs=(stop(),))
    commands = legal(game, "p1")
    kinds = sorted({(c.get("province"), c.get("improvement")) for c in commands if c["type"] == "improve"})
    # morale 3 ways and road/wall 3 ways each (wheat + wheat/iron/gold... wheat+wheat not held) in each
    # province; ravage 3 ways in Kent; no city (no wool), no monastery (Pagan)
    assert len(commands) == 1 + 2 * (3 + 2 + 2) + 3
    assert ("Kent", "ravage") in kinds and ("Surrey", "ravage") not in kinds


def test_counts_move_phase():
    units = [("king", "p1", "Kent", {"mp": 2}), ("regular", "p1", "Kent", {"mp": 2}),
             ("boat", "p1", "Kent", {"mp": 2, "coast": "The Channel"})]
    game = position(owners={"Kent": "p1"}, units=units, prompt=Prompt("phase", "p1", args=("move",)), jobs=(stop(),))
    commands = legal(game, "p1")
    # done; king and regular alone to Thanet, Surrey, Middlesex? (marsh: no), Sussex? (forest: no);
    # both together; the boat alone or loaded to The Channel or along the coast to Sussex
    assert len([c for c in commands if c["type"] == "move"]) == 2 * 2 + 2 + 2 * 2
    assert len(commands) == 11
