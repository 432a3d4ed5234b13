"""Legal-move generation from bit masks, shared by the full deal and by views.

A hand is a 52-bit mask (see :mod:`lodam_p2p.rules.cards`). The legal plays, offers and
answers depend only on the seat and on a few bits of the hand, so each distinct case is
built once and memoised: in a long run of deals almost every request is one dictionary
look-up returning a tuple of interned actions. The memo is a pure cache (same input, same
output), so it does not make the engine stateful.
"""

from __future__ import annotations

from collections.abc import Iterable

from lodam_p2p.rules.actions import (
    ANSWERS,
    CHALLENGES,
    DECLARE_OUT,
    DECLARE_PASS,
    MAX_SEATS,
    NO_CARD,
    OFFERS,
    PLAYS,
    SWALLOWS,
    Action,
    Answer,
    Challenge,
    Declare,
    Offer,
    Play,
    Swallow,
)
from lodam_p2p.rules.cards import EXCHANGEABLE_MASK, KIND_MASK, SUIT_BITS, SUIT_SPAN, Kind

_SUIT_PLAYS: dict[int, tuple[Play, ...]] = {}
#: memo of offers by ``seat << 52 | exchangeable cards held``
OFFER_MEMO: dict[int, tuple[Offer, ...]] = {}
#: memo of answers by ``seat << 52 | cards of the offered kind held``
ANSWER_MEMO: dict[int, tuple[Answer, ...]] = {}


def bits(mask: int) -> list[int]:
    """The set bit positions of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def suit_plays(seat: int, hand: int, suit: int) -> tuple[Play, ...]:
    """Plays of ``seat`` from the cards of ``suit`` in ``hand`` (maybe none)."""
    key = (seat << 15) | (suit << 13) | ((hand >> (suit * SUIT_SPAN)) & SUIT_BITS)
    found = _SUIT_PLAYS.get(key)
    return found if found is not None else _remember_suit(key)


def _remember_suit(key: int) -> tuple[Play, ...]:
    seat, suit, pattern = key >> 15, (key >> 13) & 3, key & SUIT_BITS
    row, shift = PLAYS[seat], suit * SUIT_SPAN
    found = _SUIT_PLAYS[key] = tuple(row[shift + i] for i in bits(pattern))
    return found


def plays(seat: int, hand: int, led: int) -> tuple[Play, ...]:
    """Legal plays: the led suit if held (``led`` -1 when leading), else any card."""
    memo, base = _SUIT_PLAYS, seat << 15
    if led >= 0:
        key = base | (led << 13) | ((hand >> (led * SUIT_SPAN)) & SUIT_BITS)
        found = memo.get(key)
        if found is None:
            found = _remember_suit(key)
        if found:
            return found
    # leading or renouncing: any card, suit by suit (each suit memoised)
    keys = (
        base | (hand & SUIT_BITS),
        base | (1 << 13) | ((hand >> 13) & SUIT_BITS),
        base | (2 << 13) | ((hand >> 26) & SUIT_BITS),
        base | (3 << 13) | ((hand >> 39) & SUIT_BITS),
    )
    parts = [memo.get(key) for key in keys]
    if None in parts:
        parts = [memo.get(key) or _remember_suit(key) for key in keys]
    return parts[0] + parts[1] + parts[2] + parts[3]  # type: ignore[operator]


def offers(seat: int, hand: int) -> tuple[Offer, ...]:
    """No offer first, then an offer of every coat and card held."""
    held = hand & EXCHANGEABLE_MASK
    key = (seat << 52) | held
    found = OFFER_MEMO.get(key)
    if found is None:
        row = OFFERS[seat]
        found = OFFER_MEMO[key] = (row[NO_CARD], *(row[i] for i in bits(held)))
    return found


def answers(seat: int, hand: int, kind: Kind) -> tuple[Answer, ...]:
    """Declining first, then accepting with every held card of the offer's ``kind``."""
    held = hand & KIND_MASK[kind]
    key = (seat << 52) | held
    found = ANSWER_MEMO.get(key)
    if found is None:
        row = ANSWERS[seat]
        found = ANSWER_MEMO[key] = (row[NO_CARD], *(row[i] for i in bits(held)))
    return found


def swallows(seat: int) -> tuple[Swallow, Swallow]:
    """Leave the trick (the default) or swallow it."""
    return SWALLOWS[seat]


def declarations(
    seat: int, points: int, out_at: int, others: Iterable[int]
) -> tuple[Declare, ...]:
    """Not now; and, holding ``out_at`` or more, declaring out alone or challenging another."""
    if points < out_at:
        return (DECLARE_PASS[seat],)
    row = DECLARE_OUT[seat]
    return (DECLARE_PASS[seat], row[MAX_SEATS], *(row[t] for t in others))


def challenges(seat: int, targets: Iterable[int]) -> tuple[Challenge, ...]:
    """No challenge, or a challenge of any seat dealt in."""
    row = CHALLENGES[seat]
    return (row[MAX_SEATS], *(row[t] for t in targets))


def as_list(actions: tuple[Action, ...]) -> list[Action]:
    """A fresh list of ``actions`` (callers may keep and change it)."""
    return list(actions)
