"""Day of Battle with the First Crusade supplement (Chris Parker): the record keeper of a
miniatures battle."""

from domain.rules.day_of_battle.engine import DayOfBattle

__all__ = ["DayOfBattle"]
