"""The analysis itself, pure: the positions of a game, an estimate of each seat's chances
from each by seeded rollouts, Wilson intervals, the swings, and the commands of one step
ranked. Deterministic given its seeds: rollout ``i`` of a position is seeded by the game, the
version, the policy and ``i``, so however the work is split between processes the tallies
are the same. No clock here: the time budget lives in :mod:`analysis.pool`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any

import msgspec

from analysis.hidden import determinize
from analysis.rollout import DRAW, UNFINISHED, play_out, policy_for
from domain.game import Game, Recorded, apply
from domain.rules.base import RuleSystem, RuleViolation
from domain.rules.registry import rules_at

Z = 1.959963984540054  # the 95 % normal quantile of the Wilson interval
SWINGS = 5  # the biggest swings named


class Position(msgspec.Struct, frozen=True):
    """A board a decision was taken from (or the last board): its version (as
    ``GET /games/{id}/state?at=`` names it), the state, the next draw number, and the decision
    played from it: its version, seat and command."""

    version: int
    state: Any
    next_draw: int
    decision: int | None = None
    seat: str | None = None
    command: dict[str, Any] | None = None


class Unit(msgspec.Struct, frozen=True):
    """Rollouts ``start`` to ``stop`` from one position (after ``command``, when ranking),
    played by the rule system ``rules`` as the game was recorded: ``rules_version`` (its own
    or an older one it replays, :func:`domain.rules.registry.rules_at`)."""

    rules: str
    rules_version: str
    state: Any
    next_draw: int
    seen: frozenset[str] | None
    policy: str
    key: str
    start: int
    stop: int
    seat: str | None = None
    command: dict[str, Any] | None = None

    def system(self) -> RuleSystem:
        """The rule system that plays this unit's rollouts: the recorded version's."""
        return rules_at(self.rules, self.rules_version)


def positions(events: Iterable[Recorded]) -> list[Position]:
    """Every board a decision was taken from, then the last board. Voided play (a ruling's
    DecisionsVoided) is left out, as the game's own fold leaves it out."""
    events = list(events)
    voided = [(e.typed().from_version, e.version) for e in events if e.type == "DecisionsVoided"]
    out: list[Position] = []
    game: Game | None = None
    for event in events:
        if (game is not None and event.type == "DecisionTaken" and game.outcome is None
                and not any(a <= event.version < b for a, b in voided)):
            out.append(Position(game.version, game.state, game.next_draw, event.version, event.data["seat"],
                                event.data["command"]))
        game = apply(game, event)
    if game is not None:
        out.append(Position(game.version, game.state, game.next_draw))
    return out


def rollout_seed(key: str, i: int) -> random.Random:
    return random.Random(f"{key}|{i}")


def run_unit(unit: Unit) -> dict[str, int]:
    """Play the unit's rollouts; the tally of results: seat, ``draw`` or ``unfinished``."""
    rules = unit.system()
    policy = policy_for(rules, unit.policy)
    tally: dict[str, int] = {}
    for i in range(unit.start, unit.stop):
        rnd = rollout_seed(unit.key, i)
        state = determinize(rules, unit.state, unit.seen, rnd)
        result = UNFINISHED
        try:
            if unit.command is None:
                result = play_out(rules, state, policy, rnd, unit.next_draw)
            else:
                from analysis.rollout import RolloutRng
                rng = RolloutRng(rnd, unit.next_draw)
                state = rules.play(state, unit.seat, rules.parse_command(unit.command), rng)[1]
                result = play_out(rules, state, policy, rnd, rng.next_draw)
        except RuleViolation:  # a redealt hand made the command illegal: no result
            result = UNFINISHED
        tally[result] = tally.get(result, 0) + 1
    return tally


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval (95 %) of ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / d
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def point(position: Position, seats: tuple[str, ...], tally: dict[str, int]) -> dict[str, Any]:
    """One point of the graph: each seat's chance and a draw's, with their intervals."""
    n = sum(tally.values())
    win, low, high = {}, {}, {}
    for name in (*seats, DRAW):
        k = tally.get(name, 0)
        win[name] = round(k / n, 4) if n else 0.0
        lo, hi = wilson(k, n)
        low[name], high[name] = round(lo, 4), round(hi, 4)
    out = {"version": position.version, "win": win, "low": low, "high": high, "rollouts": n}
    if tally.get(UNFINISHED):
        out["unfinished"] = tally[UNFINISHED]
    if position.decision is not None:
        out["decision"] = position.decision
        out["seat"] = position.seat
    return out


