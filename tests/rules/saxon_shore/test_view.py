"""view(state, seat): the structured JSON-ready board; render_text; describe_command; the
rule system's registration (interface shape)."""

import json

import msgspec

from domain.rules.registry import RULE_SYSTEMS

from .helpers import S, act, new_game, res
from .play import Play, cell


def test_registered_with_its_scenario_and_command_schema():
    assert RULE_SYSTEMS["saxon-shore"] is S
    schema = msgspec.json.schema(S.command_type)
    tags = {d["properties"]["type"]["enum"][0] for d in schema["$defs"].values() if "type" in d.get("properties", {})}
    assert {"choose", "done", "offer", "move", "declare", "improve", "raise-regular"} <= tags
    assert set(S.die_kinds) == {"d6"}


def test_view_is_json_ready_with_provinces_players_and_sea_zones():
    """Played: p1 (Kent) draws event 23, a plague on Kent, in the first turn and 21, good omens
    over column 6, in the second; its king dies and a +1 king is crowned (§3.1); p1 buys
    Kent's morale up and a road there, raises boats and sails one into The Channel."""
    play = Play("Kent", "Leinster", events={"p1": [23, 21]},
                dice={"plague: random province table": cell("Kent"), "plague (§11 23)": [1],
                      "good omens: a column": [6], "does the king die?": [1, 1, 1, 5], "quality of the new king": [5]})
    play.to("improve", "p1", turn=2)
    play.act("p1", {"type": "improve", "province": "Kent", "improvement": "morale", "pay": ["wheat"]})
    play.act("p1", {"type": "improve", "province": "Kent", "improvement": "road", "pay": ["wheat", "iron"]})
    play.to("raise", "p1").act("p1", {"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}],
                                      "pay": "iron"})
    boat = play.ids("p1", "boat")[0]
    play.to("move", "p1").move("p1", [boat], ["The Channel"])
    view = S.view(play.state, "p2")
    json.dumps(view)
    kent = view["provinces"]["Kent"]
    assert kent["owner"] == "p1" and kent["castle"] and kent["morale"] == "high" and kent["ravage"] == 1
    assert kent["improvements"] == ["road"] and kent["troops"][0]["kind"] == "king"
    assert view["players"]["p1"]["king"] == {"province": "Kent", "quality": 1}
    assert view["players"]["p1"]["resources"] == res(play.game, "p1") and view["players"]["p1"]["boats"] == 2
    assert view["sea_zones"]["The Channel"]["units"][0]["kind"] == "boat"
    assert view["to_act"] == ["p1"] and view["prompt"]["args"] == ["move"]


def test_render_text_reads_at_a_glance():
    game = new_game(2)
    game = act(game, "p1", {"type": "choose", "option": "Kent"})
    game = act(game, "p2", {"type": "choose", "option": "Leinster"})
    text = S.render_text(game.state)
    assert "Saxon Shore — turn 1" in text and "Kent" in text and "p1:K" in text and "waiting for" in text
    assert len(text.splitlines()) > 40


def test_describe_command_one_line_narratives():
    assert S.describe_command({"type": "move", "units": [3], "path": ["Kent", "Surrey"]}) == \
        "moves 1 unit to Surrey via Kent"
    assert S.describe_command({"type": "declare", "province": "Kent", "action": "invade", "pay": "wool"}) == \
        "declares an invasion of Kent, paying wool"
    assert S.describe_command({"type": "choose", "option": "Kent"}) == "chooses Kent"
