"""The Saladin game state: frozen Structs, changed only by :mod:`.evolve`."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import Outcome

Fate = Literal["in-play", "captured", "boxed", "set-aside"]
Phase = Literal["seize", "choose-first", "activation", "reaction", "over"]


class BannerState(msgspec.Struct, frozen=True):
    """A banner on the board: its card, lances, location, status, side of the card."""

    id: str
    side: str
    card: str
    lances: int
    location: str
    status: str = "uncommitted"
    ordered: bool = False
    engaged: tuple[str, ...] = ()  # the enemy banners it fights in melee with (sorted)
    fate: Fate = "in-play"

    @property
    def in_play(self) -> bool:
        return self.fate == "in-play"


class SideState(msgspec.Struct, frozen=True):
    """One side's Orders (13 tokens: available + spent + reserve + boxed + unused),
    lances off the board, leader card and activation flags."""

    available: int
    spent: int
    reserve: int  # the Order waiting in Arsuf (Crusaders, Arsuf)
    unused: int  # tokens this scenario does not put in play
    boxed: int = 0  # Orders placed back in the box during play
    losses: int = 0  # lances on the Losses Track
    lances_boxed: int = 0  # lances placed back in the box
    leader_ordered: bool = False
    passed: bool = False
    used_once: tuple[str, ...] = ()

    @property
    def orders(self) -> int:
        """Orders still in play: available + spent."""
        return self.available + self.spent


class Pending(msgspec.Struct, frozen=True):
    """An action declared (Orders spent) and waiting for the target's reaction choice."""

    side: str
    banner: str
    action: str
    target: str | None


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The readings a game is played under where the rulebook leaves two open
    (RULES_NOTES.md, "Game options")."""

    true_cross: Literal["automatic", "leader-action"] = "automatic"
    taqui_al_din: Literal["automatic", "reaction"] = "automatic"


class SaladinState(msgspec.Struct, frozen=True):
    scenario: str
    turn: int
    phase: Phase
    active: str | None
    initiative: str | None
    banners: dict[str, BannerState]
    sides: dict[str, SideState]
    arsuf_lances: int = 0
    markers: dict[str, str] = {}  # marker -> banner in front of which it stands
    fire_fed: bool = False
    horns: bool = False
    pending: Pending | None = None
    result: Outcome | None = None
    activations: int = 0
    options: Options = Options()
    version: str = "2.1.0"  # the rule system's version that records the game (engine.Saladin.at_version)
    cards: str | None = None  # owner-supplied card data (canonical JSON); None: the scenario's data file
