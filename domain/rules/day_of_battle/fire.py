"""Missile fire (1-8, 1-9): the weapon chart, the combat value with the weapon bonus first and
then the other modifiers, one die per Cos. (half dice for integral skirmish weapons), the
order of an exchange by rate of fire, and the damage the hits do. Pure functions; the dice
are rolled by :mod:`.rules`."""

from __future__ import annotations

import msgspec

from domain.rules.day_of_battle.data import CHARTS, DamageLevel, Weapon
from domain.rules.day_of_battle.events import Modifier
from domain.rules.day_of_battle.state import Unit


class Volley(msgspec.Struct, frozen=True):
    """A volley worked out before its dice are rolled."""

    weapon: Weapon
    range_band: str
    combat_value: int
    modifiers: list[Modifier]
    target_number: int
    dice: int
    half_dice: bool


def weapon_of(unit: Unit) -> Weapon | None:
    return unit.arms


def range_band(weapon: Weapon, range_inches: float) -> str | None:
    """"effective", "ineffective", or None when the target is beyond the weapon's reach."""
    if range_inches <= weapon.effective:
        return "effective"
    if weapon.ineffective and range_inches <= weapon.ineffective:
        return "ineffective"
    return None


def fires_as_skirmishers(unit: Unit) -> bool:
    """Skirmish troops, and units with integral skirmish weapons (Note 8), fire as skirmishers."""
    return unit.skirmish or unit.note8


def volley(firer: Unit, target: Unit, range_inches: float, in_open: bool,
           extra: tuple[tuple[str, int], ...] = ()) -> Volley | None:
    """The volley ``firer`` looses on ``target`` (None: no weapon, or out of range).

    1-9: "This number is the first modifier added to the firing units' combat value"; then the
    other modifiers: the players' agreed ones (``extra``), then each halving in turn, rounding
    down ("halved for firing at or being skirmishers in the open", "in disorder which halves
    their final combat value"). Dice: one per Cos.; 1-8: "it rolls with half dice, rounding down"."""
    weapon = weapon_of(firer)
    if weapon is None:
        return None
    band = range_band(weapon, range_inches)
    if band is None:
        return None
    steps = [Modifier(reason=f"{weapon.name} weapon bonus", add=weapon.bonus)]
    value = firer.combat_value + weapon.bonus
    for reason, add in extra:
        steps.append(Modifier(reason=reason, add=add))
        value += add
    halvings = []
    if in_open and (fires_as_skirmishers(firer) or target.skirmish):
        halvings.append("firing at or as skirmishers in the open")
    if firer.condition == "disordered":
        halvings.append("firing in disorder")
    if band == "ineffective":
        halvings.append("ineffective range")
    for reason in halvings:
        steps.append(Modifier(reason=reason, halve=True))
        value //= 2
    half_dice = firer.note8  # Note 8: integral skirmish weapons
    dice = firer.cos // 2 if half_dice else firer.cos
    return Volley(weapon, band, firer.combat_value, steps, max(value, 0), dice, half_dice)


def can_fire_on(firer: Unit, target: Unit, range_inches: float) -> bool:
    return (firer.condition in ("good-order", "disordered") and firer.cos > 0
            and volley(firer, target, range_inches, True) is not None)


def damage(hits: int) -> DamageLevel:
    """The damage table (reconstruction): the highest line whose hits the volley reached."""
    return [level for level in CHARTS.damage.levels if hits >= level.hits][-1]


def order_of_fire(first: Unit, second: Unit) -> list[list[Unit]]:
    """1-9 "Rate Of Fire": the higher rate of fire fires first; identical rates fire at once.
    Returns the firing steps in order: one list per step."""
    a, b = weapon_of(first), weapon_of(second)
    if a.rate_of_fire == b.rate_of_fire:
        return [[first, second]]
    return [[first], [second]] if a.rate_of_fire > b.rate_of_fire else [[second], [first]]
