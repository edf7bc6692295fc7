"""The rule events of Saxon Shore: what happened, in the rulebook's words."""

from __future__ import annotations

from domain.events import EventData, Outcome, event_type
from domain.rules.saxon_shore.state import Battle, Job, Player, Prompt, Province, Unit


@event_type("saxon-shore.ProvinceSet")
class ProvinceSet(EventData, frozen=True):
    name: str
    province: Province
    why: str = ""


@event_type("saxon-shore.PlayerSet")
class PlayerSet(EventData, frozen=True):
    seat: str
    player: Player
    why: str = ""


@event_type("saxon-shore.UnitsSet")
class UnitsSet(EventData, frozen=True):
    """Units placed, moved or changed (the new records); ``removed`` ids leave the map."""

    units: list[Unit] = []
    removed: list[int] = []
    why: str = ""


@event_type("saxon-shore.TurnBegan")
class TurnBegan(EventData, frozen=True):
    turn: int
    order: list[str]


@event_type("saxon-shore.EventDrawn")
class EventDrawn(EventData, frozen=True):
    """§3.3/§11: the two-dice random event a player drew."""

    seat: str
    number: int
    title: str


@event_type("saxon-shore.Resolved")
class Resolved(EventData, frozen=True):
    """A narrative record of a resolution (raid, battle round, trade roll...): no state change."""

    what: str
    seat: str | None = None
    province: str | None = None
    detail: dict[str, int | str] = {}


@event_type("saxon-shore.BattleSet")
class BattleSet(EventData, frozen=True):
    battle: Battle | None


@event_type("saxon-shore.Flow")
class Flow(EventData, frozen=True):
    """The control state after a decision: phase, jobs still to run, the open prompt."""

    phase: str
    stage: int
    jobs: list[Job]
    prompt: Prompt | None
    storms: list[str]
    won: Outcome | None = None


@event_type("saxon-shore.Declared")
class Declared(EventData, frozen=True):
    """§8 combat declarations of this movement-and-combat stage so far (raid or invade)."""

    declared: list[tuple[str, str, str]]


@event_type("saxon-shore.GameDecided")
class GameDecided(EventData, frozen=True):
    """A house-rule turn limit ended the game: ``rulebook_victory`` is False, so a tournament
    can tell such a result from a §1 victory."""

    outcome: Outcome
    house_rule: str = "turn limit"
    rulebook_victory: bool = False
