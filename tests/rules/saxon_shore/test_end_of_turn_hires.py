"""Issue 26 point 8, §9.2: "In game order, all troops in non-friendly provinces are moved to the
nearest friendly province." A mercenary hired "at any time" (§4.6.1) while the player's troops
are being sent home goes home too. Reached by play from the opening (seeded dice, the expansionist
bot) with one habit added: a seat asked where its troops go at the end of the turn first hires a
mercenary standing in a non-friendly province when it can. Version 2.0.0's records keep the old
reading (the mercenary stayed), and replay so."""

from __future__ import annotations

import hashlib
import random
from uuid import UUID

import msgspec
import pytest

from domain.events import GameCreated, SeatInfo
from domain.game import create_game, project_game
from domain.rng import SeededRng

from .bots import choose_command
from .helpers import NOW, SEED, S, decision

OPTIONS = {"warrior_monks": True, "city_defences": True, "feeble_rulers": True}


def game_of(players: int, seed: int, version: str):
    seats = {f"p{i}": SeatInfo(player=f"Player {i}") for i in range(1, players + 1)}
    created = GameCreated(rules=S.id, rules_version=version, scenario="standard", data_hash=S.at_version(version).data_hash("standard"),
                          seats=seats, seed_commitment=hashlib.sha256(SEED).hexdigest(), options=OPTIONS)
    return project_game(None, create_game(UUID(int=seed * 10 + players), created, NOW))


def strays(state, seat: str) -> list[int]:
    """The seat's troops in a province it does not own (or at sea)."""
    return [u.id for u in state.units.values() if u.owner == seat and u.kind not in ("peasant", "boat")
            and (u.loc not in state.provinces or state.provinces[u.loc].owner != seat)]


def hire_at_home_time(version: str, players: int = 4, seed: int = 5) -> tuple[int, int]:
    """(hires made while a seat was asked where its troops go at the end of a turn, hired
    mercenaries still in a non-friendly province once the turn had passed). Four players, seed
    5: the first such hire comes at the 72nd decision (found by searching seeds)."""
    hires = stayed = 0
    rnd = random.Random(seed)
    game = game_of(players, seed, version)
    used: dict = {}
    watched: list[tuple[str, int]] = []
    for _ in range(400):
        if game.ended:
            break
        [seat] = game.to_act()
        commands = [msgspec.to_builtins(c) for c in S.legal_commands(game.state, seat)]
        prompt = game.state.prompt
        hire = next((c for c in commands if c["type"] == "hire"
                     and game.state.units[c["unit"]].loc in game.state.provinces
                     and game.state.provinces[game.state.units[c["unit"]].loc].owner != seat), None)
        if prompt is not None and prompt.kind == "home" and game.state.phase == "end of turn" and hire:
            command = hire
            hires += 1
            watched.append((seat, hire["unit"]))
        else:
            command = choose_command(rnd, game.state, seat, commands, True, used)
        turn = game.state.turn
        _, game = decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw))
        if game.state.turn != turn and watched:
            stayed += sum(1 for who, unit in watched if unit in game.state.units and unit in strays(game.state, who))
            watched = []
    return hires, stayed


@pytest.mark.parametrize("version", ["2.2.0", "2.1.0"])
def test_a_mercenary_hired_while_troops_go_home_goes_home_too(version):
    hires, stayed = hire_at_home_time(version)
    assert hires > 0
    assert stayed == 0


def test_version_2_0_0_left_it_where_it_was_hired():
    """RULES_NOTES.md, Versions: the same play under 2.0.0 leaves such a mercenary where it stands."""
    hires, stayed = hire_at_home_time("2.0.0")
    assert hires > 0 and stayed > 0
