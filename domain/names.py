"""Player names as a person reads them: which names are refused, and when two are the same.

A name is refused when it holds a character nobody sees or that changes how the text around it
reads (:func:`unreadable`): Unicode's format characters (category Cf: zero-width space and
joiner, bidi overrides and isolates, the soft hyphen…), control characters (Cc: tabs, newlines),
line and paragraph separators (Zl, Zp), private-use, surrogate and unassigned code points
(Co, Cs, Cn) and the Hangul fillers, letters that print as nothing.

Two names are the same name when their :func:`name_key` is: NFKC (the fullwidth ``ａ`` is
``a``, the NFD ``e`` + combining diaeresis is ``ë``), case-folded (``ZOË`` is ``zoë``) and with
each run of inner whitespace one space. A name is recorded as sent, trimmed and in NFC
(:func:`recorded_name`): the player's own spelling and case, in one encoding.

Only new names are checked: events already recorded are never re-validated, so a record made
before these rules replays, exports and verifies as it did."""

from __future__ import annotations

import unicodedata

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
FILLERS = frozenset("\u115f\u1160\u3164\uffa0")  # Hangul fillers: letters (Lo) that print as nothing
RULE = "a player name holds no invisible or direction-changing characters (Unicode Cc, Cf, Zl, Zp, Co, Cs, Cn)"


def unreadable(name: str) -> str | None:
    """The first character of ``name`` a reader cannot see, as ``U+200B ZERO WIDTH SPACE``
    (None when every character can be read)."""
    for char in name:
        if char in FILLERS or unicodedata.category(char) in REFUSED_CATEGORIES:
            return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"
    return None


def recorded_name(name: str) -> str:
    """The name as it is recorded: trimmed, in NFC."""
    return unicodedata.normalize("NFC", name.strip())


def name_key(name: str) -> str:
    """What two names must share to be the same name: NFKC, case-folded (then NFKC again, as
    case folding can leave text unnormalised), inner whitespace runs as one space."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())
