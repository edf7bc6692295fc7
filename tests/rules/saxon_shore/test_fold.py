"""Issue 31: "Saxon Shore's fold assigns only (its queue is state the events carry); no module
state in any rule system. Old Saxon Shore records still verify (rules version bump, the old fold
kept only where a record needs it)."

Since 2.2.0 a decision that changes the turn's control ends with a ``PlayerAsked`` that says it
(RULES_NOTES.md, "The turn's control in the record"): §2.2, "The order of gameplay is very
important", is the queue of steps the fold now assigns from the record instead of running the
decision again."""

from __future__ import annotations

import random
import re
from pathlib import Path
from uuid import UUID

import msgspec
import pytest

from domain.events import GameCreated, SeatInfo
from domain.game import create_game, project_game
from domain.rng import SeededRng
from domain.rules.saxon_shore import older, rules
from domain.rules.saxon_shore.events import Job, PlayerAsked, PromptOpened
from domain.rules.saxon_shore.rules import steps_changed
from replays.record_format import decode_record
from replays.verify import verify
from tests.rules.saxon_shore.bots import choose_command

from .helpers import NOW, SEED, S, decision

RECORD_2_1_0 = Path(__file__).parent / "records" / "saxon-shore-2.1.0.json"


def control(state):
    return state.jobs, state.prompt, state.phase, state.stage


def seeded_game(players: int, seed: int, decisions: int):
    """A bot game through the real aggregate path: [(the game after, the control decide left)]."""
    rnd, used = random.Random(seed), {}
    created = GameCreated(rules=S.id, rules_version=S.version, scenario="standard", data_hash=S.data_hash("standard"),
                          seats={f"p{i}": SeatInfo(player=f"P{i}") for i in range(1, players + 1)},
                          seed_commitment="0" * 64)
    events = create_game(UUID(int=seed), created, NOW)
    game, after = project_game(None, events), []
    for _ in range(decisions):
        if game.ended:
            break
        [seat] = game.to_act()
        commands = [msgspec.to_builtins(c) for c in S.legal_commands(game.state, seat)]
        command = choose_command(rnd, game.state, seat, commands, True, used)
        rng = SeededRng(SEED, game.id, "", game.next_draw)
        _, played = S.play(game.state, seat, S.parse_command(command), SeededRng(SEED, game.id, "", game.next_draw))
        stored, game = decision(game, seat, command, rng)
        events += stored
        after.append((game, control(played)))
    return events, after


@pytest.mark.parametrize("players,seed", [(2, 3), (4, 5)])
def test_the_fold_assigns_the_control_decide_left(players, seed, monkeypatch):
    """§2.2's order of gameplay as decide leaves it, after every decision of a seeded game, is
    the state the fold builds from the record alone, with decide unreachable from the fold."""
    events, after = seeded_game(players, seed, 600)
    assert any(e.type == "saxon-shore.PlayerAsked" for e in events)
    assert not any(e.type == "saxon-shore.PromptOpened" for e in events)
    for game, decided in after:
        if not game.ended:
            assert control(game.state) == decided

    def no_decide(*args, **kwargs):
        raise AssertionError("the 2.2.0 fold ran a decision")

    monkeypatch.setattr(rules, "decide", no_decide)
    assert project_game(None, events).state == after[-1][0].state


def test_the_queue_is_recorded_as_its_change():
    """Steps are only run and queued at the front: the record says how many of the steps left
    before are gone and which are now ahead of the rest."""
    before = (Job("a"), Job("b"), Job("c"), Job("d"))
    assert steps_changed(before, [Job("x"), Job("c"), Job("d")]) == (2, [Job("x")])
    assert steps_changed(before, list(before)) == (0, [])
    assert steps_changed((), [Job("begin_turn")]) == (0, [Job("begin_turn")])
    assert steps_changed(before, []) == (4, [])


def test_player_asked_leaves_its_defaults_out_of_the_record():
    """The record says what changed, not every empty field (PlayerAsked's docstring)."""
    asked = PlayerAsked(seat="p1", kind="phase", phase="trade", section="4.3", steps_done=1)
    assert msgspec.to_builtins(asked) == {"seat": "p1", "kind": "phase", "phase": "trade", "section": "4.3",
                                          "steps_done": 1}
    assert isinstance(asked, PromptOpened)


def test_a_2_1_0_record_still_verifies():
    """A real record made by Saxon Shore 2.1.0 (1,200 events of a 2-player game, battles
    included; its questions PromptOpened, its control derived) replays and verifies under
    ``at_version("2.1.0")``, whose fold is older.py's."""
    record = decode_record(RECORD_2_1_0.read_bytes())
    assert record.header.rules_version == "2.1.0"
    assert "saxon-shore.PlayerAsked" not in {e.type for e in record.events}
    verdict = verify(record)
    assert verdict.ok, verdict.problems


def test_a_2_1_0_game_still_plays_as_2_1_0():
    """A game created under 2.1.0 goes on recording PromptOpened, folded by running its decisions
    again (older.py), and its control matches decide's after every decision."""
    from domain.game import rule_system_for

    created = GameCreated(rules=S.id, rules_version="2.1.0", scenario="standard", data_hash=S.data_hash("standard"),
                          seats={"p1": SeatInfo(player="a"), "p2": SeatInfo(player="b")},
                          seed_commitment="0" * 64)
    old = rule_system_for(created)
    assert old.version == "2.1.0"
    game = project_game(None, create_game(UUID(int=21), created, NOW))
    rnd, used, types = random.Random(7), {}, set()
    for _ in range(300):
        [seat] = game.to_act()
        commands = [msgspec.to_builtins(c) for c in old.legal_commands(game.state, seat)]
        command = choose_command(rnd, game.state, seat, commands, True, used)
        _, played = old.play(game.state, seat, old.parse_command(command), SeededRng(SEED, game.id, "", game.next_draw))
        stored, game = decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw))
        types |= {e.type for e in stored}
        assert control(game.state) == control(played)
    assert "saxon-shore.PromptOpened" in types and "saxon-shore.PlayerAsked" not in types


def test_no_rule_system_keeps_module_state():
    """No cache of states by ``id()``, no memo of decisions: the one that Saxon Shore's fold
    needed (``rules.RECENT``) is gone, and the old fold remembers nothing between calls."""
    assert not hasattr(rules, "RECENT") and not hasattr(rules, "Recent")
    root = Path(rules.__file__).parent.parent
    for source in root.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert not re.search(r"\bid\(", text), source
    assert not [name for name, value in vars(older).items()
                if not name.startswith("__") and isinstance(value, (dict, list, set))]


def test_an_owners_map_needs_no_cache_of_boards():
    """A game refolded from its record builds its owner's map again: an equal board (the map's
    data), so its state is equal to the first fold's, with no module-level table of boards."""
    import json

    from domain.rules.saxon_shore import data

    tables = {name: len(value) for name, value in vars(data).items() if isinstance(value, dict)}
    raw = json.loads((data.PACKAGE / data.MAP_FILE).read_text())
    raw["header"] = "an owner's copy"
    assert data.Board(raw) == data.Board(raw) != data.BOARD and data.Board(raw) is not data.Board(raw)
    assert {name: len(value) for name, value in vars(data).items() if isinstance(value, dict)} == tables