def swings(rules: RuleSystem, positions_: list[Position], points: list[dict[str, Any]], seats: tuple[str, ...],
           count: int = SWINGS) -> list[dict[str, Any]]:
    """The biggest changes of any seat's chance from one point to the next, each named with
    the decision taken between them (its dice included), biggest first."""
    out = []
    for here, there, position in zip(points, points[1:], positions_):
        if position.decision is None:
            continue
        change = {s: round(there["win"][s] - here["win"][s], 4) for s in (*seats, DRAW)}
        size = max(abs(v) for v in change.values())
        out.append({"version": position.decision, "from": here["version"], "to": there["version"],
                    "seat": position.seat, "command": position.command,
                    "text": rules.describe_command(position.command or {}), "change": change, "size": size})
    out.sort(key=lambda s: (-s["size"], s["version"]))
    return out[:count]


def game_units(rules: RuleSystem, positions_: list[Position], seen: frozenset[str] | None, policy: str,
               rollouts: int, key: str, chunk: int = 50) -> list[tuple[int, Unit]]:
    """The work of a whole game's analysis: (position index, unit) pairs, ``chunk`` rollouts each;
    ``rules`` is the rule system as the game plays it (``Game.rules``: its recorded version)."""
    units = []
    for index, p in enumerate(positions_):
        for start in range(0, rollouts, chunk):
            units.append((index, Unit(rules.id, rules.version, p.state, p.next_draw, seen, policy, f"{key}|{p.version}|{policy}",
                                      start, min(rollouts, start + chunk))))
    return units


def game_analysis(rules: RuleSystem, positions_: list[Position], tallies: list[dict[str, int]], policy: str,
                  rollouts: int, seats: tuple[str, ...], complete: bool = True) -> dict[str, Any]:
    """The body of ``GET /games/{id}/analysis``, from each position's tally (an empty tally:
    a position the time budget did not reach, left out)."""
    reached = [(p, t) for p, t in zip(positions_, tallies) if sum(t.values())]
    points = [point(p, seats, t) for p, t in reached]
    return {"points": points, "swings": swings(rules, [p for p, _ in reached], points, seats),
            "policy": policy, "rollouts": rollouts, "complete": complete and len(reached) == len(positions_)}


def command_units(rules: RuleSystem, position: Position, seen: frozenset[str] | None, policy: str, rollouts: int,
                  key: str, chunk: int = 50) -> tuple[list[dict[str, Any]], list[tuple[int, Unit]]]:
    """The legal commands of the seat to act at ``position`` and the rollouts that rank them."""
    seat = position.seat or next(iter(rules.to_act(position.state)), None)
    commands = [msgspec.to_builtins(c) for c in rules.legal_commands(position.state, seat)] if seat else []
    units = []
    for index, command in enumerate(commands):
        for start in range(0, rollouts, chunk):
            units.append((index, Unit(rules.id, rules.version, position.state, position.next_draw, seen, policy,
                                      f"{key}|{position.version}|{policy}|{index}", start,
                                      min(rollouts, start + chunk), seat, command)))
    return commands, units


def ranked_commands(rules: RuleSystem, position: Position, commands: list[dict[str, Any]],
                    tallies: list[dict[str, int]], policy: str, rollouts: int, seats: tuple[str, ...],
                    complete: bool = True) -> dict[str, Any]:
    """The body of ``GET /games/{id}/analysis/{version}/commands``: the seat's legal commands,
    best first by its chance of winning after each (then by a draw's), the one played marked."""
    seat = position.seat or next(iter(rules.to_act(position.state)), None)
    out = []
    for command, tally in zip(commands, tallies):
        p = point(position, seats, tally)
        out.append({"command": command, "text": rules.describe_command(command), "win": p["win"], "low": p["low"],
                    "high": p["high"], "rollouts": p["rollouts"], "played": command == position.command})
    out.sort(key=lambda c: (-c["win"].get(seat, 0.0), -c["win"].get(DRAW, 0.0)))
    return {"version": position.version, "seat": seat, "commands": out, "policy": policy, "rollouts": rollouts,
            "complete": complete}
