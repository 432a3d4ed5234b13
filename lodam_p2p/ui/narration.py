"""The log's sentences about seats, the same in every game: who did what, in person.

A game's narrator (:class:`~lodam_p2p.ui.lodam.narrate.Narrator`,
:class:`~lodam_p2p.ui.lorum.narrate.LorumNarrator`) tells what changed between two
views; it says the seats as this base does — ``you`` for the person's own seat, its
name for the others — and bends the verb to match (``you play``, ``Moll plays``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.seat_model import LogLine


@dataclass(frozen=True, slots=True)
class SeatNarrator:
    """Names seats in the log's sentences; ``me`` is the seat spoken to (-1: nobody)."""

    names: Sequence[str]
    me: int
    glyphs: Glyphs

    def who(self, seat: int) -> str:
        """``you`` or the seat's name."""
        return "you" if seat == self.me else self.names[seat]

    def Who(self, seat: int) -> str:
        """``You`` or the seat's name, to start a sentence."""
        return "You" if seat == self.me else self.names[seat]

    def verb(self, seat: int, third: str, second: str) -> str:
        """``plays`` for others, ``play`` for you."""
        return second if seat == self.me else third


__all__ = ["LogLine", "SeatNarrator"]
