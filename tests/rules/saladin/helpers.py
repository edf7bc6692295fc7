"""Driving Saladin games through the real aggregate path (domain.game), with seeded or
forced dice."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import msgspec

from domain.dice import DieKind
from domain.events import DiceRolled, GameCreated, SeatInfo
from domain.game import Game, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS

SALADIN = RULE_SYSTEMS["saladin"]
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))
SEATS = ("crusaders", "ayyubids")


class FakeRng:
    """Returns chosen faces (then blanks), numbering draws consecutively like the real rng."""

    def __init__(self, faces: list[str] | None = None, next_draw: int = 0):
        self.faces = list(faces or [])
        self.next_draw = next_draw
        self.requests: list[tuple[str, int]] = []

    def roll(self, kind: DieKind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        faces = [self.faces.pop(0) if self.faces else "blank" for _ in range(count)]
        draws = list(range(self.next_draw, self.next_draw + count))
        self.next_draw += count
        self.requests.append((purpose, count))
        return DiceRolled(draws=draws, kind=kind.id, faces=faces, purpose=purpose, seat=seat)

    def shuffle(self, deck: str, size: int, purpose: str = ""):  # pragma: no cover - Saladin never shuffles
        raise AssertionError("Saladin never shuffles")

    def order(self, shuffle):  # pragma: no cover
        raise AssertionError("Saladin never shuffles")


def new_game(scenario: str, game_id: int = 1, options: dict[str, Any] | None = None,
             version: str | None = None) -> Game:
    """A new game, recorded under this server's version or an earlier one it replays."""
    created = GameCreated(
        options=options or {},
        rules="saladin",
        rules_version=version or SALADIN.version,
        scenario=scenario,
        data_hash=SALADIN.data_hash(scenario),
        seats={s: SeatInfo(player=s.title()) for s in SEATS},
        seed_commitment="0" * 64,
    )
    return project_game(None, create_game(UUID(int=game_id), created, NOW))


def play(game: Game, seat: str, command: dict[str, Any], faces: list[str] | None = None) -> Game:
    """Take one decision with forced dice (blank when none are given)."""
    rng = FakeRng(faces, game.next_draw)
    records = take_decision(game, seat, command, rng, NOW, None)
    assert not rng.faces, f"unused forced faces {rng.faces} for {command}"
    return project_game(game, records)


def play_seeded(game: Game, seat: str, command: dict[str, Any]) -> Game:
    rng = SeededRng(SEED, game.id, "", game.next_draw)
    return project_game(game, take_decision(game, seat, command, rng, NOW, SEED))


def played_until(scenario: str, until, seed: int = 1, options: dict[str, Any] | None = None,
                 limit: int = 5000) -> Game:
    """A game played from the opening, each side choosing uniformly among its listed commands
    (``random.Random(seed)``), every die seeded, up to the first position where ``until(game)``
    holds. AssertionError if ``limit`` decisions (or the game's end) come first."""
    import random

    rnd = random.Random(seed)
    game = new_game(scenario, game_id=seed, options=options)
    for _ in range(limit):
        if until(game):
            return game
        if game.ended:
            break
        seat = game.to_act()[0]
        game = play_seeded(game, seat, rnd.choice(legal(game, seat)))
    raise AssertionError(f"not reached by seed {seed}")


def may_take(game: Game, seat: str, banner: str, action: str) -> dict[str, Any] | None:
    """``banner``'s ``action`` as ``seat`` may take it now (an action, none pending), if listed."""
    s = game.state
    if not (game.to_act() == [seat] and s.phase == "activation" and s.pending is None):
        return None
    return next((c for c in legal(game, seat) if c.get("banner") == banner and c.get("action") == action), None)


def decide_events(game: Game, seat: str, command: dict[str, Any], faces: list[str] | None = None):
    """The stored events one decision makes (typed), and the game after them."""
    rng = FakeRng(faces, game.next_draw)
    records = take_decision(game, seat, command, rng, NOW, None)
    return [r.typed() for r in records], project_game(game, records)


def refused(game: Game, seat: str, command: dict[str, Any]) -> RuleViolation:
    try:
        take_decision(game, seat, command, FakeRng([], game.next_draw), NOW, None)
    except RuleViolation as violation:
        return violation
    raise AssertionError(f"{command} was accepted")


def full(scenario: str, banner: str) -> int:
    """A banner's lances at the start: the slots of its track."""
    from domain.rules.saladin.data import TABLES

    return len(TABLES[scenario].banner(banner).track)


def legal(game: Game, seat: str) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(c) for c in SALADIN.legal_commands(game.state, seat)]


def view(game: Game) -> dict[str, Any]:
    return SALADIN.view(game.state, None)


def banner_view(game: Game, banner: str) -> dict[str, Any]:
    return next(b for b in view(game)["banners"] if b["id"] == banner)


def orders(game: Game, side: str) -> dict[str, int]:
    return view(game)["sides"][side]["orders"]


def act(banner: str, action: str, target: str | None = None) -> dict[str, Any]:
    out = {"type": "activate", "banner": banner, "action": action}
    if target is not None:
        out["target"] = target
    return out


def start(game: Game, first: str | None = None) -> Game:
    """Get through the Initiative phase without seizing: the holder lets ``first`` start."""
    s = game.state
    if s.phase == "seize":
        game = play(game, s.active, {"type": "decline-seize"})
    holder = game.state.active
    return play(game, holder, {"type": "choose-first", "seat": first or holder})


