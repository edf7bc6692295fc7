"""Wire shapes of the analysis routes (issue 19): one definition each, in the OpenAPI."""

from __future__ import annotations

from typing import Any

import msgspec


class AnalysisPoint(msgspec.Struct, frozen=True):
    """Each seat's chance of winning, and a draw's, from the board at ``version`` (the board a
    decision was taken from, or the last), with their 95 % Wilson intervals."""

    version: int
    win: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    rollouts: int
    decision: int | None = None  # the version of the DecisionTaken played from this board
    seat: str | None = None  # who took it
    unfinished: int = 0  # rollouts cut at the rule system's cap of decisions (counted in no one's favour)


class Swing(msgspec.Struct, frozen=True):
    """A decision after which a seat's chance moved most (its dice included): the decision's
    version, the boards before and after, the command and its wording, each chance's change."""

    version: int
    seat: str | None
    command: dict[str, Any] | None
    text: str
    change: dict[str, float]
    size: float
    from_: int = msgspec.field(name="from")
    to: int = 0


class Analysis(msgspec.Struct, frozen=True):
    """The chances at every decision, the biggest swings, the policy and rollouts per board;
    ``complete`` is false when the time budget stopped the work first (the boards it reached)."""

    points: list[AnalysisPoint]
    swings: list[Swing]
    policy: str
    rollouts: int
    complete: bool


class AnalysisProgress(msgspec.Struct, frozen=True):
    """202 while an analysis runs: units of rollouts done out of the total."""

    status: str
    done: int
    total: int
    progress: float
    policy: str
    rollouts: int


class RankedCommand(msgspec.Struct, frozen=True):
    command: dict[str, Any]
    text: str
    win: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    rollouts: int
    played: bool


class RankedCommands(msgspec.Struct, frozen=True):
    """The legal commands of the seat to act at ``version``, best first for that seat."""

    version: int
    seat: str | None
    commands: list[RankedCommand]
    policy: str
    rollouts: int
    complete: bool
