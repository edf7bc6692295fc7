"""Preparation, the turn, winning territories at once, victory markers, the end and the winner,
the points variant, the components (each test cites its section and quotes the sentence)."""

from __future__ import annotations

import hashlib
import json
from uuid import UUID

import msgspec
import pytest

from domain.events import CardsShuffled, DecisionTaken, DiceRolled, GameCreated, SeatInfo
from domain.game import IncompatibleRecord, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.kingdoms_of_crusaders import events as ev
from domain.rules.kingdoms_of_crusaders.data import NAMES, PACKAGE, TERRITORIES, canonical_deck, shape
from tests.rules.kingdoms_of_crusaders.helpers import (
    KOC, NOW, SEED, legal, new_game, owner_deck, place, play, played, prepared, race, refused,
)


# -- components ---------------------------------------------------------------------------------------
def test_location_card_five_numbered_sectors():
    """Location card: "A Location card has five sectors those represent territories in dispute.
    Each sector has a name and a number." (reading 1)"""
    assert TERRITORIES == (1, 2, 3, 4, 5)
    assert set(NAMES.values()) == {"Kingdom of Jerusalem", "County of Edessa", "Principality of Antioch",
                                   "County of Tripoli", "Cyprus"}


def test_unit_deck_reconstruction_is_labelled_and_consistent():
    """Reading 5: the reconstruction is 56 cards, each 1 to 5 distinct symbols (its own choice)."""
    raw = json.loads((PACKAGE / "units.json").read_text())
    assert raw["_header"].startswith("RECONSTRUCTION")
    assert len(raw["cards"]) == 56
    assert all(1 <= len(c["symbols"]) <= 5 == len(set(c["symbols"])) + 5 - len(c["symbols"]) for c in raw["cards"])
    per_kind = {k: sum(k in c["symbols"] for c in raw["cards"]) for k in ("lance", "bow", "sword", "helmet", "banner")}
    assert len(set(per_kind.values())) == 1  # no kind favoured


@pytest.mark.parametrize("players,size", [(2, 56), (3, 112), (4, 112)])
def test_unit_deck_two_decks_mixed_for_three_or_four(players, size):
    """Preparation for a game: "In a case of a three or four players' game you need two decks mixed"."""
    state = new_game(players).state
    assert len(state.deck) == size == sum(state.unseen.values())


def _created(options):
    return GameCreated(rules=KOC.id, rules_version=KOC.version, scenario="standard",
                       data_hash=KOC.data_hash("standard", options),
                       seats={"p1": SeatInfo(player="A"), "p2": SeatInfo(player="B")}, seed_commitment="0" * 64,
                       options=options)


def test_owner_deck_replaces_the_reconstruction():
    """Unit Cards: the owner of the printed cards supplies the real deck at creation (reading 6)."""
    deck = {"cards": [{"number": n, "symbols": ["banner"] if n % 2 else ["lance", "bow"]} for n in range(1, 57)]}
    game = new_game(2, options={"deck": deck})
    assert game.state.cards["A01"] == shape(["banner"]) and game.state.cards["A02"] == shape(["lance", "bow"])
    assert game.created.options["deck"] == deck  # in GameCreated, under the record's hash chain
    digest = hashlib.sha256(msgspec.json.encode(canonical_deck(deck), order="sorted")).hexdigest()
    assert game.created.data_hash == digest != KOC.data_hash("standard")


def test_owner_deck_in_another_order_is_the_same_deck():
    """Issue 26 point 16: the same cards listed in another order (and a card's symbols in another
    order) are the same deck: the same hash, the same game."""
    deck = {"cards": [{"number": n, "symbols": ["banner"] if n % 2 else ["lance", "bow"]} for n in range(1, 57)]}
    shuffled = {"cards": [{"number": c["number"], "symbols": list(reversed(c["symbols"]))}
                          for c in reversed(deck["cards"])]}
    assert KOC.data_hash("standard", {"deck": deck}) == KOC.data_hash("standard", {"deck": shuffled})
    assert new_game(2, options={"deck": shuffled}).state == new_game(2, options={"deck": deck}).state


