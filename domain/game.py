"""The Game aggregate: one stream of hash-chained events per game (DESIGN.md, "Events").

Functional and immutable, in the style of the eventsourcing library's ``aggregate9``
example: :func:`project_game` folds :class:`Recorded` events into a frozen :class:`Game`;
:func:`create_game` and :func:`take_decision` validate and return new events, never
mutate. Timestamps and the seed come in as arguments: nothing here reads a clock.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

import msgspec

from domain import clocks as timing
from domain import seals, seating
from domain.chain import GENESIS_HASH, StoredEvent, link_hash
from domain.chain import chain as chain_events
from domain.errors import RecordError
from domain.events import (
    META_EVENTS,
    SEATING_EVENTS,
    AbandonAgreed,
    CardsShuffled,
    DecisionTaken,
    DecisionsVoided,
    DiceForced,
    DiceRolled,
    DisputeRaised,
    DisputeRuled,
    EventData,
    FreezeLapsed,
    FreezeLifted,
    FreezeReleaseAgreed,
    GameCreated,
    GameEnded,
    Outcome,
    SeedRevealed,
    BotPlayed,
    TimeUsed,
    from_data,
)
from domain.rng import ForcedFaceMismatch, ForcedRng, Rng, SeededRng
from domain.rules.base import GAME_OVER, NOT_YOUR_TURN, RuleSystem, RuleViolation
from domain.rules.registry import RULE_SYSTEMS, rules_at
from domain.seating import Seating

IDEMPOTENCY_WINDOW = 256  # the most recent keys a game remembers (README: idempotency)


class Recorded(StoredEvent, frozen=True):
    """One stored game event: its place in the game's stream, its data and its hash link."""

    stream: ClassVar[str] = "game"

    def typed(self) -> EventData:
        return from_data(self.type, self.data)


def event_hash(game_id: UUID, version: int, type_: str, data: dict[str, Any], prev_hash: str, recorded_at: str) -> str:
    """The hash link of a game event (see :mod:`domain.chain`)."""
    return link_hash(Recorded.stream, game_id, version, type_, data, prev_hash, recorded_at)


def chain(game_id: UUID, version: int, prev_hash: str, events: Iterable[EventData], now: datetime,
          readers: Iterable[frozenset[str] | tuple[str, ...] | None] | None = None,
          server_seed: bytes | None = None) -> list[Recorded]:
    """Wrap event data as stored game events, numbering and hash-linking them; events only
    some seats may read (``readers``, one per event) are sealed with the game's salts."""
    salt = None if server_seed is None else (lambda v: seals.salt(server_seed, game_id, v))
    return chain_events(Recorded, game_id, version, prev_hash, events, now, readers, salt)


class KeyUse(msgspec.Struct, frozen=True):
    """A remembered Idempotency-Key: who used it, for what, and the version of the
    DecisionTaken it made (the command's other events follow it)."""

    key: str
    seat: str
    fingerprint: str
    version: int


class OpenDispute(msgspec.Struct, frozen=True):
    """A dispute not yet ruled: its id is the version of its DisputeRaised, ``raised_at``
    that event's recorded time; ``release`` the seats that agreed to lift its freeze."""

    id: int
    seat: str
    about_version: int
    freeze: bool
    raised_at: datetime | None = None
    release: tuple[str, ...] = ()


class PlayLog:
    """The events a game folded into its rule state, newest first: each version of a game
    adds one node to the log of the version before and shares the rest, so a game holds its
    whole play at the cost of one node per event, and a void refolds from it with no store
    at hand (issue 18: the fold stands on its own)."""

    __slots__ = ("version", "data", "older")

    def __init__(self, version: int, data: EventData, older: PlayLog | None):
        self.version, self.data, self.older = version, data, older

    def oldest_first(self) -> list[tuple[int, EventData]]:
        found = []
        node: PlayLog | None = self
        while node is not None:
            found.append((node.version, node.data))
            node = node.older
        found.reverse()
        return found

    def __eq__(self, other: object) -> bool:
        a, b = self, other
        while a is not b:
            if not isinstance(a, PlayLog) or not isinstance(b, PlayLog):
                return False
            if a.version != b.version or a.data != b.data:
                return False
            a, b = a.older, b.older
        return True

    __hash__ = None  # type: ignore[assignment]


