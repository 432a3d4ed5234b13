"""The German 32-card pack of Lorum (LORUM.md section 1), interned and as bit masks.

A card is also a small integer, its *index* ``suit * 8 + rank`` (suits E G H S are 0–3,
ranks 7 8 9 T U O K A are 0–7), so that a hand is a 32-bit mask and "the hearts in this
hand" is a shift and an ``and``. The 32 :class:`Card` objects are built once;
:meth:`Card.parse` and :func:`card_at` always hand back the same object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from lodam_p2p.games.kit.cards import LetteredRank, LetteredSuit
from lodam_p2p.games.kit.rules import Deck, WrittenCard
from lodam_p2p.games.kit.rules import mask_of as _mask_of

RANK_LETTERS = "789TUOKA"
SUIT_LETTERS = "EGHS"
#: Cards per suit, so the stride between suits in a card index.
SUIT_SPAN = 8
SUIT_BITS = (1 << SUIT_SPAN) - 1


class Suit(LetteredSuit):
    """The four suits; ``str(Suit.H) == "H"``."""

    E = 0  #: Eichel, acorns
    G = 1  #: Grün (Laub), leaves
    H = 2  #: Herz (Rot), hearts: the red suit
    S = 3  #: Schellen, bells


class Rank(LetteredRank, letters=RANK_LETTERS, lowest=0):
    """Ranks, lowest first ("higher" follows this order), written ``7 8 9 T U O K A``."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    UNTER = 4
    OBER = 5
    KING = 6
    ACE = 7


@dataclass(frozen=True, slots=True, order=True, repr=False)
class Card(WrittenCard):
    """One card; ``str`` gives LORUM.md notation, rank then suit (``"OH"``)."""

    examples: ClassVar[str] = "'OH' or '7S'"

    suit: Suit
    rank: Rank
    #: Small-integer identity used inside the engine (see the module docstring).
    index: int = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", int(self.suit) * SUIT_SPAN + int(self.rank))

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]


#: Every card by index (suits E G H S, each 7 … A).
CARDS: tuple[Card, ...] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
Card.by_text = {str(card): card for card in CARDS}
#: The whole pack in index order.
PACK: tuple[Card, ...] = CARDS
PACK_MASK = (1 << 32) - 1
#: The suit and the rank of each card index, as plain ints.
CARD_SUIT: tuple[int, ...] = tuple(i >> 3 for i in range(32))
CARD_RANK: tuple[int, ...] = tuple(i & 7 for i in range(32))
#: Mask of each suit.
SUIT_MASK: tuple[int, ...] = tuple(SUIT_BITS << (s * SUIT_SPAN) for s in range(4))
HEARTS = SUIT_MASK[Suit.H]
#: Mask of the four cards of each rank.
RANK_MASK: tuple[int, ...] = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))
OBERS = RANK_MASK[Rank.OBER]
UNTERS = RANK_MASK[Rank.UNTER]
RED_KING = CARDS[Suit.H * 8 + Rank.KING]
KH_BIT = 1 << RED_KING.index
#: Set aside face up with three players (LORUM.md 2).
SET_ASIDE: tuple[Card, ...] = (CARDS[Suit.S * 8 + Rank.SEVEN], CARDS[Suit.S * 8 + Rank.EIGHT])
SET_ASIDE_MASK = (1 << SET_ASIDE[0].index) | (1 << SET_ASIDE[1].index)
#: The 30 cards dealt with three players, in index order.
SHORT_PACK: tuple[Card, ...] = tuple(c for c in CARDS if c not in SET_ASIDE)


#: The whole pack by engine index, and the kit's lookups over it.
DECK = Deck(CARDS, Card.parse)
#: The interned card with engine index ``index``.
card_at = DECK.card_at
#: The bit mask of an iterable of cards (duplicates collapse).
mask_of = _mask_of
#: The cards of a mask, in index order.
cards_of = DECK.cards_of
#: Parse a list of card strings; ``ValueError`` naming the first bad one.
parse_cards = DECK.parse_cards