def test_a_1_0_0_record_keeps_its_deck_hash():
    """RULES_NOTES.md, Versions: 1.0.0 hashed the owner's deck as listed; its records still open."""
    from domain.game import rule_system_for
    deck = {"cards": [{"number": n, "symbols": ["bow"]} for n in range(56, 0, -1)]}
    listed = hashlib.sha256(msgspec.json.encode(deck, order="sorted")).hexdigest()
    old = msgspec.structs.replace(_created({"deck": deck}), rules_version="1.0.0", data_hash=listed)
    assert rule_system_for(old).version == "1.0.0"
    assert KOC.data_hash("standard", {"deck": deck}) != listed


def test_owner_deck_of_any_size_that_lasts_and_with_a_kind_twice_on_a_card():
    """Issue 26 point 16: the text gives neither the deck's size ("Each unit is represented in the
    game by a single card") nor how many symbols of a kind a card carries ("The symbols of the same
    kind on these cards represent the squads"): 60 cards, one with two swords, are a deck, and
    the two swords count as two symbols of a kind in the army."""
    cards = [{"number": n, "symbols": ["bow"]} for n in range(1, 60)] + [{"number": 60, "symbols": ["sword", "sword"]}]
    game = new_game(2, options={"deck": {"cards": cards}})
    assert len(game.state.deck) == 60 and game.state.cards["A60"] == shape(["sword", "sword"])
    from domain.rules.kingdoms_of_crusaders.armies import counts_of
    assert counts_of([shape(["sword", "sword"]), shape(["sword"])]) == (0, 0, 3, 0, 0)  # a battalion


def test_owner_deck_hash_must_match_the_deck():
    """A record whose GameCreated names a deck other than the one its hash was made from does not
    fold: the data it was recorded under is not the data it carries."""
    deck = {"cards": [{"number": n, "symbols": ["bow"]} for n in range(1, 57)]}
    tampered = msgspec.structs.replace(_created({"deck": deck}), data_hash=KOC.data_hash("standard"))
    with pytest.raises(IncompatibleRecord):
        project_game(None, create_game(UUID(int=9), tampered, NOW))


@pytest.mark.parametrize("cards,what", [
    ([{"number": n, "symbols": ["lance"]} for n in range(1, 50)], "runs out before the game's end"),
    ([{"number": 1, "symbols": ["axe"]}] + [{"number": n, "symbols": ["bow"]} for n in range(2, 57)], "unknown symbol"),
    ([{"number": 1, "symbols": []}] + [{"number": n, "symbols": ["bow"]} for n in range(2, 57)], "at least one symbol"),
    ([{"number": 1, "symbols": ["bow"]}] * 56, "each number once"),
])
def test_owner_deck_is_validated(cards, what):
    """Unit Cards: a deck the game cannot be played to its end with, or with a card the rules
    cannot read, is refused, naming why (RULES_NOTES.md, reading 6)."""
    with pytest.raises(RuleViolation) as raised:
        create_game(UUID(int=9), _created({"deck": {"cards": cards}}), NOW)
    assert raised.value.code == "kingdoms-of-crusaders.bad_deck"
    assert what in raised.value.message


def test_unknown_option_refused():
    with pytest.raises(RuleViolation) as raised:
        create_game(UUID(int=9), _created({"colour": "red"}), NOW)
    assert raised.value.code == "kingdoms-of-crusaders.bad_option"


