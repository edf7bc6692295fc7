"""One-line narratives of Saline commands and events, in the rulebook's words, players by name.
Cards are told by their effects' printed titles, counts with their plurals."""

from __future__ import annotations

from typing import Any

from domain.rules.saline.data import weather_face
from domain.rules.words import Names, and_list, outcome_text, plural, seat_name

RESERVE = "reserve"


def _liards(n: int) -> str:
    return plural(n, "liard")


def _salt(n: int) -> str:
    return plural(n, "salt cube")


def _place(where: str, names: Names) -> str:
    """A source or destination of salt or liards: the reserve, a seat's mulon, an œillet."""
    if where == RESERVE:
        return "the reserve"
    if where in names or where.startswith("p"):
        return f"{seat_name(names, where)}'s mulon"
    return f"œillet {where}"


def _payer(who: str, names: Names) -> str:
    return "the reserve" if who == RESERVE else seat_name(names, who)


def _card(card: dict[str, Any]) -> str:
    return f"{card['id']} ({' / '.join(card['effects'])})"


def _face(face: str) -> str:
    """A météo face: "rain-1" -> "rain −1" (the weather, and the step of the gabelle)."""
    weather, step = weather_face(face)
    return f"{weather} {'+' if step > 0 else '−'}1" if step else weather


def describe_command(command: dict[str, Any], names: Names) -> str:
    kind = command.get("type", "?")
    match kind:
        case "prepare":
            return "sets up the game"
        case "place":
            return f"places the green œillet at {command.get('position')}"
        case "play":
            target = f" on {seat_name(names, command['target'])}" if command.get("target") else ""
            return f"plays {command.get('effect')}{target}"
        case "buy":
            return f"buys the œillet on market space {command.get('space')} and sets it at {command.get('position')}"
        case "harvest":
            return f"harvests the {command.get('colour')} œillets"
        case "sell":
            return "sells the salt" + (f", sacrificing the œillet at {command['sacrifice']}"
                                       if command.get("sacrifice") else "")
        case "nothing":
            return "does nothing and takes 1 liard"
        case "end":
            return "ends the day turn"
        case "draw":
            return "draws event cards (end of turn)"
        case "discard":
            return "discards down to 2 cards"
        case "pass":
            return "passes"
        case "sacrifice":
            return f"sacrifices the œillet at {command.get('position')}"
    return str(kind)


