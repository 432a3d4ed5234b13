"""The public record of a Lorum deal: tricks (and Quartet runs), and the result."""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lorum.cards import Card
from lodam_p2p.games.lorum.options import Contract


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A completed trick, or a Quartet run (its points then 0). Played face up: public."""

    leader: int
    cards: tuple[tuple[int, Card], ...]  #: (seat, card) in play order
    winner: int  #: the trick's taker; in Quartet the seat that played the run's last card
    points: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended."""

    contract: Contract
    points: tuple[int, ...]  #: penalty points per seat in this deal
    out: tuple[int, ...]  #: seats in the order their hands emptied (Quartet, Lorum)
    announced: bool  #: the Red King was announced
