"""Questions about a position that every phase shares (costs, targets, reactions, who must
act), and the checks that make a command legal. ``legal_commands`` and ``decide`` both go
through :func:`check`, so a listed command is exactly an accepted one."""

from __future__ import annotations

from collections.abc import Iterator

from domain.rules.base import RuleViolation, accepted
from domain.rules.saladin import commands as cmd
from domain.rules.saladin.data import ARSUF, SEATS, Action, Card, Reaction
from domain.rules.saladin.position import COMMITTED, eliminated, tables  # noqa: F401 - eliminated: for callers
from domain.rules.saladin.scenarios import R_ARSUF, R_HATTIN, scenario_of
from domain.rules.saladin.state import BannerState, Pending, SaladinState

R_ACTIVATION = "Sequence of Play — Activation"
R_SPECIAL = "Activation — Special cases and consequences of activation"
R_BANNER = "Activation — Activating a Banner"
R_LEADER = "Activation — Activating a Leader"
R_REACTION = "Key Game Terms — Action / Reaction"
R_INITIATIVE = "Sequence of Play — Initiative"
R_STATUS = "Key Game Terms — Status"
R_LANCE = "Key Game Terms — Lance"


def violation(reason: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(f"saladin.{reason}", message, rule)


def card_of(state: SaladinState, banner_id: str) -> Card:
    return tables(state).card(state.banners[banner_id].card)


def surcharge(state: SaladinState, banner_id: str) -> int:
    """The '+1' markers uncovered by the banner's lost lances."""
    by_lost = tables(state).surcharge[banner_id]
    lost = len(by_lost) - 1 - state.banners[banner_id].lances
    if 0 <= lost < len(by_lost):
        return by_lost[lost]
    track = tables(state).banner(banner_id).track
    return sum(1 for slot in track[:lost] if slot == "+1")


def action_cost(state: SaladinState, banner_id: str, action: Action) -> int:
    """Printed cost plus the surcharge; a 0-cost action never pays a surcharge."""
    return action.cost + surcharge(state, banner_id) if action.cost else 0


def target_in_play(state: SaladinState, target: str) -> bool:
    if target == ARSUF:
        return state.arsuf_lances > 0
    b = state.banners.get(target)
    return b is not None and b.fate == "in-play"


def has_any_target(state: SaladinState, banner_id: str) -> bool:
    banners = state.banners
    for t in card_of(state, banner_id).targets:  # target_in_play, inlined: set_aside asks it often
        if t.banner == ARSUF:
            if state.arsuf_lances > 0:
                return True
        else:
            b = banners.get(t.banner)
            if b is not None and b.fate == "in-play":
                return True
    return False


def enemy_targets(state: SaladinState, banner: BannerState, card: Card, live: set[str] | None = None) -> list[str]:
    """Enemy banners this banner may target now: in play and allowed in its status. ``live``:
    the banners in play, when the caller has them already."""
    by_status = tables(state).enemies[card.id].get(banner.status)
    if by_status is None:
        return sorted(t.banner for t in card.targets
                      if t.banner != ARSUF and banner.status in t.modes and target_in_play(state, t.banner))
    if live is not None:
        return [x for x in by_status if x in live]
    banners = state.banners
    return [x for x in by_status if x in banners and banners[x].fate == "in-play"]  # target_in_play


def may_target(state: SaladinState, banner: BannerState, card: Card, target: str) -> bool:
    """Whether ``target`` is one of :func:`enemy_targets` (without building the list)."""
    if target == ARSUF or not target_in_play(state, target):
        return False
    for t in card.targets:
        if t.banner == target and banner.status in t.modes:
            return True
    return False


def can_be_committed(state: SaladinState, banner_id: str) -> bool:
    """Whether the banner's status can be Committed now: not one of the banners that "can
    never be Committed", and for Hattin's Lusignan only at the Horns ("On the one it occupies
    at the beginning of the scenario, Lusignan is always Uncommitted")."""
    rule = tables(state).status_rule[banner_id]
    if rule == "never-committed":
        return False
    if rule == "camp-then-horns":
        return state.banners[banner_id].location == "horns"
    return True


def joins_melee(state: SaladinState, banner: BannerState, action: Action) -> bool:
    """The action changes the acting banner from Uncommitted to Committed (a Charge): "This
    change therefore involves changing the status of the enemy Banner" (Game turn), which then
    fights it in melee. An action that changes no status changes no enemy's (RULES_NOTES.md,
    reading 6). Records of 2.0.0 replay its reading: any action of a Committed banner that does
    not withdraw it did too."""
    if state.version == "2.0.0":
        return action.change == "commit" or (banner.status == COMMITTED and action.change is None)
    return action.change == "commit" and banner.status != COMMITTED


def orders(state: SaladinState) -> dict[str, int]:
    return {s: state.sides[s].orders for s in SEATS}


def horns_required(state: SaladinState, side: str) -> bool:
    """Whether ``side`` must take its scenario's mandatory Leader action first (Hattin: Lusignan
    to the Horns; :func:`.scenarios.horns_required`)."""
    return scenario_of(state).horns_required(state, side)


def leader_action_usable(state: SaladinState, side: str, action_id: str) -> bool:
    """Whether the Leader action's own condition holds (Orders, scenario state): the scenario's
    own Leader actions ask the scenario (:class:`.scenarios.LeaderRule`)."""
    if action_id == "recover-order":
        return True  # with no spent Order it recovers nothing (RULES_NOTES.md, Leaders)
    own = scenario_of(state).leader_actions.get(action_id)
    return own is not None and own.usable(state, side)


def can_act(state: SaladinState, banner: BannerState) -> bool:
    """Whether the banner has an action it may take now. Every card has its cost-0 action
    ("they must activate it using the Action with a cost of 0"); an owner's card may print it
    with a status colour or a target, and a Deployed banner that can take no action then does not
    keep its player from passing (RULES_NOTES.md, Owner-supplied card data). With the
    reconstruction's cards (Hold, any status, no target) this is always true."""
    card = card_of(state, banner.id)
    if any(a.cost == 0 and a.status == "any" and a.target == "none" for a in card.actions):
        return True
    return any(c.banner == banner.id for c in activations(state, banner.side))


def must_activate(state: SaladinState, side: str) -> bool:
    """"A player can pass only if all their Banners and Leader cards are on their Ordered
    side": a Deployed banner in play, or a Deployed leader with an action it can take, keeps
    the player from passing."""
    for b in state.banners.values():
        if b.side == side and not b.ordered and b.fate == "in-play" and can_act(state, b):
            return True
    st = state.sides[side]
    if st.leader_ordered:
        return False
    leader = tables(state).leaders[side]
    return any(a.id != "seize-initiative" and not (a.once and a.id in st.used_once)
               and leader_action_usable(state, side, a.id) for a in leader.actions)


def reaction_options(state: SaladinState, pending: Pending) -> list[tuple[str, Reaction]]:
    """Reactions the targeted banner may answer the declared action with."""
    target = pending.target
    if target is None or target == ARSUF or target not in state.banners:
        return []
    tb = state.banners[target]
    if not tb.in_play or tb.ordered or tb.side == pending.side:
        return []
    card = card_of(state, target)
    if "reaction" not in tables(state).modes[card.id].get(pending.banner, ()):  # card.target_modes
        return []
    avail = state.sides[tb.side].available
    return [(target, r) for r in card.reactions
            if pending.action in r.against and avail >= r.cost and not automatic(state, r)]


def automatic(state: SaladinState, reaction: Reaction) -> bool:
    """Taqui al Din's answer to Raymond III's charges acts by itself unless the game was
    created with ``taqui_al_din: reaction`` (RULES_NOTES.md, Game options)."""
    return reaction.effect == "two-lances-to-box" and state.options.taqui_al_din == "automatic"


def automatic_answer(state: SaladinState, pending: Pending) -> Reaction | None:
    """The automatic scenario rule the declared action sets off, if any: "In the event of a
    Charge or Uncontrolled Charge by the Banner of Raymond III" (Hattin — Taqui al Din)."""
    target = pending.target
    if target is None or target not in state.banners or not state.banners[target].in_play:
        return None
    card = card_of(state, target)
    if "reaction" not in tables(state).modes[card.id].get(pending.banner, ()):  # card.target_modes
        return None
    return next((r for r in card.reactions if automatic(state, r) and pending.action in r.against), None)


# -- checks ---------------------------------------------------------------------------------------
def _activation_turn(state: SaladinState, seat: str) -> None:
    if state.phase != "activation":
        raise violation("wrong_phase", f"no activation now: the game is in the {state.phase} step", R_ACTIVATION)
    if state.active != seat:
        raise violation("not_your_activation", f"it is {state.active}'s activation", R_ACTIVATION)


def check_activate(state: SaladinState, seat: str, c: cmd.Activate) -> tuple[Action, int]:
    """The action and its cost, or a RuleViolation."""
    _activation_turn(state, seat)
    if horns_required(state, seat):
        raise violation("horns_action_required", "Lusignan must move to the Horns of Hattin first", R_HATTIN)
    banner = state.banners.get(c.banner)
    if banner is None:
        raise violation("unknown_banner", f"no banner {c.banner!r} in this scenario", R_BANNER)
    if banner.side != seat:
        raise violation("not_your_banner", f"{c.banner} is not a {seat} banner", R_BANNER)
    if not banner.in_play:
        raise violation("banner_not_in_play", f"{c.banner} is no longer in play ({banner.fate})", R_LANCE)
    card = card_of(state, c.banner)
    action = card.action(c.action)
    if action is None:
        raise violation("unknown_action", f"{c.banner}'s card has no action {c.action!r}", R_BANNER)
    if action.status != "any" and action.status != banner.status:
        raise violation("action_needs_status", f"{action.name} needs the banner {action.status}", R_STATUS)
    if banner.ordered and not action.ordered:
        raise violation("action_not_usable_when_ordered", f"{action.name} is not available on the Ordered side",
                        R_SPECIAL)
    cost = action_cost(state, c.banner, action)
    if state.sides[seat].available < cost:
        raise violation("not_enough_orders", f"{action.name} costs {cost} Order(s); "
                        f"{state.sides[seat].available} available", R_SPECIAL)
    _check_target(state, seat, banner, card, action, c.target)
    _check_effect(state, seat, action)
    return action, cost


def _check_target(state, seat, banner, card, action, target) -> None:
    if action.target == "none":
        if target is not None:
            raise violation("target_not_allowed", f"{action.name} takes no target", R_BANNER)
        return
    if target is None:
        raise violation("target_required", f"{action.name} needs a target", R_BANNER)
    if action.target == "enemy":
        if not may_target(state, banner, card, target):
            raise violation("invalid_target", f"{banner.id} cannot target {target} with {action.name} "
                            f"while {banner.status}", R_REACTION)
        if joins_melee(state, banner, action) and not can_be_committed(state, target):
            raise violation("target_never_committed", f"{action.name} would bring {target} into melee, and "
                            f"{target} cannot be Committed now", R_SPECIAL)
    elif action.target == "arsuf":
        if target != ARSUF or not target_in_play(state, ARSUF) or banner.status not in card.target_modes(ARSUF):
            raise violation("invalid_target", f"{action.name} targets the Ayyubid lances in Arsuf", R_ARSUF)
    elif action.target == "friendly":
        friend = state.banners.get(target)
        if target not in action.friendly or friend is None or not friend.in_play:
            raise violation("invalid_target", f"{action.name} reinforces one of {', '.join(action.friendly)}",
                            scenario_of(state).actions_rule)
        if friend.lances >= len(tables(state).banner(target).track):
            raise violation("nothing_to_reinforce", f"{target} has lost no lance", R_LANCE)


CHECKED_EFFECTS = frozenset({"shield-wall", "set-fire", "feed-fire", "reinforce-arsuf"})  # what _check_effect checks


def _check_effect(state: SaladinState, seat: str, action: Action) -> None:
    effect = action.effect
    rule = scenario_of(state).actions_rule
    if effect == "shield-wall" and "shield-wall" in state.markers:
        raise violation("marker_in_play", "the Shield wall marker is already on the board", rule)
    if effect == "set-fire" and "fire" in state.markers:
        raise violation("fire_already_set", "the Fire marker is already on the board", rule)
    if effect == "feed-fire" and "fire" not in state.markers:
        raise violation("no_fire_marker", "Feed Fire needs the Fire marker on the board", rule)
    if effect == "reinforce-arsuf":
        if state.arsuf_lances != 1:
            raise violation("nothing_to_reinforce", "Arsuf has no lost lance to replace "
                            "(or has fallen)", rule)


def check_leader(state: SaladinState, seat: str, c: cmd.Leader) -> None:
    leader = tables(state).leaders[seat]
    spec = next((a for a in leader.actions if a.id == c.action), None)
    st = state.sides[seat]
    if state.phase == "seize":
        if state.active != seat or c.action != "seize-initiative" or spec is None:
            raise violation("cannot_seize", "only the seize-initiative Leader action may be used now", R_INITIATIVE)
        return
    _activation_turn(state, seat)
    if spec is None:
        raise violation("unknown_leader_action", f"{leader.name} has no action {c.action!r}", R_LEADER)
    if c.action == "seize-initiative":
        raise violation("wrong_phase", "the initiative is seized during the Initiative phase", R_INITIATIVE)
    if st.leader_ordered:
        raise violation("leader_ordered", f"{leader.name} is on its Ordered side", R_LEADER)
    if spec.once and spec.id in st.used_once:
        raise violation("once_per_game_used", f"{spec.name} is used once per game", R_HATTIN)
    if horns_required(state, seat) and c.action != "horns":
        raise violation("horns_action_required", "Lusignan must move to the Horns of Hattin first", R_HATTIN)
    if not leader_action_usable(state, seat, c.action):
        raise violation("leader_action_unavailable", f"{spec.name} cannot be used now", R_LEADER)


def check_pass(state: SaladinState, seat: str) -> None:
    _activation_turn(state, seat)
    if must_activate(state, seat):
        raise violation("cannot_pass_with_deployed_cards",
                        "a player passes only when all their cards are on their Ordered side", R_ACTIVATION)


def check_react(state: SaladinState, seat: str, c: cmd.React) -> Reaction:
    if state.phase != "reaction" or state.pending is None:
        raise violation("wrong_phase", "no action is waiting for a reaction", R_REACTION)
    if state.active != seat:
        raise violation("not_your_reaction", f"{state.active} decides the reaction", R_REACTION)
    for banner, reaction in reaction_options(state, state.pending):
        if banner == c.banner and reaction.id == c.reaction:
            return reaction
    raise violation("reaction_not_allowed", f"{c.banner} cannot react with {c.reaction!r} now", R_REACTION)


def check(state: SaladinState, seat: str, c) -> object:
    """Validate any command (a RuleViolation when refused); what it returns (the action and its
    cost, the reaction) is what the checks found, kept for readers of the checks."""
    if state.result is not None or state.phase == "over":
        raise violation("game_over", "the game is over", "Victory Conditions")
    if seat not in SEATS:
        raise violation("unknown_seat", f"no seat {seat!r}", "Setup")
    match c:
        case cmd.Activate():
            return check_activate(state, seat, c)
        case cmd.Leader():
            return check_leader(state, seat, c)
        case cmd.Pass():
            return check_pass(state, seat)
        case cmd.React():
            return check_react(state, seat, c)
        case cmd.DeclineReaction():
            if state.phase != "reaction" or state.active != seat:
                raise violation("wrong_phase", "no reaction is asked of you", R_REACTION)
            return None
        case cmd.DeclineSeize():
            if state.phase != "seize" or state.active != seat:
                raise violation("wrong_phase", "the initiative is not yours to seize now", R_INITIATIVE)
            return None
        case cmd.ChooseFirst(seat=first):
            if state.phase != "choose-first" or state.active != seat:
                raise violation("not_initiative_holder", "only the initiative holder chooses who starts now",
                                R_INITIATIVE)
            if first not in SEATS:
                raise violation("unknown_seat", f"no seat {first!r}", R_INITIATIVE)
            return None
    raise violation("unknown_command", f"unknown command {c!r}", R_ACTIVATION)


def candidates(state: SaladinState, seat: str) -> Iterator[object]:
    """Every command worth asking :func:`check` about for ``seat`` now."""
    if state.phase == "seize":
        yield cmd.Leader(action="seize-initiative")
        yield cmd.DeclineSeize()
    elif state.phase == "choose-first":
        for s in SEATS:
            yield cmd.ChooseFirst(seat=s)
    elif state.phase == "reaction" and state.pending is not None:
        for banner, reaction in reaction_options(state, state.pending):
            yield cmd.React(banner=banner, reaction=reaction.id)
        yield cmd.DeclineReaction()
    elif state.phase == "activation":
        available = state.sides[seat].available
        for banner_id in sorted(state.banners):
            banner = state.banners[banner_id]
            if banner.side != seat or not banner.in_play:
                continue
            card = card_of(state, banner_id)
            for action in card.actions:
                # cheap filters that mirror check_activate; check() still decides
                if (banner.ordered and not action.ordered) or action.status not in ("any", banner.status) \
                        or action_cost(state, banner_id, action) > available:
                    continue
                if action.target == "none":
                    targets: list[str | None] = [None]
                elif action.target == "enemy":
                    targets = enemy_targets(state, banner, card)
                elif action.target == "arsuf":
                    targets = [ARSUF]
                else:
                    targets = sorted(action.friendly)
                for target in targets:
                    yield cmd.Activate(banner=banner_id, action=action.id, target=target)
        for a in tables(state).leaders[seat].actions:
            yield cmd.Leader(action=a.id)
        yield cmd.Pass()


def legal_by_check(state: SaladinState, seat: str) -> list[object]:
    """The definition of the legal commands: every candidate :func:`check` accepts. :func:`legal`
    gives the same list faster (tests/rules/saladin/test_perft.py compares them)."""
    if state.result is not None or state.active != seat:
        return []
    return accepted(check, state, seat, candidates(state, seat))


def legal(state: SaladinState, seat: str) -> list[object]:
    """:func:`legal_by_check`, with the activations of the Activation phase checked once per
    position for what they share (phase, seat, the Horns) and then each by the same
    :func:`check_activate` pieces: this runs once per decision of every rollout (issue 19)."""
    if state.result is not None or state.active != seat:
        return []
    if state.phase != "activation":
        return accepted(check, state, seat, candidates(state, seat))
    horns = horns_required(state, seat)
    out: list[object] = [] if horns else activations(state, seat)
    # check() would find the game on, the seat a seat, the phase and the turn right (it is the
    # active seat's activation): what is left of check_leader and check_pass, asked as
    # questions rather than raised (no exception per refused command)
    st = state.sides[seat]
    for a in () if st.leader_ordered else tables(state).leaders[seat].actions:
        # check_leader: the action exists (it is listed); seize-initiative is refused in this
        # phase; a once-per-game action used; the Horns first; the action's own condition
        if a.id == "seize-initiative" or (a.once and a.id in st.used_once) or (horns and a.id != "horns"):
            continue
        if leader_action_usable(state, seat, a.id):
            out.append(cmd.Leader(action=a.id))
    if not must_activate(state, seat):  # check_pass
        out.append(cmd.Pass())
    return out


def activations(state: SaladinState, seat: str) -> list[object]:
    """The Activate commands :func:`check_activate` accepts for ``seat``, whose activation it is
    and who need not take the Horns first: the candidates' filters are its checks on banner,
    status, Ordered side and cost, :func:`_check_effect` is asked once per action, and of
    :func:`_check_target` only what :func:`enemy_targets` leaves open is asked per target."""
    out: list[object] = []
    available = state.sides[seat].available
    t = tables(state)
    live = {k for k, x in state.banners.items() if x.fate == "in-play"}  # for enemy_targets, found once
    for banner_id in t.banner_ids_of[seat]:  # a banner's side never changes
        banner = state.banners[banner_id]
        if banner.side != seat or banner.fate != "in-play":
            continue
        card = t.cards[banner.card]
        by_lost = t.surcharge[banner_id]  # surcharge(), inlined
        lost = len(by_lost) - 1 - banner.lances
        extra = by_lost[lost] if 0 <= lost < len(by_lost) else surcharge(state, banner_id)
        usable = t.usable[card.id].get((banner.ordered, banner.status))
        if usable is None:  # a status no card prints: check each action
            usable = tuple(a for a in card.actions if card.action(a.id) is a and (a.ordered or not banner.ordered)
                           and a.status in ("any", banner.status))
        # enemy_targets, and those of them that can be Committed: the same for each of the
        # banner's actions, found when an action first needs them
        enemies: list[str] | None = None
        committable: list[str] | None = None
        for action in usable:
            if (action.cost + extra if action.cost else 0) > available:  # action_cost
                continue
            if action.effect in CHECKED_EFFECTS:
                try:
                    _check_effect(state, seat, action)  # the same for every target
                except RuleViolation:
                    continue
            if action.target == "none":  # _check_target asks for no target: nothing to check
                out.append(cmd.Activate(banner=banner_id, action=action.id, target=None))
                continue
            if action.target == "enemy":  # enemy_targets are the targets _check_target allows, then
                if enemies is None:  # its only other check, per target, for an action joining a melee
                    enemies = enemy_targets(state, banner, card, live)
                targets = enemies
                if joins_melee(state, banner, action):
                    if committable is None:
                        committable = [x for x in enemies if can_be_committed(state, x)]
                    targets = committable
                for target in targets:
                    out.append(cmd.Activate(banner=banner_id, action=action.id, target=target))
                continue
            for target in [ARSUF] if action.target == "arsuf" else sorted(action.friendly):
                try:
                    _check_target(state, seat, banner, card, action, target)
                except RuleViolation:
                    continue
                out.append(cmd.Activate(banner=banner_id, action=action.id, target=target))
    return out
