"""Legal-move generation from bit masks, shared by the full deal and by views.

A hand is a 52-bit mask (see :mod:`lodam_p2p.rules.cards`): thirteen bits per suit, the
two lowest. Legal moves are tuples of the interned actions of :mod:`.actions`, cut out of
tables built once at import, so generating them costs a few look-ups and a C call:

* plays: for every 13-bit pattern of one suit an ``operator.itemgetter`` picks the plays
  of those cards out of a seat's row of 52 ``Play`` objects (4 × 8192 getters, shared by
  all seats); leading or renouncing joins the four suits;
* offers and answers: only T J Q K A can be exchanged, the top five bits of a suit, so
  a seat's offers (or answers) from one suit come from a table of 32 tuples per suit.

The tables depend on nothing but the seat and the cards, so the engine stays pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import TypeVar

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
    Answer,
    Challenge,
    Declare,
    Offer,
    Play,
    Swallow,
)
from lodam_p2p.rules.cards import KIND_MASK, SUIT_BITS, SUIT_SPAN, Kind

#: bit of the ten within a suit; T J Q K A are the five bits from here up
_TEN = 8
_TOP_FIVE = 0b11111


def bits(mask: int) -> list[int]:
    """The set bit positions of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _positions(width: int) -> list[list[int]]:
    """For every pattern of ``width`` bits, its set bit positions (built incrementally:
    a pattern's positions are those of the pattern without its lowest bit, plus it)."""
    table: list[list[int]] = [[]]
    for pattern in range(1, 1 << width):
        rest = pattern & (pattern - 1)
        table.append([(pattern ^ rest).bit_length() - 1, *table[rest]])
    return table


_THIRTEEN = _positions(SUIT_SPAN)
_FIVE = _positions(5)


def _getter(indices: list[int]) -> Callable[[tuple[Play, ...]], tuple[Play, ...]]:
    """A C-level function taking those indices of a row, always as a tuple."""
    if len(indices) >= 2:
        return itemgetter(*indices)
    if indices:
        return itemgetter(slice(indices[0], indices[0] + 1))
    return itemgetter(slice(0, 0))


#: ``_SUIT_GETTERS[suit][pattern](PLAYS[seat])``: that seat's plays of those cards
_SUIT_GETTERS = tuple(
    tuple(_getter([suit * SUIT_SPAN + i for i in found]) for found in _THIRTEEN)
    for suit in range(4)
)

A = TypeVar("A", Offer, Answer)


def _by_top_five(row: tuple[A, ...]) -> tuple[tuple[tuple[A, ...], ...], ...]:
    """Per suit, per 5-bit pattern of T J Q K A: the actions of ``row`` for those cards;
    the spade entries start with the default (``row[NO_CARD]``), so that joining the
    four suits gives the whole legal tuple."""
    suits: list[tuple[tuple[A, ...], ...]] = []
    for suit in range(4):
        lead: tuple[A, ...] = (row[NO_CARD],) if suit == 0 else ()
        base = suit * SUIT_SPAN + _TEN
        suits.append(tuple(lead + tuple(row[base + i] for i in found) for found in _FIVE))
    return tuple(suits)


_OFFER_TABLES = tuple(_by_top_five(OFFERS[seat]) for seat in range(MAX_SEATS))
_ANSWER_TABLES = tuple(_by_top_five(ANSWERS[seat]) for seat in range(MAX_SEATS))


def suit_plays(seat: int, hand: int, suit: int) -> tuple[Play, ...]:
    """Plays of ``seat`` from the cards of ``suit`` in ``hand`` (maybe none)."""
    pattern = (hand >> (suit * SUIT_SPAN)) & SUIT_BITS
    return _SUIT_GETTERS[suit][pattern](PLAYS[seat])


def plays(seat: int, hand: int, led: int) -> tuple[Play, ...]:
    """Legal plays: the led suit if held (``led`` -1 when leading), else any card."""
    row, get = PLAYS[seat], _SUIT_GETTERS
    if led >= 0:
        found = get[led][(hand >> (led * SUIT_SPAN)) & SUIT_BITS](row)
        if found:
            return found
    return (
        get[0][hand & SUIT_BITS](row)
        + get[1][(hand >> 13) & SUIT_BITS](row)
        + get[2][(hand >> 26) & SUIT_BITS](row)
        + get[3][(hand >> 39) & SUIT_BITS](row)
    )


def offers(seat: int, hand: int) -> tuple[Offer, ...]:
    """No offer first, then an offer of every coat and card held."""
    table = _OFFER_TABLES[seat]
    return (
        table[0][(hand >> _TEN) & _TOP_FIVE]
        + table[1][(hand >> (_TEN + 13)) & _TOP_FIVE]
        + table[2][(hand >> (_TEN + 26)) & _TOP_FIVE]
        + table[3][(hand >> (_TEN + 39)) & _TOP_FIVE]
    )


def answers_masked(seat: int, hand: int, kind_mask: int) -> tuple[Answer, ...]:
    """Declining first, then accepting with every held card of ``kind_mask``."""
    held, table = hand & kind_mask, _ANSWER_TABLES[seat]
    return (
        table[0][(held >> _TEN) & _TOP_FIVE]
        + table[1][(held >> (_TEN + 13)) & _TOP_FIVE]
        + table[2][(held >> (_TEN + 26)) & _TOP_FIVE]
        + table[3][(held >> (_TEN + 39)) & _TOP_FIVE]
    )


def answers(seat: int, hand: int, kind: Kind) -> tuple[Answer, ...]:
    """Declining first, then accepting with every held card of the offer's ``kind``."""
    return answers_masked(seat, hand, KIND_MASK[kind])


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
