"""view(state, seat): the structured JSON-ready board; render_text; describe_command; the
rule system's registration (interface shape)."""

import json

import msgspec

from domain.rules.registry import RULE_SYSTEMS
from domain.rules.saxon_shore.state import Prompt

from .helpers import S, act, new_game, position, stop


def test_registered_with_its_scenario_and_command_schema():
    assert RULE_SYSTEMS["saxon-shore"] is S
    schema = msgspec.json.schema(S.command_type)
    tags = {d["properties"]["type"]["enum"][0] for d in schema["$defs"].values() if "type" in d.get("properties", {})}
    assert {"choose", "done", "offer", "move", "declare", "improve", "raise-regular"} <= tags
    assert set(S.die_kinds) == {"d6"}


def test_view_is_json_ready_with_provinces_players_and_sea_zones():
    game = position(owners={"Kent": "p1"}, units=[("king", "p1", "Kent", {"quality": 1}),
                                                  ("boat", "p1", "The Channel")],
                    provinces={"Kent": {"city": True, "morale": 1, "ravage": 1}}, res={"p1": {"gold": 2}},
                    prompt=Prompt("phase", "p1", args=("move",)), jobs=(stop(),))
    view = S.view(game.state, "p2")
    json.dumps(view)
    kent = view["provinces"]["Kent"]
    assert kent["owner"] == "p1" and kent["castle"] and kent["morale"] == "high" and kent["ravage"] == 1
    assert kent["improvements"] == ["city"] and kent["troops"][0]["kind"] == "king"
    assert view["players"]["p1"]["king"] == {"province": "Kent", "quality": 1}
    assert view["players"]["p1"]["resources"]["gold"] == 2 and view["players"]["p1"]["boats"] == 1
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
