"""A random-legal player who prefers moving the game on (an action over a card), shared by the
leak test and the HTTP game: it picks only from the commands the server lists for its seat."""

from __future__ import annotations

import random
from typing import Any


def choose(listed: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    plays = [c for c in listed if c["type"] == "play" and c["card"] != "favour"]
    favours = [c for c in listed if c["type"] == "play" and c["card"] == "favour"]
    if any(c["type"] == "pass" for c in listed):
        return rnd.choice(plays) if plays and rnd.random() < 0.3 else {"type": "pass"}
    if plays and rnd.random() < 0.3:
        return rnd.choice(plays)
    if favours and rnd.random() < 0.03:
        return rnd.choice(favours)
    by_type: dict[str, list] = {}
    for c in listed:
        by_type.setdefault(c["type"], []).append(c)
    for kind in ("prepare", "place", "discard", "buy", "sell", "harvest", "nothing", "end", "draw"):
        if kind in by_type and (kind not in ("buy", "sell") or rnd.random() < 0.6):
            return rnd.choice(by_type[kind])
    return rnd.choice(listed)
