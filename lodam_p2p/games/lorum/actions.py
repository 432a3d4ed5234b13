"""Every decision a seat can take in Lorum, and the engine's errors.

Actions are small frozen values. The engine hands out *interned* ones (each
``Play(seat, card)`` is built once), so matching a chosen action against the legal list
is mostly an identity check; actions built by hand compare equal by value and work too.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from lodam_p2p.games.kit import rules
from lodam_p2p.games.lorum.cards import CARDS, Card

#: Seats are 0 … MAX_SEATS - 1.
MAX_SEATS = 4


class Decision(enum.Enum):
    """The kind of decision (or forced step) the engine awaits."""

    PLAY = "play"  #: a card to a trick or a Quartet run (no default)
    LAY = "lay"  #: Lorum: lay a card to the rows, or pass when none fits (no default)
    ANNOUNCE = "announce"  #: Red King: the holder of KH may announce it (default: no)


@dataclass(frozen=True, slots=True)
class Play(rules.CardPlay[Card]):
    """Play ``card`` to the trick (or lead or continue a Quartet run)."""

    decision: ClassVar[Decision] = Decision.PLAY


@dataclass(frozen=True, slots=True)
class Lay(rules.SeatCard[Card]):
    """Lorum: lay ``card`` to the rows."""

    decision: ClassVar[Decision] = Decision.LAY

    def __str__(self) -> str:
        return f"lay {self.card}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Lorum: pass ("schieben"), allowed only when no card fits; scores 1 point."""

    seat: int
    decision: ClassVar[Decision] = Decision.LAY

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Announce:
    """Red King: the holder of KH announces it (``True``) or keeps quiet (``False``)."""

    seat: int
    announced: bool
    decision: ClassVar[Decision] = Decision.ANNOUNCE

    def __str__(self) -> str:
        return "announce the red king" if self.announced else "keep the red king quiet"


Action = Play | Lay | Pass | Announce


# The engine's errors are every game's (lodam_p2p.games.kit.rules), named here too.
RulesError = rules.RulesError
MalformedInput = rules.MalformedInput
OptionError = rules.OptionError
IllegalAction = rules.IllegalAction


# --- interned actions --------------------------------------------------------------

PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, card) for card in CARDS) for seat in range(MAX_SEATS)
)
LAYS: tuple[tuple[Lay, ...], ...] = tuple(
    tuple(Lay(seat, card) for card in CARDS) for seat in range(MAX_SEATS)
)
PASSES: tuple[Pass, ...] = tuple(Pass(seat) for seat in range(MAX_SEATS))
#: ``ANNOUNCES[s]`` is (keep quiet, announce) for seat s: the default first.
ANNOUNCES: tuple[tuple[Announce, Announce], ...] = tuple(
    (Announce(seat, False), Announce(seat, True)) for seat in range(MAX_SEATS)
)


def _by_mask(table: tuple[tuple[Play, ...], ...] | tuple[tuple[Lay, ...], ...]) -> list[
    list[list[tuple[Action, ...]]]
]:
    """``[seat][suit][8-bit mask]`` → the interned actions of those cards of the suit."""
    out: list[list[list[tuple[Action, ...]]]] = []
    for seat in range(MAX_SEATS):
        per_suit: list[list[tuple[Action, ...]]] = []
        for suit in range(4):
            row: list[tuple[Action, ...]] = [
                tuple(table[seat][suit * 8 + r] for r in range(8) if bits >> r & 1)
                for bits in range(256)
            ]
            per_suit.append(row)
        out.append(per_suit)
    return out


#: Plays and lays by (seat, suit, the suit's 8 bits of a mask): move generation is a
#: few table look-ups.
PLAYS_BY_MASK = _by_mask(PLAYS)
LAYS_BY_MASK = _by_mask(LAYS)


def actions_of(table: list[list[list[tuple[Action, ...]]]], seat: int, mask: int) -> tuple[
    Action, ...
]:
    """The interned actions of ``seat`` for the cards of ``mask`` (index order)."""
    per = table[seat]
    return per[0][mask & 255] + per[1][mask >> 8 & 255] + per[2][mask >> 16 & 255] + per[3][
        mask >> 24
    ]
