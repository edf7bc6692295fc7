"""Saline's components as data (``cards.json``, a labelled reconstruction: see RULES_NOTES.md,
"Reconstructed data"); an owner may supply the printed data in the same shape (option ``cards``).

Card ids: ``O01``…``O32`` the œillets, ``E01``…``E49`` the event cards, ``J01``…``J18`` the
objectives, numbered in the order of the data file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import msgspec

from domain.dice import DieKind
from domain.rules.base import refused_data

PACKAGE = Path(__file__).parent
SYSTEM = "saline"
SEATS = ("p1", "p2", "p3", "p4")
DATA_FILE = "cards.json"
COLOURS = ("green", "red", "yellow", "blue")
POSITIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # around the mulon, clockwise
TURNED = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}
MULON_MAX = 10
SALT_CUBES = 80
LIARDS = 21 * 1 + 9 * 5  # 30 coins: 21 of value 1 and 9 of value 5
MAX_OEILLETS = 8
HAND_LIMIT = 2
CARDS_PER_TURN = 2
START_LIARDS = 3
START_SALT = 3
END_LIARDS = 20
GABELLE_MIN, GABELLE_MAX = 1, 6
RAIN_RESET = 3
PHASES = ("day", "night", "any")
EFFECTS = {  # effect -> the parameters a play of it takes
    "gain_salt": (), "fill_colour": ("colour",), "harvest": ("colour",), "dry_colour": ("target", "colour"),
    "storm_opponents": (), "produce": (), "steal_salt": ("target",), "steal_liards": ("target",),
    "fine_liards": ("target",), "lose_salt": ("target",), "gain_liards": (), "exempt": (),
    "extra_buy": ("space", "position"), "opponents_pay": (), "dry_all": ("target",), "halve_mulon": ("target",),
    "draw": (), "smuggle": (), "none": (), "collect_gabelle": (), "cancel": (), "copy": (), "microclimate": (),
    "as_printed": ("outcome",),  # an owner's printed instruction, resolved as the players state it
}
RESPONSES = ("cancel", "copy", "collect_gabelle")  # played only in answer to a card just played


class Oeillet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    count: int
    capacity: int


class Also(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A further effect a printed text lists after the first (one of the known kinds, its number)."""

    effect: str
    amount: int = 0


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One of an event card's two effects: its phase (B), gabelle modification (C), cost (D,
    paid to the reserve or to the targeted opponent) and effect (E); ``text``: the printed words,
    when given; ``also``: the further effects a printed text says, resolved after it in order.
    A seat's view shows its cards' effects in this form (``text`` and ``also`` left out when
    the card has none)."""

    name: str
    phase: Literal["day", "night", "any"]
    gabelle: int
    cost: int
    cost_to: Literal["reserve", "target"]
    target: bool
    effect: str
    amount: int
    text: str = ""
    also: tuple[Also, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.effect, *(a.effect for a in self.also))

    def needs(self) -> set[str]:
        """The choices a play of it names: those of each of its kinds, and a target if it has one."""
        return {n for kind in self.kinds for n in EFFECTS.get(kind, ())} | ({"target"} if self.target else set())


class EventCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    count: int
    effects: tuple[Effect, Effect]


class Objective(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    cells: dict[str, str]  # position around the mulon -> colour (or "any")


class Favour(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A favour card with its own printed effect (or a choice of effects, like an event card's two),
    "to be used at any moment" (B 2)): each effect's phase is "any"."""

    name: str
    effects: tuple[Effect, ...]


class SalineData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    """The components. ``weather_faces``: the 6 faces of the two météo dice when they are alike, or
    two lists of 6, one for each die; a game given these cards rolls them, the game's own faces
    (``GET /games/{id}/dice``), not the reconstruction's die kinds listed beside. ``favours``: 4 cards, each a name (a joker: any effect of any
    event card, the reconstruction's reading) or a :class:`Favour` with its own printed effect."""

    oeillets: dict[str, Oeillet]
    market_prices: tuple[int, ...]
    public_objectives: dict[str, int]
    weather_faces: tuple[str | tuple[str, ...], ...]
    favours: tuple[str | Favour, ...]
    objectives: tuple[Objective, ...]
    events: tuple[EventCard, ...]
    header: str = ""


