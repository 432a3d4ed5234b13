"""Legal moves: the rules of choice as bit masks, and tables that spell them out.

A hand is a 52-bit mask (see :mod:`lodam_p2p.rules.cards`): thirteen bits per suit, the
two lowest. What a seat may do with its cards is a mask too, worked out here once for
the engine, the views and the search (:func:`playable`, :func:`exchangeable`). A set of
legal moves is then *spelled* in one of two alphabets, both cut out of tables built once
at import, so spelling it costs a few look-ups and a C call:

* :data:`ACTION_MOVES` — per seat, the interned :class:`~lodam_p2p.rules.actions.Action`
  objects that tables, bots and views use;
* :data:`CODE_MOVES` — the small integer codes of :mod:`lodam_p2p.rules.codes` that a
  search steps the machine with (the same for every seat).

Plays: for every 13-bit pattern of one suit an ``operator.itemgetter`` picks the moves of
those cards out of a row of 52 (4 × 8192 getters, shared by every alphabet). Offers and
answers: only T J Q K A can be exchanged, the top five bits of a suit, so they come from
a table of 32 tuples per suit. The tables depend on nothing but the seat and the cards,
so the engine stays pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Generic, TypeVar

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
)
from lodam_p2p.rules.cards import EXCHANGEABLE_MASK, KIND_MASK, SUIT_BITS, SUIT_SPAN, Kind
from lodam_p2p.rules.codes import (
    ANSWER_BASE,
    CHALLENGE_BASE,
    DECLARE_ALONE,
    DECLARE_BASE,
    DECLARE_PASS_CODE,
    LEAVE,
    NO_CHALLENGE,
    OFFER_BASE,
    SUIT_MASK,
    TAKE,
)

#: ``mask >> SUIT_SHIFT[suit]`` brings a suit's cards to the lowest 13 bits
SUIT_SHIFT = tuple(suit * SUIT_SPAN for suit in range(4))
#: bit of the ten within a suit; T J Q K A are the five bits from here up
_TEN = 8
TOP_FIVE = 0b11111

M = TypeVar("M")


# -- the rules of choice ---------------------------------------------------------------


def playable(hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played: the led suit if held (``led`` -1 when
    leading), else any card."""
    if led >= 0:
        follow = hand & SUIT_MASK[led]
        if follow:
            return follow
    return hand


def exchangeable(hand: int, kind_mask: int = EXCHANGEABLE_MASK) -> int:
    """The cards of ``hand`` that may be offered (any coat or card), or that may answer
    an offer (``kind_mask``: the cards of the offer's kind)."""
    return hand & kind_mask


def may_declare(points: int, out_at: int) -> bool:
    """Whether a seat holding ``points`` may declare out."""
    return points >= out_at


# -- spelling the moves ----------------------------------------------------------------


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


def _getter(indices: list[int]) -> Callable[[Sequence[M]], tuple[M, ...]]:
    """A C-level function taking those indices of a row, always as a tuple."""
    if len(indices) >= 2:
        return itemgetter(*indices)
    if indices:
        return itemgetter(slice(indices[0], indices[0] + 1))
    return itemgetter(slice(0, 0))


#: ``SUIT_GETTERS[suit][pattern](row)``: the moves of those cards of that suit, from a
#: row of 52 (``pattern``: the suit's 13 bits, ``mask >> SUIT_SHIFT[suit]``)
SUIT_GETTERS = _SUIT_GETTERS = tuple(
    tuple(_getter([suit * SUIT_SPAN + i for i in found]) for found in _THIRTEEN)
    for suit in range(4)
)


def _by_top_five(row: Sequence[M]) -> tuple[tuple[tuple[M, ...], ...], ...]:
    """Per pair of suits (spades and hearts, diamonds and clubs), per 10-bit pattern of
    their T J Q K A: the moves of ``row`` for those cards; the first pair's entries
    start with the default (``row[NO_CARD]``), so that joining the two gives the whole
    legal tuple. See :func:`_top_fives` for the pattern."""
    suits: list[tuple[tuple[M, ...], ...]] = []
    for suit in range(4):
        lead: tuple[M, ...] = (row[NO_CARD],) if suit == 0 else ()
        base = suit * SUIT_SPAN + _TEN
        suits.append(tuple(lead + tuple(row[base + i] for i in found) for found in _FIVE))
    return tuple(
        tuple(low[p & TOP_FIVE] + high[p >> 5] for p in range(1 << 10))
        for low, high in (suits[:2], suits[2:])
    )