# -- preparation ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_preparation_shuffle_first_player_and_five_cards_each(players):
    """Preparation for a game: "Before each game you have to shuffle the deck thoroughly. … each
    player draws five cards from the top of the deck"; Turn sequence: "Who moves first is determined
    by random." (reading 3)"""
    game = new_game(players)
    assert KOC.to_act(game.state) == ["p1"]
    assert legal(game, "p1") == [{"type": "prepare"}]
    after = play(game, "p1", {"type": "prepare"})
    s = after.state
    assert s.phase == "play" and s.first in s.seats and s.current == s.first
    assert sorted(len(h) for h in s.hands.values()) == [5] * (players - 1) + [6]
    assert len(s.hands[s.first]) == 6  # the first turn's draw
    assert s.drawn == 5 * players + 1
    assert s.shuffle is not None and s.shuffle.size == len(s.deck)


def test_preparation_events_in_order():
    """The shuffle, the die for who moves first, five cards to each player from the first on, the
    first turn, its draw; each draw a public count and the cards themselves in DrawnCards."""
    game = new_game(3)
    typed = [r.typed() for r in take_decision(game, "p1", {"type": "prepare"},
                                              SeededRng(SEED, game.id, "", 0), NOW, None)]
    kinds = [type(e) for e in typed]
    assert kinds == [DecisionTaken, CardsShuffled, DiceRolled] + [ev.CardsDrawn, ev.DrawnCards] * 3 + [
        ev.TurnBegan, ev.CardsDrawn, ev.DrawnCards]
    first = typed[2].faces[0]
    assert typed[2].kind == "first-player-3" and first in ("p1", "p2", "p3")
    order = [e.seat for e in typed[3:9:2]]
    assert order[0] == first and len(set(order)) == 3
    assert all(e.count == 5 for e in typed[3:9:2]) and all(len(e.cards) == 5 for e in typed[4:9:2])
    assert typed[9].seat == first and typed[10] == ev.CardsDrawn(seat=first, count=1)
    assert typed[11].seat == first and len(typed[11].cards) == 1
    assert len({c.id for e in typed if isinstance(e, ev.DrawnCards) for c in e.cards}) == 16


def test_preparation_only_once_and_only_by_p1():
    game = new_game(2)
    assert refused(game, "p2", {"type": "prepare"}).code == "not_your_turn"
    assert refused(game, "p1", {"type": "place", "card": "A01", "sector": 1}).code == "kingdoms-of-crusaders.not_prepared"


# -- the turn ---------------------------------------------------------------------------------------------
def test_turn_draw_then_place_and_hand_sizes():
    """Turn sequence: "1 – Draw a card from the top of the deck 2 – Place one card from his hand to
    one of the sectors" (reading 4)."""
    game = prepared(2)
    seat = game.state.current
    spec = "+".join(KOC.view(game.state, seat)["hands"][seat]["cards"][0]["symbols"])
    events, after = place(game, seat, spec, 2)
    placed = next(e for e in events if isinstance(e, ev.CardPlaced))
    assert placed.seat == seat and placed.sector == 2 and not placed.completed
    assert len(after.state.hands[seat]) == 5
    nxt = after.state.current
    assert nxt != seat and len(after.state.hands[nxt]) == 6


def test_turn_passes_to_the_left():
    """Turn sequence: "After the first player finishes all his actions the player at the left hand
    gets turn and so on." (reading 2: p1, p2, p3, p4, p1…)"""
    game = prepared(4)
    seen = [game.state.current]
    for _ in range(5):
        seat = game.state.current
        cmd = legal(game, seat)[0]
        game = play(game, seat, cmd)
        seen.append(game.state.current)
    start = int(seen[0][1]) - 1
    assert seen == [f"p{(start + i) % 4 + 1}" for i in range(6)]


def test_place_only_own_hand_and_real_sectors():
    """Turn sequence: "Place one card from his hand to one of the sectors"; Location card: "Each card
    must be placed correctly in one of the sectors"."""
    game = prepared(2)
    seat = game.state.current
    other = next(s for s in game.state.seats if s != seat)
    mine = game.state.hands[seat][0]
    theirs = game.state.hands[other][0]
    v = refused(game, seat, {"type": "place", "card": theirs, "sector": 1})
    assert v.code == "kingdoms-of-crusaders.card_not_in_hand" and other not in v.message
    assert refused(game, seat, {"type": "place", "card": mine, "sector": 6}).code == "kingdoms-of-crusaders.no_such_sector"
    assert refused(game, other, {"type": "place", "card": theirs, "sector": 1}).code == "not_your_turn"


