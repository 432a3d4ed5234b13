"""How cards, counters and bars look: suit symbols, or plain ASCII.

Everything the screen draws goes through a :class:`Glyphs`, so ``--ascii`` changes one
object. Colour is not decided here: fragments carry style *classes* (``card.red``,
``card.dim`` …) and the application's style maps them, or not, under ``NO_COLOR``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lodam_p2p.games.lodam import Card, Kind, RankOrder, Suit, rank_strength

if TYPE_CHECKING:
    from lodam_p2p.ui.canvas import Canvas

#: Suit symbols by suit.
SUIT_SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
#: The order suits are shown in a hand: colours alternate.
HAND_SUIT_ORDER = (Suit.S, Suit.H, Suit.C, Suit.D)
#: Suit names for sentences.
SUIT_NAMES = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}
RED_SUITS = frozenset({Suit.H, Suit.D})


@dataclass(frozen=True, slots=True)
class Glyphs:
    """The characters used to draw the table."""

    ascii: bool = False

    def suit(self, suit: Suit) -> str:
        """``♠`` or ``S``."""
        return str(suit) if self.ascii else SUIT_SYMBOLS[suit]

    def card(self, card: Card) -> str:
        """``Q♠`` or ``QS``: always two characters."""
        return f"{card.rank.letter}{self.suit(card.suit)}"

    def counters(self, held: int, total: int) -> str:
        """Counters held out of ``total``: ``♥♥♡`` or ``**-``."""
        full, empty = ("*", "-") if self.ascii else ("♥", "♡")
        return full * held + empty * max(0, total - held)

    def bar(self, value: int, limit: int, width: int) -> str:
        """A bar ``width`` long filled in proportion to ``value`` out of ``limit``."""
        full, empty = ("#", ".") if self.ascii else ("▰", "▱")
        filled = min(width, (value * width + limit - 1) // limit) if limit > 0 else width
        return full * filled + empty * (width - filled)

    @property
    def pointer(self) -> str:
        """Marks the seat to act."""
        return ">" if self.ascii else "▶"

    @property
    def rule(self) -> str:
        """A horizontal line character."""
        return "-" if self.ascii else "─"

    @property
    def box(self) -> tuple[str, str, str, str, str, str]:
        """Box corners and sides: top-left, top-right, bottom-left, bottom-right, -, |."""
        if self.ascii:
            return ("+", "+", "+", "+", "-", "|")
        return ("╭", "╮", "╰", "╯", "─", "│")

    def draw_box(self, canvas: Canvas, *, top: int, left: int, width: int, height: int,
                 style: str) -> None:
        """The outline of a box of :attr:`box` glyphs, ``width`` by ``height`` counting
        its sides, with its top-left corner at (``top``, ``left``)."""
        tl, tr, bl, br, h, v = self.box
        canvas.put_text(top, left, tl + h * (width - 2) + tr, style)
        for r in range(top + 1, top + height - 1):
            canvas.put_text(r, left, v, style)
            canvas.put_text(r, left + width - 1, v, style)
        canvas.put_text(top + height - 1, left, bl + h * (width - 2) + br, style)


#: The longest name the screen shows (``--name`` takes no more; a longer name a peer
#: sends is cut, so that it cannot push the seats and the panels out of shape).
MAX_NAME = 24


def shown_name(name: str) -> str:
    """``name`` as the screen shows it: at most :data:`MAX_NAME` characters (a longer one
    ends in ``…``), unprintable characters dropped."""
    clean = "".join(ch for ch in name if ch.isprintable()) or "?"
    return clean if len(clean) <= MAX_NAME else clean[: MAX_NAME - 1] + "…"


def card_style(card: Card) -> str:
    """The style class of a card face by colour."""
    return "class:card.red" if card.suit in RED_SUITS else "class:card.black"


def kind_words(kind: Kind) -> str:
    """``a coat`` or ``a card``."""
    return f"a {kind.value}"


def sort_hand(hand: Iterable[Card], order: RankOrder) -> list[Card]:
    """A hand as a person holds it: by suit (colours alternating), high cards first."""
    return sorted(hand, key=lambda c: (HAND_SUIT_ORDER.index(c.suit), -rank_strength(c, order)))


_SEATS = re.compile(r"\bseats? (\d+(?:(?:, | and )\d+)*)")


def name_seats(text: str, name: Callable[[int], str]) -> str:
    """``text`` with "seat 3" and "seats 1, 4" replaced by the seats' names."""

    def replace(match: re.Match[str]) -> str:
        seats = [name(int(n)) for n in re.findall(r"\d+", match.group(1))]
        return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]

    return _SEATS.sub(replace, text)


def names_said(text: str, names: Sequence[str]) -> str:
    """``text`` from the table ("seat 3 is back") with the seats its ``names`` know
    named ("Kit is back"); a seat not known yet stays "seat N"."""
    return name_seats(text, lambda s: names[s] if 0 <= s < len(names) else f"seat {s}")
