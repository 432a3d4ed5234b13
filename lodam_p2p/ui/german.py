"""How the German pack looks: Eichel, Grün, Herz and Schellen told apart at a glance.

Each suit has its own shape *and* its own colour, so that either alone tells them apart
(``NO_COLOR`` keeps the shapes, ``--ascii`` keeps the letters):

- Herz ``♥`` red: the one suit both packs share, drawn as everyone knows it.
- Schellen ``●`` gold: a bell is a round golden ball on the German cards.
- Grün ``▲`` green: a leaf, standing up.
- Eichel ``▼`` brown: an acorn hangs tip down.

The French ``♣ ♠ ♦`` are deliberately not used: a player who sees ``♣`` thinks "clubs"
(and half the German tables call Eichel "Kreuz", the other half map it elsewhere), which
is the confusion a separate pack is meant to avoid. ``♥ ● ▲ ▼`` are in the Geometric
Shapes block and the card suits, present in every common monospaced font (DejaVu Sans
Mono, Menlo, Consolas, Noto Mono), one column wide. Ranks are printed as on the cards:
``7 8 9 10 U O K A``.

Colour is a style *class* (``class:suit.eichel`` …); :data:`SUIT_STYLE_RULES` maps the
classes to colours and is added to the application's style, which drops the colours
under ``NO_COLOR`` as it does for every other rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from lodam_p2p.games.lorum import Card, Contract, Rank, Suit
from lodam_p2p.ui.canvas import Canvas
from lodam_p2p.ui.glyphs import Glyphs

#: The suit symbols.
SUIT_SYMBOLS = {Suit.E: "▼", Suit.G: "▲", Suit.H: "♥", Suit.S: "●"}
#: Suit names, German then English.
SUIT_NAMES = {Suit.E: "Eichel", Suit.G: "Grün", Suit.H: "Herz", Suit.S: "Schellen"}
SUIT_ENGLISH = {Suit.E: "acorns", Suit.G: "leaves", Suit.H: "hearts", Suit.S: "bells"}
#: Rank labels as printed on the cards.
RANK_LABELS = {Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10",
               Rank.UNTER: "U", Rank.OBER: "O", Rank.KING: "K", Rank.ACE: "A"}
RANK_NAMES = {Rank.SEVEN: "Sieben", Rank.EIGHT: "Acht", Rank.NINE: "Neun", Rank.TEN: "Zehn",
              Rank.UNTER: "Unter", Rank.OBER: "Ober", Rank.KING: "König", Rank.ACE: "Ass"}
#: The order suits are shown in a hand: the colours alternate.
HAND_ORDER = (Suit.E, Suit.H, Suit.G, Suit.S)
#: Style class → colour, to add to the application's style rules.
SUIT_STYLE_RULES: list[tuple[str, str]] = [
    ("suit.eichel", "#d7875f bold"),
    ("suit.gruen", "#5fd75f bold"),
    ("suit.herz", "#ff5f5f bold"),
    ("suit.schellen", "#ffd700 bold"),
    ("card.back", "#5f87af"),
    ("contract", "#ffd75f bold"),
    ("lorum.start", "underline"),
    ("lorum.aside", "italic"),
    ("lorum.next", "#808080"),
    ("sheet.current", "reverse"),
]
_SUIT_CLASS = {Suit.E: "class:suit.eichel", Suit.G: "class:suit.gruen",
               Suit.H: "class:suit.herz", Suit.S: "class:suit.schellen"}
#: Look-alikes of the characters this screen adds beyond the table's (``--ascii``).
ASCII_EXTRA = {"♥": "H", "▼": "E", "▲": "G", "●": "S", "▒": "#", "ü": "u", "ö": "o", "ä": "a",
               "Ü": "U", "×": "x", "✓": "+", "…": "~", "·": "."}

#: Contract names: German, and English words for the header.
CONTRACT_NAMES = {
    Contract.REDS: ("Rote", "reds"),
    Contract.OBERS: ("Ober", "obers"),
    Contract.TRICKS: ("Stiche", "tricks"),
    Contract.FIRST_LAST: ("Erster und Letzter", "first and last"),
    Contract.FIFTH: ("Fünfter Stich", "the fifth trick"),
    Contract.RED_KING: ("Roter König", "the red king"),
    Contract.QUARTET: ("Quart", "quartet"),
    Contract.LORUM: ("Lorum", "the rows"),
}


def suit_symbol(suit: Suit, glyphs: Glyphs) -> str:
    """``▼`` or ``E``."""
    return str(suit) if glyphs.ascii else SUIT_SYMBOLS[suit]


def card_label(card: Card, glyphs: Glyphs) -> str:
    """``O♥``, ``10▼`` or ``OH``, ``10E``: the rank as printed, then the suit."""
    return RANK_LABELS[card.rank] + suit_symbol(card.suit, glyphs)


def suit_style(suit: Suit) -> str:
    """The style class of a suit's colour."""
    return _SUIT_CLASS[suit]


def card_frag(card: Card, glyphs: Glyphs, extra: str = "") -> tuple[str, str]:
    """One card face in its suit's colour (``extra``: more classes)."""
    return (f"{suit_style(card.suit)} {extra}".strip(), card_label(card, glyphs))


def back(glyphs: Glyphs) -> str:
    """A face-down card (the blind Red King): ``▒▒`` or ``##``."""
    return "##" if glyphs.ascii else "▒▒"


def sort_hand(hand: Iterable[Card]) -> list[Card]:
    """A hand as a person holds it: by suit, colours alternating, low to high."""
    return sorted(hand, key=lambda c: (HAND_ORDER.index(c.suit), c.rank))


def contract_name(contract: Contract) -> str:
    """``Rote — reds``."""
    german, english = CONTRACT_NAMES[contract]
    return f"{german} — {english}"


def to_ascii(canvas: Canvas) -> None:
    """Replace every character outside ASCII by a look-alike, this screen's first."""
    for line in canvas.cells:
        for i, (style, ch) in enumerate(line):
            if ch in ASCII_EXTRA:
                line[i] = (style, ASCII_EXTRA[ch])
    canvas.to_ascii()