def test_at_most_four_cards_per_sector():
    """Turn sequence: "Each player's sector can contain no more than four cards. So during a game each
    player can play 20". Played: p1 places four lances in sector 3."""
    _, game = played(2, {"p1": [("lance", 3)] * 4, "p2": [("lance", 1)] * 4}, options={"deck": LANCES})
    assert KOC.to_act(game.state) == ["p1"] and len(game.state.sectors["p1"][2]) == 4
    card = game.state.hands["p1"][0]
    assert refused(game, "p1", {"type": "place", "card": card, "sector": 3}).code == "kingdoms-of-crusaders.sector_full"
    assert all(c["sector"] != 3 for c in legal(game, "p1"))
    assert len(legal(game, "p1")) == 4 * len(set(game.state.hands["p1"]))  # every card, four sectors with room


# -- winning territories at once ---------------------------------------------------------------------
# Played from the opening (helpers.played) with owner's decks (option ``deck``) whose cards make the
# unseen cards what each test needs.
LANCES = {"cards": [{"number": n, "symbols": ["lance"]} for n in range(1, 61)]}


def test_win_at_once_when_nobody_can_still_beat():
    """Armies and domination: "If a player has completed his army in a territory and no other player
    can gather a better army there, this player wins the territory immediately." A banner regiment
    against three lance cards: nothing the lance army can add beats it."""
    events, after = played(2, {"p1": [("banner", 1)] * 4, "p2": [("lance", 1)] * 3},
                           options={"deck": owner_deck({"banner": 10, "lance": 50})})
    won = [e for e in events if isinstance(e, ev.TerritoryWon)]
    assert won == [ev.TerritoryWon(seat="p1", sector=1, marker=1)]
    assert after.state.winner_of(1).seat == "p1"


def test_win_at_once_waits_while_someone_can_still_beat():
    """A banner regiment is not yet safe while the other player, holding lance+banner three times,
    could still add a fourth lance+banner (two regiments beat one)."""
    events, after = played(2, {"p1": [("banner", 1)] * 4, "p2": [("lance+banner", 1)] * 3},
                           options={"deck": owner_deck({"banner": 10, "lance+banner": 10, "lance": 40})})
    assert len(after.state.sectors["p1"][0]) == 4
    assert not [e for e in events if isinstance(e, ev.TerritoryWon)]
    assert after.state.winner_of(1) is None


def test_win_at_once_counts_cards_in_other_hands_as_unseen():
    """Reading 8: "can still beat" looks at the unseen cards as a whole, never at which hand holds
    them. The only lance+banner card left sits in p3's hand: p2 can never get it, yet p1 does not
    win at once, since the rules do not use what p3 holds. Once p3 has placed that card elsewhere,
    p1 wins at once. (Three players mix two decks: every count of the owner's deck is doubled.)"""
    deck = owner_deck({"banner": 2, "lance+banner": 2, "sword": 1, "bow": 60})
    first = {"p1": [("banner", 1)] * 4, "p2": [("lance+banner", 1)] * 3}
    held = {**first, "p3": [("sword", 1), ("sword", 2), ("bow", 3)]}
    events, game = played(3, held, options={"deck": deck}, filler="bow", hands={"p3": ["lance+banner"]})
    assert len(game.state.sectors["p1"][0]) == 4
    assert not [e for e in events if isinstance(e, ev.TerritoryWon)]
    placed = {**first, "p3": [("sword", 1), ("sword", 2), ("lance+banner", 4)]}
    events, game = played(3, placed, options={"deck": deck}, filler="bow")
    assert [e for e in events if isinstance(e, ev.TerritoryWon)] == [ev.TerritoryWon(seat="p1", sector=1, marker=1)]