SCHEMA: dict[str, Any] = msgspec.json.schema(SalineData)


def weather_face(face: str) -> tuple[str, int]:
    """``"sun+1"`` -> ("sun", +1): the weather and the move of the gabelle die."""
    for sign, step in (("+1", 1), ("-1", -1)):
        if face.endswith(sign):
            return face[:-2], step
    return face, 0


def problems(raw: Any, scenario_id: str | None = None) -> list[str]:
    """Every way ``raw`` is not Saline's components as printed (empty: usable); the same for
    every scenario (``scenario_id``: :class:`~domain.rules.base.OwnerData`)."""
    try:
        data = msgspec.convert(raw, SalineData)
    except msgspec.ValidationError as error:
        return [str(error)]
    out = []
    printed = {"green": (8, 2), "red": (10, 3), "yellow": (8, 4), "blue": (6, 5)}
    if {c: (o.count, o.capacity) for c, o in data.oeillets.items()} != printed:
        out.append("32 œillets: 8 green capacity 2, 10 red 3, 8 yellow 4, 6 blue 5")
    if len(data.market_prices) != 4 or any(p < 0 for p in data.market_prices):
        out.append("the market track has 4 spaces, each with a price of 0 or more")
    if sorted(data.public_objectives) != ["2", "3", "4"] or any(
            not 0 <= n <= 18 - int(k) for k, n in data.public_objectives.items()):
        out.append("public_objectives: a number for 2, 3 and 4 players, leaving one secret each")
    dice = weather_dice(data)
    if len(dice) != 2 or any(len(faces) != 6 for faces in dice):
        out.append("2 météo dice of 6 faces each: 6 faces (both dice alike) or two lists of 6")
    for face in (f for faces in dice for f in faces):
        if weather_face(face)[0] not in ("sun", "wind", "rain"):
            out.append(f"weather face {face!r}: sun, wind or rain, optionally +1 or -1")
    if len(data.favours) != 4:
        out.append("4 favour cards")
    for favour in data.favours:
        if isinstance(favour, Favour):
            if not favour.effects:
                out.append(f"favour {favour.name!r}: its printed effect (one or more)")
            out += [f"favour {favour.name!r}, {e.name}: a favour is 'to be used at any moment': phase 'any'"
                    for e in favour.effects if e.phase != "any"]
            out += effect_problems(favour.effects)
    if len(data.objectives) != 18:
        out.append(f"18 objectives, not {len(data.objectives)}")
    for o in data.objectives:
        if not o.cells or any(p not in POSITIONS or c not in COLOURS + ("any",) for p, c in o.cells.items()):
            out.append(f"objective {o.name!r}: positions {', '.join(POSITIONS)} with a colour or 'any'")
    if sum(e.count for e in data.events) != 49:
        out.append(f"49 event cards, not {sum(e.count for e in data.events)}")
    for card in data.events:
        out += effect_problems(card.effects)
    return out


def effect_problems(effects: tuple[Effect, ...]) -> list[str]:
    out = []
    for e in effects:
        for kind in e.kinds:
            if kind not in EFFECTS:
                out.append(f"{e.name}: unknown effect {kind!r}; known: {', '.join(EFFECTS)}")
        if set(e.kinds[1:]) & (set(RESPONSES) | {"draw", "smuggle", "as_printed"}):
            out.append(f"{e.name}: an answer, a draw, a sale or a printed instruction is an effect of its own, "
                       "not a further one (also)")
        if "as_printed" in e.kinds and not e.text.strip():
            out.append(f"{e.name}: a printed instruction (as_printed) gives its printed words (text)")
        if "target" in e.needs() and not e.target:
            out.append(f"{e.name}: its effects need a targeted opponent (target true)")
        if e.gabelle not in (-1, 0, 1) or e.cost < 0 or e.amount < 0 or any(a.amount < 0 for a in e.also):
            out.append(f"{e.name}: gabelle -1, 0 or +1; cost and amount 0 or more")
        if e.cost_to == "target" and not e.target:
            out.append(f"{e.name}: a cost paid to the targeted opponent needs a target")
    return out


