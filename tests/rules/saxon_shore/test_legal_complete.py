"""legal-commands is complete (issue 15, point 8): in sampled positions, every command ``decide``
accepts among a broad enumeration (multi-token trades, gifts and requests, boats in two
provinces, any group along any path of up to two steps, composed answers) is listed by
``legal_commands`` or described by ``legal_choices`` — and every listed one is accepted."""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement, product
from uuid import UUID

import msgspec

from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.data import RESOURCES
from domain.rules.saxon_shore.state import alive, decode_tokens, encode_tokens

from .bots import choose_command
from .helpers import SEED, S, decision, new_game
from .play import Play, cell

ROLL = "random province improvement"

RNG = SeededRng(bytes(32), UUID(int=1), "", 0)


def accepted(state, seat, command) -> bool:
    try:
        S.decide(state, seat, S.parse_command(command), RNG)
    except RuleViolation:
        return False
    return True


def bags(held: dict[str, int], most: int) -> list[dict[str, int]]:
    """Every multiset of at most ``most`` tokens drawn from ``held`` (and the empty one)."""
    out = [{}]
    for size in range(1, most + 1):
        for combo in combinations_with_replacement(RESOURCES, size):
            bag = {r: combo.count(r) for r in set(combo)}
            if all(held.get(r, 0) >= n for r, n in bag.items()):
                out.append(bag)
    return out


def held(state, seat) -> dict[str, int]:
    return {r: n for r, n in zip(RESOURCES, state.players[seat].res) if n}


def candidates(state, seat) -> list[dict]:
    """A broad enumeration of commands, far beyond what is listed."""
    out = [msgspec.to_builtins(c) for c in S.legal_commands(state, seat)]
    prompt, board = state.prompt, state.board
    if prompt.kind == "family_offer":
        out += [{"type": "choose", "option": encode_tokens(b)} for b in bags(held(state, seat), 3) if b]
    if prompt.kind != "phase":
        return out
    out.append({"type": "done"})  # every phase ends with done, once its checks allow it
    phase = prompt.args[0]
    if phase == "trade":
        for other in alive(state):
            if other != seat:
                for give, take in product(bags(held(state, seat), 2), bags(held(state, other), 2)):
                    out.append({"type": "offer", "to": other, "give": give, "take": take})
    if phase == "raise":
        places = [{"province": p, "sea": z} for p in board.provinces for z in board.coasts[p]]
        for r in held(state, seat):
            out += [{"type": "raise-boats", "places": [a, b], "pay": r} for a, b in combinations(places, 2)]
    if phase == "move":
        here: dict[str, list[int]] = {}
        for u in state.units.values():
            if u.owner == seat:
                here.setdefault(u.loc, []).append(u.id)
        nxt = {p: [*board.land_neighbours.get(p, ()), *board.shore(p),
                   *(sorted(board.sea_links[p]) if board.is_sea(p) else ()),
                   *((q for q in (*board.provinces, *board.wild) if p in board.shore(q)) if board.is_sea(p) else ())]
               for p in (*board.provinces, *board.wild, *board.seas)}
        for loc, ids in here.items():
            groups = [list(g) for size in (1, 2) for g in combinations(sorted(ids), size)]
            paths = [[a] for a in nxt[loc]] + [[a, b] for a in nxt[loc] for b in nxt[a] if b != loc]
            out += [{"type": "move", "units": g, "path": p} for g in groups for p in paths]
    return out


def described(choices: list[dict], command: dict) -> bool:
    """Whether ``command`` is one of the compositions a choice describes (choices.py's forms)."""
    def tokens_ok(bag, spec):
        return all(n >= 0 and spec["tokens_up_to"].get(r, 0) >= n for r, n in bag.items())

    for choice in choices:
        if choice["type"] != command["type"]:
            continue
        if command["type"] == "offer":
            give, take = command.get("give", {}), command.get("take", {})
            if (command["to"] in choice["to"]["one_of"] and tokens_ok(give, choice["give"])
                    and tokens_ok(take, choice["take"]["per_recipient"][command["to"]])):
                return True
        if command["type"] == "raise-boats":
            places = command["places"]
            allowed = choice["places"]["one_or_two_distinct_provinces_of"]
            if (1 <= len(places) <= 2 and all(p in allowed for p in places) and command["pay"] in choice["pay"]["one_of"]
                    and len({p["province"] for p in places}) == len(places)):
                return True
        if command["type"] == "move":
            groups, steps = choice["units"]["groups"], choice["path"]["steps"]
            start = next((loc for loc, ids in groups.items() if set(command["units"]) <= set(ids)), None)
            if start is not None and command["path"]:
                here, ok = start, True
                for step in command["path"]:
                    ok = ok and step in steps[here]
                    here = step
                if ok:
                    return True
        if command["type"] == "choose" and "option" in choice:
            bag = decode_tokens(command["option"])
            if bag is not None and tokens_ok(bag, choice["option"]):
                return True
    return False