def hold_all(game: Game, seat: str) -> Game:
    """Activate every Deployed banner of ``seat`` with the 0-cost Hold (the opponent must be passed)."""
    for bid in sorted(game.state.banners):
        b = game.state.banners[bid]
        if b.side == seat and b.in_play and not b.ordered:
            game = play(game, seat, act(bid, "hold"))
    return game


def finish_turn(game: Game) -> Game:
    """Both sides close the turn with the least they may do (:func:`idle`): Hold every Deployed
    banner, use a Leader that must be used (recovering a spent Order), then pass."""
    turn = game.state.turn
    while game.state.turn == turn and game.outcome is None:
        seat = game.to_act()[0]
        game = play(game, seat, idle(game, seat))
    return game


def idle(game: Game, seat: str) -> dict[str, Any]:
    """The least ``seat`` may do now: decline a reaction, Hold a Deployed banner, pass, else
    recover an Order with the Leader (any other Leader action only when nothing else is listed)."""
    options = legal(game, seat)
    for wanted in ({"type": "decline-reaction"}, {"type": "activate", "action": "hold"}, {"type": "pass"},
                   {"type": "leader", "action": "recover-order"}, {"type": "leader"}):
        pick = next((c for c in options if wanted.items() <= c.items()), None)
        if pick is not None:
            return pick
    raise AssertionError(f"{seat} has nothing to do: {options}")


def drive(game: Game, seat: str, moves: list[tuple[dict[str, Any], list[str]]]) -> Game:
    """A scripted line: ``seat`` takes each (command, forced faces) in turn, the other side doing the
    least it may (:func:`idle`) whenever the activation is theirs in between."""
    for command, faces in moves:
        while game.to_act() != [seat]:
            other = game.to_act()[0]
            game = play(game, other, idle(game, other))
        game = play(game, seat, command, faces)
    return game


def looses(banner: str, target: str, faces: list[str]) -> list[tuple[dict[str, Any], list[str]]]:
    """``banner`` looses at ``target`` once per face, each die showing that face."""
    return [(act(banner, "loose", target), [face]) for face in faces]


def below_five_with_the_leader_ordered() -> Game:
    """Hattin, turn 2, the Crusaders to act with 4 Orders (available + spent), Guy de Lusignan's card
    Ordered and the Horns not yet taken. By play from the opening, every die forced: in turn 1 the
    Ayyubids loose at Raymond III and Naplouse until both are given to them and 6 lances at Ridefort
    (24 lances: 4 Orders boxed, each 6th lance); the turn 2 Chaos boxes 3 (1 plus the 2 banners
    given away); in turn 2 Guy de Lusignan recovers an Order (nothing spent: his card only turns
    Ordered), then Keukburi's looses take 6 of D'Ibelin's lances, the 6th boxing a 5th Order."""
    D, S = "double", "stroke"
    g = start(new_game("hattin"), "ayyubids")
    g = drive(g, "ayyubids", looses("taqui-al-din", "raymond-iii", [D, D, D, D, S])
              + looses("saphadin", "naplouse", [D, D, D, D, S]) + [({"type": "leader", "action": "recover-order"}, [])]
              + looses("keukburi", "ridefort", [D, D, D]))
    g = finish_turn(g)
    assert g.state.turn == 2 and g.state.sides["crusaders"].orders == 5
    g = start(g, "crusaders")
    g = play(g, "crusaders", {"type": "leader", "action": "recover-order"})
    g = drive(g, "ayyubids", looses("keukburi", "d-ibelin", [D, D, D]))
    crusaders = g.state.sides["crusaders"]
    assert g.to_act() == ["crusaders"] and crusaders.orders == 4 and crusaders.leader_ordered and not g.state.horns
    return g


def last_order_at_arsuf(version: str | None = None) -> Game:
    """Arsuf, turn 3, the Crusaders to act first with 1 Order left (available, none spent), 5 lances
    on their Losses Track, Lusignan untouched and both Ayyubid lances still in Arsuf. By play from
    the opening, every die forced: in turn 1 the Ayyubids loose at Bourgogne and Naplouse until both
    are given to them and 6 lances at Henry II (24 lances: 4 Orders boxed); the turn 2 Chaos boxes 3
    (1 plus the 2 banners given away); in turn 2 Saphadin's looses take 5 of Sablé's lances (on the
    track); the turn 3 Chaos boxes 3 more."""
    D, S = "double", "stroke"
    g = start(new_game("arsuf", version=version), "ayyubids")
    g = drive(g, "ayyubids", looses("saladin", "bourgogne", [D, D, D, D, S])
              + looses("soulayman", "naplouse", [D, D, D, D, S]) + [({"type": "leader", "action": "recover-order"}, [])]
              + looses("ala-afdal", "henry-ii", [D, D, D]))
    g = finish_turn(g)
    g = drive(start(g, "ayyubids"), "ayyubids", looses("saphadin", "sable", [D, D, S]))
    g = start(finish_turn(g), "crusaders")
    crusaders = g.state.sides["crusaders"]
    assert (g.state.turn, crusaders.available, crusaders.spent, crusaders.losses) == (3, 1, 0, 5)
    assert g.to_act() == ["crusaders"] and g.state.arsuf_lances == 2
    assert g.state.banners["lusignan"].lances == full("arsuf", "lusignan")
    return g
