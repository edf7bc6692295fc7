"""Step through a portable record offline: the board at any version."""

from __future__ import annotations

from uuid import UUID

from domain.game import Game, apply
from projections.timeline import narrate
from replays.record import Record, from_record_event


def show(record: Record, step: int | None = None) -> str:
    """The board at version ``step`` (the last when None), and the event that made it."""
    last = len(record.events)
    step = last if step is None else step
    if not 1 <= step <= last:
        raise ValueError(f"this record has steps 1 to {last}, not {step}")
    game_id = UUID(record.header.game)
    game: Game | None = None
    for event in record.events[:step]:
        game = apply(game, from_record_event(game_id, event))
    assert game is not None
    happened = narrate(game.rules, from_record_event(game_id, record.events[step - 1]))
    to_act = ", ".join(game.to_act()) or "nobody"
    return "\n".join([
        f"{record.header.rules} {record.header.scenario} — game {record.header.game}",
        f"step {step} of {last}: {happened.type} — {happened.text}",
        f"to act: {to_act}",
        "",
        game.rules.render_text(game.state),
    ])
