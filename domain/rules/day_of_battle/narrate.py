"""One-line narratives of Day of Battle's events and commands, as a person would say them. A
secret card is never named here: the line for a sealed event says only what is public."""

from __future__ import annotations

import functools
from typing import Any

from domain.rules.day_of_battle.data import PROFILE_NAMES, card_name
from domain.rules.words import NO_NAMES, Names, and_list, plural, seat_name, with_names


def who(ref: Any, names: Names = NO_NAMES) -> str:
    """``"crusaders/knights-bohemond"`` → ``"Mounted knights of Bohemond (Ann)"``: the name on the
    Army Profile and the player whose army it is (``names``; the seat id without one); a leader
    or unit not on the profiles of ``armies.json`` (an owner's own profiles) by its id, readably."""
    if not isinstance(ref, str) or "/" not in ref:
        return str(ref)
    seat, local = ref.split("/", 1)
    name = PROFILE_NAMES.get(ref) or local.replace("-", " ")
    return f"{name} ({seat_name(names, seat) if seat in names else seat.replace('-', ' ')})"


def _plural(n: int, word: str) -> str:
    return plural(n, word, "dice" if word == "die" else None)


def describe_command(command: dict[str, Any], names: Names = NO_NAMES) -> str:
    kind = command.get("type")

    who_ = functools.partial(who, names=names)

    lines = {
        "draw-leader": lambda: f"draws the cards of {who_(command.get('leader'))}",
        "initiate-scouting": lambda: "opts for scouting",
        "decline-scouting": lambda: "declines scouting",
        "deploy": lambda: f"deploys {who_(command.get('unit'))} {command.get('x')}\" across, {command.get('y')}\" in",
        "finish-deployment": lambda: "has every unit on the table",
        "begin-move": lambda: "begins the game move",
        "move": lambda: f"moves {who_(command.get('unit'))}",
        "change-formation": lambda: f"forms {who_(command.get('unit'))} in {command.get('formation')}",
        "fire": lambda: f"orders {who_(command.get('unit'))} to fire on {who_(command.get('target'))} "
                        f"at {command.get('range_inches')}\"",
        "return-fire": lambda: "returns fire",
        "hold-fire": lambda: "holds fire",
        "charge": lambda: f"orders {who_(command.get('unit'))} to charge {who_(command.get('target'))}",
        "fall-back": lambda: "falls back" + (f" ({command['how'].replace('-', ' ')})" if command.get("how") else ""),
        "terrain-check": lambda: "makes a terrain check",
        "defensive-fire": lambda: "fires in defence before the combat",
        "stand": lambda: "stands to receive the charge",
        "evade": lambda: f"evades to {command.get('x')}\", {command.get('y')}\"",
        "counter-charge": lambda: "counter-charges",
        "fight": lambda: (f"rolls the combat dice of {who_(command.get('unit'))}: {command.get('dice')} needing "
                          f"{command.get('target_number')} or less"),
        "dismount": lambda: f"dismounts {who_(command.get('unit'))}",
        "contact-horse-holders": lambda: f"sends {who_(command.get('unit'))} into {who_(command.get('horse_holders'))}",
        "end-move": lambda: "ends the game move",
        "propose-ruling": lambda: (f"asks for a ruling on {str(command.get('topic')).replace('-', ' ')}: "
                                  f"{with_names(str(command.get('decision')), names)}"),
        "accept-ruling": lambda: f"accepts ruling {command.get('number')}",
        "reject-ruling": lambda: f"rejects ruling {command.get('number')}",
    }
    line = lines.get(kind)
    return line() if line else str(kind)


