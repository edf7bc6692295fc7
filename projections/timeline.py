"""The timeline: a readable line for every event, a projection never part of rule state."""

from __future__ import annotations

import msgspec

from domain.game import Recorded
from domain.seals import is_sealed_form
from domain.rules.base import RuleSystem


class TimelineEntry(msgspec.Struct, frozen=True):
    version: int
    type: str
    seat: str | None
    text: str
    recorded_at: str


def narrate(rules: RuleSystem, event: Recorded) -> TimelineEntry:
    """One line of narrative for one event."""
    d = event.data
    if is_sealed_form(d):  # told without a word of what it holds
        what = "a decision" if event.type == "DecisionTaken" else event.type.split(".")[-1]
        return TimelineEntry(event.version, event.type, None, f"{what}, sealed for {', '.join(d['for'])}",
                             event.timestamp.isoformat(timespec="microseconds"))
    seat = d.get("seat")
    match event.type:
        case "GameCreated":
            players = ", ".join(f"{s}: {i['player']}" for s, i in sorted(d["seats"].items()))
            text = f"{d['rules']} {d['scenario']} begins ({players})"
        case "DecisionTaken":
            text = f"{seat}: {rules.describe_command(d['command'])}"
        case "DiceRolled":
            text = f"{d['purpose']}: {' '.join(map(str, d['faces']))} ({len(d['faces'])}×{d['kind']})"
        case "CardsShuffled":
            text = f"{d['deck']} shuffled ({d['size']} cards)"
        case "GameEnded":
            o = d["outcome"]
            text = ("draw" if o.get("draw") else f"{o.get('winner')} wins") + (f": {o['reason']}" if o.get("reason") else "")
        case "SeedRevealed":
            text = f"seed revealed ({d.get('reason', '')}): {d['seed']}"
        case _:
            text = rules.describe_event(event.type, d) or _generic(event.type, d)
    return TimelineEntry(event.version, event.type, seat, text, event.timestamp.isoformat(timespec="microseconds"))


def _generic(event_type: str, data: dict) -> str:
    """``saladin.LancesLost`` with its fields, shortened, when a rule system has no words for it."""
    fields = ", ".join(f"{k}={v}" for k, v in sorted(data.items()) if k != "seat")
    text = f"{event_type.split('.')[-1]}: {fields}" if fields else event_type.split(".")[-1]
    return text if len(text) <= 200 else text[:197] + "..."