#: The T J Q K A of two suits as a 10-bit pattern: ``(x & 31) | (x >> 8)`` of
#: ``x = (mask >> shift) & PAIR_BITS`` (the second suit's five bits lie 13 higher).
PAIR_BITS = TOP_FIVE | (TOP_FIVE << SUIT_SPAN)
FIRST_PAIR, SECOND_PAIR = _TEN, _TEN + 2 * SUIT_SPAN


class Spelled(dict[int, tuple[M, ...]]):
    """Legal tuples by the mask of the cards they use, spelled on first use by
    ``spell``: the engine then answers the commonest questions (which answers, which
    offers, which plays of the led suit) with one dictionary look-up. Each key is a set
    of one seat's cards of a few kinds, so the table stays small; it stops growing at
    ``limit`` entries, and past that spells every miss again (the same tuple)."""

    __slots__ = ("limit", "spell")

    def __init__(self, spell: Callable[[int], tuple[M, ...]], limit: int) -> None:
        super().__init__()
        self.spell, self.limit = spell, limit

    def __missing__(self, cards: int) -> tuple[M, ...]:
        found = self.spell(cards)
        if len(self) < self.limit:
            self[cards] = found
        return found


#: Entries a :class:`Spelled` table keeps (a few megabytes per seat at most): every
#: answer pattern (at most 2**12 coats and 2**8 cards) fits, and the plays of one suit
#: and the offers that come up first — the small sets, which come up most.
_SPELLED_LIMIT = 1 << 13


class Moves(Generic[M]):
    """One seat's moves in one alphabet (actions or codes), spelled from masks."""

    __slots__ = ("_challenges", "_declare_out", "_plays", "answer_tables", "answering",
                 "declare_pass", "decline", "following", "no_offer", "offer_tables",
                 "offering", "play_row", "swallows")

    def __init__(
        self,
        *,
        plays: Sequence[M],
        offers: Sequence[M],
        answers: Sequence[M],
        swallows: tuple[M, M],
        declare_pass: M,
        declare_out: Sequence[M],
        challenges: Sequence[M],
    ) -> None:
        self._plays = self.play_row = tuple(plays)  #: the play of each card index
        #: offers and answers per 10-bit pattern of two suits' T J Q K A (see :meth:`offers`)
        self.offer_tables = _by_top_five(offers)
        self.answer_tables = _by_top_five(answers)
        self.decline = (answers[NO_CARD],)  #: the answers of a seat holding none of the kind
        self.no_offer = (offers[NO_CARD],)  #: the offers of a seat holding no coat or card
        self.swallows = swallows  #: leave the trick (the default), swallow it
        self.declare_pass = declare_pass  #: not now
        self._declare_out = tuple(declare_out)
        self._challenges = tuple(challenges)
        #: ``answering[cards]``: :meth:`answers`; ``offering[cards]``: :meth:`offers`;
        #: ``following[cards]``: :meth:`plays` of cards of one suit (see :class:`Spelled`)
        self.answering: Spelled[M] = Spelled(self.answers, _SPELLED_LIMIT)
        self.offering: Spelled[M] = Spelled(self.offers, _SPELLED_LIMIT)
        self.following: Spelled[M] = Spelled(self.plays, _SPELLED_LIMIT)

    def plays(self, cards: int) -> tuple[M, ...]:
        """Plays of the ``cards`` (a mask), in index order."""
        row, get = self._plays, _SUIT_GETTERS
        return (
            get[0][cards & SUIT_BITS](row)
            + get[1][(cards >> 13) & SUIT_BITS](row)
            + get[2][(cards >> 26) & SUIT_BITS](row)
            + get[3][cards >> 39](row)
        )

    def offers(self, cards: int) -> tuple[M, ...]:
        """No offer first, then an offer of each of the ``cards`` (coats and cards)."""
        low, high = self.offer_tables
        x, y = (cards >> FIRST_PAIR) & PAIR_BITS, cards >> SECOND_PAIR
        return low[(x & TOP_FIVE) | (x >> 8)] + high[(y & TOP_FIVE) | (y >> 8)]

    def answers(self, cards: int) -> tuple[M, ...]:
        """Declining first, then accepting with each of the ``cards``."""
        low, high = self.answer_tables
        x, y = (cards >> FIRST_PAIR) & PAIR_BITS, cards >> SECOND_PAIR
        return low[(x & TOP_FIVE) | (x >> 8)] + high[(y & TOP_FIVE) | (y >> 8)]

    def declarations(self, allowed: bool, others: Iterable[int]) -> tuple[M, ...]:
        """Not now; and, when ``allowed``, declaring out alone or challenging another."""
        if not allowed:
            return (self.declare_pass,)
        row = self._declare_out
        return (self.declare_pass, row[MAX_SEATS], *(row[t] for t in others))

    def challenges(self, targets: Iterable[int]) -> tuple[M, ...]:
        """No challenge, or a challenge of any seat dealt in."""
        row = self._challenges
        return (row[MAX_SEATS], *(row[t] for t in targets))


