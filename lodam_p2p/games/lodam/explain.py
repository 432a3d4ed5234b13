"""Why an action was refused: the reason in words, for :class:`IllegalAction`.

Only refused actions come here, so this module may be slow and thorough; the deal itself
accepts an action simply when it is among the legal ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lodam_p2p.games.lodam.actions import (
    Action,
    Answer,
    Challenge,
    Declare,
    IllegalAction,
    Offer,
    Play,
    Revoke,
    Swallow,
)
from lodam_p2p.games.lodam.cards import (
    CARD_KINDS,
    CARD_SUIT,
    SUIT_BITS,
    SUIT_SPAN,
    Card,
    Kind,
    Suit,
)

if TYPE_CHECKING:
    from lodam_p2p.games.lodam.machine import DealMachine

_KIND_WORDS = {Kind.COAT: "a coat (K Q J)", Kind.CARD: "a card (A T)"}
_ACTION_TYPES = (Play, Offer, Answer, Swallow, Declare, Challenge)
_FOLLOW = "must follow suit"


def why_illegal(public: DealMachine[Any], action: object) -> IllegalAction:
    """The error for an action that is not among the legal ones (``public``: the deal
    machine with its hidden part filled in)."""
    if not isinstance(action, _ACTION_TYPES):
        return IllegalAction(-1, None, f"{action!r} is not an action")
    seat = action.seat
    if public.is_over:
        return IllegalAction(seat, action, "the deal is over")
    if public.to_act != seat or public.awaiting is not action.decision:
        return IllegalAction(seat, action, public.turn_reason(seat))
    reason = _reason(public, action)
    if reason.startswith(_FOLLOW):
        return Revoke(seat, action, reason)
    return IllegalAction(seat, action, reason)


def _reason(public: DealMachine[Any], action: Action) -> str:
    hand = public.hands[action.seat]
    if isinstance(action, Play):
        return _play_reason(public, hand, action.card)
    if isinstance(action, Offer):
        return _offer_reason(hand, action.card)
    if isinstance(action, Answer):
        return _answer_reason(hand, action.card, public.offer_kind)
    if isinstance(action, Declare):
        held, out_at = public.points[action.seat], public.options.out_at
        if held < out_at:
            return f"a declaration below {out_at} is refused (holds {held})"
        return f"seat {action.challenge} cannot be challenged"
    if isinstance(action, Challenge):
        return f"seat {action.target} is not dealt in"
    return f"{action.take!r} is not an answer to the swallow question"


def _play_reason(public: DealMachine[Any], hand: int, card: object) -> str:
    if not isinstance(card, Card):
        return f"{card!r} is not a card"
    if not hand >> card.index & 1:
        return f"does not hold {card}"
    led = public.led
    if led >= 0 and CARD_SUIT[card.index] != led and _holds_suit(hand, led):
        return f"{_FOLLOW} {Suit(led)}"
    return "not a legal play now"


def _offer_reason(hand: int, card: object) -> str:
    if not isinstance(card, Card):
        return f"{card!r} is not a card"
    if not hand >> card.index & 1:
        return f"does not hold {card}"
    if CARD_KINDS[card.index] is None:
        return "only coats (K Q J) and cards (A T) can be exchanged"
    return "not a legal offer now"


def _answer_reason(hand: int, card: object, kind: Kind | None) -> str:
    if not isinstance(card, Card):
        return f"{card!r} is not a card"
    if not hand >> card.index & 1:
        return f"does not hold {card}"
    if kind is not None and CARD_KINDS[card.index] is not kind:
        return f"the offer is {_KIND_WORDS[kind]}: accept with the same kind"
    return "not a legal answer now"


def _holds_suit(hand: int, suit: int) -> bool:
    return bool((hand >> (suit * SUIT_SPAN)) & SUIT_BITS)
