"""The components as data: the Location card (``location.json``) and the unit deck
(``units.json``, a labelled reconstruction; an owner may supply the printed deck).

A card's symbols are kept as a bit mask over :data:`KINDS` (bit ``i`` for ``KINDS[i]``), the
order of the rulebook's ranking from weakest to strongest.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.dice import DieKind
from domain.rules.base import RuleViolation

PACKAGE = Path(__file__).parent
SYSTEM = "kingdoms-of-crusaders"
SEATS = ("p1", "p2", "p3", "p4")
KINDS = ("lance", "bow", "sword", "helmet", "banner")  # weakest to strongest
RANK = {kind: i for i, kind in enumerate(KINDS)}
DECK_SIZE = 56
SECTOR_CAPACITY = 4
HAND = 5
UNITS_FILE = "units.json"
R_UNITS = "Unit Cards"


class UnitCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A printed unit card: its number in the deck and its symbols."""

    number: int
    symbols: tuple[str, ...]


class UnitDeck(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    """One 56-card unit deck (``units.json``, or the printed deck an owner supplies)."""

    cards: tuple[UnitCard, ...]
    header: str = ""
    deck: str = "units"


class Sector(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    number: int
    name: str


class Location(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    header: str
    sectors: tuple[Sector, ...]


def mask(symbols: tuple[str, ...] | list[str]) -> int:
    """The bit mask of a card's symbols."""
    out = 0
    for s in symbols:
        out |= 1 << RANK[s]
    return out


def symbols(card_mask: int) -> list[str]:
    """A card's symbols, weakest first, from its mask."""
    return [k for i, k in enumerate(KINDS) if card_mask >> i & 1]


def deck_problems(raw: Any) -> list[str]:
    """Every way ``raw`` is not a unit deck as the rulebook describes it: 56 cards numbered 1 to
    56, each with 1 to 5 symbols of the five kinds, none twice (empty: usable)."""
    try:
        deck = msgspec.convert(raw, UnitDeck)
    except msgspec.ValidationError as error:
        return [str(error)]
    problems = []
    if len(deck.cards) != DECK_SIZE:
        problems.append(f"a deck holds {DECK_SIZE} unit cards, not {len(deck.cards)}")
    elif sorted(c.number for c in deck.cards) != list(range(1, DECK_SIZE + 1)):
        problems.append(f"cards are numbered 1 to {DECK_SIZE}, each once")
    for card in deck.cards:
        unknown = [s for s in card.symbols if s not in RANK]
        if unknown:
            problems.append(f"card {card.number}: unknown symbol(s) {unknown}; the kinds are {', '.join(KINDS)}")
        if not 1 <= len(card.symbols) <= len(KINDS) or len(set(card.symbols)) != len(card.symbols):
            problems.append(f"card {card.number}: 1 to 5 symbols, each kind at most once")
    return problems


def validate_deck(raw: Any) -> UnitDeck:
    """The unit deck ``raw`` describes, or a RuleViolation listing every problem."""
    problems = deck_problems(raw)
    if problems:
        raise RuleViolation(f"{SYSTEM}.bad_deck", "unit deck: " + "; ".join(problems[:3])
                            + ("; …" if len(problems) > 3 else ""), R_UNITS, problems=problems)
    return msgspec.convert(raw, UnitDeck)


DECK_SCHEMA: dict[str, Any] = msgspec.json.schema(UnitDeck)


def load_units() -> UnitDeck:
    return validate_deck(msgspec.json.decode((PACKAGE / UNITS_FILE).read_bytes()))


LOCATION = msgspec.json.decode((PACKAGE / "location.json").read_bytes(), type=Location)
TERRITORIES = tuple(s.number for s in LOCATION.sectors)  # 1..5
NAMES = {s.number: s.name for s in LOCATION.sectors}
UNITS = load_units()


def deck_cards(deck: UnitDeck, players: int) -> dict[str, int]:
    """Every card in play, by id, with its mask, in the unshuffled order: deck ``A`` alone for
    two players, decks ``A`` and ``B`` mixed for three or four ("you need two decks mixed")."""
    letters = "AB" if players >= 3 else "A"
    ordered = sorted(deck.cards, key=lambda c: c.number)
    return {f"{letter}{c.number:02d}": mask(c.symbols) for letter in letters for c in ordered}


def _first_player_die(players: int) -> DieKind:
    seats = SEATS[:players]
    return DieKind(f"first-player-{players}", seats, f"who moves first among {players} players: one face per seat")


FIRST_PLAYER_DICE: dict[str, DieKind] = {d.id: d for d in (_first_player_die(n) for n in (2, 3, 4))}
