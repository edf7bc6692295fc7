"""Step through a portable record offline: the board at any version."""

from __future__ import annotations

from uuid import UUID

from domain.rules.words import and_list, seat_name
from projections.timeline import narrate, player_names
from replays.record import Record, Unfoldable, fold_until_sealed, from_record_event
from replays.verify import check_chain, check_types


def show(record: Record, step: int | None = None) -> str:
    """The board at version ``step`` (the last when None), and the event that made it.
    Raises ValueError, saying why, for a step the record lacks or a record that cannot be
    folded (a broken chain, malformed events, rules this server does not have). A copy holding
    sealed events (a spectator's or a seat's, before the seed is revealed) is folded only up
    to its first sealed event: the board after it is not shown. A record whose seed is revealed
    shows every hand, objective and card at every step."""
    last = len(record.events)
    step = last if step is None else step
    if not 1 <= step <= last:
        raise ValueError(f"this record has steps 1 to {last}, not {step}")
    wrong = [p for p in check_chain(record) if p.what.startswith("structure")]  # cannot be folded at all
    wrong += [] if wrong else list(check_types(record))
    if wrong:
        at = f"version {wrong[0].version}: " if wrong[0].version is not None else ""
        raise ValueError(f"this record cannot be shown: {at}{wrong[0].what}")
    game_id = UUID(record.header.game)
    try:
        game, blocked = fold_until_sealed(game_id, record.events[:step])
    except Unfoldable as error:
        raise ValueError(f"this record cannot be shown: {error}") from None
    assert game is not None
    names = player_names(game.created.seats)
    happened = narrate(game.rules, from_record_event(game_id, record.events[step - 1]), names)
    if blocked is None:
        to_act = and_list(seat_name(names, s) for s in game.to_act()) or "nobody"
        board = [f"to act: {to_act}", "", game.rules.render_text(game.state, names, everything=record.seed is not None)]
    else:
        sealed_for = and_list(seat_name(names, s) for s in blocked.data["for"])
        board = [f"the board after version {blocked.version - 1} cannot be shown from this copy: version "
                 f"{blocked.version} is sealed for {sealed_for} until the seed is revealed",
                 "", f"the board at version {blocked.version - 1}:", game.rules.render_text(game.state, names)]
    scenario = game.rules.scenarios.get(record.header.scenario)
    return "\n".join([
        f"{scenario.title if scenario and len(game.rules.scenarios) > 1 else game.rules.title} — game "
        f"{record.header.game}",
        "players: " + and_list(f"{seat_name(names, s)} ({s})" for s in game.created.seats),
        f"step {step} of {last}: {happened.type} — {happened.text}",
        *board,
    ])