#: ``ACTION_MOVES[seat]``: that seat's moves as interned actions
ACTION_MOVES: tuple[Moves[Action], ...] = tuple(
    Moves[Action](
        plays=PLAYS[seat], offers=OFFERS[seat], answers=ANSWERS[seat], swallows=SWALLOWS[seat],
        declare_pass=DECLARE_PASS[seat], declare_out=DECLARE_OUT[seat],
        challenges=CHALLENGES[seat],
    )
    for seat in range(MAX_SEATS)
)

_CODE_MOVES = Moves[int](
    plays=range(52),
    offers=range(OFFER_BASE, OFFER_BASE + NO_CARD + 1),
    answers=range(ANSWER_BASE, ANSWER_BASE + NO_CARD + 1),
    swallows=(LEAVE, TAKE),
    declare_pass=DECLARE_PASS_CODE,
    declare_out=[*range(DECLARE_BASE, DECLARE_BASE + MAX_SEATS), DECLARE_ALONE],
    challenges=[*range(CHALLENGE_BASE, CHALLENGE_BASE + MAX_SEATS), NO_CHALLENGE],
)
#: ``CODE_MOVES[seat]``: the moves as codes (one table shared by every seat)
CODE_MOVES: tuple[Moves[int], ...] = (_CODE_MOVES,) * MAX_SEATS


# -- a seat's legal actions, for views and tests ----------------------------------------


def plays(seat: int, hand: int, led: int) -> tuple[Action, ...]:
    """``seat``'s legal plays from ``hand`` to a trick led in ``led`` (-1: leading)."""
    return ACTION_MOVES[seat].plays(playable(hand, led))


def offers(seat: int, hand: int) -> tuple[Action, ...]:
    """No offer first, then an offer of every coat and card held."""
    return ACTION_MOVES[seat].offers(exchangeable(hand))


def answers(seat: int, hand: int, kind: Kind) -> tuple[Action, ...]:
    """Declining first, then accepting with every held card of the offer's ``kind``."""
    return ACTION_MOVES[seat].answers(exchangeable(hand, KIND_MASK[kind]))


def swallows(seat: int) -> tuple[Action, Action]:
    """Leave the trick (the default) or swallow it."""
    return ACTION_MOVES[seat].swallows


def declarations(
    seat: int, points: int, out_at: int, others: Iterable[int]
) -> tuple[Action, ...]:
    """Not now; and, holding ``out_at`` or more, declaring out alone or challenging another."""
    return ACTION_MOVES[seat].declarations(may_declare(points, out_at), others)


def challenges(seat: int, targets: Iterable[int]) -> tuple[Action, ...]:
    """No challenge, or a challenge of any seat dealt in."""
    return ACTION_MOVES[seat].challenges(targets)
