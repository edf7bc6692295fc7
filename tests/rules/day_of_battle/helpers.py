"""Driving Day of Battle games through the real aggregate path (domain.game)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import httpx
import msgspec

from domain.events import CardsShuffled, DiceRolled, GameCreated, SeatInfo
from domain.game import Game, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS

DOB = RULE_SYSTEMS["day-of-battle"]
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))
CS = "crusaders-seljuq-turks"


def new_game(scenario: str = CS, options: dict[str, Any] | None = None, game_id: int = 1) -> Game:
    seats = DOB.scenarios[scenario].seats
    created = GameCreated(
        rules=DOB.id, rules_version=DOB.version, scenario=scenario, data_hash=DOB.data_hash(scenario, options),
        seats={s: SeatInfo(player=s.title()) for s in seats}, seed_commitment="0" * 64, options=options or {})
    return project_game(None, create_game(UUID(int=game_id), created, NOW))


class Loaded(SeededRng):
    """The seeded rng, but the next d20s come from ``faces`` first (a worked example's dice)."""

    def __init__(self, game: Game, faces: list[int]):
        super().__init__(SEED, game.id, "", game.next_draw)
        self.faces = list(faces)

    def roll(self, kind, count, purpose, seat=None):
        if len(self.faces) >= count:
            first = self.draws.next
            self.draws.next += count
            faces, self.faces = self.faces[:count], self.faces[count:]
            return DiceRolled(draws=list(range(first, first + count)), kind=kind.id, faces=faces, purpose=purpose,
                              seat=seat)
        return super().roll(kind, count, purpose, seat)


def play(game: Game, seat: str, command: dict[str, Any], faces: list[int] | None = None) -> Game:
    rng = Loaded(game, faces or [])
    return project_game(game, take_decision(game, seat, command, rng, NOW, SEED))


def events(game: Game, seat: str, command: dict[str, Any], faces: list[int] | None = None) -> tuple[list, Game]:
    records = take_decision(game, seat, command, Loaded(game, faces or []), NOW, SEED)
    return [r.typed() for r in records], project_game(game, records)


def refused(game: Game, seat: str, command: dict[str, Any]) -> RuleViolation:
    try:
        take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw), NOW, None)
    except RuleViolation as violation:
        return violation
    raise AssertionError(f"{command} was accepted")


def legal(game: Game, seat: str) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(c) for c in DOB.legal_commands(game.state, seat)]


def through_leaders(game: Game) -> Game:
    """Every leader drawn (and no scouting)."""
    for seat in game.state.seats:
        for lid in [l.id for l in game.state.leaders.values() if l.seat == seat]:
            game = play(game, seat, {"type": "draw-leader", "leader": lid})
    return game


def deployed(game: Game) -> Game:
    """Leaders drawn, every unit at its suggested spot, deployment finished."""
    game = through_leaders(game)
    for seat in game.state.seats:
        if game.state.phase == "deployment" and seat in DOB.to_act(game.state):
            for cmd in legal(game, seat):
                if cmd["type"] == "decline-scouting":
                    game = play(game, seat, cmd)
            for cmd in [c for c in legal(game, seat) if c["type"] == "deploy"]:
                game = play(game, seat, cmd)
            game = play(game, seat, {"type": "finish-deployment"})
    return game


def battle(mover: str = "crusaders", game: Game | None = None) -> Game:
    """A worked example's start, reached by play from the opening: leaders drawn, every unit at
    its suggested spot, then each army's game move begun with every initiative die a 1 (passed),
    until ``mover`` moves with the command points its cards give."""
    game = deployed(game or new_game())
    while True:
        [seat] = DOB.to_act(game.state)
        leaders = [l for l in game.state.leaders.values() if l.seat == seat]
        game = play(game, seat, {"type": "begin-move"}, faces=[1] * len(leaders))
        if seat == mover:
            return game
        game = play(game, seat, {"type": "end-move"})


