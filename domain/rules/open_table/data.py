"""The open table's components: the standard 54-card deck (``standard-54.json``) and the limits
of what a seat may record."""

from __future__ import annotations

import json
import re
from pathlib import Path

SYSTEM = "open-table"
PACKAGE = Path(__file__).parent
STANDARD_DECK = "standard-54"
STANDARD_CARDS = tuple(json.loads((PACKAGE / "standard-54.json").read_text())["cards"])
MAX_SEATS = 8
MAX_TEXT = 2_000
MAX_DRAW = 54
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")  # a custom die's or deck's name
