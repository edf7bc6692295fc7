"""The bodies of the game routes: ``/games…``, ``/rules…``, ``/records/verify``."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from api.wire.common import Head, documented
from api.http import MAX_INT
from domain.creation import MAX_CLIENT_SEED, MAX_PLAYER_NAME, SEAT_ID, SEED_HEX
from api.wire.seating import SeatingInfo
from domain.events import BotSeat, ForkRef, Outcome, SeatInfo, Target, TimeControl, TournamentRef
from domain.rules.base import Window
from domain.rules.registry import RULE_SYSTEMS
from projections.index import GameRow
from projections.timeline import TimelineEntry
from replays.record import RecordEvent

MAX_KEY = 200


class SeatRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who sits in a seat. ``player_token`` (from POST /players) vouches that it is that
    registered player: a casual game is rated only when every seat's player vouched.
    ``invite``: the seat is offered to the registered ``player``, who takes it with their own
    token (no seat token is issued to the creator); ``open``: no player yet, the seat is taken
    by a registered player holding the invitation link; ``bot``: the server plays the seat."""

    player: Annotated[str, documented(minLength=1, maxLength=MAX_PLAYER_NAME)] | None = None
    player_token: str | None = None
    invite: bool = False
    open: bool = False
    bot: BotSeat | None = None


class CreateGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games."""

    rules: Annotated[str, documented(enum=sorted(RULE_SYSTEMS))]
    seats: Annotated[dict[str, SeatRequest], documented(minProperties=1, maxProperties=8,
                                                        propertyNames={"pattern": SEAT_ID.pattern})]
    scenario: str | None = None
    seed: Annotated[str, documented(pattern=SEED_HEX.pattern)] | None = None
    client_seed: Annotated[str, documented(maxLength=MAX_CLIENT_SEED)] = ""
    options: dict[str, Any] = {}
    tournament: TournamentRef | None = None
    blind_seeds: bool = False  # each seat gives its own seed after the commitment (issue 29)
    clock: TimeControl | None = None


class GameCreatedResponse(msgspec.Struct, frozen=True):
    """The new game; a token for each seat its creator holds (not for a seat offered, open or a
    bot's); ``invitation``, the secret of the link that takes an open seat."""

    id: str
    version: int
    seed_commitment: str
    seat_tokens: dict[str, str]
    head: Head
    invitation: str | None = None


class RecordImported(msgspec.Struct, frozen=True):
    """POST /records/import: the game the record is now stored as, and its chain head."""

    id: str
    version: int
    head: Head


class CommandRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/commands. ``command`` is one of the game's rule system's commands:
    the ``<System>Command`` schemas (``SaladinCommand``; also served by ``GET /rules/{system}``)."""

    seat: str
    command: dict[str, Any]
    # versions start at 1 (GameCreated): below that is no version at all, refused as invalid_body
    expected_version: Annotated[int, msgspec.Meta(ge=1, le=MAX_INT)] | None = None


class CommandResponse(msgspec.Struct, frozen=True):
    version: int
    events: list[RecordEvent]
    head: Head
    view: Any


class MetaResponse(msgspec.Struct, frozen=True):
    """What an audit command recorded, and the new chain head (a receipt)."""

    version: int
    events: list[RecordEvent]
    head: Head


class AnnotationRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/annotations: a note at a version (the latest when omitted)."""

    text: str
    at_version: int | None = None
    target: Target | None = None
    arrow: list[str] | None = None


class DisputeRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/disputes: a seat disputes the play at a version."""

    seat: str
    about_version: int
    reason: str
    freeze: bool = False


class RulingRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/rulings: an umpire rules on an open dispute."""

    dispute: int
    ruling: Annotated[str, documented(enum=["upheld", "rejected"])]
    reason: str
    void_from: int | None = None
    reveal_seed: bool = False


class ReleaseRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/disputes/{dispute}/release: a seat agrees that frozen play may go on
    (games with no umpire)."""

    seat: str


class AbandonRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/abandon: a seat agrees to abandon the game."""

    seat: str


class AdjudicationRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/adjudication: an umpire's result for a game stopped by a flag's fall."""

    outcome: Outcome


class InspectionRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/inspections: an umpire looks at the full state at a version (the
    latest when omitted), every hand included; the record keeps who looked and when."""

    at_version: int | None = None
    reason: str = ""


class Inspection(msgspec.Struct, frozen=True):
    """The full state an umpire asked for, and the Inspected event that records the look."""

    version: int
    at_version: int
    state: Any
    view: Any
    events: list[RecordEvent]
    head: Head


class ForkRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/fork: a study game from ``version``."""

    version: int
    dice: str = "fresh"
    forced: list[int | str] = []
    seats: dict[str, SeatRequest] = {}


class SeatClock(msgspec.Struct, frozen=True):
    """One seat's clock as the server reads it now: the time left (ms), whether it runs, and
    when its flag falls if nobody acts (an ISO time; None while it is stopped)."""

    left_ms: int
    running: bool
    flag_at: str | None = None


class GameClock(msgspec.Struct, frozen=True):
    """A clocked game's time control and each seat's clock; ``flagged``: the seat whose flag fell."""

    control: TimeControl
    seats: dict[str, SeatClock]
    flagged: str | None = None


class GameSummary(msgspec.Struct, frozen=True):
    """GET /games/{id}."""

    id: str
    rules: str
    rules_version: str
    scenario: str
    status: str
    version: int
    to_act: list[str]
    seats: dict[str, SeatInfo]
    view: Any
    outcome: Outcome | None
    seed: str | None
    seed_commitment: str
    head: Head
    created_at: str
    study: bool
    tournament: TournamentRef | None = None
    fork: ForkRef | None = None
    # an out-of-turn window open now (domain/rules/base.py, "Out-of-turn play"): whose step waits
    # (holder, step) while the seats still waiting may play out of turn or pass
    window: Window | None = None
    seating: SeatingInfo | None = None  # seats taken at a distance (issue 29)
    clock: GameClock | None = None


class LegalCommands(msgspec.Struct, frozen=True):
    """The commands a seat may send now: ``commands`` ready to post as they are, and
    ``choices``, commands too many to list described as choices a client composes (the
    command ``type``, a ``description``, the values each field may take). ``complete``: the
    rule system guarantees that every command it would accept is listed or described.
    ``labels``: one readable line per command, in the same order; ``prompt``: what the game
    asks the seat now, in words (None when it asks nothing). ``rules`` names the game's rule
    system, whose command union ``commands`` are (the contract's ``<System>LegalCommands``).
    ``to_act``: the seats that may send a command now; for a seat that may not, ``waiting``
    says why in words (who is to act and what the game asks them, the end, a freeze)."""

    rules: str
    version: int
    seat: str
    commands: list[Any]
    complete: bool = False
    choices: list[dict[str, Any]] = []
    labels: list[str] = []
    prompt: str | None = None
    to_act: list[str] = []
    waiting: str | None = None


class CheckResult(msgspec.Struct, frozen=True):
    """Whether a command would be recorded now (``POST /games/{id}/commands/check``), and the
    problem it would meet if not: nothing is recorded and none of the game's dice is drawn."""

    accepted: bool
    problem: dict[str, Any] | None = None


class EventsPage(msgspec.Struct, frozen=True):
    events: list[RecordEvent]
    next: int | None


class StateAt(msgspec.Struct, frozen=True):
    version: int
    to_act: list[str]
    view: Any
    text: str


class TimelinePage(msgspec.Struct, frozen=True):
    entries: list[TimelineEntry]
    next: int | None




class GamesPage(msgspec.Struct, frozen=True):
    games: list[GameRow]
    next: int | None


class ScenarioInfo(msgspec.Struct, frozen=True):
    id: str
    title: str
    seats: list[str]
    players: dict[str, int]


class RuleSystemInfo(msgspec.Struct, frozen=True):
    id: str
    version: str
    title: str
    scenarios: list[ScenarioInfo]
    die_kinds: dict[str, list[int | str]]
    command_schema: dict[str, Any]
    owner_data: dict[str, Any] | None = None  # {"option", "schema"}: the owner's own data file, if taken


class RuleSystemList(msgspec.Struct, frozen=True):
    rules: list[RuleSystemInfo]


class PublicKey(msgspec.Struct, frozen=True):
    alg: str
    key: str
    id: str


class Keys(msgspec.Struct, frozen=True):
    keys: list[PublicKey]


class ForkList(msgspec.Struct, frozen=True):
    forks: list[GameRow]


class Entries(msgspec.Struct, frozen=True):
    events: list[RecordEvent]
