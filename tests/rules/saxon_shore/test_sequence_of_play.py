"""§2.2 the order of gameplay, driven from set-up through the aggregate with the seeded rng."""

from .helpers import DONE, act, legal, new_game


def test_s2_2_a_turn_visits_the_phases_in_order_and_movement_comes_twice():
    game = new_game(2)
    game = act(game, "p1", {"type": "choose", "option": "Kent"})
    game = act(game, "p2", {"type": "choose", "option": "Leinster"})
    seen = []
    while game.state.turn == 1:
        [seat] = game.to_act()
        prompt = game.state.prompt
        label = (prompt.args[0], prompt.n) if prompt.kind == "phase" else prompt.kind
        if not seen or seen[-1] != (seat, label):
            seen.append((seat, label))
        commands = legal(game, seat)
        game = act(game, seat, DONE if DONE in commands else commands[0])
    phases = [label for _, label in seen if isinstance(label, tuple)]
    order = [p for p, _ in phases]
    # trade (2.3) before improvements (2.5) before raising (2.6) before conversion (3), then movement
    assert order.index("improve") < order.index("raise") < order.index("convert") < order.index("move")
    assert ("move", 1) in phases and ("move", 2) in phases
    assert phases.index(("move", 1)) < phases.index(("move", 2))
    # each free phase is taken in game order: p1 then p2
    for name in ("convert", ("move", 1)):
        seats = [s for s, label in seen if label == name or (isinstance(label, tuple) and label[0] == name)]
        assert seats[:2] == ["p1", "p2"]
    assert game.state.turn == 2 and game.state.order == ("p2", "p1")  # §9.3
