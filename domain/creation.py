"""How a game comes to be: created as asked, or forked from another game's record for study.

The checks a creation and a fork must pass live here, beside the rules, so whoever holds a
record (the verifier) can check its ``GameCreated`` the same way the server did. Nothing
here reads a clock or draws a seed: the service passes them in."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.clocks import ClockRefused, check_time_control
from domain.errors import DomainError, NotNow, SetupRefused
from domain.events import BLOCK_STARTS, ForkRef, GameCreated, SeatInfo, TimeControl, TournamentRef
from domain.game import Recorded, chain, create_game
from domain.randomness import commitment
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS

SEAT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
MAX_PLAYER_NAME = 100
MAX_CLIENT_SEED = 500
SEED_BYTES = (16, 64)  # a creator-supplied seed (a study game), in bytes
SEED_HEX = re.compile(f"^(?:[0-9a-fA-F]{{2}}){{{SEED_BYTES[0]},{SEED_BYTES[1]}}}$")  # the same, as hex digits
FORK_DICE = ("same", "fresh", "forced")


def parse_seed(text: str) -> bytes:
    """A creator-supplied seed: 16 to 64 bytes, written in hex (two digits a byte, no spaces:
    :data:`SEED_HEX`, the pattern the OpenAPI document gives)."""
    if not SEED_HEX.fullmatch(text):
        if not re.fullmatch("[0-9a-fA-F]*", text) or len(text) % 2:
            raise SetupRefused("bad_seed", "seed must be hex, two digits a byte")
        raise SetupRefused("bad_seed", f"seed must be {SEED_BYTES[0]} to {SEED_BYTES[1]} bytes of hex")
    return bytes.fromhex(text)


def game_created(rules_id: str, scenario_id: str | None, players: Mapping[str, str], seed: str | bytes, *,
                 client_seed: str = "", options: Mapping[str, Any] | None = None, study: bool = False,
                 tournament: TournamentRef | None = None, fork: ForkRef | None = None,
                 clock: TimeControl | None = None, rules_version: str | None = None) -> tuple[GameCreated, bytes]:
    """The ``GameCreated`` of a game with these seats (seat -> player) and its seed, once
    every check of :func:`check_created` passes; raises :class:`SetupRefused` naming the
    first that fails. ``seed``: the creator's, in hex (a study game), or fresh bytes the
    caller drew. ``rules_version``: a fork's, its parent's (the copied play was recorded, and
    is folded and played on, under it); by default the server's."""
    rules = RULE_SYSTEMS.get(rules_id)
    if rules is None:
        raise SetupRefused("unknown_rules", f"unknown rule system {rules_id!r}; known: {', '.join(sorted(RULE_SYSTEMS))}")
    if rules_version not in (None, rules.version):
        if rules_version not in rules.older_versions:
            raise SetupRefused("incompatible_record", f"{rules.id} {rules_version} is not played by this server "
                                                      f"({rules.version}, and {', '.join(rules.older_versions) or 'no older'})")
        rules = rules.at_version(rules_version)
    options = dict(options or {})
    if scenario_id is None and len(rules.scenarios) > 1:
        raise SetupRefused("scenario_required", f"{rules.id} has {len(rules.scenarios)} scenarios: name one as "
                                                f"\"scenario\" ({', '.join(rules.scenarios)})")
    scenario = _scenario(rules, scenario_id or next(iter(rules.scenarios)))
    _check_seats(rules, scenario, players)
    if len(client_seed) > MAX_CLIENT_SEED:
        raise SetupRefused("bad_client_seed", f"client_seed is at most {MAX_CLIENT_SEED} characters")
    _check_clock(clock)
    if isinstance(seed, str):
        seed = parse_seed(seed)
    try:
        data_hash = rules.data_hash(scenario.id, options)
    except RuleViolation as error:
        raise SetupRefused(error.code, error.message, error.rule, error.problems) from None
    created = GameCreated(
        rules=rules.id,
        rules_version=rules.version,
        scenario=scenario.id,
        data_hash=data_hash,
        seats={seat: SeatInfo(player=player.strip()) for seat, player in players.items()},
        seed_commitment=commitment(seed),
        client_seed=client_seed,
        options=options,
        study=study,
        tournament=tournament,
        fork=fork,
        clock=clock,
    )
    return created, seed


def check_created(created: GameCreated) -> None:
    """Whether a recorded ``GameCreated`` passes the checks its creation had to pass (the
    rules and scenario known, the seats named and counted as the scenario allows); raises
    :class:`SetupRefused`. The data hash and version are the verifier's own checks."""
    rules = RULE_SYSTEMS.get(created.rules)
    if rules is None:
        raise SetupRefused("unknown_rules", f"unknown rule system {created.rules!r}")
    _check_seats(rules, _scenario(rules, created.scenario), {s: i.player for s, i in created.seats.items()})
    if len(created.client_seed) > MAX_CLIENT_SEED:
        raise SetupRefused("bad_client_seed", f"client_seed is at most {MAX_CLIENT_SEED} characters")
    _check_clock(created.clock)


