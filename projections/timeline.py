"""The timeline: a readable line for every event, a projection never part of rule state.

Lines speak like a person: players by name (``names``, from the game's ``GameCreated``), cards
and places by their printed names, counts with their plurals, never a Python repr."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from domain.game import Recorded
from domain.rules.base import RuleSystem
from domain.rules.words import NO_NAMES, Names, and_list, outcome_text, plural, player_names, seat_name
from domain.seals import is_sealed_form

__all__ = ["TimelineEntry", "narrate", "player_names"]


class TimelineEntry(msgspec.Struct, frozen=True):
    version: int
    type: str
    seat: str | None
    text: str
    recorded_at: str


def narrate(rules: RuleSystem, event: Recorded, names: Names | None = None) -> TimelineEntry:
    """One line of narrative for one event. ``names``: seat id -> player name (the game's
    ``player_names``); without it, a ``GameCreated`` names its own players and other lines
    fall back to seat ids."""
    d = event.data
    if names is None:
        names = player_names(d["seats"]) if event.type == "GameCreated" and not is_sealed_form(d) else NO_NAMES
    at = event.timestamp.isoformat(timespec="microseconds")
    if is_sealed_form(d):  # told without a word of what it holds
        what = "a decision" if event.type == "DecisionTaken" else _words(event.type)
        return TimelineEntry(event.version, event.type, None,
                             f"{what}, sealed for {and_list(seat_name(names, s) for s in d['for'])}", at)
    seat = d.get("seat")
    text = _core(rules, event.type, d, names)
    if text is None:
        text = rules.describe_event(event.type, d, names) or _generic(event.type, d)
    return TimelineEntry(event.version, event.type, seat, text, at)


def _core(rules: RuleSystem, kind: str, d: dict[str, Any], names: Names) -> str | None:
    """The words for the events every game has; None for a rule system's own."""
    who = seat_name(names, d.get("seat"))
    match kind:
        case "GameCreated":
            scenario = rules.scenarios.get(d["scenario"])
            title = scenario.title if scenario and len(rules.scenarios) > 1 else rules.title
            players = and_list(f"{seat_name(names, s)} ({s})" for s in d["seats"])
            fork = d.get("fork")
            forked = f", a fork of game {fork['game']} at version {fork['version']}" if fork else ""
            return f"{title} begins{forked}: {players}"
        case "DecisionTaken":
            return f"{who}: {rules.describe_command(d['command'], names)}"
        case "DiceRolled" | "DiceForced":
            told = rules.describe_event(kind, d, names)
            if told:
                return told
            faces = " ".join(seat_name(names, f) if isinstance(f, str) else str(f) for f in d["faces"])
            numbered = re.fullmatch(r"d\d+", d["kind"])
            dice = f" ({len(d['faces'])}×{d['kind']})" if numbered else ""
            forced = " (forced, for study)" if kind == "DiceForced" else ""
            return f"{d['purpose']}: {faces}{dice}{forced}"
        case "CardsShuffled":
            return f"the {_deck(d['deck'])} is shuffled ({plural(d['size'], 'card')})"
        case "VoidedCardsReshuffled":
            return f"the {_deck(d['deck'])} is shuffled again: no card seen in the voided play comes back in its place"
        case "GameEnded":
            return rules.describe_event(kind, d, names) or outcome_text(d["outcome"], names)
        case "SeedRevealed":
            return f"the seed is revealed ({d.get('reason') or 'game ended'}): {d['seed']}"
        case "Annotated":
            return f"a note by {seat_name(names, d['by'])} on version {d['at_version']}: {d['text']}"
        case "DisputeRaised":
            frozen = "; play is frozen until it is settled" if d.get("freeze") else ""
            return f"{who} disputes version {d['about_version']}: {d['reason']}{frozen}"
        case "DisputeRuled":
            line = f"the {d['by']} rules on dispute {d['dispute']}: {d['ruling']} ({d['reason']})"
            if d.get("void_from") is not None:
                line += f"; play from version {d['void_from']} is void"
            return line + ("; the seed is revealed" if d.get("reveal_seed") else "")
        case "DecisionsVoided":
            return f"play from version {d['from_version']} is void (dispute {d['dispute']})"
        case "AbandonAgreed":
            return f"{who} agrees to abandon the game"
        case "FreezeReleaseAgreed":
            return f"{who} agrees to lift the freeze of dispute {d['dispute']}"
        case "FreezeLifted":
            return f"the freeze of dispute {d['dispute']} is lifted ({d['cause']})"
        case "FreezeLapsed":
            return f"the freeze of dispute {d['dispute']} lapsed after {plural(d['after_seconds'], 'second')}"
        case "SeatsOffered":
            bots = [f"{s} played by a {b['policy']} bot" for s, b in d.get("bots", {}).items()]
            parts = [f"{', '.join(d['open'])} open" if d.get("open") else "",
                     f"{', '.join(d['invited'])} offered to their players" if d.get("invited") else "",
                     ", ".join(bots), "each seat gives its own seed" if d.get("blind_seeds") else ""]
            return "seats: " + "; ".join(p for p in parts if p)
        case "SeatTaken":
            return f"{d['player']} takes {d['seat']}" + (f" (seed {d['seed']})" if d.get("seed") else "")
        case "SeatDeclined":
            return f"{d['player']} declines {d['seat']}: it is open"
        case "SeedGiven":
            return f"{who} gives its seed: {d['seed']}"
        case "BotPlayed":
            tried = f" after {d['rollouts']} rollouts of each of {d['candidates']} commands" if d["rollouts"] else ""
            return f"the bot of {who} chooses by its {d['policy']} policy{tried}"
        case "Inspected":
            why = f": {d['reason']}" if d.get("reason") else ""
            return f"the {d['by']} looks at every hidden thing as of version {d['at_version']}{why}"
        case "TimeUsed":
            return f"{who} took {_clock(d['used_ms'])}; {_clock(d['left_ms'])} left"
        case "FlagFell":
            return f"{who}'s time ran out: {_clock(d['used_ms'])} taken of {_clock(d['allowed_ms'])}"
        case "Adjudicated":
            return f"the {d['by']} adjudicates: {outcome_text(d['outcome'], names)}"
    return None


def _clock(ms: int) -> str:
    """A clock's time as people read it: 1 d 02:03:04, 12:05.250, 9.5 s."""
    seconds, milli = divmod(max(ms, 0), 1000)
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    days, hour = divmod(hours, 24)
    if days:
        return f"{days} d {hour:02d}:{minute:02d}:{second:02d}"
    if hours:
        return f"{hours}:{minute:02d}:{second:02d}"
    if minutes:
        return f"{minutes}:{second:02d}" + (f".{milli:03d}" if milli else "")
    return f"{second}" + (f".{milli:03d}".rstrip("0") if milli else "") + " s"


def _generic(event_type: str, data: dict[str, Any]) -> str:
    """An event a rule system has no words for: its name and its fields in plain words, shortened."""
    name = _words(event_type)
    fields = "; ".join(f"{k.replace('_', ' ')} {_plain(v)}" for k, v in sorted(data.items()) if k != "seat")
    text = f"{name}: {fields}" if fields else name
    return text if len(text) <= 200 else text[:197] + "..."


def _words(event_type: str) -> str:
    """``saline.CardDiscarded`` -> "card discarded"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", event_type.split(".")[-1]).lower()


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    return "none" if value is None else str(value)


def _deck(deck: str) -> str:
    """A deck's name as a line says it: "the deck", "the event deck" (never "the deck deck")."""
    return deck if str(deck).endswith("deck") else f"{deck} deck"
