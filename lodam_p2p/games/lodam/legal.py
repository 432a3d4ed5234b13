"""Legal moves: the rules of choice as bit masks, spelled as codes and as actions.

A hand is a 52-bit mask (see :mod:`lodam_p2p.games.lodam.cards`): thirteen bits per suit, the
two lowest. What a seat may do with its cards is a mask too, worked out here once for
the engine, the views and the search (:func:`playable`, :func:`exchangeable`).

A set of legal moves is spelled first as *codes* (:mod:`lodam_p2p.games.lodam.codes`), the
engine's own alphabet, the same for every seat: plays are card indices read out of
per-suit tables, offers and answers come from tables keyed by the cards they may use
(:class:`Spelled`), filled on first use. Everything that wants
:class:`~lodam_p2p.games.lodam.actions.Action` objects spells those codes again through a
seat's row of interned actions (:data:`ACTION_MOVES`): one generator, two spellings.
The tables depend on nothing but the seat and the cards, so the engine stays pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from lodam_p2p.games.lodam.actions import (
    ANSWERS,
    CHALLENGES,
    DECLARE_OUT,
    DECLARE_PASS,
    MAX_SEATS,
    OFFERS,
    PLAYS,
    SWALLOWS,
    Action,
)
from lodam_p2p.games.lodam.cards import EXCHANGEABLE_MASK, KIND_MASK, SUIT_BITS, Kind
from lodam_p2p.games.lodam.codes import (
    ANSWER_BASE,
    CHALLENGE_BASE,
    DECLARE_ALONE,
    DECLARE_BASE,
    DECLARE_PASS_CODE,
    DECLINE,
    LAST_CODE,
    LEAVE,
    NO_CHALLENGE,
    NO_OFFER,
    OFFER_BASE,
    SUIT_CARDS,
    SUIT_MASK,
    TAKE,
)

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


# -- spelling the moves as codes --------------------------------------------------------


def play_codes(cards: int) -> tuple[int, ...]:
    """Plays of the ``cards`` (a mask): their indices, in index order."""
    s, h, d, c = SUIT_CARDS
    return (s[cards & SUIT_BITS] + h[(cards >> 13) & SUIT_BITS]
            + d[(cards >> 26) & SUIT_BITS] + c[cards >> 39])


#: T J Q K A of two suits as a 10-bit pattern: ``(x & 31) | (x >> 8)`` of
#: ``x = (cards >> FIRST_PAIR) & PAIR_BITS`` (the second suit's five bits lie 13 higher)
#: or of ``x = (cards >> SECOND_PAIR) & PAIR_BITS``.
PAIR_BITS = 31 | (31 << 13)
FIRST_PAIR, SECOND_PAIR = 8, 8 + 26


def _by_pairs(base: int, default: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per pair of suits (spades and hearts, diamonds and clubs), per 10-bit pattern of
    their T J Q K A: the codes ``base + index`` of those cards; the first pair's entries
    start with ``default``, so that joining the two gives the whole legal tuple."""
    fives = [[i for i in range(5) if p >> i & 1] for p in range(32)]
    suits: list[list[tuple[int, ...]]] = [
        [tuple(base + 13 * suit + 8 + i for i in found) for found in fives] for suit in range(4)
    ]
    pairs: list[tuple[tuple[int, ...], list[tuple[int, ...]], list[tuple[int, ...]]]] = [
        ((default,), suits[0], suits[1]), ((), suits[2], suits[3])
    ]
    return tuple(
        tuple(lead + low[p & 31] + high[p >> 5] for p in range(1 << 10))
        for lead, low, high in pairs
    )


_OFFER_PAIRS = _by_pairs(OFFER_BASE, NO_OFFER)
_ANSWER_PAIRS = _by_pairs(ANSWER_BASE, DECLINE)


def _exchange_codes(pairs: tuple[tuple[tuple[int, ...], ...], ...], cards: int) -> tuple[int, ...]:
    low, high = pairs
    x, y = (cards >> FIRST_PAIR) & PAIR_BITS, (cards >> SECOND_PAIR) & PAIR_BITS
    return low[(x & 31) | (x >> 8)] + high[(y & 31) | (y >> 8)]


def offer_codes(cards: int) -> tuple[int, ...]:
    """No offer first, then an offer of each of the ``cards`` (coats and cards)."""
    return _exchange_codes(_OFFER_PAIRS, cards)


def answer_codes(cards: int) -> tuple[int, ...]:
    """Declining first, then accepting with each of the ``cards`` (coats and cards)."""
    return _exchange_codes(_ANSWER_PAIRS, cards)


#: Leave the trick (the default), swallow it.
SWALLOW_CODES = (LEAVE, TAKE)


def declaration_codes(allowed: bool, others: Iterable[int]) -> tuple[int, ...]:
    """Not now; and, when ``allowed``, declaring out alone or challenging another."""
    if not allowed:
        return (DECLARE_PASS_CODE,)
    return (DECLARE_PASS_CODE, DECLARE_ALONE, *(DECLARE_BASE + t for t in others))


