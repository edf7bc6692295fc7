"""One-line narratives of Day of Battle's events and commands, as a person would say them. A
secret card is never named here: the line for a sealed event says only what is public."""

from __future__ import annotations

from typing import Any

from domain.rules.day_of_battle.data import PROFILE_NAMES, card_name


def who(ref: Any) -> str:
    """``"crusaders/knights-bohemond"`` → ``"Mounted knights of Bohemond (crusaders)"``: the name on
    the Army Profile; a leader or unit not on the profiles of ``armies.json`` (an owner's own
    profiles) by its id, readably."""
    if not isinstance(ref, str) or "/" not in ref:
        return str(ref)
    seat, local = ref.split("/", 1)
    name = PROFILE_NAMES.get(ref) or local.replace("-", " ")
    return f"{name} ({seat.replace('-', ' ')})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe_command(command: dict[str, Any]) -> str:
    kind = command.get("type")
    lines = {
        "draw-leader": lambda: f"draws the cards of {who(command.get('leader'))}",
        "initiate-scouting": lambda: "opts for scouting",
        "decline-scouting": lambda: "declines scouting",
        "deploy": lambda: f"deploys {who(command.get('unit'))} {command.get('x')}\" across, {command.get('y')}\" in",
        "finish-deployment": lambda: "has every unit on the table",
        "begin-move": lambda: "begins the game move",
        "move": lambda: f"moves {who(command.get('unit'))}",
        "change-formation": lambda: f"forms {who(command.get('unit'))} in {command.get('formation')}",
        "fire": lambda: f"orders {who(command.get('unit'))} to fire on {who(command.get('target'))} "
                        f"at {command.get('range_inches')}\"",
        "return-fire": lambda: "returns fire",
        "hold-fire": lambda: "holds fire",
        "charge": lambda: f"orders {who(command.get('unit'))} to charge {who(command.get('target'))}",
        "fall-back": lambda: "falls back" + (f" ({command['how'].replace('-', ' ')})" if command.get("how") else ""),
        "terrain-check": lambda: "makes a terrain check",
        "defensive-fire": lambda: "fires in defence before the combat",
        "stand": lambda: "stands to receive the charge",
        "evade": lambda: f"evades to {command.get('x')}\", {command.get('y')}\"",
        "counter-charge": lambda: "counter-charges",
        "fight": lambda: (f"rolls the combat dice of {who(command.get('unit'))}: {command.get('dice')} needing "
                          f"{command.get('target_number')} or less"),
        "dismount": lambda: f"dismounts {who(command.get('unit'))}",
        "contact-horse-holders": lambda: f"sends {who(command.get('unit'))} into {who(command.get('horse_holders'))}",
        "end-move": lambda: "ends the game move",
        "propose-ruling": lambda: f"asks for a ruling on {command.get('topic')}: {command.get('decision')}",
        "accept-ruling": lambda: f"accepts ruling {command.get('number')}",
        "reject-ruling": lambda: f"rejects ruling {command.get('number')}",
    }
    line = lines.get(kind)
    return line() if line else str(kind)


