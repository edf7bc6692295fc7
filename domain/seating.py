"""Seats taken at a distance (issue 29): seats left open or offered to named registered
players, seeds chosen blind, and seats the server plays with a bot.

A game whose seats are not all held by its creator records, right after ``GameCreated``, a
``SeatsOffered``; each seat is then taken (``SeatTaken``), declined (``SeatDeclined``: the
seat is open from then on) or, when seeds are blind, given its seed by the seat held since
creation (``SeedGiven``). No decision is taken until every seat is taken and every seed given
(:attr:`Seating.ready`).

Seeds chosen blind: the server's seed commitment is in ``GameCreated``, before any seat's seed;
each human seat gives its own seed after it, when it joins. The client seed every draw is keyed
by is then :func:`blind_client_seed` of those seeds, so no party (the server included) chose the
dice: the server committed before it saw a seat's seed, and each seat chose its own without the
server's. A bot seat gives none (the server plays it).

Pure: the checks a server makes when it records these events are the checks the verifier
replays (:data:`REPLAYERS`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

import msgspec

from domain.events import (
    BotPlayed,
    BotSeat,
    EventData,
    GameCreated,
    SeatDeclined,
    SeatsOffered,
    SeatTaken,
    SeedGiven,
)
from domain.rules.base import RuleViolation

SEAT_SEED = re.compile(r"^[A-Za-z0-9._~-]{1,128}$")
OPEN_PLAYER = "(open seat)"  # GameCreated's player of a seat left open (SeatTaken names who took it)
BOT_POLICIES = ("random", "heuristic")  # analysis/rollout.py's POLICIES
MAX_BOT_ROLLOUTS = 200
RULE = "Herald: seats taken at a distance (docs/DECISIONS.md, issue 29)"


class Seating(msgspec.Struct, frozen=True):
    """Who is still awaited, as the seating events leave it."""

    open: tuple[str, ...] = ()
    invited: tuple[str, ...] = ()
    bots: Mapping[str, BotSeat] = {}
    blind: bool = False
    players: Mapping[str, str] = {}  # seat -> the player who took it (an open seat's)
    seeds: Mapping[str, str] = {}  # seat -> the seed it gave (blind seeds)

    def humans(self, seats: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(s for s in seats if s not in self.bots)

    def unseeded(self, seats: tuple[str, ...]) -> tuple[str, ...]:
        """The human seats whose seed is still awaited (none unless seeds are blind)."""
        return tuple(s for s in self.humans(seats) if s not in self.seeds) if self.blind else ()

    def awaited(self, seats: tuple[str, ...]) -> tuple[str, ...]:
        """The seats still to be taken or to give their seed, in seat order."""
        waiting = set(self.open) | set(self.invited) | set(self.unseeded(seats))
        return tuple(s for s in seats if s in waiting)


def blind_client_seed(seeds: Mapping[str, str]) -> str:
    """The client seed of a game with blind seeds: the SHA-256, in hex, of the canonical JSON
    (sorted keys, no spaces) of ``{seat: seed}`` over every human seat
    (tests/domain/blind_seeds_vectors.json)."""
    return hashlib.sha256(msgspec.json.encode(dict(seeds), order="sorted")).hexdigest()


def draw_client_seed(created: GameCreated, seating: Seating | None) -> str:
    """The client seed a game's draws are keyed by."""
    if seating is not None and seating.blind:
        return blind_client_seed(seating.seeds)
    return created.client_seed


def check_seed(seed: str | None) -> str:
    if seed is None or not SEAT_SEED.fullmatch(seed):
        raise RuleViolation("bad_seat_seed", "a seat's seed is 1 to 128 letters, digits, '.', '_', '~' or '-'"
                            + ("" if seed is not None else " (seeds are blind in this game: send \"seed\")"), RULE)
    return seed


def offered(created: GameCreated, open_: list[str], invited: list[str], bots: Mapping[str, BotSeat],
            blind: bool) -> SeatsOffered:
    """The ``SeatsOffered`` of a new game, once its checks pass (raises RuleViolation)."""
    seats = tuple(created.seats)
    named = [*open_, *invited, *bots]
    if len(set(named)) != len(named):
        raise RuleViolation("bad_seating", "a seat is open, invited or a bot's, not two of these", RULE)
    unknown = [s for s in named if s not in seats]
    if unknown:
        raise RuleViolation("unknown_seat", f"this game has no seat(s) {', '.join(unknown)}", RULE)
    for seat in open_:
        if created.seats[seat].player != OPEN_PLAYER:
            raise RuleViolation("bad_seating", f"an open seat's player is {OPEN_PLAYER!r} until it is taken", RULE)
    for seat, bot in bots.items():
        if bot.policy not in BOT_POLICIES:
            raise RuleViolation("unknown_policy", f"seat {seat}: a bot plays policy {' or '.join(BOT_POLICIES)}, "
                                                  f"not {bot.policy!r}", RULE)
        if not 0 <= bot.rollouts <= MAX_BOT_ROLLOUTS:
            raise RuleViolation("bad_rollouts", f"seat {seat}: a bot plays 0 to {MAX_BOT_ROLLOUTS} rollouts "
                                                f"per candidate command", RULE)
    if len(bots) == len(seats):
        raise RuleViolation("bad_seating", "at least one seat is a person's", RULE)
    if blind and created.client_seed:
        raise RuleViolation("bad_seating", "with blind seeds each seat gives its own seed after the commitment: "
                                           "leave client_seed out", RULE)
    return SeatsOffered(open=sorted(open_), invited=sorted(invited), bots=dict(sorted(bots.items())),
                        blind_seeds=blind)