def test_comparison_step_8_first_to_complete_wins_at_once():
    """Armies and domination: "If all single symbols are the same the winner is a player who was the
    first to place" the fourth card. p2 can at best equal p1's army (only lances are unseen), and would
    complete it later."""
    army = [("sword", 2), ("sword", 2), ("helmet", 2)]
    events, _ = played(2, {"p1": army + [("lance", 2)], "p2": army},
                       options={"deck": owner_deck({"sword": 4, "helmet": 2, "lance": 50})})
    assert [e for e in events if isinstance(e, ev.TerritoryWon)] == [ev.TerritoryWon(seat="p1", sector=2, marker=1)]


def test_comparison_step_8_the_first_completed_of_equal_armies_is_best():
    """Of two equal complete armies the one completed first is the best. p2 completes before p1;
    p3 could still beat both with the banner it holds, until it places the banner elsewhere: then
    p2 wins Edessa, not p1."""
    army = [("sword", 2), ("sword", 2), ("helmet", 2)]
    plans = {"p1": army + [("helmet", 5), ("lance", 2)], "p2": army + [("lance", 2), ("banner", 5)],
             "p3": army + [("lance", 3), ("banner", 4)]}
    # three players mix two decks (every count doubled): once p3's banner is down, only lances are unseen
    deck = owner_deck({"sword": 3, "helmet": 2, "banner": 1, "lance": 50})
    events, game = played(3, plans, options={"deck": deck})
    assert game.state.completed[1] == ("p2", "p1")
    assert [e for e in events if isinstance(e, ev.TerritoryWon)] == [ev.TerritoryWon(seat="p2", sector=2, marker=1)]


def test_others_may_still_place_in_a_won_territory():
    """Armies and domination: "Other players still can place cards in that territory"."""
    _, game = played(2, {"p1": [("banner", 1)] * 4, "p2": [("lance", 1), ("lance", 2), ("lance", 3)]},
                     options={"deck": owner_deck({"banner": 10, "bow": 10, "lance": 40})}, hands={"p2": ["bow"]})
    assert game.state.winner_of(1).seat == "p1" and KOC.to_act(game.state) == ["p2"]
    bow = next(c for c in game.state.hands["p2"] if game.state.cards[c] == shape(["bow"]))
    assert {"type": "place", "card": bow, "sector": 1} in legal(game, "p2")
    _, after = place(game, "p2", "bow", 1)
    assert len(after.state.sectors["p2"][0]) == 2


def test_markers_numbered_in_the_order_won():
    """Victory markers: "If this is the first territory won in the game a marker number 1 is placed,
    if it's the second …" (reading 9: the territory placed in first, then by number). p1's helmet
    leaves the unseen cards: that settles Cyprus (5), where p1 placed it, and Jerusalem (1), where p2
    needed a helmet to beat p1."""
    plans = {"p1": [("sword", 1)] * 4 + [("banner", 5)] * 3 + [("helmet+banner", 5)],
             "p2": [("helmet", 1)] * 3 + [("lance", 5)] * 3 + [("lance", 2)]}
    deck = owner_deck({"sword": 4, "banner": 3, "helmet": 3, "helmet+banner": 1, "lance": 50})
    events, _ = played(2, plans, options={"deck": deck})
    won = [e for e in events if isinstance(e, ev.TerritoryWon)]
    assert won == [ev.TerritoryWon(seat="p1", sector=5, marker=1), ev.TerritoryWon(seat="p1", sector=1, marker=2)]


# -- the end and the winner -----------------------------------------------------------------------------
# Each end is reached by play from the opening (helpers.race, helpers.played): an owner's deck of
# one-symbol cards (option ``deck``), dealt in a scripted order, so that each territory is won by a
# regiment of banners completed first, in the order the test names.
DECK = owner_deck({"banner": 40, "helmet": 40, "lance": 40})


