"""When two player names could be taken for each other: Unicode's confusable skeleton
(UTS #39, "Unicode Security Mechanisms", section 4), computed by ICU's spoof checker.

``Alice`` and ``Аlice`` (a Cyrillic А) differ under NFKC and case folding
(:func:`domain.names.name_key`) but share a skeleton. Case is folded first, so a capital I and
a small l, confusable in one case only, are two letters here.
The registry (:mod:`api.services.players`) refuses a new name whose :func:`confusable_key` a
registered name already has. ICU is the reference implementation of the skeleton and ships
Unicode's confusables data; it lives at the edge because :mod:`domain` imports nothing beside
the standard library and msgspec."""

from __future__ import annotations

import functools
import threading
import unicodedata

import icu

from domain.names import name_key

_local = threading.local()  # a SpoofChecker is not documented as safe to share between threads


def _checker() -> icu.SpoofChecker:
    checker = getattr(_local, "checker", None)
    if checker is None:
        checker = _local.checker = icu.SpoofChecker()
    return checker


@functools.lru_cache(maxsize=4096)
def confusable_key(name: str) -> str:
    """What two names that read alike share: the name case-folded with inner whitespace as one
    space (:func:`~domain.names.name_key`), without its accents (combining marks: ``Alíce`` and
    ``Zoë`` read as ``Alice`` and ``Zoe`` on a leaderboard at a glance), as its skeleton."""
    bare = "".join(c for c in unicodedata.normalize("NFD", name_key(name)) if unicodedata.category(c) != "Mn")
    return _checker().getSkeleton(0, bare)
