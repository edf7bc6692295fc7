"""Saxon Shore test helpers: games driven through the real aggregate path
(``create_game``, ``take_decision``, ``project_game``), a fake Rng that shows chosen faces,
and a builder for prepared positions."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import msgspec

from domain.events import DiceRolled, GameCreated, SeatInfo
from domain.game import Game, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.registry import RULE_SYSTEMS
from domain.rules.saxon_shore.data import BOARD, RESOURCES
from domain.rules.saxon_shore.state import Job, Player, Prompt, Province, SaxonState, Unit

S = RULE_SYSTEMS["saxon-shore"]
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
GAME_ID = UUID("00000000-0000-4000-8000-00000000a5a5")
SEED = bytes(range(32))


class FakeRng:
    """Hands out the faces a test chose, with consecutive draw numbers; records purposes."""

    def __init__(self, faces: list[int], next_draw: int = 0, filler: int | None = None):
        self.faces = list(faces)
        self.filler = filler
        self.next_draw = next_draw
        self.purposes: list[str] = []

    def roll(self, kind, count, purpose, seat=None):
        if len(self.faces) < count and self.filler is not None:
            self.faces += [self.filler] * (count - len(self.faces))
        if len(self.faces) < count:
            raise AssertionError(f"the test gave too few dice: {count} wanted for {purpose!r}")
        faces, self.faces = self.faces[:count], self.faces[count:]
        draws = list(range(self.next_draw, self.next_draw + count))
        self.next_draw += count
        self.purposes.append(purpose)
        return DiceRolled(draws=draws, kind=kind.id, faces=faces, purpose=purpose, seat=seat)

    def shuffle(self, deck, size, purpose=""):  # pragma: no cover - Saxon Shore never shuffles
        raise AssertionError("no shuffles in Saxon Shore")

    def order(self, shuffle):  # pragma: no cover
        raise AssertionError("no shuffles in Saxon Shore")


def new_game(players: int = 2, options: dict[str, Any] | None = None, game_id: UUID = GAME_ID) -> Game:
    seats = {f"p{i}": SeatInfo(player=f"Player {i}") for i in range(1, players + 1)}
    created = GameCreated(
        rules=S.id, rules_version=S.version, scenario="standard", data_hash=S.data_hash("standard"),
        seats=seats, seed_commitment=hashlib.sha256(SEED).hexdigest(), options=options or {},
    )
    return project_game(None, create_game(game_id, created, NOW))


def decision(game: Game, seat: str, command: dict[str, Any], rng) -> tuple[list, Game]:
    """``take_decision`` then fold: (stored events, the game after). Works whether the core
    returns the stored events or a ``Decision`` (events and the game they leave)."""
    result = take_decision(game, seat, command, rng, NOW, SEED)
    if hasattr(result, "events"):
        return list(result.events), result.game
    return list(result), project_game(game, result)


def act(game: Game, seat: str, command: dict[str, Any], dice: list[int] | None = None,
        filler: int | None = None) -> Game:
    """Take one decision; with ``dice`` the fake Rng shows those faces (all must be used),
    then ``filler`` for any further die when one is given."""
    if dice is None and filler is None:
        rng = SeededRng(SEED, game.id, "", game.next_draw)
    else:
        rng = FakeRng(dice or [], game.next_draw, filler)
    _, after = decision(game, seat, command, rng)
    if dice is not None and filler is None:
        assert not rng.faces, f"unused dice {rng.faces}; purposes {rng.purposes}"
    return after


def events_of(game: Game, seat: str, command: dict[str, Any], dice: list[int], filler: int | None = None) -> list:
    rng = FakeRng(dice, game.next_draw, filler)
    return [r.typed() for r in decision(game, seat, command, rng)[0]]


def played_until(until, players: int = 2, seed: int = 1, faces: dict[str, list[int]] | None = None,
                 limit: int = 3000, options: dict[str, Any] | None = None) -> tuple[list, Game, Game]:
    """A game played from the opening by the expansionist bot (bots.py, seeded by ``seed``), every die
    seeded but the faces ``faces`` forces (by the start of a roll's purpose: tests/rules/scripted.py),
    up to the first decision whose events (typed) and game after satisfy ``until(events, game)``:
    those events, the game after and the game before. AssertionError if ``limit`` decisions never
    get there."""
    import random

    from tests.rules.saxon_shore.bots import choose_command
    from tests.rules.scripted import Script

    script = Script(faces=faces, seed=SEED)
    rnd, used = random.Random(seed), {}
    game = new_game(players, options, game_id=UUID(int=seed))
    for _ in range(limit):
        if game.ended:
            break
        [seat] = game.to_act()
        commands = [msgspec.to_builtins(c) for c in S.legal_commands(game.state, seat)]
        before = game
        stored, game = decision(game, seat, choose_command(rnd, game.state, seat, commands, True, used),
                                script.rng(game))
        events = [e.typed() for e in stored]
        if until(events, game):
            return events, game, before
    raise AssertionError(f"not reached in {limit} decisions of seed {seed}")


def with_state(game: Game, state: SaxonState) -> Game:
    """The game at a prepared position (decisions are then taken through the aggregate)."""
    return msgspec.structs.replace(game, state=state)


def position(
    n: int = 2,
    owners: dict[str, str] | None = None,
    provinces: dict[str, dict[str, Any]] | None = None,
    units: list[tuple] | None = None,
    res: dict[str, dict[str, int]] | None = None,
    christian: tuple[str, ...] = (),
    players: dict[str, dict[str, Any]] | None = None,
    prompt: Prompt | None = None,
    jobs: tuple[Job, ...] = (),
    options: dict[str, Any] | None = None,
    phase: str = "test",
    turn: int = 1,
    **state_fields: Any,
) -> Game:
    """A game at a prepared position. ``units``: (kind, owner, loc[, extra fields dict])."""
    game = new_game(n, options)
    state: SaxonState = game.state
    provs = {p: Province() for p in BOARD.provinces}
    for name, owner in (owners or {}).items():
        provs[name] = msgspec.structs.replace(provs[name], owner=owner)
    for name, fields in (provinces or {}).items():
        provs[name] = msgspec.structs.replace(provs[name], **fields)
    table = {}
    for i, spec in enumerate(units or [], start=1):
        kind, owner, loc, *extra = spec
        table[i] = Unit(id=i, kind=kind, owner=owner, loc=loc, **(extra[0] if extra else {}))
    players_ = {}
    for seat in state.seats:
        held = (res or {}).get(seat, {})
        players_[seat] = Player(christian=seat in christian, res=tuple(held.get(r, 0) for r in RESOURCES),
                                **(players or {}).get(seat, {}))
    state = msgspec.structs.replace(
        state, provinces=provs, units=table, next_unit=len(table) + 1, players=players_, prompt=prompt,
        jobs=tuple(jobs), phase=phase, turn=turn, **state_fields,
    )
    return with_state(game, state)


def stop(seat: str = "p2") -> Job:
    """A job that halts the run: it asks ``seat`` about conversion."""
    return Job("phase", seat, args=("convert",))


def then(*jobs: Job, seat: str = "p1") -> dict[str, Any]:
    """Position fields: ``seat`` is asked to convert (answer done), then ``jobs`` run, then stop."""
    return {"prompt": Prompt("phase", seat, args=("convert",)), "jobs": (*jobs, stop())}


def units(game: Game, loc: str | None = None, owner: Any = ..., kind: str | None = None) -> list[Unit]:
    return [u for _, u in sorted(game.state.units.items())
            if (loc is None or u.loc == loc) and (owner is ... or u.owner == owner) and (kind is None or u.kind == kind)]


def res(game: Game, seat: str) -> dict[str, int]:
    return dict(zip(RESOURCES, game.state.players[seat].res))


def prov(game: Game, name: str) -> Province:
    return game.state.provinces[name]


def legal(game: Game, seat: str) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(c) for c in S.legal_commands(game.state, seat)]


DONE = {"type": "done"}
