"""Moves as small integers, the deal machine's own alphabet, and card-mask helpers.

The machine generates its legal moves as *codes* (``legal_codes``), and a program that
picks among them hands one back: checked (``apply_code``, as the benchmark's random
bots do) or not (``step``, as a search does, thousands of times a decision). An
:class:`~lodam_p2p.games.lodam.actions.Action` is a code spelled for a seat. Codes carry no
seat: the seat is always the machine's ``to_act``.

==================  ===================================================
``0 … 51``          play the card of that index
``100 + i``         offer card ``i``; ``NO_OFFER`` (152) makes no offer
``200 + i``         accept with card ``i``; ``DECLINE`` (252) declines
``LEAVE``/``TAKE``  (300/301) the swallow question
``DECLARE_PASS``    (400) not now; ``401 + t`` out challenging t; ``DECLARE_ALONE`` (411)
``500 + t``         an eliminated watcher challenges t; ``NO_CHALLENGE`` (510)
==================  ===================================================
"""

from __future__ import annotations

from lodam_p2p.games.lodam.actions import (
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
    Decision,
    Declare,
    Offer,
    Play,
    Swallow,
)
from lodam_p2p.games.lodam.cards import CARD_KINDS, SUIT_BITS, SUIT_SPAN, Card, Kind

OFFER_BASE, NO_OFFER = 100, 100 + NO_CARD
ANSWER_BASE, DECLINE = 200, 200 + NO_CARD
LEAVE, TAKE = 300, 301
DECLARE_PASS_CODE, DECLARE_BASE, DECLARE_ALONE = 400, 401, 401 + MAX_SEATS
CHALLENGE_BASE, NO_CHALLENGE = 500, 500 + MAX_SEATS
#: The highest code.
LAST_CODE = NO_CHALLENGE

#: Mask of each suit's cards.
SUIT_MASK: tuple[int, ...] = tuple(SUIT_BITS << (SUIT_SPAN * s) for s in range(4))
#: Suit of each card index.
SUIT_OF: tuple[int, ...] = tuple(i // SUIT_SPAN for i in range(52))
COAT_MASK = sum(1 << i for i in range(52) if CARD_KINDS[i] is Kind.COAT)
CARD_MASK = sum(1 << i for i in range(52) if CARD_KINDS[i] is Kind.CARD)
#: Mask of the cards of the same kind as each card index (0 for the unexchangeable).
KIND_MASK_OF: tuple[int, ...] = tuple(
    COAT_MASK if k is Kind.COAT else CARD_MASK if k is Kind.CARD else 0 for k in CARD_KINDS
)
#: Per suit, the card indices of each 13-bit pattern of that suit.
def _suit_cards(suit: int) -> tuple[tuple[int, ...], ...]:
    # each pattern is its lowest card before the pattern without it (built in one
    # pass: every process imports this table, so its start-up should cost little)
    cards: list[tuple[int, ...]] = [()]
    for p in range(1, 1 << 13):
        low = (p & -p).bit_length() - 1
        cards.append((SUIT_SPAN * suit + low, *cards[p & (p - 1)]))
    return tuple(cards)


SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_suit_cards(s) for s in range(4))


def kind_mask(kind: Kind) -> int:
    """The mask of every card of ``kind``."""
    return COAT_MASK if kind is Kind.COAT else CARD_MASK


def bits(mask: int) -> list[int]:
    """The card indices of a 52-bit mask, lowest first."""
    s, h, d, c = SUIT_CARDS
    return [
        *s[mask & SUIT_BITS],
        *h[(mask >> 13) & SUIT_BITS],
        *d[(mask >> 26) & SUIT_BITS],
        *c[mask >> 39],
    ]


def action_of(seat: int, decision: Decision, code: int) -> Action:
    """The engine's (interned) action for ``code`` taken by ``seat`` at ``decision``."""
    if decision is Decision.PLAY:
        return PLAYS[seat][code]
    if decision is Decision.OFFER:
        return OFFERS[seat][code - OFFER_BASE]
    if decision is Decision.ANSWER:
        return ANSWERS[seat][code - ANSWER_BASE]
    if decision is Decision.SWALLOW:
        return SWALLOWS[seat][code - LEAVE]
    if decision is Decision.DECLARE:
        if code == DECLARE_PASS_CODE:
            return DECLARE_PASS[seat]
        return DECLARE_OUT[seat][MAX_SEATS if code == DECLARE_ALONE else code - DECLARE_BASE]
    return CHALLENGES[seat][MAX_SEATS if code == NO_CHALLENGE else code - CHALLENGE_BASE]


def _card_code(card: object) -> int:
    """The index of a card, :data:`NO_CARD` for ``None``, -1 for anything else."""
    if card is None:
        return NO_CARD
    return card.index if type(card) is Card else -1


def _seat_code(seat: object) -> int:
    """A seat number, :data:`MAX_SEATS` for ``None``, -1 for anything else (equal values
    count, as actions compare by value: ``2.0`` is seat 2)."""
    if seat is None:
        return MAX_SEATS
    try:
        return _SEATS.index(seat)
    except ValueError:
        return -1


def _flag(value: object) -> int:
    """1 for a value equal to ``True``, 0 for one equal to ``False``, else -1."""
    if value is True or value is False:
        return int(value)
    try:
        return _FLAGS.index(value)
    except ValueError:
        return -1


_SEATS = tuple(range(MAX_SEATS))
_FLAGS = (False, True)


def code_of(action: Action) -> int:
    """The code of an engine action (the inverse of :func:`action_of`); -1 for anything
    that is not a well-formed action (a card that is not a card, a seat out of range)."""
    if type(action) is Answer:
        card = action.card
        if card is None:
            return DECLINE
        return ANSWER_BASE + card.index if type(card) is Card else -1
    if type(action) is Play:
        card = action.card
        return card.index if type(card) is Card else -1
    if type(action) is Offer:
        code = _card_code(action.card)
        return -1 if code < 0 else OFFER_BASE + code
    if type(action) is Swallow:
        take = _flag(action.take)
        return -1 if take < 0 else LEAVE + take
    if type(action) is Declare:
        out, target = _flag(action.out), _seat_code(action.challenge)
        if out == 0 and target == MAX_SEATS:
            return DECLARE_PASS_CODE
        if out != 1 or target < 0:
            return -1
        return DECLARE_ALONE if target == MAX_SEATS else DECLARE_BASE + target
    if type(action) is Challenge:
        target = _seat_code(action.target)
        return -1 if target < 0 else CHALLENGE_BASE + target
    return -1