class Game(msgspec.Struct, frozen=True):
    """A game as its events leave it. Small and immutable: safe to cache without copies."""

    id: UUID
    version: int
    created_on: datetime
    modified_on: datetime
    created: GameCreated
    state: Any
    next_draw: int = 0
    head: str = GENESIS_HASH
    outcome: Outcome | None = None
    seed: str | None = None
    keys: tuple[KeyUse, ...] = ()
    disputes: tuple[OpenDispute, ...] = ()
    voided: tuple[tuple[int, int], ...] = ()  # [from, to) version ranges of voided play
    abandon: tuple[str, ...] = ()  # seats that agreed to abandon
    forced_used: int = 0  # forced faces of a study fork already rolled
    played: bool = False  # a seat's decision has been recorded
    log: PlayLog | None = None  # every event folded into the rule state, newest first (refolds a void)
    seating: Seating | None = None  # seats taken at a distance (domain/seating.py)
    bot_turn: str | None = None  # the bot seat whose BotPlayed awaits its DecisionTaken
    clocks: timing.Clocks | None = None  # a clocked game's clocks (issue 29)

    @property
    def rules(self) -> RuleSystem:
        return rules_at(self.created.rules, self.created.rules_version)

    @property
    def ended(self) -> bool:
        return self.outcome is not None

    @property
    def revealed(self) -> bool:
        """Whether the seed is public (revealed, or a study game's): then every seal can be
        proven by anyone, and nothing in the record is kept from any reader."""
        return self.seed is not None or self.created.study

    @property
    def frozen(self) -> bool:
        """Play is stopped while a dispute raised with ``freeze`` is open."""
        return any(d.freeze for d in self.disputes)

    @property
    def awaited(self) -> tuple[str, ...]:
        """The seats still to be taken or to give their seed: until none is, no decision."""
        return () if self.seating is None else self.seating.awaited(tuple(self.created.seats))

    @property
    def client_seed(self) -> str:
        """The client seed the game's draws are keyed by (blind seeds: the seats' own, combined)."""
        return seating.draw_client_seed(self.created, self.seating)

    @property
    def flagged(self) -> bool:
        """A flag has fallen and the game waits for an umpire's result."""
        return self.clocks is not None and self.clocks.flagged is not None and not self.ended

    def to_act(self) -> list[str]:
        """The seats that may send a command now: nobody once ended, while frozen, while a seat is
        awaited, or while a fallen flag waits for an umpire."""
        return [] if self.ended or self.frozen or self.awaited or self.flagged else self.rules.to_act(self.state)

    def key_use(self, key: str, seat: str) -> KeyUse | None:
        """The last decision ``seat`` sent with Idempotency-Key ``key``: keys are each seat's own
        (keys are public, and two seats acting in one out-of-turn window may number theirs alike)."""
        return next((k for k in reversed(self.keys) if k.key == key and k.seat == seat), None)


def rng_game_id(game: Game) -> UUID:
    """The game id a game's draws are keyed by: the parent's for a ``same``-dice fork."""
    fork = game.created.fork
    return UUID(fork.game) if fork is not None and fork.dice == "same" else game.id


def game_rng(game: Game, server_seed: bytes) -> Rng:
    """The random source of a game's next decision."""
    seeded = SeededRng(server_seed, rng_game_id(game), game.client_seed, game.next_draw)
    fork = game.created.fork
    if fork is not None and fork.dice == "forced" and game.forced_used < len(fork.forced):
        return ForcedRng(fork.forced[game.forced_used:], seeded)
    return seeded


class IncompatibleRecord(RecordError):
    """A record made under rules or data this server does not have."""

    code = "incompatible_record"


def rule_system_for(created: GameCreated) -> RuleSystem:
    """The registered rule system a game was created under, at its version, checking data."""
    try:
        rules = RULE_SYSTEMS[created.rules]
    except KeyError:
        raise IncompatibleRecord(f"unknown rule system {created.rules!r}") from None
    if created.rules_version != rules.version:
        if created.rules_version not in rules.older_versions:
            raise IncompatibleRecord(
                f"recorded under {created.rules} {created.rules_version}; this server has {rules.version}"
            )
        rules = rules.at_version(created.rules_version)
    if created.data_hash != rules.data_hash(created.scenario, created.options):
        raise IncompatibleRecord(f"the {created.scenario} data changed since this game was recorded")
    return rules


def apply(game: Game | None, event: Recorded) -> Game:
    """Fold one stored event into the game."""
    return advance(game, event, event.typed())


def apply_void(game: Game, event: Recorded, state: Any) -> Game:
    """Fold a DecisionsVoided whose resulting rule state the caller already holds (a
    verifier's snapshot of the state before the voided play), without refolding."""
    return advance(game, event, event.typed(), state)