def sampled_positions():
    """Positions from two seeded random games (every phase and question they meet, thinned),
    and prepared ones: a trade among three players, boats and riders moving, a family offer."""
    found = []
    for players, seed in ((3, 7), (4, 8)):
        rnd, used = random.Random(seed), {}
        game = new_game(players, {}, game_id=UUID(int=seed))
        kinds: dict[tuple, int] = {}
        for _ in range(900):
            if game.ended:
                break
            [seat] = game.to_act()
            key = (game.state.prompt.kind, game.state.prompt.args[:1])
            if kinds.get(key, 0) < 2 and game.state.turn >= 2:
                kinds[key] = kinds.get(key, 0) + 1
                found.append((game.state, seat))
            commands = [msgspec.to_builtins(c) for c in S.legal_commands(game.state, seat)]
            command = choose_command(rnd, game.state, seat, commands, True, used)
            _, game = decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw))
    # positions reached by play from the opening (play.Play), where the large spaces are: a
    # three-player trade phase, two boats beside three kinds of troops, a raise phase, a family
    # offer (§11 41), and a hire spending the last resource while declaring (issue 24 point 5)
    trade = Play("Kent", "Sussex", "Hwicce").to("trade", "p1")
    boats = Play("Kent", "Leinster").to("raise", "p1")
    boats.act("p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "gold"]}).to("raise", "p1", turn=2)
    boats.act("p1", {"type": "raise-peasants", "province": "Kent", "pay": "wheat"})
    boats.act("p1", {"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}], "pay": "iron"})
    boats.to("move", "p1")
    raising = Play("Kent", "Leinster").to("raise", "p1")
    family = Play("Kent", "Leinster", events={"p1": [11, 11, 41], "p2": [41]},
                  dice={"family ties: random province table": cell("Ulster") * 2})
    family.to("", "p2", turn=3, asked="family_offer", answers={"place_unit": "Kent"})  # p2 holds three gold
    plague = {"plague: random province table": cell("Surrey"), "plague (§11 23) in Kent": [1], ROLL: cell("Kent")}
    hired = Play("Kent", "Leinster", events={"p1": [23]}, dice=plague).to("raise", "p1")
    hired.act("p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "gold"]})
    hired.to("move", "p1").move("p1", [1], ["Surrey"]).to("declare", "p1")
    hired.act("p1", {"type": "hire", "unit": hired.ids(None, "mercenary", "Kent")[0], "pay": "wheat"})
    found += [(trade.state, "p1"), (boats.state, "p1"), (raising.state, "p1"), (family.state, "p2"),
              (hired.state, "p1")]
    return found


def test_every_command_decide_accepts_is_listed_or_described():
    positions = sampled_positions()
    assert len(positions) >= 12
    kinds, composed = set(), set()
    for state, seat in positions:
        listed = [msgspec.to_builtins(c) for c in S.legal_commands(state, seat)]
        choices = S.legal_choices(state, seat)
        for command in candidates(state, seat):
            if accepted(state, seat, command):
                kinds.add(command["type"])
                assert command in listed or described(choices, command), (state.prompt, command)
                if command not in listed:
                    composed.add(command["type"])
        for command in listed:
            assert accepted(state, seat, command), command
    # the spaces the issue names were met: multi-token trades and gifts, boats, groups and paths
    assert {"offer", "raise-boats", "move", "choose"} <= kinds
    assert {"offer", "raise-boats", "move", "choose"} <= composed  # found only through the choices
    assert S.legal_complete is True
