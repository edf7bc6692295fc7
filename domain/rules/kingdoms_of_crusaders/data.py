"""The components as data: the Location card (``location.json``) and the unit deck
(``units.json``, a labelled reconstruction; an owner may supply the printed deck).

A card's symbols are kept as a *shape*: how many symbols of each of :data:`KINDS` it carries,
four bits a kind (``count * 16**i`` for ``KINDS[i]``), the kinds in the rulebook's ranking from
weakest to strongest. The text does not say a card carries a kind at most once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.dice import DieKind
from domain.rules.base import refused_data

PACKAGE = Path(__file__).parent
SYSTEM = "kingdoms-of-crusaders"
SEATS = ("p1", "p2", "p3", "p4")
KINDS = ("lance", "bow", "sword", "helmet", "banner")  # weakest to strongest
RANK = {kind: i for i, kind in enumerate(KINDS)}
MIN_DECK = 50  # the fewest cards that let every game the text describes reach its end (RULES_NOTES.md, 6)
MAX_DECK = 999  # the card number's format bound (ids A01..A999), not a rule
MAX_OF_A_KIND = 15  # symbols of one kind on one card: the shape's four bits, not a rule
SECTOR_CAPACITY = 4
HAND = 5
UNITS_FILE = "units.json"
R_UNITS = "Unit Cards"


class UnitCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A printed unit card: its number in the deck and its symbols."""

    number: int
    symbols: tuple[str, ...]


class UnitDeck(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    """One unit deck (``units.json``, or the printed deck an owner supplies)."""

    cards: tuple[UnitCard, ...]
    header: str = ""
    deck: str = "units"


class Sector(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    number: int
    name: str


class Location(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    header: str
    sectors: tuple[Sector, ...]


def shape(symbols: tuple[str, ...] | list[str]) -> int:
    """A card's shape: four bits per kind counting its symbols of that kind."""
    return sum(16 ** RANK[s] for s in symbols)


def symbols(card_shape: int) -> list[str]:
    """A card's symbols, weakest first, from its shape."""
    return [k for i, k in enumerate(KINDS) for _ in range(card_shape >> (4 * i) & 15)]


def deck_problems(raw: Any, scenario_id: str | None = None) -> list[str]:
    """Every way ``raw`` is not a unit deck the rules can play (empty: usable). The text gives
    neither the deck's size nor its symbols per card: at least :data:`MIN_DECK` cards, each
    numbered once (1 to :data:`MAX_DECK`), each with at least one symbol of the five kinds; a kind
    may appear more than once on a card (at most :data:`MAX_OF_A_KIND` times, a format bound).
    The same deck plays every scenario (``scenario_id``: :class:`~domain.rules.base.OwnerData`)."""
    try:
        deck = msgspec.convert(raw, UnitDeck)
    except msgspec.ValidationError as error:
        return [str(error)]
    problems = []
    if len(deck.cards) < MIN_DECK:
        problems.append(f"a deck of {len(deck.cards)} unit cards runs out before the game's end: at least "
                        f"{MIN_DECK} (each player draws 5, then 1 a turn for 20 turns; RULES_NOTES.md, reading 6)")
    numbers = [c.number for c in deck.cards]
    if len(set(numbers)) != len(numbers) or not all(1 <= n <= MAX_DECK for n in numbers):
        problems.append(f"cards are numbered 1 to {MAX_DECK}, each number once")
    for card in deck.cards:
        unknown = [s for s in card.symbols if s not in RANK]
        if unknown:
            problems.append(f"card {card.number}: unknown symbol(s) {unknown}; the kinds are {', '.join(KINDS)}")
        if not card.symbols:
            problems.append(f"card {card.number}: a unit card carries at least one symbol")
        if any(card.symbols.count(k) > MAX_OF_A_KIND for k in KINDS):
            problems.append(f"card {card.number}: at most {MAX_OF_A_KIND} symbols of one kind")
    return problems


def canonical_deck(raw: Any) -> dict[str, Any]:
    """The deck as the game plays it and its hash is taken: cards by number, each card's symbols
    weakest first; the header and the deck's name left out. The same deck listed in another
    order is the same deck."""
    deck = msgspec.convert(raw, UnitDeck)
    cards = sorted(deck.cards, key=lambda c: c.number)
    return {"cards": [{"number": c.number, "symbols": sorted(c.symbols, key=RANK.__getitem__)} for c in cards]}


def validate_deck(raw: Any) -> UnitDeck:
    """The unit deck ``raw`` describes, or a RuleViolation listing every problem."""
    problems = deck_problems(raw)
    if problems:
        raise refused_data(f"{SYSTEM}.bad_deck", "unit deck", problems, R_UNITS)
    return msgspec.convert(raw, UnitDeck)


DECK_SCHEMA: dict[str, Any] = msgspec.json.schema(UnitDeck)


def load_units() -> UnitDeck:
    return validate_deck(msgspec.json.decode((PACKAGE / UNITS_FILE).read_bytes()))


LOCATION = msgspec.json.decode((PACKAGE / "location.json").read_bytes(), type=Location)
TERRITORIES = tuple(s.number for s in LOCATION.sectors)  # 1..5
NAMES = {s.number: s.name for s in LOCATION.sectors}
UNITS = load_units()


def deck_cards(deck: UnitDeck, players: int) -> dict[str, int]:
    """Every card in play, by id, with its shape, in the unshuffled order: deck ``A`` alone for
    two players, decks ``A`` and ``B`` mixed for three or four ("you need two decks mixed")."""
    letters = "AB" if players >= 3 else "A"
    ordered = sorted(deck.cards, key=lambda c: c.number)
    return {f"{letter}{c.number:02d}": shape(c.symbols) for letter in letters for c in ordered}


def _first_player_die(players: int) -> DieKind:
    seats = SEATS[:players]
    return DieKind(f"first-player-{players}", seats, f"who moves first among {players} players: one face per seat")


FIRST_PLAYER_DICE: dict[str, DieKind] = {d.id: d for d in (_first_player_die(n) for n in (2, 3, 4))}