def seating_of(offer: SeatsOffered) -> Seating:
    return Seating(tuple(offer.open), tuple(offer.invited), dict(offer.bots), offer.blind_seeds)


def take(created: GameCreated, seating: Seating | None, seat: str, player: str, seed: str | None) -> SeatTaken:
    """A registered player takes an open seat, or the invited one their name is in."""
    if seating is None or (seat not in seating.open and seat not in seating.invited):
        raise RuleViolation("seat_taken", f"seat {seat!r} is not open to be taken", RULE)
    if seat in seating.invited and created.seats[seat].player != player:
        raise RuleViolation("not_invited", f"seat {seat} is offered to {created.seats[seat].player!r}, "
                                           f"not to {player!r}", RULE)
    if not player.strip() or player == OPEN_PLAYER:
        raise RuleViolation("bad_player", "a registered player's name takes a seat", RULE)
    return SeatTaken(seat=seat, player=player, seed=check_seed(seed) if seating.blind else None)


def decline(created: GameCreated, seating: Seating | None, seat: str, player: str) -> SeatDeclined:
    if seating is None or seat not in seating.invited:
        raise RuleViolation("not_invited", f"seat {seat!r} is not offered to anyone", RULE)
    if created.seats[seat].player != player:
        raise RuleViolation("not_invited", f"seat {seat} is offered to {created.seats[seat].player!r}", RULE)
    return SeatDeclined(seat=seat, player=player)


def give_seed(created: GameCreated, seating: Seating | None, seat: str, seed: str) -> SeedGiven:
    """A seat held since creation gives its seed (blind seeds)."""
    if seating is None or not seating.blind:
        raise RuleViolation("seeds_not_blind", "this game's client seed was given at its creation", RULE)
    if seat not in created.seats or seat in seating.bots:
        raise RuleViolation("unknown_seat", f"no seat {seat!r} of a person in this game", RULE)
    if seat in seating.open or seat in seating.invited:
        raise RuleViolation("seat_not_taken", f"seat {seat} gives its seed when it is taken", RULE)
    if seat in seating.seeds:
        raise RuleViolation("seed_given", f"seat {seat} has given its seed already", RULE)
    return SeedGiven(seat=seat, seed=check_seed(seed))


def bot_turn(seating: Seating | None, to_act: list[str], seat: str) -> None:
    """Whether the server's bot may decide for ``seat`` now."""
    if seating is None or seat not in seating.bots:
        raise RuleViolation("not_a_bot", f"seat {seat!r} is not played by a bot", RULE)
    if seat not in to_act:
        raise RuleViolation("not_your_turn", f"the bot of {seat} may not act now", RULE)


def fold(seating: Seating | None, data: EventData) -> Seating | None:
    """The seating after one of its events."""
    match data:
        case SeatsOffered():
            return seating_of(data)
        case SeatTaken(seat=seat, player=player, seed=seed) if seating is not None:
            return msgspec.structs.replace(
                seating, open=tuple(s for s in seating.open if s != seat),
                invited=tuple(s for s in seating.invited if s != seat),
                players={**seating.players, seat: player},
                seeds={**seating.seeds, seat: seed} if seed is not None else seating.seeds)
        case SeatDeclined(seat=seat) if seating is not None:
            return msgspec.structs.replace(seating, invited=tuple(s for s in seating.invited if s != seat),
                                           open=tuple(sorted((*seating.open, seat))))
        case SeedGiven(seat=seat, seed=seed) if seating is not None:
            return msgspec.structs.replace(seating, seeds={**seating.seeds, seat: seed})
    return seating


def _offer_again(game: Any, d: dict[str, Any]) -> list[EventData]:
    if game.version != 1:
        raise RuleViolation("bad_seating", "seats are offered right after GameCreated", RULE)
    return [offered(game.created, d.get("open", []), d.get("invited", []),
                    {s: msgspec.convert(b, BotSeat) for s, b in d.get("bots", {}).items()},
                    d.get("blind_seeds", False))]


def _bot_again(game: Any, d: dict[str, Any]) -> list[EventData]:
    bot_turn(game.seating, game.to_act(), d["seat"])
    bot = game.seating.bots[d["seat"]]
    if d["policy"] != bot.policy or not 0 <= d["rollouts"] <= bot.rollouts:
        raise RuleViolation("bad_bot_record", f"the bot of {d['seat']} plays {bot.policy} with at most "
                                              f"{bot.rollouts} rollouts", RULE)
    return [BotPlayed(seat=d["seat"], policy=d["policy"], rollouts=d["rollouts"], candidates=d["candidates"])]


REPLAYERS = {
    "SeatsOffered": lambda g, d, seed, at: _offer_again(g, d),
    "SeatTaken": lambda g, d, seed, at: [take(g.created, g.seating, d["seat"], d["player"], d.get("seed"))],
    "SeatDeclined": lambda g, d, seed, at: [decline(g.created, g.seating, d["seat"], d["player"])],
    "SeedGiven": lambda g, d, seed, at: [give_seed(g.created, g.seating, d["seat"], d["seed"])],
    "BotPlayed": lambda g, d, seed, at: _bot_again(g, d),
}