def describe_event(event_type: str, d: dict[str, Any], names: Names) -> str | None:
    who = seat_name(names, d.get("seat"))
    if event_type in ("DiceRolled", "DiceForced"):
        faces = [str(f) for f in d.get("faces") or []]
        if faces and all(weather_face(f)[0] in ("sun", "wind", "rain") for f in faces):
            return f"{d['purpose']}: {and_list(_face(f) for f in faces)}"
        return None
    match event_type.removeprefix("saline."):
        case "ObjectivesRevealed":
            return f"the objectives on the village square: {and_list(o['name'] for o in d['objectives'])}"
        case "SecretObjectivesDealt":
            return f"{and_list(seat_name(names, s) for s in d['seats'])}: each is dealt a secret objective"
        case "SecretObjectiveDealt":
            return f"{who} is dealt the secret objective {d['objective']['name']}"
        case "FavoursGiven":
            favours = and_list(f"{seat_name(names, s)} the {f}" for s, f in d["favours"].items())
            return (f"each player takes {_liards(d['liards'])} and a mulon with {_salt(d['salt'])}; "
                    f"favours: {favours}")
        case "MarketReplenished":
            spaces = ", ".join(f"{s['colour']} for {_liards(s['price'])}" if s.get("oeillet")
                               else f"nothing for {_liards(s['price'])}" for s in d["market"])
            new = f" ({plural(len(d['revealed']), 'new œillet')})" if d.get("revealed") else ""
            return f"the market{new}: {spaces}"
        case "EventCardsDrawn":
            return f"{who} draws {plural(d['count'], 'event card')}"
        case "DrawnEventCards":
            return f"{who} draws {and_list(_card(c) for c in d['cards'])}"
        case "GreenOeilletPlaced":
            return f"{who} places the green œillet at {d['position']}"
        case "DayBegan":
            return f"day {d['day']} begins; {seat_name(names, d['first'])} plays first"
        case "WeatherRead":
            production = {"none": "no salt is produced", "single": "the œillets produce once",
                          "double": "the œillets produce twice"}.get(d["production"], d["production"])
            again = "; the rain scale reached 3 and returns to 0: roll again" if d.get("roll_again") else ""
            return f"the météo reads {and_list(_face(f) for f in d['faces'])}: {production}; rain scale {d['rain']}{again}"
        case "GabelleMoved":
            by = d["by"]
            return f"the gabelle goes to {d['value']} ({'météo ' + _face(by) if weather_face(by)[1] else by})"
        case "SaltProduced":
            total = sum(d["salt"].values())
            return (f"the œillets of {and_list(seat_name(names, s) for s in d['seats'])} produce "
                    f"{_salt(total)}")
        case "SaltMoved":
            return (f"{_salt(d['salt'])} from {_place(d['source'], names)} to "
                    f"{_place(d['destination'], names)} ({d['reason']})")
        case "LiardsPaid":
            return (f"{_payer(d['payer'], names)} pays {_liards(d['liards'])} to {_payer(d['payee'], names)} "
                    f"({d['reason']})")
        case "OeilletBought":
            return (f"{who} buys a {d['colour']} œillet for {_liards(d['price'])} and sets it at "
                    f"{d['position']}")
        case "ActionTaken":
            return {"buy": f"{who}'s action: a purchase", "harvest": f"{who}'s action: a harvest",
                    "sell": f"{who}'s action: a sale", "nothing": f"{who}'s action: none"}.get(
                        d["action"], f"{who}'s action: {d['action']}")
        case "OeilletSacrificed":
            return f"{who} cannot pay the gabelle and sacrifices the œillet at {d['position']}"
        case "CardPlayed":
            target = f" on {seat_name(names, d['target'])}" if d.get("target") else ""
            card = "favour card" if d["card"] == "favour" else f"card {d['card']}"
            return f"{who} plays {d['effect']}{target} ({card})"
        case "OutcomeStated":  # an owner's printed instruction: what its player states it does
            o = d["outcome"]
            moves = [f"{seat_name(names, s)} {n:+d} salt" for s, n in o.get("salt", {}).items()]
            moves += [f"{seat_name(names, s)} {n:+d} liards" for s, n in o.get("liards", {}).items()]
            moves += [f"the gabelle {o['gabelle']:+d}"] if o.get("gabelle") else []
            return f"{who} states what the card's printed words do: {and_list(moves) if moves else 'nothing'}"
        case "ResponsePassed":
            return f"{who} passes"
        case "ActionAnnounced":
            return f"{who} announces: {d['action']}" + (f" (space {d['space']})" if d.get("space") else "") + \
                (f" ({d['colour']})" if d.get("colour") else "")
        case "WindowOpened":
            who_may = and_list(seat_name(names, s) for s in d["seats"]) or "nobody"
            return f"before {who}'s {d['action']}, {who_may} may play a card bearing the triangle or a favour"
        case "WindowClosed":
            return f"{who}'s {d['action']} " + ("resolves" if d.get("possible", True) else "is no longer possible")
        case "SacrificeOwed":
            return f"{who} cannot pay the gabelle after the sale and must sacrifice an œillet"
        case "CardResolved":
            if d.get("cancelled"):
                return f"{who}'s {d['effect']} is cancelled: no effect, no cost"
            return f"{who}'s {d['effect']} takes effect" + (" (a copy)" if d.get("copy") else "")
        case "SalesExempt":
            return f"{who}'s sales pay no gabelle this day"
        case "TurnBegan":
            return f"{who}'s {d['phase']} turn begins"
        case "TurnEnded":
            return f"{who}'s {d['phase']} turn ends"
        case "HandLimitDiscard":
            return f"{who} discards a card down to the hand limit"
        case "EventCardDiscarded":
            return f"{who} discards event card {d['card']}"
        case "ObjectiveClaimed":
            secret = "secret " if d.get("secret") else ""
            return f"{who} claims the {secret}objective {d['objective']['name']}"
        case "HandsShown":
            shown = [f"{seat_name(names, s)}: {and_list(_card(c) for c in cards) or 'no cards'}"
                     + (f", secret objective {d['secrets'][s]['name']}" if s in d.get("secrets", {}) else "")
                     for s, cards in d["hands"].items()]
            return "every hand and secret objective is shown: " + "; ".join(shown)
        case "GameDecided":
            return outcome_text(d["outcome"], names)
    return None