def describe_event(event_type: str, data: dict[str, Any]) -> str | None:
    name = event_type.removeprefix("day-of-battle.")
    d = data
    if name == "SocialRankDrawn":
        cards = ", then ".join(card_name(x) for x in d.get("cards", []))
        return f"{who(d.get('leader'))} draws {cards}: {d.get('title')}, social rank {d.get('social_rank')}"
    if name == "SocialRankSet":
        return f"{who(d.get('leader'))} is a {d.get('title')}, social rank {d.get('social_rank')}"
    if name == "LeaderAttributesDrawn":
        return (f"{who(d.get('leader'))}: esteem {d.get('esteem')}, {d.get('motivation')}, initiative "
                f"{d.get('initiative')}, morale {d.get('morale')}")
    if name == "LeaderReady":
        return f"{who(d.get('leader'))} has drawn his esteem, motivation and skills"
    if name == "ScoutingResolved":
        pts = ", ".join(f"{s} {p}" for s, p in d.get("points", {}).items())
        return f"{d.get('by')} scouts: scouting points {pts} (halved for {', '.join(d.get('halved', []))})"
    if name == "ScoutingDeclined":
        return f"{d.get('by')} does not scout"
    if name == "UnitDeployed":
        return f"{who(d.get('unit'))} deploys {d.get('x')}\" across and {d.get('y')}\" in from its edge"
    if name == "DeploymentFinished":
        return f"the {d.get('seat')} army is deployed"
    if name == "MoveBegan":
        return f"move {d.get('move')}: the {d.get('seat')} army moves"
    if name == "InitiativeChecked":
        return (f"{who(d.get('leader'))} rolls {d.get('roll')} for initiative"
                + (f" +{d.get('distraction')} distracted" if d.get("distraction") else "")
                + f" against {d.get('initiative')}: {'passed' if d.get('passed') else 'failed'}")
    if name == "CommandCardsCounted":
        return f"{who(d.get('leader'))} draws {_plural(d.get('count', 0), 'command card')}"
    if name == "CommandCardsDrawn":
        return f"{who(d.get('leader'))} holds {d.get('command_points')} command points"
    if name == "OrderGiven":
        return f"{who(d.get('leader'))} orders {who(d.get('unit'))} to {d.get('order')} ({d.get('cost')} command points)"
    if name == "UnitMoved":
        return f"{who(d.get('unit'))} moves to {d.get('x')}\", {d.get('y')}\""
    if name == "FormationChanged":
        return f"{who(d.get('unit'))} forms {d.get('formation')}"
    if name == "FireDeclared":
        return f"{who(d.get('firer'))} fires on {who(d.get('target'))} at {d.get('range_inches')}\""
    if name == "VolleyFired":
        faces = ", ".join(str(f) for f in d.get("faces", []))
        return (f"{who(d.get('firer'))} {'fires first' if d.get('order') == 1 else 'returns fire'}: "
                f"{_plural(d.get('dice', 0), 'die')} needing {d.get('target_number')} or less ({faces or 'no dice'}): "
                f"{_plural(d.get('hits', 0), 'hit')}, {d.get('damage')} damage on {who(d.get('target'))}")
    if name == "MoraleChecked":
        return (f"{who(d.get('unit'))} checks morale: {d.get('roll')} against {d.get('target_number')}, "
                + ("holds" if d.get("passed") else "routs"))
    if name == "DistractionIncurred":
        return f"{who(d.get('leader'))} is distracted by {who(d.get('unit'))} firing without orders"
    if name == "FireHeld":
        return f"{who(d.get('unit'))} holds its fire"
    if name == "ChargeDeclared":
        return (f"{who(d.get('charger'))} charges {who(d.get('target'))}"
                + (" and catches it in one normal move" if d.get("caught") else "")
                + (f", ending at {d.get('x')}\", {d.get('y')}\"" if d.get("x") is not None else ""))
    if name == "TerrainChecked":
        return (f"{who(d.get('unit'))} checks terrain: {d.get('roll')} against {d.get('target_number')}, "
                + ("passed" if d.get("passed") else "failed"))
    if name == "FellBack":
        return (f"{who(d.get('unit'))} falls back from {who(d.get('charger'))}"
                + (f" ({d['how'].replace('-', ' ')})" if d.get("how") else "")
                + (f" to {d.get('x')}\", {d.get('y')}\"" if d.get("x") is not None else ""))
    if name == "Evaded":
        return f"{who(d.get('unit'))} evades {who(d.get('charger'))} to {d.get('x')}\", {d.get('y')}\""
    if name == "ChargeCountered":
        return f"{who(d.get('unit'))} counter-charges {who(d.get('charger'))}"
    if name == "CombatJoined":
        half = "".join(f"; {who(u)} fights with half dice" for u in d.get("half_dice", []))
        return f"{who(d.get('charger'))} and {who(d.get('target'))} are in combat{half}"
    if name == "CombatDiceRolled":
        faces = ", ".join(str(f) for f in d.get("faces", []))
        return (f"{who(d.get('unit'))} fights {who(d.get('opponent'))}: {_plural(d.get('dice', 0), 'die')} needing "
                f"{d.get('target_number')} or less ({faces or 'no dice'}): {_plural(d.get('hits', 0), 'hit')}")
    if name == "StatedRollMade":
        faces = ", ".join(str(f) for f in d.get("faces", []))
        return (f"{d.get('purpose')} roll of {who(d.get('unit'))}: {_plural(d.get('dice', 0), 'die')} needing "
                f"{d.get('target_number')} or less ({faces}): {d.get('successes')} succeed")
    if name == "LeaderLost":
        return f"{who(d.get('leader'))} is {d.get('fate')}"
    if name == "ChargeStood":
        return (f"{who(d.get('unit'))} stands against {who(d.get('charger'))}"
                + (" and will fight with half dice" if d.get("half_dice") else ""))
    if name == "OrderTested":
        return (f"{who(d.get('unit'))} tests its order entering combat: {d.get('roll')} against "
                f"{d.get('target_number')}, {'steady' if d.get('passed') else 'disordered'}")
    if name == "KnightsDismounted":
        return f"{who(d.get('unit'))} dismount and will fight on foot for the rest of the battle"
    if name == "HorseHoldersPlaced":
        return f"the pages hold the horses of {who(d.get('knights'))}"
    if name == "HorseHoldersLost":
        return f"{who(d.get('contacted_by'))} reaches {who(d.get('unit'))}: the horses are lost"
    if name == "HonourAwarded":
        return f"{who(d.get('leader'))} gains {_plural(d.get('points', 0), 'honour point')} ({str(d.get('deed')).replace('-', ' ')})"
    if name == "RulingProposed":
        p = d.get("proposal") or {}
        return f"{d.get('proposed_by')} asks for ruling {d.get('number')} on {p.get('topic')}: {p.get('decision')}"
    if name == "RulingAccepted":
        return f"{d.get('seat')} accepts ruling {d.get('number')}"
    if name == "RulingWithdrawn":
        return f"{d.get('rejected_by')} rejects ruling {d.get('number')}"
    if name == "RulingRecorded":
        by = "the umpire rules" if d.get("ruled_by") == "umpire" else "the players agree"
        return f"{by} ({d.get('rule')}): {d.get('decision')}"
    if name == "ConditionChanged":
        return f"{who(d.get('unit'))} is now {d.get('condition')}"
    if name == "CasualtiesTaken":
        return f"{who(d.get('unit'))} loses {_plural(d.get('figures', 0), 'figure')}"
    if name == "MoveEnded":
        return f"the {d.get('seat')} army ends its move; the {d.get('next_seat')} army moves next"
    if name == "BattleEnded":
        o = d.get("outcome") or {}
        return (f"the battle ends: {'a draw' if o.get('draw') else str(o.get('winner')) + ' win'}"
                + (f" — {o.get('reason')}" if o.get("reason") else ""))
    return None
