"""Every code a RuleViolation of Saladin carries (domain/rules/base.py, "Violations"),
with what its detail says (as written: … stands for what the command names) and the rulebook
sections it is raised under: its problem page (GET /problems/<code>). tests/api/test_problem_pages.py
finds every code this package raises declared here; tests/rules/conformance.py every code raised in play."""

from __future__ import annotations

from domain.rules.base import Violation

VIOLATIONS: dict[str, Violation] = {
    "saladin.action_needs_status": Violation(
        "… needs the banner …",
        rules=("Key Game Terms — Status",)),
    "saladin.action_not_usable_when_ordered": Violation(
        "… is not available on the Ordered side",
        rules=("Activation — Special cases and consequences of activation",)),
    "saladin.bad_cards": Violation(
        "the card data breaks … rule(s): ……",
        rules=("Owner-supplied card data (RULES_NOTES.md)",)),
    "saladin.bad_option": Violation(
        "game options: … (RULES_NOTES.md, Game options: true_cross automatic|leader-action, taqui_al_din "
        "automatic|reaction)",
        rules=("Setup",)),
    "saladin.bad_seats": Violation(
        "Saladin is played by exactly …",
        rules=("Setup",)),
    "saladin.banner_not_in_play": Violation(
        "… is no longer in play (…)",
        rules=("Key Game Terms — Lance",)),
    "saladin.cannot_pass_with_deployed_cards": Violation(
        "a player passes only when all their cards are on their Ordered side",
        rules=("Sequence of Play — Activation",)),
    "saladin.cannot_seize": Violation(
        "only the seize-initiative Leader action may be used now",
        rules=("Sequence of Play — Initiative",)),
    "saladin.fire_already_set": Violation(
        "the Fire marker is already on the board"),
    "saladin.game_over": Violation(
        "the game is over",
        rules=("Victory Conditions",)),
    "saladin.horns_action_required": Violation(
        "Lusignan must move to the Horns of Hattin first",
        rules=("The Battle of Hattin — Scenario-specific Actions",)),
    "saladin.invalid_target": Violation(
        "… cannot target … with … while …",
        rules=("Key Game Terms — Action / Reaction", "The Battle of Arsuf — Scenario-specific Actions")),
    "saladin.leader_action_unavailable": Violation(
        "… cannot be used now",
        rules=("Activation — Activating a Leader",)),
    "saladin.leader_ordered": Violation(
        "… is on its Ordered side",
        rules=("Activation — Activating a Leader",)),
    "saladin.marker_in_play": Violation(
        "the Shield wall marker is already on the board"),
    "saladin.no_fire_marker": Violation(
        "Feed Fire needs the Fire marker on the board"),
    "saladin.not_enough_orders": Violation(
        "… costs … Order(s); … available",
        rules=("Activation — Special cases and consequences of activation",)),
    "saladin.not_initiative_holder": Violation(
        "only the initiative holder chooses who starts now",
        rules=("Sequence of Play — Initiative",)),
    "saladin.not_your_activation": Violation(
        "it is …'s activation",
        rules=("Sequence of Play — Activation",)),
    "saladin.not_your_banner": Violation(
        "… is not a … banner",
        rules=("Activation — Activating a Banner",)),
    "saladin.not_your_reaction": Violation(
        "… decides the reaction",
        rules=("Key Game Terms — Action / Reaction",)),
    "saladin.nothing_to_reinforce": Violation(
        "Arsuf has no lost lance to replace (or has fallen)",
        rules=("Key Game Terms — Lance",)),
    "saladin.once_per_game_used": Violation(
        "… is used once per game",
        rules=("The Battle of Hattin — Scenario-specific Actions",)),
    "saladin.reaction_not_allowed": Violation(
        "… cannot react with … now",
        rules=("Key Game Terms — Action / Reaction",)),
    "saladin.target_never_committed": Violation(
        "… would bring … into melee, and … cannot be Committed now",
        rules=("Activation — Special cases and consequences of activation",)),
    "saladin.target_not_allowed": Violation(
        "… takes no target",
        rules=("Activation — Activating a Banner",)),
    "saladin.target_required": Violation(
        "… needs a target",
        rules=("Activation — Activating a Banner",)),
    "saladin.unknown_action": Violation(
        "…'s card has no action …",
        rules=("Activation — Activating a Banner",)),
    "saladin.unknown_banner": Violation(
        "no banner … in this scenario",
        rules=("Activation — Activating a Banner",)),
    "saladin.unknown_command": Violation(
        "unknown command …",
        rules=("Sequence of Play — Activation",)),
    "saladin.unknown_leader_action": Violation(
        "… has no action …",
        rules=("Activation — Activating a Leader",)),
    "saladin.unknown_seat": Violation(
        "no seat …",
        rules=("Sequence of Play — Initiative", "Setup")),
    "saladin.wrong_phase": Violation(
        "no activation now: the game is in the … step",
        rules=(
            "Key Game Terms — Action / Reaction",
            "Sequence of Play — Activation",
            "Sequence of Play — Initiative",
        )),
}
