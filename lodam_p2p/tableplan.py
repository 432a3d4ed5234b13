"""Who sits where, and how a match ended: shared by every table driver.

A table driver — :func:`lodam_p2p.session.play_table` over the network, or
:func:`lodam_p2p.local.play_local` in one process — takes one :class:`SeatPlan` per
seat it runs and returns a :class:`MatchOutcome`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lodam_p2p.games import DEFAULT_GAME

if TYPE_CHECKING:
    from lodam_p2p.player import Player


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """One seat a driver runs: its public name, its player, and what kind it is."""

    name: str
    player: Player
    kind: str = "human"  #: "human", or "bot:<bot name>"


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """The end of a match, as the ``--json`` line of ``lodam host/join/play`` reports it."""

    table: str
    winners: tuple[int, ...]
    deals: int
    audits_passed: int
    blames: tuple[str, ...] = ()  #: one line each: "seat 2: share proof failed (hand 3)"
    lives: tuple[int, ...] = ()  #: per seat, the game's score (Lodam: counters held)
    payouts: tuple[int, ...] = ()
    game: str = DEFAULT_GAME  #: the game played
    standings: tuple[int, ...] = ()  #: seats best first
    #: what this seat saw the broker do wrong (split views, replays, withheld frames)
    broker_faults: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The one-line JSON summary of a finished match."""
        return {
            "table": self.table,
            "winners": list(self.winners),
            "deals": self.deals,
            "audits_passed": self.audits_passed,
            "blames": list(self.blames),
        }