def challenge_codes(targets: Iterable[int]) -> tuple[int, ...]:
    """No challenge, or a challenge of any seat dealt in."""
    return (NO_CHALLENGE, *(CHALLENGE_BASE + t for t in targets))


class Spelled(dict[int, tuple[int, ...]]):
    """Legal codes by the mask of the cards they use, spelled on first use by
    ``spell``: the engine then answers the commonest questions (which answers, which
    offers, which plays of the led suit) with one dictionary look-up. Each key is a set
    of cards of a few kinds, so the table stays small; it stops growing at ``limit``
    entries, and past that spells every miss again (the same tuple)."""

    __slots__ = ("limit", "spell")

    def __init__(self, spell: Callable[[int], tuple[int, ...]], limit: int) -> None:
        super().__init__()
        self.spell, self.limit = spell, limit

    def __missing__(self, cards: int) -> tuple[int, ...]:
        found = self.spell(cards)
        if len(self) < self.limit:
            self[cards] = found
        return found


#: ``FOLLOWING[cards]``: the plays of cards of one suit (at most 4 × 8191 keys, all kept)
FOLLOWING = Spelled(play_codes, 4 << 13)
#: ``ANSWERING[cards]``: the answers with those cards of one kind (all 2**12 + 2**8 kept)
ANSWERING = Spelled(answer_codes, 1 << 13)
#: ``OFFERING[cards]``: the offers of those coats and cards; the small sets, which come
#: up most, are kept (tuples of small ints: a few megabytes at most)
OFFERING = Spelled(offer_codes, 1 << 15)


# -- spelling codes as actions -----------------------------------------------------------


def _action_row(seat: int) -> tuple[Action, ...]:
    """``seat``'s interned action for every code (``None`` where no code is)."""
    row: list[Action | None] = [None] * (LAST_CODE + 1)
    row[0:52] = PLAYS[seat]
    row[OFFER_BASE : NO_OFFER + 1] = OFFERS[seat]
    row[ANSWER_BASE : DECLINE + 1] = ANSWERS[seat]
    row[LEAVE : TAKE + 1] = SWALLOWS[seat]
    row[DECLARE_PASS_CODE] = DECLARE_PASS[seat]
    row[DECLARE_BASE : DECLARE_ALONE + 1] = DECLARE_OUT[seat]
    row[CHALLENGE_BASE : NO_CHALLENGE + 1] = CHALLENGES[seat]
    return tuple(row)  # type: ignore[arg-type]  # the gaps are never looked up


#: ``ACTION_MOVES[seat][code]``: that seat's interned action for a code
ACTION_MOVES: tuple[tuple[Action, ...], ...] = tuple(_action_row(s) for s in range(MAX_SEATS))
#: ``CODE_MOVES[seat][code]``: the code itself (codes carry no seat)
CODE_MOVES: tuple[tuple[int, ...], ...] = (tuple(range(LAST_CODE + 1)),) * MAX_SEATS


def spell(row: Sequence[M], codes: tuple[int, ...]) -> tuple[M, ...]:
    """``codes`` spelled in a seat's ``row`` of :data:`ACTION_MOVES` or :data:`CODE_MOVES`."""
    return tuple(map(row.__getitem__, codes))


# -- a seat's legal actions, for views and tests ----------------------------------------


def plays(seat: int, hand: int, led: int) -> tuple[Action, ...]:
    """``seat``'s legal plays from ``hand`` to a trick led in ``led`` (-1: leading)."""
    return spell(ACTION_MOVES[seat], play_codes(playable(hand, led)))


def offers(seat: int, hand: int) -> tuple[Action, ...]:
    """No offer first, then an offer of every coat and card held."""
    return spell(ACTION_MOVES[seat], OFFERING[exchangeable(hand)])


def answers(seat: int, hand: int, kind: Kind) -> tuple[Action, ...]:
    """Declining first, then accepting with every held card of the offer's ``kind``."""
    return spell(ACTION_MOVES[seat], ANSWERING[exchangeable(hand, KIND_MASK[kind])])


def swallows(seat: int) -> tuple[Action, Action]:
    """Leave the trick (the default) or swallow it."""
    return SWALLOWS[seat]


def declarations(
    seat: int, points: int, out_at: int, others: Iterable[int]
) -> tuple[Action, ...]:
    """Not now; and, holding ``out_at`` or more, declaring out alone or challenging another."""
    return spell(ACTION_MOVES[seat], declaration_codes(may_declare(points, out_at), others))


def challenges(seat: int, targets: Iterable[int]) -> tuple[Action, ...]:
    """No challenge, or a challenge of any seat dealt in."""
    return spell(ACTION_MOVES[seat], challenge_codes(targets))
