"""Saladin commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

import msgspec


class Activate(msgspec.Struct, frozen=True, tag="activate", tag_field="type", forbid_unknown_fields=True,
               omit_defaults=True):
    """Activate a banner: an action of its card and, when the action needs one, a target."""

    banner: str
    action: str
    target: str | None = None


class Leader(msgspec.Struct, frozen=True, tag="leader", tag_field="type", forbid_unknown_fields=True):
    """Activate the leader with one of its actions (``seize-initiative`` in the Initiative phase)."""

    action: str


class React(msgspec.Struct, frozen=True, tag="react", tag_field="type", forbid_unknown_fields=True):
    """The targeted banner answers the declared action with one of its reactions."""

    banner: str
    reaction: str


class DeclineReaction(msgspec.Struct, frozen=True, tag="decline-reaction", tag_field="type",
                      forbid_unknown_fields=True):
    """Let the declared action resolve."""


class DeclineSeize(msgspec.Struct, frozen=True, tag="decline-seize", tag_field="type", forbid_unknown_fields=True):
    """Leave the initiative where the Orders put it."""


class ChooseFirst(msgspec.Struct, frozen=True, tag="choose-first", tag_field="type", forbid_unknown_fields=True):
    """The initiative holder chooses who starts the Activation phase."""

    seat: str


class Pass(msgspec.Struct, frozen=True, tag="pass", tag_field="type", forbid_unknown_fields=True):
    """Pass for the rest of the Activation phase."""


SaladinCommand = Activate | Leader | React | DeclineReaction | DeclineSeize | ChooseFirst | Pass
