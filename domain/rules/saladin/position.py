"""What every rule asks of a position first: its tables (the scenario's data file or the owner's
cards), a side's opponent, whether a banner is out of the game. Below :mod:`.rules`,
:mod:`.moves` and :mod:`.scenarios`, so each of them may ask."""

from __future__ import annotations

from domain.rules.saladin.data import SEATS, TABLES, Tables, owner_tables
from domain.rules.saladin.state import SaladinState

COMMITTED, UNCOMMITTED = "committed", "uncommitted"


def tables(state: SaladinState) -> Tables:
    return TABLES[state.scenario] if state.cards is None else owner_tables(state.cards)


def opponent(side: str) -> str:
    return SEATS[1] if side == SEATS[0] else SEATS[0]


def eliminated(state: SaladinState, banner_id: str) -> bool:
    b = state.banners.get(banner_id)
    return b is not None and b.fate in ("captured", "boxed")