def describe_event(event_type: str, data: dict[str, Any], names: Names = NO_NAMES) -> str | None:
    """One event in words, units and leaders with their players' names (``names``)."""
    name = event_type.removeprefix("day-of-battle.")
    d = data

    who_ = functools.partial(who, names=names)

    def army(seat: Any) -> str:
        return f"{seat_name(names, seat)}'s army" if seat in names else f"the {seat} army"

    if name == "SocialRankDrawn":
        cards = ", then ".join(card_name(x) for x in d.get("cards", []))
        return f"{who_(d.get('leader'))} draws {cards}: {d.get('title')}, social rank {d.get('social_rank')}"
    if name == "SocialRankSet":
        return f"{who_(d.get('leader'))} is a {d.get('title')}, social rank {d.get('social_rank')}"
    if name == "LeaderAttributesDrawn":
        return (f"{who_(d.get('leader'))}: esteem {d.get('esteem')}, {d.get('motivation')}, initiative "
                f"{d.get('initiative')}, morale {d.get('morale')}")
    if name == "LeaderReady":
        return f"{who_(d.get('leader'))} has drawn his esteem, motivation and skills"
    if name == "ScoutingResolved":
        pts = ", ".join(f"{seat_name(names, s)} {p}" for s, p in d.get("points", {}).items())
        halved = and_list(seat_name(names, s) for s in d.get("halved", []))
        return f"{seat_name(names, d.get('by'))} scouts: scouting points {pts}" + (f" (halved for {halved})" if halved else "")
    if name == "ScoutingDeclined":
        return f"{seat_name(names, d.get('by'))} does not scout"
    if name == "UnitDeployed":
        return f"{who_(d.get('unit'))} deploys {d.get('x')}\" across and {d.get('y')}\" in from its edge"
    if name == "DeploymentFinished":
        return f"{army(d.get('seat'))} is deployed"
    if name == "MoveBegan":
        return f"move {d.get('move')}: {army(d.get('seat'))} moves"
    if name == "InitiativeChecked":
        return (f"{who_(d.get('leader'))} rolls {d.get('roll')} for initiative"
                + (f" +{d.get('distraction')} distracted" if d.get("distraction") else "")
                + f" against {d.get('initiative')}: {'passed' if d.get('passed') else 'failed'}")
    if name == "CommandCardsCounted":
        return f"{who_(d.get('leader'))} draws {_plural(d.get('count', 0), 'command card')}"
    if name == "CommandCardsDrawn":
        return f"{who_(d.get('leader'))} holds {d.get('command_points')} command points"
    if name == "OrderGiven":
        return f"{who_(d.get('leader'))} orders {who_(d.get('unit'))} to {d.get('order')} ({d.get('cost')} command points)"
    if name == "UnitMoved":
        return f"{who_(d.get('unit'))} moves to {d.get('x')}\", {d.get('y')}\""
    if name == "FormationChanged":
        return f"{who_(d.get('unit'))} forms {d.get('formation')}"
    if name == "FireDeclared":
        return f"{who_(d.get('firer'))} fires on {who_(d.get('target'))} at {d.get('range_inches')}\""
    if name == "VolleyFired":
        faces = ", ".join(str(f) for f in d.get("faces", []))
        return (f"{who_(d.get('firer'))} {'fires first' if d.get('order') == 1 else 'returns fire'}: "
                f"{_plural(d.get('dice', 0), 'die')} needing {d.get('target_number')} or less ({faces or 'no dice'}): "
                f"{_plural(d.get('hits', 0), 'hit')}, {d.get('damage')} damage on {who_(d.get('target'))}")
    if name == "MoraleChecked":
        return (f"{who_(d.get('unit'))} checks morale: {d.get('roll')} against {d.get('target_number')}, "
                + ("holds" if d.get("passed") else "routs"))
    if name == "DistractionIncurred":
        return f"{who_(d.get('leader'))} is distracted by {who_(d.get('unit'))} firing without orders"
    if name == "FireHeld":
        return f"{who_(d.get('unit'))} holds its fire"
    if name == "ChargeDeclared":
        return (f"{who_(d.get('charger'))} charges {who_(d.get('target'))}"
                + (" and catches it in one normal move" if d.get("caught") else "")
                + (f", ending at {d.get('x')}\", {d.get('y')}\"" if d.get("x") is not None else ""))
    if name == "TerrainChecked":
        return (f"{who_(d.get('unit'))} checks terrain: {d.get('roll')} against {d.get('target_number')}, "
                + ("passed" if d.get("passed") else "failed"))
    if name == "FellBack":
        return (f"{who_(d.get('unit'))} falls back from {who_(d.get('charger'))}"
                + (f" ({d['how'].replace('-', ' ')})" if d.get("how") else "")
                + (f" to {d.get('x')}\", {d.get('y')}\"" if d.get("x") is not None else ""))
    if name == "Evaded":
        return f"{who_(d.get('unit'))} evades {who_(d.get('charger'))} to {d.get('x')}\", {d.get('y')}\""
    if name == "ChargeCountered":
        return f"{who_(d.get('unit'))} counter-charges {who_(d.get('charger'))}"
    if name == "CombatJoined":
        half = "".join(f"; {who_(u)} fights with half dice" for u in d.get("half_dice", []))
        return f"{who_(d.get('charger'))} and {who_(d.get('target'))} are in combat{half}"
    if name == "CombatDiceRolled":
        faces = ", ".join(str(f) for f in d.get("faces", []))
        return (f"{who_(d.get('unit'))} fights {who_(d.get('opponent'))}: {_plural(d.get('dice', 0), 'die')} needing "
                f"{d.get('target_number')} or less ({faces or 'no dice'}): {_plural(d.get('hits', 0), 'hit')}")
    if name == "StatedRollMade":
        faces = ", ".join(str(f) for f in d.get("faces", []))
        return (f"{d.get('purpose')} roll of {who_(d.get('unit'))}: {_plural(d.get('dice', 0), 'die')} needing "
                f"{d.get('target_number')} or less ({faces}): {d.get('successes')} succeed")
    if name == "LeaderLost":
        return f"{who_(d.get('leader'))} is {d.get('fate')}"
    if name == "ChargeStood":
        return (f"{who_(d.get('unit'))} stands against {who_(d.get('charger'))}"
                + (" and will fight with half dice" if d.get("half_dice") else ""))
    if name == "OrderTested":
        return (f"{who_(d.get('unit'))} tests its order entering combat: {d.get('roll')} against "
                f"{d.get('target_number')}, {'steady' if d.get('passed') else 'disordered'}")
    if name == "KnightsDismounted":
        return f"{who_(d.get('unit'))} dismount and will fight on foot for the rest of the battle"
    if name == "HorseHoldersPlaced":
        return f"the pages hold the horses of {who_(d.get('knights'))}"
    if name == "HorseHoldersLost":
        return f"{who_(d.get('contacted_by'))} reaches {who_(d.get('unit'))}: the horses are lost"
    if name == "HonourAwarded":
        return f"{who_(d.get('leader'))} gains {_plural(d.get('points', 0), 'honour point')} ({str(d.get('deed')).replace('-', ' ')})"
    if name == "RulingProposed":
        p = d.get("proposal") or {}
        return (f"{seat_name(names, d.get('proposed_by'))} asks for ruling {d.get('number')} on {str(p.get('topic')).replace('-', ' ')}: "
                f"{with_names(str(p.get('decision')), names)}")
    if name == "RulingAccepted":
        return f"{seat_name(names, d.get('seat'))} accepts ruling {d.get('number')}"
    if name == "RulingWithdrawn":
        return f"{seat_name(names, d.get('rejected_by'))} rejects ruling {d.get('number')}"
    if name == "RulingRecorded":
        by = "the umpire rules" if d.get("ruled_by") == "umpire" else "the players agree"
        return f"{by} ({d.get('rule')}): {with_names(str(d.get('decision')), names)}"
    if name == "ConditionChanged":
        return f"{who_(d.get('unit'))} is now {d.get('condition')}"
    if name == "CasualtiesTaken":
        return f"{who_(d.get('unit'))} loses {_plural(d.get('figures', 0), 'figure')}"
    if name == "MoveEnded":
        return f"{army(d.get('seat'))} ends its move; {army(d.get('next_seat'))} moves next"
    if name == "BattleEnded":
        o = d.get("outcome") or {}
        return (f"the battle ends: {'a draw' if o.get('draw') else seat_name(names, o.get('winner')) + ' wins'}"
                + (f" — {with_names(str(o.get('reason')), names)}" if o.get("reason") else ""))
    return None
