"""Game clocks (issue 29): Fischer, a simple delay, or days per move.

Pure arithmetic over recorded times: the service passes the server's time in (``now``),
and a replay passes each event's recorded time, so the verifier redoes every sum. A seat's
clock runs from the recorded time of the version at which it came to act (``since``) until
its decision (a ``TimeUsed`` beside the ``DecisionTaken``) or its flag's fall (``FlagFell``).
A clock runs only while its seat is to act: not while play is frozen by a dispute, nor after
the game ends. Times are whole milliseconds, rounded down from the recorded microseconds."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from domain.events import EventData, FlagFell, Outcome, TimeControl, TimeUsed

KINDS = ("fischer", "delay", "correspondence")
ON_TIME = ("loss", "adjudicate")
MAX_SECONDS = 30 * 24 * 3600  # a base, increment or delay of at most 30 days
MAX_DAYS = 60
DAY_MS = 86_400_000
LOSS_ON_TIME = "loss on time"


class ClockRefused(ValueError):
    """A time control that cannot be played: its ``code`` and words."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class Clocks(msgspec.Struct, frozen=True):
    """Each seat's time left (ms), and for each seat to act the version whose recorded time
    started its clock and that time; ``flagged``: the seat whose flag fell, awaiting an umpire."""

    left: dict[str, int]
    running: dict[str, tuple[int, datetime]] = {}
    flagged: str | None = None


def check_time_control(control: TimeControl) -> None:
    """Raise ClockRefused unless ``control`` is a clock one can play under."""
    if control.kind not in KINDS:
        raise ClockRefused("clock.bad_kind", f"clock kind is one of {', '.join(KINDS)}, not {control.kind!r}")
    if control.on_time not in ON_TIME:
        raise ClockRefused("clock.bad_on_time", f"on_time is one of {', '.join(ON_TIME)}, not {control.on_time!r}")
    for name in ("base_seconds", "increment_seconds", "delay_seconds"):
        if not 0 <= getattr(control, name) <= MAX_SECONDS:
            raise ClockRefused("clock.bad_time", f"{name} is 0 to {MAX_SECONDS} (30 days)")
    if not 0 <= control.days_per_move <= MAX_DAYS:
        raise ClockRefused("clock.bad_time", f"days_per_move is 0 to {MAX_DAYS}")
    if control.kind == "correspondence":
        if control.days_per_move < 1 or control.base_seconds or control.increment_seconds or control.delay_seconds:
            raise ClockRefused("clock.bad_time", "a correspondence clock gives days_per_move (1 or more) and nothing else")
        return
    if control.days_per_move or control.base_seconds < 1:
        raise ClockRefused("clock.bad_time", f"a {control.kind} clock gives base_seconds (1 or more), not days_per_move")
    if control.kind == "fischer" and control.delay_seconds:
        raise ClockRefused("clock.bad_time", "a fischer clock has an increment, not a delay")
    if control.kind == "delay" and control.increment_seconds:
        raise ClockRefused("clock.bad_time", "a delay clock has a delay, not an increment")


def start(control: TimeControl, seats: tuple[str, ...]) -> Clocks:
    """Every seat's clock before play: its base time (a correspondence seat's days a move)."""
    first = control.days_per_move * DAY_MS if control.kind == "correspondence" else control.base_seconds * 1000
    return Clocks({seat: first for seat in seats})


def allowed_ms(control: TimeControl, clocks: Clocks, seat: str) -> int:
    """How long ``seat``'s present decision may take before its flag falls."""
    return clocks.left[seat] + (control.delay_seconds * 1000 if control.kind == "delay" else 0)


def elapsed_ms(since: datetime, now: datetime) -> int:
    """Whole milliseconds from ``since`` to ``now``, rounded down (never negative)."""
    return max(0, (now - since) // timedelta(milliseconds=1))


def left_after(control: TimeControl, left: int, used: int) -> int:
    """A seat's time left after a decision that used ``used`` ms with ``left`` on its clock."""
    if control.kind == "fischer":
        return left - used + control.increment_seconds * 1000
    if control.kind == "delay":
        return left - max(0, used - control.delay_seconds * 1000)
    return control.days_per_move * DAY_MS


def follow(clocks: Clocks, data: EventData, version: int, at: datetime, to_act: list[str]) -> Clocks:
    """The clocks after an event at ``version`` recorded at ``at``, with ``to_act`` the seats
    to act after it: a decision's time is charged, a seat newly to act starts its clock."""
    if not isinstance(data, (TimeUsed, FlagFell)) and len(to_act) == len(clocks.running) \
            and all(seat in clocks.running for seat in to_act):
        return clocks  # the same seats still to act: their clocks run on
    left, running, flagged = clocks.left, dict(clocks.running), clocks.flagged
    match data:
        case TimeUsed(seat=seat, left_ms=remaining):
            left = left | {seat: remaining}
            running.pop(seat, None)
        case FlagFell(seat=seat):
            flagged = seat
    running = {seat: running.get(seat) or (version, at) for seat in to_act}
    if running == clocks.running and left is clocks.left and flagged == clocks.flagged:
        return clocks
    return Clocks(left, running, flagged)


def time_used(control: TimeControl, clocks: Clocks, seat: str, now: datetime) -> TimeUsed | None:
    """The TimeUsed of ``seat``'s decision at ``now``; None when its flag has fallen by then
    (the decision comes too late: the service records the fall instead)."""
    since, started = clocks.running[seat]
    used = elapsed_ms(started, now)
    if used > allowed_ms(control, clocks, seat):
        return None
    return TimeUsed(seat=seat, since=since, used_ms=used, left_ms=left_after(control, clocks.left[seat], used))


def first_flag(control: TimeControl, clocks: Clocks, now: datetime) -> FlagFell | None:
    """The flag that has fallen by ``now``, the one whose time ran out first (None: none has)."""
    fallen = []
    for seat, (since, started) in sorted(clocks.running.items()):
        allowed = allowed_ms(control, clocks, seat)
        used = elapsed_ms(started, now)
        if used > allowed:
            fallen.append((started + timedelta(milliseconds=allowed), seat,
                           FlagFell(seat=seat, since=since, used_ms=used, allowed_ms=allowed)))
    return min(fallen)[2] if fallen else None


def loss_on_time(seats: tuple[str, ...], seat: str) -> Outcome | None:
    """The outcome of ``seat``'s flag falling, as every rule system reads it today: in a game of
    two seats the other wins; with more, no rule says who (an umpire adjudicates)."""
    others = [s for s in seats if s != seat]
    if len(others) != 1:
        return None
    return Outcome(winner=others[0], reason=LOSS_ON_TIME)