def contact_point(game: Game, charger: str, target: str) -> dict[str, float]:
    """Where ``charger`` ends a charge in contact with ``target``: the target's spot in the
    charger's army's frame (opposing armies' frames are turned about)."""
    from domain.rules.day_of_battle.rules import in_frame
    s = game.state
    t = s.units[target]
    x, y = in_frame(s, t.x, t.y, t.seat, s.units[charger].seat)
    return {"x": x, "y": y}


def charge(game: Game, unit: str, target: str, **fields) -> dict[str, Any]:
    """A charge command ending in contact (caught in one normal move unless said)."""
    return {"type": "charge", "unit": unit, "target": target, "caught_in_one_normal_move": True,
            **contact_point(game, unit, target), **fields}


# -- over HTTP: two clients reading legal-commands ------------------------------------------------------
SEATS = {"crusaders": "Bohemond's player", "seljuq-turks": "Kilij Arslan's player"}
GOALS = ("fire", "charge", "dismount")


def choose(seat: str, commands: list[dict], done: set[str], moves: int) -> dict:
    """The client's policy over the listed commands: the goals not yet met first."""
    by_type: dict[str, list[dict]] = {}
    for c in commands:
        by_type.setdefault(c["type"], []).append(c)
    for kind in ("accept-ruling", "draw-leader", "decline-scouting", "deploy", "finish-deployment", "begin-move",
                 "return-fire", "terrain-check", "fall-back", "stand", "fight"):
        if kind in by_type:
            return by_type[kind][0]
    if "dismount" in by_type and "dismount" not in done:  # first, while the knights still stand
        return by_type["dismount"][0]
    if seat == "crusaders" and "fire" not in done:
        fire = [c for c in by_type.get("fire", []) if c["unit"] == "crusaders/crossbowmen"
                and "horse-archers" in c["target"]]
        if fire:
            return fire[0]
    if seat == "seljuq-turks" and moves < 6:
        fire = [c for c in by_type.get("fire", []) if "knights" not in c["target"]]
        if fire:
            return fire[0]
    if "charge" not in done:
        charge = [c for c in by_type.get("charge", []) if "horse-archers" in c["target"]]
        if charge:
            return charge[0]
    if seat == "crusaders" and set(GOALS) <= done and "propose-ruling" not in done:
        done.add("propose-ruling")
        return {"type": "propose-ruling", "topic": "end-of-battle", "rule": "core rules",
                "decision": "the Turks draw off; the field is the Crusaders'", "ruled_by": "players",
                "end": {"winner": "crusaders", "reason": "the Turks draw off"}}
    return by_type["end-move"][0]



def battle_over_http(url: str, game: dict, limit: int = 400) -> set[str]:
    """Two clients, each with its own seat token, post only commands listed by GET /legal-commands
    (by :func:`choose`) until the battle ends; returns the goals met."""
    gid = game["id"]
    http = httpx.Client(base_url=url, timeout=30)
    clients = {s: httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {t}"})
               for s, t in game["seat_tokens"].items()}
    done: set[str] = set()
    for _ in range(limit):
        summary = http.get(f"/games/{gid}").json()
        if summary["status"] == "ended":
            break
        seat = summary["to_act"][0]
        client = clients[seat]
        listed = client.get(f"/games/{gid}/legal-commands", params={"seat": seat}).json()
        assert listed["commands"] and len(listed.get("labels", listed["commands"])) == len(listed["commands"])
        command = choose(seat, listed["commands"], done, summary["view"]["move"])
        response = client.post(f"/games/{gid}/commands",
                               json={"seat": seat, "command": command, "expected_version": listed["version"]})
        assert response.status_code == 201, response.text
        kinds = {e["type"] for e in response.json()["events"]}
        if "day-of-battle.VolleyFired" in kinds and command["type"] == "return-fire":
            done.add("fire")
        if command["type"] in ("fall-back", "terrain-check", "stand", "defensive-fire", "evade", "counter-charge"):
            done.add("charge")
        if "day-of-battle.KnightsDismounted" in kinds:
            done.add("dismount")
    return done
