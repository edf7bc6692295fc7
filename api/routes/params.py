"""The path, query and header parameters many routes take, each defined once."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import Header, Path, Query

from api.numbers import MAX_INT

GameId = Annotated[UUID, Path(description="The game's UUID")]
After = Annotated[int, Query(ge=0, le=MAX_INT)]  # a page starts after this position
Limit = Annotated[int, Query(ge=1, le=1000)]  # the most items a page holds
Token = Annotated[str | None, Header()]  # Authorization: Bearer <token>