def advance(game: Game | None, event: Recorded, data: EventData, voided_state: Any = None,
            evolved: Any = None) -> Game:
    """Fold one stored event, already decoded as ``data``, into the game (``evolved``: the
    rule state after it, when the caller has already folded it)."""
    if game is None:
        if not isinstance(data, GameCreated):
            raise IncompatibleRecord(f"a game starts with GameCreated, not {event.type}")
        rules = rule_system_for(data)
        state = rules.setup(data.scenario, tuple(data.seats), data.options)
        game = Game(event.originator_id, event.version, event.timestamp, event.timestamp, data, state, head=event.hash)
        if data.clock is None:
            return game
        clocks = timing.start(data.clock, tuple(data.seats))
        return msgspec.structs.replace(game, clocks=timing.follow(clocks, data, event.version, event.timestamp,
                                                                  game.to_act()))
    changes: dict[str, Any] = {"version": event.version, "modified_on": event.timestamp, "head": event.hash}
    if event.type not in META_EVENTS:
        changes["state"] = game.rules.evolve(game.state, data) if evolved is None else evolved
        changes["log"] = PlayLog(event.version, data, game.log)
    if not game.played and event.type == "DecisionTaken":
        changes["played"] = True
    if event.type in SEATING_EVENTS:
        changes["seating"] = seating.fold(game.seating, data)
    if game.bot_turn is not None and event.type == "DecisionTaken":
        changes["bot_turn"] = None
    match data:
        case DiceRolled(draws=draws) | CardsShuffled(draws=draws) if draws:
            changes["next_draw"] = max(game.next_draw, draws[-1] + 1)
            if isinstance(data, DiceForced):
                changes["forced_used"] = game.forced_used + len(draws)
        case DecisionTaken(idempotency_key=key, seat=seat, command=command) if key:
            use = KeyUse(key, seat, fingerprint(seat, command), event.version)
            changes["keys"] = (game.keys + (use,))[-IDEMPOTENCY_WINDOW:]
        case GameEnded(outcome=outcome):
            changes["outcome"] = outcome
        case SeedRevealed(seed=seed):
            changes["seed"] = seed
        case DisputeRaised(seat=seat, about_version=about, freeze=freeze):
            changes["disputes"] = game.disputes + (OpenDispute(event.version, seat, about, freeze, event.timestamp),)
        case DisputeRuled(dispute=dispute):
            changes["disputes"] = tuple(d for d in game.disputes if d.id != dispute)
        case DecisionsVoided(from_version=start):
            voided = game.voided + ((start, event.version),)
            changes["voided"] = voided
            changes["state"] = (refold_state(game.created, game.log.oldest_first() if game.log else [], voided)
                                if voided_state is None else voided_state)
        case FreezeReleaseAgreed(dispute=dispute, seat=seat):
            changes["disputes"] = tuple(
                msgspec.structs.replace(d, release=tuple(sorted(set(d.release) | {seat}))) if d.id == dispute else d
                for d in game.disputes)
        case FreezeLifted(dispute=dispute) | FreezeLapsed(dispute=dispute):
            changes["disputes"] = tuple(msgspec.structs.replace(d, freeze=False) if d.id == dispute else d
                                        for d in game.disputes)
        case BotPlayed(seat=seat):
            changes["bot_turn"] = seat
        case AbandonAgreed(seat=seat):
            changes["abandon"] = tuple(sorted(set(game.abandon) | {seat}))
    after = msgspec.structs.replace(game, **changes)
    if after.clocks is None:
        return after
    return msgspec.structs.replace(after, clocks=timing.follow(after.clocks, data, event.version, event.timestamp,
                                                               after.to_act()))


def refold_state(created: GameCreated, played: list[tuple[int, EventData]],
                 voided: tuple[tuple[int, int], ...]) -> Any:
    """The rule state from the start over ``played`` (version, event) pairs, leaving out
    every voided range of play."""
    rules = rules_at(created.rules, created.rules_version)
    state = rules.setup(created.scenario, tuple(created.seats), created.options)
    cuts = _merged(voided)
    firsts = [a for a, _ in cuts]
    for version, data in played:
        k = bisect.bisect_right(firsts, version) - 1
        if k >= 0 and version < cuts[k][1]:  # inside a voided range
            continue
        state = rules.evolve(state, data)
    return state