def _final(players, won, fillers=None, **options):
    """The outcome of a game played until the territories are won in the order ``won``."""
    _, game = played(players, race(players, won, fillers), options={"deck": DECK, **options})
    assert game.outcome is not None
    assert [(m.sector, m.seat) for m in sorted(game.state.markers, key=lambda m: m.number)] == won
    return game.outcome, game


def test_most_victory_markers_wins():
    """End of a game and a Winner: "A Winner is a player who's got more «victory markers» than the others"."""
    out, _ = _final(2, [(1, "p2"), (2, "p1"), (3, "p2"), (4, "p1"), (5, "p2")])
    assert out.winner == "p2" and out.scores == {"p1": 2.0, "p2": 3.0} and out.ranking == ["p2", "p1"]


def test_tie_the_greater_marker_numbers_lose():
    """End of a game and a Winner: "If two or more players have the equal quantity of «victory
    markers» the players whose numbers on the «victory markers» are greater will lose." (reading 10)
    p1 holds 1 and 5, p2 holds 2 and 3: p1's greatest (5) is greater, p1 loses."""
    out, _ = _final(3, [(1, "p1"), (2, "p2"), (3, "p2"), (4, "p3"), (5, "p1")])
    assert out.winner == "p2" and out.ranking == ["p2", "p1", "p3"]
    assert "greater numbers" in out.reason


def test_points_three_two_one():
    """Winner by the points: "If a player wins a territory he gains 3 points … the second army … 2
    points … the third army … 1 point" (reading 11). p1 wins every territory with banners, p2 places
    helmets and p3 lances in every territory."""
    fillers = {"p2": ("helmet", TERRITORIES), "p3": ("lance", TERRITORIES)}
    out, game = _final(3, [(n, "p1") for n in TERRITORIES], fillers, points=True)
    assert all(game.state.sectors[p][n - 1] for p in ("p2", "p3") for n in TERRITORIES)
    assert out.scores == {"p1": 15.0, "p2": 10.0, "p3": 5.0} and out.winner == "p1"


def test_points_equal_points_decided_by_markers():
    """Reading 11: equal points, then more markers. p1 wins Jerusalem (3) and is second with helmets
    in 2, 3 and 4 (2 + 2 + 2); p2 wins 2, 3 and 4 (3 + 3 + 3) and has no army elsewhere: 9 points
    each, and p2's three markers beat p1's one."""
    fillers = {"p1": ("helmet", (2, 3, 4))}
    out, game = _final(3, [(1, "p1"), (2, "p2"), (3, "p2"), (4, "p2"), (5, "p3")], fillers, points=True)
    assert not game.state.sectors["p2"][0] and not game.state.sectors["p2"][4]
    assert out.scores["p1"] == out.scores["p2"] == 9.0 and out.winner == "p2"
    assert "more victory markers" in out.reason


def test_game_ends_when_the_last_marker_is_placed():
    """End of a game and a Winner: "A game ends when the last «victory marker» is placed." Every hand is
    shown (reading 12) and the game records the outcome."""
    events, after = played(2, race(2, [(1, "p1"), (2, "p1"), (3, "p1"), (4, "p2"), (5, "p1")]),
                           options={"deck": DECK})
    names = [type(e).__name__ for e in events]
    assert names[-4:] == ["TerritoryWon", "HandsShown", "GameDecided", "GameEnded"]
    assert after.outcome.winner == "p1" and KOC.to_act(after.state) == []
    assert after.state.phase == "over"
    view = KOC.view(after.state, None)
    shown = view["hands"]["p2"]["cards"]
    assert [c["id"] for c in shown] == list(after.state.hands["p2"]) and len(shown) == 5
    assert all(len(c["symbols"]) == 1 for c in shown)


