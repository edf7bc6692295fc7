"""The games service: load a game, run one command through the domain, save through the
committer (:mod:`api.committer`), return plain data (:mod:`api.wire.games`). One module per
concern, one object for the routes and the other services:

- :mod:`~api.services.games.base`: the store, the committer, the read models, loading a game,
  who a token speaks for, and what time writes by itself (freezes that lapse, flags that fall);
- :mod:`~api.services.games.commands`: creating games, seats' commands, claims, imports;
- :mod:`~api.services.games.audit`: annotations, disputes, rulings, inspections,
  abandonment, adjudication, and forks;
- :mod:`~api.services.games.reads`: summaries, legal commands, history, boards, records.
"""

from __future__ import annotations

from api.services.games.audit import AuditAndForks
from api.services.games.base import EVERY_SEAT, SEEN_GAMES, load_game, seen_by
from api.services.games.commands import Commands
from api.services.games.reads import Reads

__all__ = ["EVERY_SEAT", "SEEN_GAMES", "Games", "load_game", "seen_by"]


class Games(AuditAndForks, Commands, Reads):
    """Every game operation, over one event store held for the life of the process."""
