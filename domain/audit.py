"""Audit and study commands that are not moves of play: annotations, disputes and
umpires' rulings (which may void play from a version on, or reveal the seed), the
seats' agreement to abandon, and a freeze lifted without an umpire (by agreement, or
lapsed after a time the record states). Each validates like a rule and returns events; the verifier
runs them again over a record exactly as it runs ``decide`` over decisions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from domain import clocks as timing
from domain.events import (
    AbandonAgreed,
    Adjudicated,
    Annotated,
    DecisionsVoided,
    DisputeRaised,
    DisputeRuled,
    EventData,
    FreezeLapsed,
    FreezeLifted,
    FreezeReleaseAgreed,
    GameEnded,
    Inspected,
    Outcome,
    SeedRevealed,
    Target,
    VoidedCardsReshuffled,
)
from domain.game import Game, OpenDispute
from domain.rng import Rng
from domain.seating import REPLAYERS as SEATING_REPLAYERS
from domain.rules.base import GAME_OVER, RuleViolation

MAX_TEXT = 4_000
UMPIRE = "umpire"


def _text(text: str, what: str) -> None:
    if not text.strip() or len(text) > MAX_TEXT:
        raise RuleViolation(f"audit.bad_{what}", f"a {what} of 1 to {MAX_TEXT} characters")


def _version(game: Game, version: int, what: str) -> None:
    if not 1 <= version <= game.version:
        raise RuleViolation(f"audit.bad_{what}", f"{what} must be a version from 1 to {game.version}, not {version}")


def annotate(game: Game, by: str, at_version: int, text: str, target: Target | None = None,
             arrow: list[str] | None = None) -> list[EventData]:
    """A study note (or an arrow) at a version; it changes nothing in play."""
    _version(game, at_version, "at_version")
    _text(text, "text")
    if arrow is not None and (len(arrow) != 2 or not all(arrow)):
        raise RuleViolation("audit.bad_arrow", "an arrow goes from one named place to another: [from, to]")
    return [Annotated(by=by, at_version=at_version, text=text, target=target, arrow=arrow)]


def raise_dispute(game: Game, seat: str, about_version: int, reason: str, freeze: bool = False) -> list[EventData]:
    """A seat disputes the play at a version; with ``freeze`` play stops until the ruling."""
    if seat not in game.created.seats:
        raise RuleViolation("unknown_seat", f"this game has no seat {seat!r}")
    _version(game, about_version, "about_version")
    _text(reason, "reason")
    return [DisputeRaised(seat=seat, about_version=about_version, reason=reason, freeze=freeze)]


def rule_dispute(game: Game, dispute: int, ruling: str, reason: str, by: str, void_from: int | None,
                 reveal_seed: bool, seed_hex: str | None) -> list[EventData]:
    """An umpire's ruling. Upheld rulings may void play from ``void_from`` on: the voided
    events stay in the record, the state is refolded without them, and their dice stay
    drawn; once these events are folded, :func:`reshuffle_after_void` gives the reshuffles
    that close the ruling's block. A ruling may also reveal the seed (``seed_hex`` is then
    required); since no die may be drawn from a public seed, revealing it ends a game still in
    play (GameEnded, no winner, before SeedRevealed). To play on, fork it: a fork gets its own
    commitment."""
    if not any(d.id == dispute for d in game.disputes):
        raise RuleViolation("audit.no_open_dispute", f"no open dispute {dispute} in this game")
    if ruling not in ("upheld", "rejected"):
        raise RuleViolation("audit.bad_ruling", "a ruling is 'upheld' or 'rejected'")
    _text(reason, "reason")
    events: list[EventData] = [DisputeRuled(dispute=dispute, ruling=ruling, reason=reason, by=by,
                                            void_from=void_from, reveal_seed=reveal_seed)]
    if void_from is not None:
        if ruling != "upheld":
            raise RuleViolation("audit.void_needs_upheld", "only an upheld ruling voids play")
        if game.ended:
            raise RuleViolation(GAME_OVER, "the game has ended and its seed is public: its play cannot be voided")
        _version(game, void_from, "void_from")
        if void_from < 2:
            raise RuleViolation("audit.bad_void_from", "play starts at version 2")
        events.append(DecisionsVoided(from_version=void_from, dispute=dispute))
    if reveal_seed and game.seed is None:
        if seed_hex is None:
            raise RuleViolation("audit.seed_unknown", "the seed is needed to reveal it")
        if not game.ended:  # no die may be drawn from a public seed: the reveal ends play
            events.append(GameEnded(outcome=Outcome(reason=f"the seed was revealed by the umpire's ruling on "
                                                           f"dispute {dispute}; play cannot go on with dice "
                                                           "anyone can predict")))
        events.append(SeedRevealed(seed=seed_hex, reason=f"umpire ruling on dispute {dispute}"))
    return events


def reshuffle_after_void(game: Game, rng: Rng) -> list[EventData]:
    """What a void leaves to do once its ruling's events are folded into ``game``: when its
    DecisionsVoided is the last of them and it voided play, every deck the rule system names in
    play (``decks_in_play``, in the state the void leaves) is shuffled again at fresh draws, one
    VoidedCardsReshuffled each, so no card seen in the voided play comes back in the same place
    (issue 30; docs/DECISIONS.md). None under a version recorded before (``voids_keep_order``),
    nor after a ruling that ends the game, nor for a void of no play."""
    if not game.voided or game.voided[-1][1] != game.version:
        return []
    start = game.voided[-1][0]
    rules = game.rules
    if game.log is None or game.log.version < start or rules.version in rules.voids_keep_order:
        return []
    return [VoidedCardsReshuffled(deck=deck, size=size, draws=rng.shuffle(deck, size).draws)
            for deck, size in rules.decks_in_play(game.state)]


def agree_to_abandon(game: Game, seat: str, seed_hex: str | None) -> list[EventData]:
    """A seat agrees to abandon the game; when every seat has, it ends with no winner and
    its seed is revealed."""
    if game.ended:
        raise RuleViolation(GAME_OVER, "the game has ended")
    if seat not in game.created.seats:
        raise RuleViolation("unknown_seat", f"this game has no seat {seat!r}")
    if seat in game.abandon:
        raise RuleViolation("audit.already_agreed", f"{seat} has already agreed to abandon")
    events: list[EventData] = [AbandonAgreed(seat=seat)]
    if set(game.abandon) | {seat} == set(game.created.seats):
        events.append(GameEnded(outcome=Outcome(reason="abandoned by every seat")))
        if seed_hex is not None:
            events.append(SeedRevealed(seed=seed_hex, reason="abandoned by every seat"))
    return events


def _freezing(game: Game, dispute: int) -> OpenDispute:
    found = next((d for d in game.disputes if d.id == dispute and d.freeze), None)
    if found is None:
        raise RuleViolation("audit.no_freeze", f"no open dispute {dispute} freezes play in this game")
    return found


def agree_to_release(game: Game, dispute: int, seat: str) -> list[EventData]:
    """A seat agrees that play frozen by ``dispute`` may go on. The freeze lifts when the
    seat that raised it agrees, or when every other seat has."""
    if seat not in game.created.seats:
        raise RuleViolation("unknown_seat", f"this game has no seat {seat!r}")
    frozen = _freezing(game, dispute)
    if seat in frozen.release:
        raise RuleViolation("audit.already_agreed", f"{seat} has already agreed to lift this freeze")
    events: list[EventData] = [FreezeReleaseAgreed(dispute=dispute, seat=seat)]
    agreed = set(frozen.release) | {seat}
    if frozen.seat in agreed or agreed >= set(game.created.seats) - {frozen.seat}:
        events.append(FreezeLifted(dispute=dispute, cause="agreement"))
    return events


def lapsed_freezes(game: Game, now: datetime, after_seconds: int) -> list[EventData]:
    """The freezes that have lapsed by ``now`` (a time given, never read here): open for at
    least ``after_seconds`` with no ruling. Each becomes a FreezeLapsed block of its own."""
    if after_seconds <= 0:
        return []
    return [FreezeLapsed(dispute=d.id, after_seconds=after_seconds) for d in game.disputes
            if d.freeze and d.raised_at is not None and now - d.raised_at >= timedelta(seconds=after_seconds)]


def lapse_freeze(game: Game, dispute: int, after_seconds: int, at: datetime) -> list[EventData]:
    """A FreezeLapsed recorded at ``at``: valid only that long after the freeze was raised."""
    frozen = _freezing(game, dispute)
    if after_seconds <= 0:
        raise RuleViolation("audit.bad_lapse", "a freeze lapses after a positive number of seconds")
    if frozen.raised_at is None or at - frozen.raised_at < timedelta(seconds=after_seconds):
        raise RuleViolation("audit.freeze_not_lapsed",
                            f"dispute {dispute} was raised less than {after_seconds} s before this lapse")
    return [FreezeLapsed(dispute=dispute, after_seconds=after_seconds)]


def inspect(game: Game, by: str, at_version: int, reason: str = "") -> list[EventData]:
    """An umpire looks at the full state at a version: the record keeps who looked and when."""
    _version(game, at_version, "at_version")
    if len(reason) > MAX_TEXT:
        raise RuleViolation("audit.bad_reason", f"a reason of at most {MAX_TEXT} characters")
    return [Inspected(by=by, at_version=at_version, reason=reason)]


# How the verifier runs each kind of block again: the block's first event's data and
# recorded time in, the events the command produces out.
Replayer = Callable[[Game, dict[str, Any], str | None, datetime], list[EventData]]

def flag_fall(game: Game, at: datetime, seed_hex: str | None) -> list[EventData]:
    """The flag that has fallen by ``at`` (a time given, never read here), and what follows:
    with ``on_time`` "loss", the rule system's outcome for the seat out of time (GameEnded,
    the seed revealed); else, or when the rules name none, nothing: an umpire adjudicates.
    Empty when no flag has fallen."""
    if game.clocks is None or game.ended or game.flagged:
        return []
    fell = timing.first_flag(game.created.clock, game.clocks, at)
    if fell is None:
        return []
    events: list[EventData] = [fell]
    outcome = game.rules.time_outcome(game.state, fell.seat, tuple(game.created.seats))
    if game.created.clock.on_time == "loss" and outcome is not None:
        events.append(GameEnded(outcome=outcome))
        if seed_hex is not None:
            events.append(SeedRevealed(seed=seed_hex, reason=timing.LOSS_ON_TIME))
    return events


def replay_flag_fall(game: Game, data: dict[str, Any], seed_hex: str | None, at: datetime) -> list[EventData]:
    """A recorded FlagFell, decided again at its recorded time: the same seat's flag must be
    the one that had fallen then."""
    events = flag_fall(game, at, seed_hex)
    if not events or events[0].seat != data["seat"]:
        raise RuleViolation("clock.flag_standing", f"{data['seat']}'s flag had not fallen at the time recorded")
    return events


def adjudicate(game: Game, by: str, outcome: Outcome, seed_hex: str | None) -> list[EventData]:
    """An umpire's result of a game stopped by a flag's fall: the game ends with it."""
    if not game.flagged:
        raise RuleViolation("clock.not_flagged", "only a game stopped by a flag's fall waits for adjudication")
    seats = game.created.seats
    if outcome.winner is not None and outcome.winner not in seats:
        raise RuleViolation("unknown_seat", f"this game has no seat {outcome.winner!r}")
    if outcome.draw and outcome.winner is not None:
        raise RuleViolation("clock.bad_outcome", "an outcome has a winner or is a draw, not both")
    unknown = sorted(set(outcome.ranking) - set(seats)) + sorted(set(outcome.scores) - set(seats))
    if unknown:
        raise RuleViolation("unknown_seat", f"this game has no seat {unknown[0]!r}")
    _text(outcome.reason, "reason")
    events: list[EventData] = [Adjudicated(by=by, outcome=outcome), GameEnded(outcome=outcome)]
    if seed_hex is not None:
        events.append(SeedRevealed(seed=seed_hex, reason="adjudicated"))
    return events


REPLAYERS: dict[str, Replayer] = {
    "Annotated": lambda g, d, seed, at: annotate(g, d["by"], d["at_version"], d["text"],
                                                 Target(**d["target"]) if d.get("target") else None, d.get("arrow")),
    "DisputeRaised": lambda g, d, seed, at: raise_dispute(g, d["seat"], d["about_version"], d["reason"],
                                                          d.get("freeze", False)),
    "DisputeRuled": lambda g, d, seed, at: rule_dispute(g, d["dispute"], d["ruling"], d["reason"], d["by"],
                                                        d.get("void_from"), d.get("reveal_seed", False), seed),
    "AbandonAgreed": lambda g, d, seed, at: agree_to_abandon(g, d["seat"], seed),
    "FreezeReleaseAgreed": lambda g, d, seed, at: agree_to_release(g, d["dispute"], d["seat"]),
    "FreezeLapsed": lambda g, d, seed, at: lapse_freeze(g, d["dispute"], d["after_seconds"], at),
    "Inspected": lambda g, d, seed, at: inspect(g, d["by"], d["at_version"], d.get("reason", "")),
    **SEATING_REPLAYERS,
    "FlagFell": replay_flag_fall,
    "Adjudicated": lambda g, d, seed, at: adjudicate(g, d["by"], Outcome(**d["outcome"]), seed),
}
