"""Whole numbers as Herald reads them from headers, queries and the command line."""

from __future__ import annotations

MAX_INT = 2**63 - 1  # every integer Herald takes fits both backends' BIGINT
_DIGITS = len(str(MAX_INT))


def whole_number(text: str | bytes, limit: int = MAX_INT) -> int | None:
    """``text`` as a number of ASCII digits no greater than ``limit``, else None.

    The length is bounded before ``int`` reads it: Python refuses to parse more than 4,300
    digits (a ValueError, which had answered 500), and superscripts such as "²" pass
    ``str.isdigit`` but not ``int``."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    if not (0 < len(text) <= _DIGITS and text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if value <= limit else None
