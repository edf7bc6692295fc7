"""The rulebook's worked examples as tests, reached by play from the opening (helpers.played_until:
the expansionist bot, seeded dice, the dice a test names forced), and legal-command counts from
positions reached by play (play.Play)."""

from domain.rules.saxon_shore.events import EventDrawn
from domain.rules.saxon_shore.state import capacity

from .helpers import legal, new_game, played_until, prov, res, units
from .play import Play, cell, joining


def test_s11_example_a_4_then_a_2_is_event_42():
    """§11: "you roll a 4 on the first die and a 2 on the second die, the resultant number is 42".
    Played from the opening, the first random event's dice forced to 4 then 2."""
    events, _, _ = played_until(lambda events, game: any(isinstance(e, EventDrawn) for e in events),
                             faces={"random event (§11)": [4, 2]})
    drawn = [e for e in events if isinstance(e, EventDrawn)]
    assert drawn[0].number == 42 and drawn[0].name == "Boats"


def test_s2_1_example_kent_population_three_is_its_carrying_capacity():
    """§2.1: a province's carrying capacity is its population, "-1 for each ravage marker, +1 for a
    road, +1 for a city, +1 for a monastery" (Kent: population 3). Played: the first province that
    holds a ravage marker and an improvement (seeded play, three players)."""
    assert capacity(new_game(2).state, "Kent") == 3

    def ravaged_and_improved(events, game):
        return any(p.ravage and (p.road or p.city or p.monastery) for p in game.state.provinces.values())

    _, game, _ = played_until(ravaged_and_improved, players=3)
    s = game.state
    name, p = next((n, p) for n, p in s.provinces.items() if p.ravage and (p.road or p.city or p.monastery))
    assert capacity(s, name) == max(0, s.board.population[name] - p.ravage + p.road + p.city + p.monastery)


def test_counts_opening_picks():
    game = new_game(5)
    assert len(legal(game, "p1")) == 36
    assert len(legal(game, "p2")) == 0


def test_counts_improve_phase():
    """Played: Suffolk (no resource) joins p1's Kent by family ties and p2 draws event 23, a
    plague on Kent, in the first turn: p1 holds a wheat, an iron and a gold in its improvement
    phase."""
    play = Play("Kent", "Leinster", events={"p1": [41], "p2": [23]},
                dice={**joining("Suffolk"), "plague: random province table": cell("Kent"), "plague (§11 23)": [1]})
    play.to("improve", "p1")
    assert prov(play.game, "Kent").ravage == 1 and prov(play.game, "Suffolk").owner == "p1"
    assert res(play.game, "p1") == {"wheat": 1, "wool": 0, "iron": 1, "gold": 1, "slaves": 0}
    commands = legal(play.game, "p1")
    kinds = sorted({(c.get("province"), c.get("improvement")) for c in commands if c["type"] == "improve"})
    # morale 3 ways and road/wall 2 ways each (wheat + iron or gold) in each province; ravage 3
    # ways in Kent; no city (no wool), no monastery (Pagan)
    assert len(commands) == 1 + 2 * (3 + 2 + 2) + 3
    assert ("Kent", "ravage") in kinds and ("Suffolk", "ravage") not in kinds


def test_counts_move_phase():
    """Played: p1 draws event 51, storms in The Channel; raises a regular and one boat in Kent and
    one in Cornwall (§4.6.4), and sails Cornwall's into the storm, where it sinks: a king, a
    regular and one boat stand in Kent with two movement points each."""
    play = Play("Kent", "Leinster", events={"p1": [51]}, dice={"storms: which sea zone": [5]}).to("raise", "p1")
    play.act("p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "gold"]})
    play.act("p1", {"type": "raise-boats", "pay": "wheat", "places": [{"province": "Kent", "sea": "The Channel"},
                                                                       {"province": "Cornwall", "sea": "The Channel"}]})
    play.to("move", "p1")
    play.move("p1", play.ids("p1", "boat", "Cornwall"), ["The Channel"], {"storm in The Channel": [4]})
    assert [(u.kind, u.loc, u.mp) for u in units(play.game, owner="p1")] == \
        [("king", "Kent", 2), ("regular", "Kent", 2), ("boat", "Kent", 2)]
    commands = legal(play.game, "p1")
    # done; king and regular alone to Thanet, Surrey, Middlesex? (marsh: no), Sussex? (forest: no);
    # both together; the boat alone or loaded to The Channel or along the coast to Sussex
    assert len([c for c in commands if c["type"] == "move"]) == 2 * 2 + 2 + 2 * 2
    assert len(commands) == 11
