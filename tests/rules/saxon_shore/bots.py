"""Seeded random players for Saxon Shore simulations (tests and bench): an expansionist that
raises peasants, marches into its neighbours and invades, and a uniform one. Their habits are
theirs, not rules: the engine has no caps."""

from __future__ import annotations

import random

from domain.rules.saxon_shore.data import BOARD

PATIENCE = 12  # a bot's own habit, not a rule: after this many decisions in one phase of a turn it says done
SPREAD = {"offer", "place-trade", "raise-boats", "peasant-to-boat", "hire", "raise-regular", "raise-peasants"}
WEIGHTS = {"raise-peasants": 30, "raise-regular": 10, "improve": 0.1, "offer": 0.1, "place-trade": 0.1,
           "done": 1, "convert": 0.1, "hire": 5, "raise-boats": 0.2, "peasant-to-boat": 0.1}


def weight(state, seat: str, c: dict) -> float:
    """An expansionist player: raise peasants, march them into neighbours, invade."""
    if c["type"] == "choose" and state.prompt.kind == "start":
        return 20 if BOARD.produces[c["option"]] else 1
    if c["type"] == "declare":
        return {"invade": 50, "raid": 10}[c["action"]]
    if c["type"] == "move":
        target = c["path"][-1]
        if target in state.provinces and state.provinces[target].owner != seat:
            return 20 * len(c["units"])
        return 0.5
    if c["type"] == "improve" and c["improvement"] == "city":
        return 20
    return WEIGHTS.get(c["type"], 1)


def pick(rnd: random.Random, commands: list[dict], aggressive: bool, state=None, seat: str = "",
         streak: int = 0) -> dict:
    if streak > PATIENCE and {"type": "done"} in commands:
        return {"type": "done"}
    if not aggressive:
        undone = [c for c in commands if c["type"] != "done"]
        return rnd.choice(undone) if undone and rnd.random() < 0.8 else rnd.choice(commands)
    counts: dict[str, int] = {}
    for c in commands:
        counts[c["type"]] = counts.get(c["type"], 0) + 1
    # a kind of command with a large listing (offers, boats, ...) weighs as a kind, not per entry
    return rnd.choices(commands, [weight(state, seat, c) / (counts[c["type"]] if c["type"] in SPREAD else 1)
                                  for c in commands])[0]


def choose_command(rnd: random.Random, state, seat: str, commands: list[dict], aggressive: bool,
                   used: dict[tuple, int]) -> dict:
    """The bot's next command; ``used`` counts its decisions per (seat, phase, stage, turn)
    across calls, so it tires of a phase (trading, free road moves) and says done."""
    where = (seat, state.phase, state.stage, state.turn)
    used[where] = used.get(where, 0) + 1
    return pick(rnd, commands, aggressive, state, seat, used[where])


class Patient(random.Random):
    """A client's random choice among listed commands that picks ``done`` half the time it is
    listed: trading and road moves have no cap, so a uniform choice can trade for ever."""

    def choice(self, seq):
        if {"type": "done"} in seq and self.random() < 0.5:
            return {"type": "done"}
        return super().choice(seq)