# -- hidden information ------------------------------------------------------------------------------------
def test_view_shows_own_hand_and_others_as_counts():
    """DESIGN.md "Hidden information": own hand face up, every other hand and the deck as counts."""
    game = prepared(3)
    s = game.state
    for seat in s.seats:
        v = KOC.view(s, seat)
        assert [c["id"] for c in v["hands"][seat]["cards"]] == list(s.hands[seat])
        for other in s.seats:
            if other != seat:
                assert v["hands"][other] == {"count": len(s.hands[other]), "cards": None}
        assert v["deck"] == {"size": 112, "left": 112 - s.drawn}
    spectator = KOC.view(s, None)
    assert all(h["cards"] is None for h in spectator["hands"].values())
    text = json.dumps(spectator)
    for hand in s.hands.values():
        for card in hand:
            assert card not in text


def test_readers_seal_draws_for_the_drawer_only():
    s = prepared(2).state
    drawn = ev.DrawnCards(seat="p2", cards=[ev.Card(id="A01", symbols=["lance"])])
    assert KOC.readers(s, drawn) == frozenset({"p2"})
    assert KOC.readers(s, ev.CardsDrawn(seat="p2", count=1)) is None
    assert KOC.readers(s, ev.CardPlaced(seat="p2", card=drawn.cards[0], sector=1, completed=False)) is None
    assert KOC.command_readers(s, "p1", None) is None


def test_narration_never_names_a_drawn_card_and_the_text_board_shows_no_hand():
    """Reading 13: a draw's line says who drew how many; the text board shows hands as counts."""
    game = prepared(2)
    drawn = {"seat": "p1", "cards": [{"id": "A07", "symbols": ["bow"]}]}
    assert "A07" not in KOC.describe_event("kingdoms-of-crusaders.DrawnCards", drawn)
    assert KOC.describe_event("kingdoms-of-crusaders.CardsDrawn", {"seat": "p1", "count": 5}) == \
        "p1 draws 5 cards from the top of the deck"
    text = KOC.render_text(game.state)
    assert not [c for h in game.state.hands.values() for c in h if c in text]
    placed = {"seat": "p2", "card": {"id": "A09", "symbols": ["bow", "sword"]}, "sector": 3, "completed": True}
    assert KOC.describe_event("kingdoms-of-crusaders.CardPlaced", placed) == \
        "p2 places A09 (bow and sword) in the Principality of Antioch (sector 3); the army there is complete"


def test_points_standing_incomplete_armies_and_shared_places():
    """Reading 11: an army not complete at the end is compared as it stands; a complete army ranks
    before an equal incomplete one; two equal armies never completed share their place."""
    from domain.rules.kingdoms_of_crusaders.rules import standing
    deck = owner_deck({"banner": 8, "sword": 8, "bow": 8, "bow+lance": 4, "lance": 60})
    plans = {"p1": [("banner", 1)] * 4, "p2": [("lance", 1)] * 2 + [("lance", 3)] * 2,
             "p3": [("lance", 1)] * 2 + [("lance", 3), ("lance", 4)], "p4": [("lance", 1)] * 2 + [("bow", 1), ("sword", 1)]}
    _, game = played(4, plans, options={"deck": deck})
    assert standing(game.state, 1) == [["p1"], ["p4"], ["p2", "p3"]]
    plans = {"p1": [("banner", 1)] * 4, "p2": [("sword", 1)] * 2 + [("lance", 1), ("bow", 1)],
             "p3": [("sword", 1)] * 2 + [("bow+lance", 1), ("lance", 2)]}
    _, game = played(3, plans, options={"deck": deck})
    assert [len(game.state.sectors[p][0]) for p in ("p1", "p2", "p3")] == [4, 4, 3]
    assert standing(game.state, 1) == [["p1"], ["p2"], ["p3"]]