def weather_dice(data: SalineData) -> list[tuple[str, ...]]:
    """The faces of each of the two météo dice."""
    faces = data.weather_faces
    if all(isinstance(f, str) for f in faces):
        return [faces, faces]
    return [f if isinstance(f, tuple) else (f,) for f in faces]


def validate(raw: Any) -> SalineData:
    found = problems(raw)
    if found:
        raise refused_data(f"{SYSTEM}.bad_cards", "cards", found, "Components")
    return msgspec.convert(raw, SalineData)


DATA = validate(msgspec.json.decode((PACKAGE / DATA_FILE).read_bytes()))


class Catalogue(msgspec.Struct, frozen=True):
    """One game's cards by id, from the data it plays with."""

    oeillets: dict[str, str]  # id -> colour
    capacity: dict[str, int]  # colour -> capacity
    events: dict[str, tuple[Effect, Effect]]
    effects: dict[str, Effect]  # every effect by name (what a favour read as a joker may play)
    objectives: dict[str, Objective]
    prices: tuple[int, ...]
    public_objectives: dict[str, int]
    weather: tuple[DieKind, ...]  # one kind rolled twice (the dice alike), or one kind each
    favours: tuple[str, ...]  # the favour cards' names
    favour_effects: dict[str, tuple[Effect, ...]] = {}  # favour name -> its own printed effects (else a joker)

    def die_kinds(self) -> dict[str, DieKind]:
        return {d.id: d for d in self.weather}


def catalogue(data: SalineData) -> Catalogue:
    colours = [c for c in COLOURS for _ in range(data.oeillets[c].count)]
    events = [card.effects for card in data.events for _ in range(card.count)]
    return Catalogue(
        oeillets={f"O{i:02d}": c for i, c in enumerate(colours, 1)},
        capacity={c: data.oeillets[c].capacity for c in COLOURS},
        events={f"E{i:02d}": e for i, e in enumerate(events, 1)},
        effects={e.name: e for card in data.events for e in card.effects},
        objectives={f"J{i:02d}": o for i, o in enumerate(data.objectives, 1)},
        prices=data.market_prices,
        public_objectives=data.public_objectives,
        weather=weather_kinds(weather_dice(data)),
        favours=tuple(f.name if isinstance(f, Favour) else f for f in data.favours),
        favour_effects={f.name: f.effects for f in data.favours if isinstance(f, Favour)},
    )


def weather_kinds(dice: list[tuple[str, ...]]) -> tuple[DieKind, ...]:
    """The météo dice as kinds of die: ``saline-weather`` when both are alike (rolled together),
    ``saline-weather-1`` and ``saline-weather-2`` when each has its own faces."""
    if dice[0] == dice[1]:
        return (DieKind("saline-weather", dice[0], "Saline météo die (both alike; the game's own faces)"),)
    return tuple(DieKind(f"saline-weather-{i}", faces, f"Saline météo die {i} (the game's own faces)")
                 for i, faces in enumerate(dice, 1))


CATALOGUE = catalogue(DATA)


def _first_player_die(players: int) -> DieKind:
    return DieKind(f"saline-first-player-{players}", SEATS[:players], f"the first player among {players}")


FIRST_PLAYER_DICE = {d.id: d for d in (_first_player_die(n) for n in (2, 3, 4))}
DIE_KINDS: dict[str, DieKind] = {**CATALOGUE.die_kinds(), **FIRST_PLAYER_DICE}
