"""Step through a portable record offline: the board at any version."""

from __future__ import annotations

from uuid import UUID

from domain.game import Game, apply
from projections.timeline import narrate
from replays.record import Record, from_record_event


def show(record: Record, step: int | None = None) -> str:
    """The board at version ``step`` (the last when None), and the event that made it. A
    copy holding sealed events (a spectator's or a seat's, before the seed is revealed) can
    be folded only up to its first sealed event: the board after it is not shown."""
    last = len(record.events)
    step = last if step is None else step
    if not 1 <= step <= last:
        raise ValueError(f"this record has steps 1 to {last}, not {step}")
    game_id = UUID(record.header.game)
    game: Game | None = None
    blocked = None
    for event in record.events[:step]:
        if event.sealed:
            blocked = event
            break
        game = apply(game, from_record_event(game_id, event))
    assert game is not None
    happened = narrate(game.rules, from_record_event(game_id, record.events[step - 1]))
    if blocked is None:
        to_act = ", ".join(game.to_act()) or "nobody"
        board = [f"to act: {to_act}", "", game.rules.render_text(game.state)]
    else:
        board = [f"the board after version {blocked.version - 1} cannot be shown from this copy: version "
                 f"{blocked.version} is sealed for {', '.join(blocked.data['for'])} until the seed is revealed",
                 "", f"the board at version {blocked.version - 1}:", game.rules.render_text(game.state)]
    return "\n".join([
        f"{record.header.rules} {record.header.scenario} — game {record.header.game}",
        f"step {step} of {last}: {happened.type} — {happened.text}",
        *board,
    ])
