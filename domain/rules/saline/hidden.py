"""What a rollout may not see in Saline (domain/rules/base.py, "Rollouts"): the other seats'
hands, the event cards not yet drawn and the other seats' secret objectives, dealt again from the
cards the reader cannot tell apart. ``rnd`` is the rollout's ``random.Random``, handed in."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.rules.saline.state import SalineState


def determinize(state: SalineState, seen: frozenset[str], rnd: Any) -> SalineState:
    """Saline: the other seats' hands and the event cards not yet drawn are one pool, dealt
    again hand by hand (the cards drawn tonight stay as many); the other seats' secret
    objectives not yet claimed are dealt again from the objectives nobody sees. The face-down
    discards stay where they are (RULES_NOTES.md has no way to tell them apart either). The pile
    in play keeps its size and its count of cards left: as many dealt cards as the hidden hands
    held from it (tonight's first) are its drawn cards, the cards not dealt its undrawn ones."""
    hidden = [s for s in state.seats if s not in seen]
    if not hidden:
        return state
    held = {c for s in hidden for c in state.hands.get(s, ())}
    undrawn = [c for c in state.event_deck if c not in state.events_drawn]
    pool = sorted(held | set(undrawn))
    rnd.shuffle(pool)
    hands, fresh, tonight, earlier = dict(state.hands), dict(state.fresh), [], []
    for s in hidden:
        n, k = len(state.hands.get(s, ())), len(state.fresh.get(s, ()))
        new, pool = tuple(pool[:n]), pool[n:]
        hands[s] = new
        if s in state.fresh:
            fresh[s] = new[n - k:] if k else ()
        tonight += new[n - k:] if k else ()
        earlier += new[:n - k] if k else new
    in_pile = set(state.event_deck)
    from_pile = (tonight + earlier)[:len(held & in_pile)]  # the hidden hands' cards drawn from the pile
    kept = in_pile - held - set(undrawn)  # drawn from it and now in sight (played, discarded, seen hands)
    drawn = (state.events_drawn - held) | set(from_pile)
    event_deck = tuple(sorted(kept | set(from_pile) | set(pool)))  # its order is never in a state
    claimed = {o for got in state.claimed.values() for o in got}
    secret = {s: o for s, o in state.secrets.items() if s in hidden and o not in claimed}
    unseen = sorted(set(state.cat.objectives) - set(state.public_objectives) - claimed
                    - {o for s, o in state.secrets.items() if s not in secret})
    rnd.shuffle(unseen)
    secrets = dict(state.secrets)
    for s in sorted(secret):
        secrets[s] = unseen.pop()
    return replace(state, hands=hands, fresh=fresh, event_deck=event_deck, events_drawn=frozenset(drawn),
                   secrets=secrets)
