"""What every part that follows the match reads on the table machine.

The parts of the table machine each name what they read and call there in a protocol
of their own (:class:`~.course.CourseTable`, :class:`~.rejoin.ReturnTable`,
:class:`~.returning.ReturningTable`); the state of the match they all read is named once
here, and their protocols extend it.
"""

from __future__ import annotations

from typing import Any, Protocol

from lodam_p2p.games import Game
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.phases import SessionPhase

__all__ = ["MatchView"]


class MatchView(Protocol):
    """The match as the table machine holds it, for the parts that follow it."""

    table: str
    roster: Roster | None
    seat: int | None
    phase: SessionPhase
    match: Any  #: the game's match (None until the lot is drawn)
    game: Game | None
    hand: HandMachine | None  #: the hand under way (None between hands)
    hand_no: int
    audits: int
    blames: list[str]
