"""The scenario data files (``arsuf.json``, ``hattin.json``) and their loader.

The files are a documented reconstruction of the cards (RULES_NOTES.md); they are loaded
once, decoded into frozen Structs, and never mutated.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

import msgspec

PACKAGE = Path(__file__).parent
SEATS = ("crusaders", "ayyubids")
Status = Literal["uncommitted", "committed"]
ARSUF = "arsuf"  # the pseudo-target of Lusignan's Assault on Arsuf
TRUE_CROSS = "Hattin — Saladin (Leader)"  # the paragraph of the once-per-game Order loss
TAQUI_AL_DIN = "Hattin — Taqui al Din"


class Target(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An enemy banner a card may target, and in which status of the card's banner
    (``uncommitted``, ``committed``) or as a ``reaction``."""

    banner: str
    modes: tuple[str, ...]
    basis: str = ""


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One action printed on a card. ``red`` dice hit the Ayyubid banner, ``green`` the
    Crusader banner. ``target`` is ``enemy``, ``friendly``, ``arsuf`` or ``none``."""

    id: str
    name: str
    cost: int
    status: Literal["uncommitted", "committed", "any"]
    ordered: bool
    red: int
    green: int
    change: Literal["commit", "withdraw"] | None
    target: Literal["enemy", "friendly", "arsuf", "none"]
    effect: str | None
    friendly: tuple[str, ...] = ()
    basis: dict[str, str] = {}


class Reaction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A reaction: used by a Deployed targeted banner against the listed enemy actions."""

    id: str
    name: str
    cost: int
    against: tuple[str, ...]
    red: int
    green: int
    effect: str | None
    basis: dict[str, str] = {}


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    horns: bool
    targets: tuple[Target, ...]
    actions: tuple[Action, ...]
    reactions: tuple[Reaction, ...]

    # plain loops rather than next(generator): these run for every candidate command of every
    # rollout (issue 19), and a card holds a handful of each
    def action(self, action_id: str) -> Action | None:
        for a in self.actions:
            if a.id == action_id:
                return a
        return None

    def reaction(self, reaction_id: str) -> Reaction | None:
        for r in self.reactions:
            if r.id == reaction_id:
                return r
        return None

    def target_modes(self, banner_id: str) -> tuple[str, ...]:
        for t in self.targets:
            if t.banner == banner_id:
                return t.modes
        return ()


class Banner(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A banner: its lance track (slot 1 removed first; markers ``+1`` and ``give``), how its
    status works, and its card(s)."""

    id: str
    name: str
    side: str
    track: tuple[str, ...]
    status_rule: Literal["never-committed", "two-locations", "follows-target", "camp-then-horns"]
    card: str
    horns_card: str | None = None
    follows: str | None = None
    basis: dict[str, str] = {}

    @property
    def gives(self) -> bool:
        return self.track[-1] == "give"

    def locations(self) -> tuple[str, ...]:
        return {
            "two-locations": ("uncommitted", "committed"),
            "camp-then-horns": ("camp", "horns"),
        }.get(self.status_rule, ("field",))


class LeaderAction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    once: bool
    basis: str = ""


class Leader(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    side: str
    actions: tuple[LeaderAction, ...]


class SideOrders(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    available: int
    reserve: int


class ScenarioData(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    scenario: str
    order_tokens_per_side: int
    orders: dict[str, SideOrders]
    initiative_tie: str
    arsuf_lances: int
    banners: tuple[Banner, ...]
    cards: tuple[Card, ...]
    leaders: tuple[Leader, ...]
    basis: dict[str, str] = {}
    header: str = ""


class Tables:
    """Indexed, read-only views of one scenario's data."""

    def __init__(self, data: ScenarioData):
        self.data = data
        self.banners = {b.id: b for b in data.banners}
        self.cards = {c.id: c for c in data.cards}
        self.leaders = {leader.side: leader for leader in data.leaders}
        self.banner_ids = tuple(sorted(self.banners))
        self.banner_ids_of = {side: tuple(b for b in self.banner_ids if self.banners[b].side == side)
                              for side in SEATS}  # sorted, as banner_ids
        # Precomputed for the rules' hot paths (issue 19): per card, its actions usable on each
        # side (Ordered or not) in each status, each the first with its id (the one Card.action
        # finds), and the enemy banners it may target in each status, sorted
        self.usable = {c.id: {(ordered, status): tuple(a for a in c.actions if c.action(a.id) is a
                                                       and (a.ordered or not ordered) and a.status in ("any", status))
                              for ordered in (False, True) for status in ("uncommitted", "committed")}
                       for c in data.cards}
        self.enemies = {c.id: {status: tuple(sorted(t.banner for t in c.targets if t.banner != ARSUF and status in t.modes))
                               for status in ("uncommitted", "committed")} for c in data.cards}
        self.target_ids = {c.id: frozenset(t.banner for t in c.targets) for c in data.cards}
        self.modes = {c.id: {t.banner: c.target_modes(t.banner) for t in c.targets} for c in data.cards}
        self.status_rule = {b.id: b.status_rule for b in data.banners}
        # the banners whose status follows each banner's (Hattin's Lusignan at the Horns), sorted
        self.followers = {b.id: tuple(sorted(f.id for f in data.banners if f.follows == b.id)) for b in data.banners}
        # the '+1' markers uncovered once n lances are lost, for every n: surcharge[banner][n]
        self.surcharge = {b.id: tuple(b.track[:lost].count("+1") for lost in range(len(b.track) + 1))
                          for b in data.banners}

    def banner(self, banner_id: str) -> Banner:
        return self.banners[banner_id]

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]


def load(scenario: str) -> Tables:
    raw = (PACKAGE / f"{scenario}.json").read_bytes()
    return Tables(msgspec.json.decode(raw, type=ScenarioData))


@functools.lru_cache(maxsize=32)
def owner_tables(text: str) -> Tables:
    """Indexed tables of one owner's card data (canonical JSON, :func:`.owner_cards.canonical`),
    decoded once per distinct text (a pure cache)."""
    return Tables(msgspec.json.decode(text, type=ScenarioData))


TABLES: dict[str, Tables] = {name: load(name) for name in ("arsuf", "hattin")}
DATA_FILES = {"arsuf": "arsuf.json", "hattin": "hattin.json"}