def _merged(ranges: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """Voided [from, to) ranges as sorted, disjoint ranges: one lookup per event, not one per range."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def project_game(game: Game | None, events: Iterable[Recorded]) -> Game | None:
    """The eventsourcing projector: fold stored events from ``game`` (or from nothing)."""
    for event in events:
        game = apply(game, event)
    return game


def fingerprint(seat: str, command: dict[str, Any]) -> str:
    """What an Idempotency-Key is bound to: the seat and the exact command, as recorded."""
    return hashlib.sha256(msgspec.json.encode([seat, command], order="sorted")).hexdigest()


def retry_fingerprint(game: Game, seat: str, raw_command: Any) -> str | None:
    """The fingerprint a retried command would be recorded under: the command as the rule
    system reads it, its defaults filled in as in the DecisionTaken, so a retry that leaves
    out an optional field is the same command. None when the rule system cannot read it."""
    try:
        return fingerprint(seat, game.rules.recorded_command(game.rules.parse_command(raw_command)))
    except RuleViolation:
        return None


def create_game(game_id: UUID, created: GameCreated, now: datetime) -> list[Recorded]:
    """Validate a new game and return its first event (version 1)."""
    rules = rules_at(created.rules, created.rules_version)
    rules.setup(created.scenario, tuple(created.seats), created.options)  # raises RuleViolation
    return chain(game_id, 1, GENESIS_HASH, [created], now)


class Decision(msgspec.Struct, frozen=True):
    """What a command caused: the stored events and the game they leave."""

    events: list[Recorded]
    game: Game


def charge(game: Game, seat: str, now: datetime) -> TimeUsed:
    """The TimeUsed of ``seat``'s decision at ``now`` in a clocked game; refused once its flag
    has fallen (the service records the fall before it decides)."""
    used = timing.time_used(game.created.clock, game.clocks, seat, now)
    if used is None:
        raise RuleViolation("clock.flag_fallen", f"{seat}'s time ran out before this decision")
    return used


def take_decision(game: Game, seat: str, raw_command: Any, rng: Rng, now: datetime, server_seed: bytes | None,
                  idempotency_key: str | None = None) -> list[Recorded]:
    """Decide a seat's command: the DecisionTaken, the events the rules cause, and, if the
    game ends, GameEnded and SeedRevealed. Raises RuleViolation; changes nothing."""
    return resolve_decision(game, seat, raw_command, rng, now, server_seed, idempotency_key).events


def resolve_decision(game: Game, seat: str, raw_command: Any, rng: Rng, now: datetime, server_seed: bytes | None,
                     idempotency_key: str | None = None) -> Decision:
    """:func:`take_decision`, also returning the game its events leave (folded once)."""
    if game.ended:
        raise RuleViolation(GAME_OVER, "the game has ended; no more commands are taken")
    if game.frozen:
        raise RuleViolation("game_frozen", "play is frozen while a dispute is open; an umpire must rule first")
    rules = game.rules
    if seat not in game.created.seats:
        raise RuleViolation("unknown_seat", f"this game has no seat {seat!r}")
    if game.awaited:
        raise RuleViolation("seats_awaited", f"no decision until every seat is taken and every seed given; awaited: "
                                             f"{', '.join(game.awaited)}", seating.RULE)
    if game.seating is not None and seat in game.seating.bots and game.bot_turn != seat:
        raise RuleViolation("bot_seat", f"seat {seat} is played by the server's bot", seating.RULE)
    to_act = rules.to_act(game.state)
    if seat not in to_act:
        raise RuleViolation(NOT_YOUR_TURN, f"{seat} may not act now; to act: {', '.join(to_act) or 'nobody'}")
    command = rules.parse_command(raw_command)
    accepted = rules.recorded_command(command)
    typed: list[EventData] = [DecisionTaken(seat=seat, command=accepted, idempotency_key=idempotency_key)]
    try:
        typed += rules.decide(game.state, seat, command, rng)
    except ForcedFaceMismatch as error:
        raise RuleViolation("forced_face_mismatch", str(error)) from None
    state = game.state
    readers: list[frozenset[str] | None] = []
    folded: list[Any] = []  # the rule state after each event: advance below needs no second fold
    for event in typed:  # who may read each event, from the state before it is folded
        readers.append(rules.command_readers(state, seat, command) if event is typed[0]
                       else rules.readers(state, event))
        state = rules.evolve(state, event)
        folded.append(state)
    if any(event.type_name in META_EVENTS for event in typed):
        folded = []  # advance leaves a meta event out of the rule state: it folds them itself
    if game.clocks is not None:  # the time the decision used, beside it (advance skips its fold)
        typed.insert(1, charge(game, seat, now))
        readers.insert(1, None)
        if folded:
            folded.insert(1, folded[0])
    outcome = rules.outcome(state)
    if outcome is not None:  # the end and the seed are public
        typed.append(GameEnded(outcome=outcome))
        readers.append(None)
        if server_seed is not None:
            typed.append(SeedRevealed(seed=server_seed.hex()))
            readers.append(None)
    recorded = chain(game.id, game.version + 1, game.head, typed, now, readers, server_seed)
    after = game
    for i, (event, data) in enumerate(zip(recorded, typed)):
        after = advance(after, event, data, evolved=folded[i] if i < len(folded) else None)
    return Decision(recorded, after)
