"""One-line narratives of Saline commands and events, in the rulebook's words."""

from __future__ import annotations

from typing import Any


def describe_command(command: dict[str, Any]) -> str:
    kind = command.get("type", "?")
    match kind:
        case "prepare":
            return "set up the game"
        case "place":
            return f"place the green œillet at {command.get('position')}"
        case "play":
            return f"play {command.get('effect')}" + (f" on {command['target']}" if command.get("target") else "")
        case "buy":
            return f"buy the œillet on market space {command.get('space')}, at {command.get('position')}"
        case "harvest":
            return f"harvest the {command.get('colour')} œillets"
        case "sell":
            return "sell the salt" + (f", sacrificing the œillet at {command['sacrifice']}"
                                      if command.get("sacrifice") else "")
        case "nothing":
            return "do nothing: take 1 liard"
        case "end":
            return "end the day turn"
        case "draw":
            return "draw an event card (end of turn)"
        case "discard":
            return "discard down to 2 cards"
        case "pass":
            return "let the card be"
    return str(kind)


def describe_event(event_type: str, data: dict[str, Any]) -> str | None:
    match event_type:
        case "saline.WeatherRead":
            return f"météo {' + '.join(data['faces'])}: production {data['production']}, rain scale {data['rain']}"
        case "saline.GabelleMoved":
            return f"the gabelle goes to {data['value']} ({data['by']})"
        case "saline.OeilletBought":
            return f"{data['seat']} buys a {data['colour']} œillet for {data['price']} liards"
        case "saline.LiardsPaid":
            return f"{data['payer']} pays {data['liards']} liards to {data['payee']} ({data['reason']})"
        case "saline.SaltMoved":
            return f"{data['salt']} salt from {data['source']} to {data['destination']} ({data['reason']})"
        case "saline.CardPlayed":
            return f"{data['seat']} plays {data['effect']}"
        case "saline.ObjectiveClaimed":
            return f"{data['seat']} claims the objective {data['objective']['name']}"
        case "saline.EventCardsDrawn":
            return f"{data['seat']} draws {data['count']} event card(s)"
    return None