def _check_clock(clock: TimeControl | None) -> None:
    if clock is None:
        return
    try:
        check_time_control(clock)
    except ClockRefused as error:
        raise SetupRefused(error.code, error.message) from None


def first_events(game_id: UUID, created: GameCreated, now: datetime) -> list[Recorded]:
    """The new game's first event, once its rule system sets it up (raises SetupRefused)."""
    try:
        return create_game(game_id, created, now)
    except RuleViolation as error:
        raise SetupRefused(error.code, error.message, error.rule, error.problems) from None


def _scenario(rules: Any, scenario_id: str) -> Any:
    try:
        return rules.scenario(scenario_id)
    except RuleViolation as error:
        raise SetupRefused(error.code, error.message, error.rule) from None


def _check_seats(rules: Any, scenario: Any, players: Mapping[str, str]) -> None:
    for seat, player in players.items():
        if not SEAT_ID.match(seat):
            raise SetupRefused("bad_seat", f"seat id {seat!r}: lowercase letters, digits, '-' or '_', up to 32")
        if not player.strip() or len(player) > MAX_PLAYER_NAME:
            raise SetupRefused("bad_player", f"seat {seat}: a player name of 1 to {MAX_PLAYER_NAME} characters")
    if not scenario.min_players <= len(players) <= scenario.max_players:
        raise SetupRefused("wrong_seat_count", f"{rules.id} {scenario.id} takes {scenario.min_players} to "
                                               f"{scenario.max_players} seats, not {len(players)}")
    if not rules.flexible_seats:
        unknown = [s for s in players if s not in scenario.seats]
        if unknown:
            raise SetupRefused("unknown_seat", f"{rules.id} {scenario.id} seats are {', '.join(scenario.seats)}; "
                                               f"not {', '.join(unknown)}")


def copy_into(game_id: UUID, first: list[Recorded], copied: Sequence[Recorded], seed: bytes) -> list[Recorded]:
    """A fork's first events: its ``GameCreated`` then the parent's copied events, re-chained
    under the new id with their original times; sealed events stay sealed for the same seats,
    under the fork's salts."""
    events = list(first)
    for old in copied:
        events += chain(game_id, old.version, events[-1].hash, [old.typed()], old.timestamp, [old.readers], seed)
    return events


# -- forks ------------------------------------------------------------------------------------------
class ForkRefused(DomainError):
    """A fork the parent's record does not allow as asked."""


class ForkNotNow(ForkRefused, NotNow):
    """A fork the parent's record does not allow yet (its seed is not public)."""


def check_fork(last_version: int, version: int, dice: str, forced: Sequence[int | str]) -> None:
    """A fork from ``version`` of a game at ``last_version``, with this dice policy."""
    if not 1 <= version <= last_version:
        raise ForkRefused("no_such_version", f"fork from a version 1 to {last_version}, not {version}")
    if dice not in FORK_DICE:
        raise ForkRefused("bad_dice_policy", "dice is 'same', 'fresh' or 'forced'")
    if forced and dice != "forced":
        raise ForkRefused("bad_dice_policy", "forced faces go with dice 'forced'")


def rest_of_block(after: Sequence[Recorded]) -> list[Recorded]:
    """The events of ``after`` caused by the command before them (a decision's dice, a
    ruling's effects): a fork takes a command's events whole, or its record could not verify
    (the copied command would not produce what was copied)."""
    rest = []
    for event in after:
        if event.type in BLOCK_STARTS:
            break
        rest.append(event)
    return rest


def check_fork_play(copied: Sequence[Recorded], dice: str, public: bool) -> bool:
    """Whether the copied play may be forked with this dice policy; returns whether it holds
    sealed events while the parent's seed is secret (then only an umpire forks it, see
    :func:`check_sealed_fork`)."""
    if dice == "same" and not public:
        raise ForkNotNow("seed_not_revealed", "'same' dice need the parent's seed: fork once the game has ended "
                                              "(or fork a study game)")
    if any(e.type in ("GameEnded", "SeedRevealed") for e in copied):  # a fork gets its own commitment
        raise ForkRefused("fork_after_end", "fork from a version before the game ended and its seed was revealed")
    return not public and any(e.readers for e in copied)


def check_sealed_fork(dice: str) -> None:
    """An umpire's fork of play holding sealed events, before the seed is revealed."""
    if dice == "forced":
        raise ForkNotNow("hidden_information", "forced dice make a study game, whose record is public: fork play "
                                               "holding sealed events with fresh dice before the seed is revealed")


def fork_seats(parent: Mapping[str, SeatInfo], asked: Mapping[str, Any]) -> None:
    """A fork keeps its parent's seats: ``asked`` may only rename their players."""
    unknown = sorted(set(asked) - set(parent))
    if unknown:
        raise ForkRefused("unknown_seat", f"no seat(s) {', '.join(unknown)} in this game")
