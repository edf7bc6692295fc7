"""Saladin commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

from domain.rules.base import TaggedCommand


class Activate(TaggedCommand, tag="activate", omit_defaults=True):
    """Activate a banner: an action of its card and, when the action needs one, a target."""

    banner: str
    action: str
    target: str | None = None


class Leader(TaggedCommand, tag="leader"):
    """Activate the leader with one of its actions (``seize-initiative`` in the Initiative phase)."""

    action: str


class React(TaggedCommand, tag="react"):
    """The targeted banner answers the declared action with one of its reactions."""

    banner: str
    reaction: str


class DeclineReaction(TaggedCommand, tag="decline-reaction"):
    """Let the declared action resolve."""


class DeclineSeize(TaggedCommand, tag="decline-seize"):
    """Leave the initiative where the Orders put it."""


class ChooseFirst(TaggedCommand, tag="choose-first"):
    """The initiative holder chooses who starts the Activation phase."""

    seat: str


class Pass(TaggedCommand, tag="pass"):
    """Pass for the rest of the Activation phase."""


SaladinCommand = Activate | Leader | React | DeclineReaction | DeclineSeize | ChooseFirst | Pass
