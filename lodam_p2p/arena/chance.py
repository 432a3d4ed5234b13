"""Every random draw of the arena, derived from ``--seed`` and a name.

The rules engine draws nothing: the arena shuffles the decks, draws the first dealer
and hands every bot its seed. Each draw has its own stream, named by what it is for
(``deck``, ``dealer``, ``bot`` …) and where (group, deal, seat), so that a match's
result depends only on the seed and its place in the schedule — not on the order in
which worker processes happen to play it, nor on what other matches did.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

#: A card of whichever game is played.
Card = TypeVar("Card")


def derive(seed: int, *parts: int | str) -> int:
    """A 64-bit integer from ``seed`` and the named place ``parts``."""
    text = "/".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def shuffled(pack: Sequence[Card], seed: int, group: int, deal: int) -> list[Card]:
    """The deck of deal number ``deal`` of rotation group ``group``, top first.

    Every match of a group draws the same stream: deal ``k`` gets the same order of the
    pack in each rotation (and for A and B of a comparison).
    """
    deck = list(pack)
    random.Random(derive(seed, "deck", group, deal, len(pack))).shuffle(deck)
    return deck


def first_dealer(seed: int, group: int, seats: int) -> int:
    """The first dealer of every match of ``group``, drawn by lot."""
    return derive(seed, "dealer", group) % seats


def bot_seed(seed: int, group: int, rotation: int, seat: int, purpose: str = "bot") -> int:
    """The entropy for the bot at ``seat`` (the same for A and B of a comparison)."""
    return derive(seed, purpose, group, rotation, seat)
