"""Saladin's own event types. Each carries its effect so :mod:`.evolve` only assigns."""

from __future__ import annotations

from domain.events import EventData, Outcome, event_type


@event_type("saladin.TurnBegan")
class TurnBegan(EventData):
    turn: int


@event_type("saladin.OrdersBoxed")
class OrdersBoxed(EventData):
    """Orders placed back in the box: from the Available pool first, then the Spent pool."""

    side: str
    from_available: int
    from_spent: int
    reason: str


@event_type("saladin.OrdersSpent")
class OrdersSpent(EventData):
    """Orders moved from the Available to the Spent pool (a cost, a slash, a fire)."""

    side: str
    count: int
    reason: str


@event_type("saladin.OrdersRecovered")
class OrdersRecovered(EventData):
    """Orders put in the Available pool from ``source``: ``spent``, ``box`` or ``arsuf``."""

    side: str
    count: int
    source: str
    reason: str


@event_type("saladin.InitiativeDetermined")
class InitiativeDetermined(EventData):
    """Who holds the initiative and who decides next (``phase``, ``active``)."""

    holder: str
    reason: str
    phase: str
    active: str


@event_type("saladin.LeaderActivated")
class LeaderActivated(EventData):
    """A leader's action; its card turns to the Ordered side."""

    side: str
    leader: str
    action: str
    once: bool


@event_type("saladin.ActivationBegan")
class ActivationBegan(EventData):
    first: str


@event_type("saladin.ActionDeclared")
class ActionDeclared(EventData):
    side: str
    banner: str
    action: str
    target: str | None
    cost: int


@event_type("saladin.ReactionOffered")
class ReactionOffered(EventData):
    side: str
    banner: str


@event_type("saladin.ReactionDeclared")
class ReactionDeclared(EventData):
    side: str
    banner: str
    reaction: str
    cost: int


@event_type("saladin.ReactionDeclined")
class ReactionDeclined(EventData):
    side: str
    banner: str


@event_type("saladin.LancesLost")
class LancesLost(EventData):
    """Lances eliminated from a banner (or from Arsuf when ``banner`` is None), to the
    Losses Track or straight to the box."""

    side: str
    banner: str | None
    count: int
    to: str  # "losses-track" | "box"


@event_type("saladin.LossesTrackBoxed")
class LossesTrackBoxed(EventData):
    """The 6th lance lost: the 6 lances of the Losses Track go to the box."""

    side: str
    lances: int


@event_type("saladin.LanceReplaced")
class LanceReplaced(EventData):
    """A lance taken from the Losses Track back to a banner (or to Arsuf when None).
    Made by version 1 only (its Reinforce); kept so those records still decode."""

    side: str
    banner: str | None


@event_type("saladin.LancePlaced")
class LancePlaced(EventData):
    """Reinforce: ``banner`` "places 1 of its Lances on the location of the last lost Lance"
    of ``onto`` (a friendly banner, or ``arsuf``)."""

    side: str
    banner: str
    onto: str


@event_type("saladin.StatusChanged")
class StatusChanged(EventData):
    """The banner's status, and where its lances now stand."""

    banner: str
    status: str
    location: str


@event_type("saladin.MeleeJoined")
class MeleeJoined(EventData):
    """A Committed banner's action against an enemy: the two "fight in melee"."""

    crusader: str
    ayyubid: str


@event_type("saladin.MeleeLeft")
class MeleeLeft(EventData):
    """The two banners no longer fight each other in melee (a Regroup, a banner leaving play)."""

    crusader: str
    ayyubid: str
    reason: str


@event_type("saladin.SpecialRuleApplied")
class SpecialRuleApplied(EventData):
    """A scenario rule that acts by itself (game options ``taqui_al_din: automatic``,
    ``true_cross: automatic``): ``rule`` names its paragraph."""

    rule: str
    banner: str
    against: str | None = None


@event_type("saladin.BannerOrdered")
class BannerOrdered(EventData):
    banner: str


@event_type("saladin.BannerEliminated")
class BannerEliminated(EventData):
    """A banner lost its last lance: given to ``given_to`` or, when None, to the box."""

    banner: str
    given_to: str | None


@event_type("saladin.BannerSetAside")
class BannerSetAside(EventData):
    """A banner with no enemy banner left to target is removed, without penalty."""

    banner: str


@event_type("saladin.MarkerPlaced")
class MarkerPlaced(EventData):
    marker: str
    banner: str


@event_type("saladin.MarkerRemoved")
class MarkerRemoved(EventData):
    marker: str


@event_type("saladin.FireFed")
class FireFed(EventData):
    banner: str


@event_type("saladin.MovedToHorns")
class MovedToHorns(EventData):
    """Lusignan's lances move to the Horns of Hattin; the listed banners change cards."""

    cards: dict[str, str]


@event_type("saladin.ActivationEnded")
class ActivationEnded(EventData):
    side: str
    next: str


@event_type("saladin.Passed")
class Passed(EventData):
    side: str
    next: str | None


@event_type("saladin.Redeployed")
class Redeployed(EventData):
    """Every card in play back to its Deployed side; spent Orders back to the Available pool."""

    returned: dict[str, int]


@event_type("saladin.GameDecided")
class GameDecided(EventData):
    outcome: Outcome
