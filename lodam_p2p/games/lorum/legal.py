"""Move generation from bit masks, and why a refused move is illegal.

Legal moves are masks first (``playable``), turned into interned actions by table
look-ups (:func:`~lodam_p2p.games.lorum.actions.actions_of`). Only a refused action pays
for working out *why* (:func:`why_illegal`).
"""

from __future__ import annotations

from lodam_p2p.games.lorum.actions import (
    Action,
    Announce,
    IllegalAction,
    Lay,
    Pass,
    Play,
)
from lodam_p2p.games.lorum.cards import (
    HEARTS,
    OBERS,
    SUIT_MASK,
    Suit,
    cards_of,
)
from lodam_p2p.games.lorum.flow import OBERS_, QUARTET, REDS, DealFlow


def playable(code: int, hand: int, led: int, first: bool) -> int:
    """The cards of ``hand`` that may go to a trick (LORUM.md 4), as a mask. ``led``: the
    suit led (-1 to lead); ``first``: the first trick, with its restrictions."""
    if code == QUARTET:
        return hand
    if led >= 0:
        follow = hand & SUIT_MASK[led]
        if follow:
            if first and code == OBERS_ and follow & ~OBERS:
                return follow & ~OBERS
            return follow
    if first:
        if code == REDS and hand & ~HEARTS:
            return hand & ~HEARTS
        if code == OBERS_ and hand & ~OBERS:
            return hand & ~OBERS
    return hand


def why_illegal(
    public: DealFlow, hands: list[int], holder: list[int], action: Action, blind_next: int
) -> IllegalAction:
    """The reason ``action`` is refused now (called only once it is known to be)."""
    seat = action.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < public.players:
        return IllegalAction(-1 if not isinstance(seat, int) else seat, action, "no such seat")
    if public.is_over:
        return IllegalAction(seat, action, "the deal is over")
    if public.awaiting is not action.decision:
        return IllegalAction(seat, action, _whose(public, holder, seat))
    card = public.awaiting_card
    if card is not None and holder[card.index] != seat:
        return IllegalAction(seat, action, _whose(public, holder, seat))
    if card is None and public.to_act != seat:
        return IllegalAction(seat, action, _whose(public, holder, seat))
    return IllegalAction(seat, action, _why_move(public, hands[seat], action, blind_next))


def _whose(public: DealFlow, holder: list[int], asker: int) -> str:
    assert public.awaiting is not None
    card = public.awaiting_card
    seat = public.to_act if card is None else holder[card.index]
    if seat == asker:
        return f"its step now is to {public.awaiting.value}"
    return f"it is seat {seat}'s turn to {public.awaiting.value}"


def _why_move(public: DealFlow, hand: int, action: Action, blind_next: int) -> str:
    if isinstance(action, Announce):
        return "an announcement is true or false"
    if isinstance(action, Pass):
        fits = " ".join(str(c) for c in cards_of(hand & public._fit))
        return f"it may not pass holding a card that fits ({fits})"
    assert isinstance(action, Play | Lay)
    card = action.card
    if not hand >> card.index & 1:
        return f"it does not hold {card}"
    if isinstance(action, Lay):
        return f"{card} does not fit the rows"
    if public.awaiting_card is not None:
        return f"the run goes on with {public.awaiting_card}"
    if public.blind:
        return f"blind, its next card is {cards_of(1 << blind_next)[0]}"
    return _why_card(public, hand, card.index)


def _why_card(public: DealFlow, hand: int, index: int) -> str:
    led = public._led
    card = cards_of(1 << index)[0]
    if led >= 0 and hand & SUIT_MASK[led] and index >> 3 != led:
        return f"it must follow suit ({Suit(led)})"
    if public._code == REDS:
        verb = "lead" if led < 0 else "discard"
        return f"it may not {verb} a heart in the first trick while holding other suits"
    if led >= 0 and index >> 3 == led:
        return f"{card} is not blank: an Ober may follow in the first trick only alone"
    verb = "lead" if led < 0 else "discard"
    return f"it may not {verb} an Ober in the first trick while holding other cards"