def test_owner_deck_check_lists_every_problem():
    """Unit Cards: the owner-data hook checks a deck file before a game (herald rules check)."""
    assert KOC.owner_data.option == "deck"
    assert KOC.check_owner_data(json.loads((PACKAGE / "units.json").read_text())) == []
    cards = [{"number": n, "symbols": ["axe"] if n < 3 else ["bow"]} for n in range(1, 57)]
    found = KOC.check_owner_data({"cards": cards})
    assert len(found) == 2 and all("unknown symbol" in p for p in found)
    schema = KOC.owner_data.schema
    assert "UnitDeck" in json.dumps(schema)


# -- issue 26 points 14, 15, 17 ----------------------------------------------------------------------------
# The end of a game needs every territory won; these positions are prepared (``position``) as the
# tests above, since a whole game played card by card to one chosen ending is what they stand for.
def test_points_go_only_to_players_with_an_army_in_the_territory():
    """Winner by the points: "If a player has the second army in a territory he gains 2 points for
    such a territory. If a player has the third army in a territory he gains 1 point[s]." A player
    with no card in a territory has no army there (reading 11). Played: p1 wins 1 and 4, p2 wins 2
    and 5, p3 wins 3 and places its other cards in Jerusalem (1) only. In Jerusalem p3's lances are
    second (2); everywhere else only the winner has an army, so only the winner scores."""
    won = [(1, "p1"), (2, "p2"), (3, "p3"), (4, "p1"), (5, "p2")]
    out, game = _final(3, won, {"p3": ("lance", (1,))}, points=True)
    assert {p: [n for n in TERRITORIES if game.state.sectors[p][n - 1]] for p in ("p1", "p2", "p3")} == \
        {"p1": [1, 4], "p2": [2, 5], "p3": [1, 3]}
    assert out.scores == {"p1": 3.0 + 3, "p2": 3.0 + 3, "p3": 3.0 + 2}


def test_points_under_1_0_0_ranked_every_player():
    """RULES_NOTES.md, Versions: 1.0.0 ranked a player with no card in a territory too; its records
    replay so. The game above played as a 1.0.0 record: the players with no card in a territory share
    its second place (2 each), or take its third (p2 in Jerusalem, 1)."""
    won = [(1, "p1"), (2, "p2"), (3, "p3"), (4, "p1"), (5, "p2")]
    _, game = played(3, race(3, won, {"p3": ("lance", (1,))}), options={"deck": DECK, "points": True},
                     version="1.0.0")
    assert game.state.version == "1.0.0"
    assert game.outcome.scores == {"p1": 3.0 + 2 + 2 + 3 + 2, "p2": 1.0 + 3 + 2 + 2 + 3, "p3": 2.0 + 2 + 3 + 2 + 2}


def test_tie_by_the_sum_of_marker_numbers_is_an_option():
    """End of a game and a Winner: "the players whose numbers on the «victory markers» are greater
    will lose", read as the sum of the numbers (option ``tie: marker-sum``; reading 10). p1 holds 1
    and 5 (sum 6), p2 holds 3 and 4 (sum 7): by the greatest marker p1 loses (5 > 4), by the sum p2
    loses (7 > 6); holding 1 and 4 against 2 and 3, the sums are equal and the game is drawn."""
    won = [(1, "p1"), (2, "p3"), (3, "p2"), (4, "p2"), (5, "p1")]
    out, _ = _final(3, won)
    assert out.winner == "p2"
    out, game = _final(3, won, tie="marker-sum")
    assert game.state.tie == "marker-sum" and out.winner == "p1"
    out, _ = _final(3, [(1, "p1"), (2, "p2"), (3, "p2"), (4, "p1"), (5, "p3")], tie="marker-sum")
    assert out.draw


def test_unknown_tie_reading_is_refused():
    with pytest.raises(RuleViolation) as raised:
        create_game(UUID(int=9), _created({"tie": "coin"}), NOW)
    assert raised.value.code == "kingdoms-of-crusaders.bad_option"
