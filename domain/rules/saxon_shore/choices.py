"""The commands too many to list, described as choices a client composes (GET /legal-commands
``choices``; RULES_NOTES.md, "legal-commands"). With the listed commands they reach every
command ``decide`` accepts; tests/rules/saxon_shore/test_legal_complete.py checks it.

Each choice is a dict: the command ``type``, a ``description``, and per field the values it may
take. The forms: ``{"tokens_up_to": {resource: n}}`` any counts 0..n of each (at least one token
in all, for an offer); ``{"one_of": [...]}``; ``{"one_or_two_distinct_provinces_of": [...]}``;
for ``move``, ``groups`` (place → the ids that may move together from there, any non-empty
subset) and ``steps`` (place → the places a step may go to from it; a path is 1 or more steps).
"""

from __future__ import annotations

from typing import Any

from domain.rules.saxon_shore.data import RESOURCES
from domain.rules.saxon_shore.state import alive, units_of
from domain.rules.saxon_shore.state import SaxonState


def _tokens(state: SaxonState, seat: str) -> dict[str, int]:
    return {r: n for r, n in zip(RESOURCES, state.players[seat].res) if n}


def choices(state: SaxonState, seat: str) -> list[dict[str, Any]]:
    prompt = state.prompt
    if prompt is None or prompt.seat != seat:
        return []
    if prompt.kind == "family_offer":
        return [{"type": "choose", "description": "§11 41: offer any tokens you hold to keep the province, written "
                 "'wheat=2,gold=1' (resource order, counts of 1 or more), or 'none'",
                 "option": {"tokens_up_to": _tokens(state, seat)}}]
    if prompt.kind != "phase":
        return []
    phase = prompt.args[0]
    if phase == "trade":
        others = [s for s in alive(state) if s != seat]
        return [{"type": "offer", "description": "§4.3: any tokens each way, from what each side holds (a gift "
                 "gives only, a request only asks); at least one token", "to": {"one_of": others},
                 "give": {"tokens_up_to": _tokens(state, seat)},
                 "take": {"per_recipient": {s: {"tokens_up_to": _tokens(state, s)} for s in others}}}]
    if phase == "raise" and any(state.players[seat].res):
        board = state.board
        places = [{"province": p, "sea": z} for p in board.provinces for z in board.coasts[p]]
        return [{"type": "raise-boats", "description": "§4.6.4: one resource: two boats in one province, or one "
                 "boat in each of two different provinces (listed: every single place)",
                 "places": {"one_or_two_distinct_provinces_of": places},
                 "pay": {"one_of": [r for r in RESOURCES if _tokens(state, seat).get(r)]}}]
    if phase == "move":
        return [_moves(state, seat)]
    return []


def _moves(state: SaxonState, seat: str) -> dict[str, Any]:
    board = state.board
    groups: dict[str, list[int]] = {}
    for u in units_of(state, seat):
        if u.mp >= 0:
            groups.setdefault(u.loc, []).append(u.id)
    steps: dict[str, list[str]] = {}
    for place in (*board.provinces, *board.wild, *board.seas):
        if board.is_sea(place):
            nxt = [*sorted(board.sea_links[place]), *(p for p in (*board.provinces, *board.wild)
                                                      if place in board.shore(p))]
        else:
            nxt = [*board.land_neighbours.get(place, ()), *board.shore(place)]
        steps[place] = list(dict.fromkeys(nxt))
    return {"type": "move", "description": "§7: any group of your units standing together (a boat with the units it "
            "carries) along a path of steps; movement points, borders, paths (§11 12), stopping in non-friendly "
            "provinces and boats' coasts are checked when you send it (POST .../commands/check says why not)",
            "units": {"groups": groups}, "path": {"steps": steps}}
