"""Where a table machine is (:class:`SessionPhase`), and how long it waits for what
(:class:`Timing`): the two things every part of the machine reads
(:mod:`.clocks`, :mod:`.away`, :mod:`.course`, :mod:`.ending`, :mod:`.rejoin`,
:mod:`.returning`, :mod:`.routing`, :mod:`.seating`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["SessionPhase", "Timing"]


class SessionPhase(Enum):
    """Where a session is."""

    LOBBY = "lobby"  #: waiting for the table to fill
    LOT = "lot"  #: drawing the first dealer
    MATCH = "match"  #: playing hands
    GRACE = "grace"  #: a blamed seat is away; waiting for it to come back
    REJOIN = "rejoin"  #: this seat is back after a restart; waiting for RESUME (.rejoin)
    LINGER = "linger"  #: result sent; answering resends until everyone has sent theirs
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Timing:
    """How long a session waits for what."""

    timeout_s: float = 30.0  #: a protocol step or a decision (a host puts it in START)
    person_s: float = 300.0  #: the table's limit instead, when its host seats a person
    grace_s: float = 60.0  #: a blamed, disconnected seat's time to come back
    linger_s: float = 5.0  #: after the result, time to answer resends (then up to the
    #: time of a protocol step more while a connected seat has not sent its result)
    lobby_s: float | None = None  #: time for the table to fill (None: no limit)
    heartbeat_s: float = 1.0  #: stream heartbeats (a lost last message is noticed by then)
    retry_s: float = 0.5  #: resend requests are repeated this often
