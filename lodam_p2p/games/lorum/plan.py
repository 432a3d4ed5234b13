"""The deal plan: which deck positions go to which seat (LORUM.md 2), stated once.

A plan is a value that the engine, a match and a network layer dealing an encrypted deck
all read the same way. Seat ``e_k`` (the eldest ``e_0``, then to the left) receives the
positions ``start + k, start + k + n, …``. With three players ``7S 8S`` are set aside face
up and the deck holds the other 30 cards. Under ``first_last_short`` a deal takes only
two cards each, from ``start`` on, and the positions after it are the *stack* that passes
unshuffled to the next dealer; a new shuffle (``fresh``) happens only when the stack is
too short for a deal.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.games.lorum.actions import MalformedInput
from lodam_p2p.games.lorum.cards import (
    PACK,
    PACK_MASK,
    SET_ASIDE,
    SET_ASIDE_MASK,
    SHORT_PACK,
    Card,
    mask_of,
)
from lodam_p2p.games.lorum.options import MAX_PLAYERS, MIN_PLAYERS

#: Cards per hand in the short First-and-last.
SHORT_HAND = 2
_SHORT_MASK = PACK_MASK & ~SET_ASIDE_MASK


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Where the cards of one deal come from."""

    players: int
    dealer: int
    deck_size: int  #: cards in a shuffled deck: 32, or 30 with three players
    set_aside: tuple[Card, ...]  #: face up, never dealt (``7S 8S`` with three players)
    hands: tuple[tuple[int, ...], ...]  #: per seat, the deck positions it receives
    fresh: bool  #: this deal starts a new shuffle (position 0)
    stack: tuple[int, ...]  #: positions left after this deal that pass to the next dealer

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return len(self.hands[0])

    @property
    def pack(self) -> tuple[Card, ...]:
        """The cards a shuffled deck holds, in index order."""
        return PACK if self.players == MAX_PLAYERS else SHORT_PACK


def eldest_of(players: int, dealer: int) -> int:
    """The eldest hand: the seat left of the dealer."""
    return (dealer + 1) % players


def full_hand(players: int) -> int:
    """Cards per hand when the whole deck is dealt: 8 with four players, 10 with three."""
    return 32 // players if players == MAX_PLAYERS else 30 // players


def deal_plan(players: int, dealer: int, *, short: bool = False, start: int = 0) -> DealPlan:
    """The plan of a deal by ``dealer``; ``short``: two cards each from position
    ``start`` of the current deck (the short First-and-last)."""
    check_table(players, dealer)
    if isinstance(start, bool) or not isinstance(start, int):
        raise MalformedInput(f"a deal starts at a deck position, got {start!r}")
    return _plan(players, dealer, bool(short), start)


@functools.lru_cache(maxsize=256)
def _plan(players: int, dealer: int, short: bool, start: int) -> DealPlan:
    """``deal_plan`` once checked; a plan is a value, so each is built once."""
    size = SHORT_HAND if short else full_hand(players)
    deck_size = 32 if players == MAX_PLAYERS else 30
    if start < 0 or start + size * players > deck_size or (start and not short):
        raise MalformedInput(f"a deal of {size} cards each cannot start at position {start}")
    hands: list[tuple[int, ...]] = [()] * players
    for k in range(players):
        seat = (dealer + 1 + k) % players
        hands[seat] = tuple(range(start + k, start + size * players, players))
    end = start + size * players
    stack = tuple(range(end, deck_size)) if short else ()
    set_aside = SET_ASIDE if players == MIN_PLAYERS else ()
    return DealPlan(players, dealer, deck_size, set_aside, tuple(hands), start == 0, stack)


def stack_holds_a_deal(plan: DealPlan) -> bool:
    """Whether the stack left by ``plan`` is enough for another short deal."""
    return len(plan.stack) >= SHORT_HAND * plan.players


def check_table(players: int, dealer: int) -> None:
    """``MalformedInput`` unless 3–4 players and ``dealer`` is one of their seats."""
    if isinstance(players, bool) or not isinstance(players, int) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise MalformedInput(f"Lorum seats 3 or 4 players, got {players!r}")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise MalformedInput(f"dealer must be a seat 0 … {players - 1}, got {dealer!r}")


def check_deck(plan: DealPlan, deck: Sequence[Card]) -> tuple[Card, ...]:
    """``deck`` must be exactly the pack of ``plan``, each card once; as a tuple."""
    deck = tuple(deck)
    if len(deck) != plan.deck_size:
        raise MalformedInput(f"the deck must hold {plan.deck_size} cards, got {len(deck)}")
    if not all(type(card) is Card for card in deck):
        raise MalformedInput("the deck must hold Card objects")
    if mask_of(deck) != (PACK_MASK if plan.players == MAX_PLAYERS else _SHORT_MASK):
        what = "the 32-card pack" if plan.players == MAX_PLAYERS else "the 30 cards without 7S 8S"
        raise MalformedInput(f"the deck is not {what} (a card missing, twice or set aside)")
    return deck


def deal_hands(plan: DealPlan, deck: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Each seat's cards in dealt order, from a checked ``deck``."""
    deck = check_deck(plan, deck)
    return tuple(tuple(deck[p] for p in positions) for positions in plan.hands)
