"""Sessions: the rules engine and the fair-deal protocol on the wire.

One seat is one :class:`~lodam_p2p.session.runner.Session` with its own identity, hand
keys and broker connection; several may run in one process and never share a secret.
The table drivers (:mod:`.table`) have the shape every client uses:

- :func:`play_table` — every seat in this process;
- :func:`host_table` — host a table, some seats here, the others join;
- :func:`join_table` — one seat joins a table hosted elsewhere.

Module map: :mod:`.wire` (signed frames and message bodies), :mod:`.link` (one peer's
connection), :mod:`.lobby` (seating), :mod:`.lot` (the first dealer), :mod:`.handplay`
(one hand: rules + fair deal), :mod:`.audit` (the rules replay at the end of a hand),
:mod:`.seat` (the table machine, with no I/O), owning its parts: :mod:`.driving` (how
it is driven: its clock, the guard, the waits put together), :mod:`.routing` (the
way in: queues and routes), :mod:`.seating` (lobby and lot at a seat), :mod:`.course`
(hands begun, settled, voided) and :mod:`.ending` (the end), :mod:`.gamecourse` (the
game's side of the course), :mod:`.judging` (a hand's messages and claims),
:mod:`.clocks` (time limits and TIMEOUT votes), :mod:`.away` (seats that are gone),
:mod:`.rejoin`, :mod:`.redeal` and :mod:`.returning` (seats coming back, and the table
going on after), :mod:`.asking` (the local player); :mod:`.gamehand` (a Lorum deal's
hand, with :mod:`.gamedeal` and :mod:`.gameroutes`); :mod:`.phases` (where a machine is,
how long it waits), :mod:`.journal` (a seat's crash-safe journal), :mod:`.effects` (what
the machine and its runner say to each other), :mod:`.runner` (the asyncio loop around a
machine, and :class:`Session`), :mod:`.hosting` (the sessions a table's process plays,
put back from a journal), :mod:`.log` (the spectator log).
"""

from lodam_p2p.session.course import Timing
from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.runner import Session
from lodam_p2p.session.table import host_table, join_table, play_table
from lodam_p2p.tableplan import MatchOutcome, SeatPlan

__all__ = [
    "MatchOutcome",
    "SeatPlan",
    "Session",
    "SessionError",
    "SpectatorLog",
    "Timing",
    "host_table",
    "join_table",
    "play_table",
]
