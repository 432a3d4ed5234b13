"""Cards, suits, ranks, loaders and the two packs (RULES.md section 1).

Every card is interned: the 52 :class:`Card` objects are built once, and
:meth:`Card.parse` and :func:`card_at` always hand back the same object. Equality and
hashing are still by value, so a ``Card(Rank.TEN, Suit.D)`` built by hand is equal to the
interned one and works everywhere.

Inside the engine a card is also a small integer, its *index* ``suit * 13 + rank - 2``
(spades 0–12, hearts 13–25, diamonds 26–38, clubs 39–51, each suit two first). A hand is
then a 52-bit mask, and "the spades in this hand" is a shift and an ``and``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from lodam_p2p.games.kit.cards import LetteredRank, LetteredSuit
from lodam_p2p.games.kit.rules import Deck, WrittenCard
from lodam_p2p.games.kit.rules import mask_of as _mask_of

if TYPE_CHECKING:
    from lodam_p2p.games.lodam.options import RankOrder

RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "SHDC"
#: Penalty points of a loader by rank letter; every other rank counts 0.
LOADER_POINTS = {"A": 11, "T": 10, "K": 3, "Q": 2, "J": 1}
#: Cards per suit, and so the stride between suits in a card index.
SUIT_SPAN = 13
SUIT_BITS = (1 << SUIT_SPAN) - 1


class Suit(LetteredSuit):
    """The four suits; ``str(Suit.S) == "S"``."""

    S = 0  #: spades
    H = 1  #: hearts
    D = 2  #: diamonds
    C = 3  #: clubs


class Rank(LetteredRank, letters=RANK_LETTERS, lowest=2):
    """Ranks by face value (2 … 14), written ``2`` … ``9``, ``T``, ``J``, ``Q``, ``K``,
    ``A``; the order of strength is :func:`rank_strength`."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14


class Kind(enum.Enum):
    """What may be exchanged: a coat for a coat, a card for a card (RULES.md 5)."""

    COAT = "coat"  #: K Q J, the court cards
    CARD = "card"  #: A T, the high loaders


@dataclass(frozen=True, slots=True, order=True, repr=False)
class Card(WrittenCard):
    """One playing card; ``str`` gives RULES.md notation (``"TD"``)."""

    examples: ClassVar[str] = "'TD' or '9C'"

    rank: Rank
    suit: Suit
    #: Small-integer identity used inside the engine (see the module docstring).
    index: int = field(init=False, compare=False, repr=False, hash=False)
    #: ``1 << index``: the card in a hand's bit mask.
    bit: int = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        index = int(self.suit) * SUIT_SPAN + int(self.rank) - 2
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 2] + SUIT_LETTERS[self.suit]

    @property
    def points(self) -> int:
        """Penalty points: A 11, T 10, K 3, Q 2, J 1, else 0."""
        return CARD_POINTS[self.index]

    @property
    def kind(self) -> Kind | None:
        """``Kind.COAT`` for K Q J, ``Kind.CARD`` for A T, ``None`` for the rest."""
        return CARD_KINDS[self.index]

    @property
    def is_loader(self) -> bool:
        """Whether the card carries penalty points."""
        return CARD_POINTS[self.index] > 0


def _build_cards() -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit in Suit for rank in Rank)


#: Every card by index (see the module docstring).
CARDS: tuple[Card, ...] = _build_cards()
Card.by_text = {str(card): card for card in CARDS}
CARD_POINTS: tuple[int, ...] = tuple(LOADER_POINTS.get(str(c)[0], 0) for c in CARDS)
CARD_KINDS: tuple[Kind | None, ...] = tuple(
    Kind.COAT if c.rank in (Rank.KING, Rank.QUEEN, Rank.JACK)
    else Kind.CARD if c.rank in (Rank.ACE, Rank.TEN)
    else None
    for c in CARDS
)
#: The suit of each card index, as a plain int.
CARD_SUIT: tuple[int, ...] = tuple(i // SUIT_SPAN for i in range(52))

#: The full French pack in canonical order (by suit S H D C, each two to ace).
FULL_PACK: tuple[Card, ...] = CARDS
#: The short pack: A K Q J T 9 8 7 of each suit (RULES.md 4, option ``short_deck_at``).
SHORT_PACK: tuple[Card, ...] = tuple(c for c in CARDS if c.rank >= Rank.SEVEN)

FULL_MASK = (1 << 52) - 1
SHORT_MASK = sum(1 << c.index for c in SHORT_PACK)
#: Masks of the exchangeable cards of each kind.
KIND_MASK: dict[Kind, int] = {
    kind: sum(1 << i for i in range(52) if CARD_KINDS[i] is kind) for kind in Kind
}
EXCHANGEABLE_MASK = KIND_MASK[Kind.COAT] | KIND_MASK[Kind.CARD]

#: Strength of a rank within its suit, by rank order name ("willughby", "parlett").
_STRENGTH_BY_ORDER: dict[str, tuple[int, ...]] = {
    "willughby": tuple(range(2, 15)),
    # A T K Q J 9 … 2: the ten rises above the king.
    "parlett": (2, 3, 4, 5, 6, 7, 8, 9, 13, 10, 11, 12, 14),
}


_STRENGTH_TABLES: dict[str, tuple[int, ...]] = {
    name: tuple(per_rank[i % SUIT_SPAN] for i in range(52))
    for name, per_rank in _STRENGTH_BY_ORDER.items()
}


def strength_table(order: RankOrder | str) -> tuple[int, ...]:
    """Strength of every card index within its suit under ``order`` (bigger wins)."""
    return _STRENGTH_TABLES[str(getattr(order, "value", order))]


#: What playing a card changes, by card index: the pack's mask without it, its suit,
#: its points and its strength within the suit (under one rank order).
PlayFacts = tuple[int, int, int, int]

_FULL = (1 << 52) - 1
_PLAY_FACTS: dict[str, tuple[PlayFacts, ...]] = {
    name: tuple(
        (_FULL ^ (1 << i), i // SUIT_SPAN, CARD_POINTS[i], table[i]) for i in range(52)
    )
    for name, table in _STRENGTH_TABLES.items()
}


def play_facts(order: RankOrder | str) -> tuple[PlayFacts, ...]:
    """:data:`PlayFacts` of every card index under ``order``: a play is one look-up."""
    return _PLAY_FACTS[str(getattr(order, "value", order))]


def rank_strength(card: Card, order: RankOrder) -> int:
    """How strong ``card`` is within its suit under ``order``; bigger wins."""
    return _STRENGTH_BY_ORDER[order.value][card.rank - 2]


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
