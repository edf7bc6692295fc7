"""The open table's own choices (domain/rules/open_table/RULES_NOTES.md): each test quotes the
note it checks. Games go through the real aggregate path (domain.game)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import pytest

from domain.events import GameCreated, SeatInfo
from domain.game import Game, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS

TABLE = RULE_SYSTEMS["open-table"]
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))


def new_game(seats: tuple[str, ...] = ("ann", "bob"), options: dict[str, Any] | None = None) -> Game:
    created = GameCreated(rules=TABLE.id, rules_version=TABLE.version, scenario="table",
                          data_hash=TABLE.data_hash("table", options),
                          seats={s: SeatInfo(player=s.title()) for s in seats}, seed_commitment="0" * 64,
                          options=options or {})
    return project_game(None, create_game(UUID(int=1), created, NOW))


def play(game: Game, seat: str, command: dict[str, Any]) -> Game:
    rng = SeededRng(SEED, game.id, "", game.next_draw)
    return project_game(game, take_decision(game, seat, command, rng, NOW, SEED))


def refused(game: Game, seat: str, command: dict[str, Any]) -> str:
    with pytest.raises(RuleViolation) as caught:
        take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw), NOW, None)
    return caught.value.code


def test_every_seat_may_act_until_the_end():
    """Seats: "Every seat may record at any time until the game ends (`to_act` is every seat)"."""
    game = new_game(("ann", "bob", "cy"))
    assert TABLE.to_act(game.state) == ["ann", "bob", "cy"]
    game = play(play(game, "bob", {"type": "note", "text": "bob first"}), "bob", {"type": "roll", "label": "x", "dice": "2d6"})
    assert TABLE.to_act(game.state) == ["ann", "bob", "cy"] and game.state.decisions == 2


def test_custom_deck_and_the_draw_limits():
    """Decks: "a card may appear more than once. A draw or a take is of 1 to 54 cards and at most
    the cards left"; "an unknown deck is `open-table.unknown_deck`"."""
    game = new_game(options={"decks": {"tiles": ["a", "a", "b"]}})
    assert refused(game, "ann", {"type": "draw", "deck": "tiles", "count": 4}) == "open-table.not_enough_cards"
    assert refused(game, "ann", {"type": "draw", "deck": "tiles", "count": 0}) == "open-table.not_enough_cards"
    assert refused(game, "ann", {"type": "draw", "deck": "standard-54", "count": 55}) == "open-table.not_enough_cards"
    assert refused(game, "ann", {"type": "draw", "deck": "tarot"}) == "open-table.unknown_deck"
    game = play(game, "ann", {"type": "draw", "deck": "tiles", "count": 3})
    assert sorted(game.state.decks["tiles"].drawn) == ["a", "a", "b"] and game.state.decks["tiles"].left == 0


def test_a_shuffle_gathers_all_but_the_hands():
    """Shuffles: "gather every card of the deck back except the cards held in hands; cards drawn
    face up or played come back"."""
    game = new_game()
    game = play(game, "ann", {"type": "take", "deck": "standard-54", "count": 2})
    game = play(game, "bob", {"type": "draw", "deck": "standard-54", "count": 3})
    held = [card for _, card in game.state.hands["ann"]]
    game = play(game, "ann", {"type": "play", "card": held[0]})
    assert game.state.decks["standard-54"].left == 49
    game = play(game, "bob", {"type": "shuffle", "deck": "standard-54"})
    assert game.state.decks["standard-54"].left == 53  # only ann's last card stays out


def test_the_end_is_agreed_by_every_seat():
    """The end: "the game ends when every seat has proposed the same outcome"; "A seat may change
    its proposal until the end. The end reveals every hand."""
    game = play(new_game(), "ann", {"type": "take", "deck": "standard-54", "count": 1})
    assert refused(game, "ann", {"type": "end", "outcome": {"winner": "zed"}}) == "open-table.unknown_seat_in_outcome"
    assert refused(game, "ann", {"type": "end", "outcome": {"winner": "bob", "draw": True}}) == "open-table.bad_outcome"
    game = play(game, "ann", {"type": "end", "outcome": {"winner": "ann"}})
    game = play(game, "bob", {"type": "end", "outcome": {"winner": "bob"}})
    assert TABLE.outcome(game.state) is None
    game = play(game, "ann", {"type": "end", "outcome": {"winner": "bob"}})
    assert TABLE.outcome(game.state).winner == "bob" and TABLE.to_act(game.state) == []
    assert TABLE.view(game.state, None)["hands"] == {"ann": [card for _, card in game.state.hands["ann"]]}
