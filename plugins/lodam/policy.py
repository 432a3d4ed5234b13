"""Cheap play for simulations: the rollout policy and the other seats' exchanges.

A rollout plays a sampled world to the end of the deal thousands of times a decision,
so each choice here is a few integer operations on the deal machine (a public deal
with its hidden part filled in, stepped unchecked). The play policy is a light version
of what every Lodam player does — duck under the card winning the trick, shed the
heaviest loader when renouncing, lead low — with a share of uniformly random plays so
that the simulations do not all follow one line.

Offers are hidden moves (only their kind is shown), so the search does not branch on
other seats' exchange decisions; they follow this policy instead. No seat offers in a
simulation, and a seat asked to accept does so with a lone card of the offer's kind (a
singleton or a doubleton loader, the usual reason to trade), else declines.
"""

from __future__ import annotations

import random

from lodam_p2p.games.lodam import (
    ANSWER_BASE,
    CARD_POINTS,
    CHALLENGE_BASE,
    DECLARE_BASE,
    DECLARE_PASS_CODE,
    DECLINE,
    LEAVE,
    NO_CHALLENGE,
    NO_OFFER,
    SUIT_MASK,
    SUIT_OF,
    Decision,
    PublicDeal,
    bits,
)

OFFER, ANSWER, PLAY = Decision.OFFER, Decision.ANSWER, Decision.PLAY
DECLARE, CHALLENGE = Decision.DECLARE, Decision.CHALLENGE

#: Share of uniformly random plays in rollouts.
EPSILON = 0.15


def play_choice(sim: PublicDeal, rng: random.Random) -> int:
    """The card index the rollout policy plays for ``sim.to_act``."""
    hand = sim.hands[sim.to_act]  # type: ignore[index]
    led = sim.led
    follow = hand & SUIT_MASK[led] if led >= 0 else 0
    cards = bits(follow or hand)
    if len(cards) == 1:
        return cards[0]
    if rng.random() < EPSILON:
        return cards[int(rng.random() * len(cards))]
    strength = sim.strength
    if led < 0:  # lead the lowest card
        return min(cards, key=lambda c: (strength[c], CARD_POINTS[c]))
    if not follow:  # renounce: shed the heaviest loader, else the highest card
        return max(cards, key=lambda c: (CARD_POINTS[c], strength[c]))
    if sim.hi_trump_seat >= 0 and sim.trump_suit != led:  # trumped: nothing of ours wins
        return max(cards, key=lambda c: (CARD_POINTS[c], strength[c]))
    below = [c for c in cards if strength[c] < sim.hi_led_str]
    if below:  # duck as high as is safe
        return max(below, key=lambda c: strength[c])
    if len(sim.trick) == sim.m - 1:  # last to play and must win: the lightest, highest card
        return max(cards, key=lambda c: (-CARD_POINTS[c], strength[c]))
    return min(cards, key=lambda c: strength[c])


def exchange_choice(sim: PublicDeal) -> int:
    """Another seat's offer (none) or answer (a lone card of the kind, else decline)."""
    if sim.awaiting is OFFER:
        return NO_OFFER
    hand = sim.hands[sim.to_act]  # type: ignore[index]
    best, best_len = -1, 3
    for card in bits(hand & sim.offer_mask):
        length = (hand & SUIT_MASK[SUIT_OF[card]]).bit_count()
        if length < best_len:
            best, best_len = card, length
    return DECLINE if best < 0 else ANSWER_BASE + best


def boundary_choice(sim: PublicDeal) -> int:
    """Declare out (or, as a watcher, challenge) only against a seat that holds
    ``out_at``: that seat then loses the counter."""
    seat, out_at = sim.to_act, sim.out_at
    assert seat is not None
    marked = [t for t in sim.order if t != seat and sim.points[t] >= out_at]
    if sim.awaiting is DECLARE:
        if marked and sim.points[seat] >= out_at:
            return DECLARE_BASE + max(marked, key=lambda t: sim.points[t])
        return DECLARE_PASS_CODE
    if marked:
        return CHALLENGE_BASE + max(marked, key=lambda t: sim.points[t])
    return NO_CHALLENGE


def rollout(sim: PublicDeal, rng: random.Random) -> None:
    """Play ``sim`` to the end of the deal with the policy."""
    while True:
        d = sim.awaiting
        if d is PLAY:
            sim.play_card(sim.to_act, play_choice(sim, rng))  # type: ignore[arg-type]
        elif d is None:
            return
        elif d is OFFER:
            sim.step(NO_OFFER)
        elif d is ANSWER:
            sim.step(exchange_choice(sim))
        elif d is DECLARE or d is CHALLENGE:
            sim.step(boundary_choice(sim))
        else:
            sim.step(LEAVE)
