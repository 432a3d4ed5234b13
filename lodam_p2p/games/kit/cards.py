"""Suits and ranks as every game writes them: one letter each.

A game's ``Suit`` is a :class:`LetteredSuit` whose members are named by their letters
(``Suit.H`` is written ``"H"``); its ``Rank`` is a :class:`LetteredRank` that names its
letters, lowest rank first, and the value of its lowest rank, in the class statement::

    class Rank(LetteredRank, letters="789TUOKA", lowest=0):
        SEVEN = 0
        ...

Both stay ``IntEnum`` values, so that a card's engine index is plain arithmetic on them.
"""

from __future__ import annotations

import enum
from typing import ClassVar


class LetteredSuit(enum.IntEnum):
    """A suit written as its member's name: ``str(Suit.S) == "S"``."""

    def __str__(self) -> str:
        return self.name


class LetteredRank(enum.IntEnum):
    """A rank written as one letter of the game's rank letters (see the module docstring)."""

    #: The game's rank letters, lowest rank first.
    _letters: ClassVar[str]
    #: The value of the lowest rank (its letter is the first).
    _lowest: ClassVar[int]

    def __init_subclass__(cls, *, letters: str = "", lowest: int = 0) -> None:
        super().__init_subclass__()
        cls._letters, cls._lowest = letters, lowest

    @property
    def letter(self) -> str:
        """The rank's letter (``"T"`` for a ten)."""
        return self._letters[self - self._lowest]

    def __str__(self) -> str:
        return self.letter


__all__ = ["LetteredRank", "LetteredSuit"]
