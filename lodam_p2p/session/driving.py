"""How the table machine is driven: the time it is given, what comes in, and its waits.

Theory of operation. Everything a machine (:class:`~lodam_p2p.session.seat.TableMachine`)
learns comes in through its ``receive`` with the time it arrived; time alone through its
``handle_timer``, which also moves whatever can move now (call it after every batch of
``receive``). What the machine says goes into lists its runner (:mod:`.runner`) drains:
``outgoing`` (bodies to publish), ``retained`` (lobby writes) and ``events``
(:mod:`.effects`: tell the player, write the spectator log and the journal, ask the
player, admit the seated peers): no handler calls out. Its ``timer`` says when it next
has something to do; its ``now`` is the last time it was given, and every handler reads
the clock there.

Nothing a peer sends can stop a machine: every message is handled inside a guard
(:meth:`Router.handle <.routing.Router.handle>`) that logs and drops whatever a handler
did not foresee, and ``receive`` and ``handle_timer`` survive anything raised while they
work through peer input (the machine's ``strict`` lets it out instead, for fuzzing).
Only the loss of the broker, a START without this seat
(:class:`~.effects.SessionError`) or a table gone (:class:`~.resumestate.TableGone`)
end a machine early.

:class:`TableDrive` is the part of the machine that does this (its ``drive``, reaching
it only through :class:`DrivenTable`): the machine's ``start``, ``receive``,
``handle_timer``, ``timer`` and ``check_timers`` hand the call to it, and it keeps the
clock. :meth:`TableDrive.timer` and :meth:`TableDrive.check_timers` are the one place
that puts the parts' waits together.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from lodam_p2p.player import Phase, Progress, TableEvent
from lodam_p2p.session.away import AwaySeats
from lodam_p2p.session.clocks import TableClocks
from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.journal import SeatJournal
from lodam_p2p.session.lobby import HostDesk, Roster
from lodam_p2p.session.phases import SessionPhase
from lodam_p2p.session.rejoin import ReturnDesk
from lodam_p2p.session.resumestate import TableGone
from lodam_p2p.session.returning import SeatReturn
from lodam_p2p.session.routing import Router
from lodam_p2p.session.seating import SeatingDesk
from lodam_p2p.tableplan import SeatPlan

__all__ = ["DrivenTable", "TableDrive"]

log = logging.getLogger("lodam_p2p.session")


class DrivenTable(Protocol):
    """What driving reads and calls on the table machine that owns it."""

    table: str
    phase: SessionPhase
    hand: HandMachine | None
    plan: SeatPlan | None
    host: str | None
    desk: HostDesk | None
    journal: SeatJournal
    lobby_since: float
    strict: bool
    unexpected: int
    router: Router
    seating: SeatingDesk
    clocks: TableClocks
    away_seats: AwaySeats
    return_desk: ReturnDesk
    coming_back: SeatReturn

    def admit(self, roster: Roster) -> None: ...
    def tell(self, event: TableEvent) -> None: ...


class TableDrive:
    """Drives the table machine that owns it (see the module docstring)."""

    def __init__(self, table: DrivenTable) -> None:
        self.table = table
        #: the last time the machine was given (its ``now``)
        self.clock = 0.0

    def start(self, now: float) -> None:
        """Begin at ``now``: announce a host's table, JOIN it, or ask to be taken back."""
        t = self.table
        self.clock = t.lobby_since = now
        if t.journal.rejoining:
            t.host = t.host or t.journal.entry.get("host")
            roster = t.coming_back.begin()
            t.admit(roster)
            if t.desk is not None:  # a restarted host: the table is still playing
                t.desk.resume(roster)
                t.seating.announce()
            return
        if t.desk is not None:
            t.seating.announce()
        if t.plan is not None:
            t.seating.ask_for_seat()  # seated once the host's SEATS or START says so
        else:
            t.tell(Progress(Phase.LOBBY, detail=f"waiting for table {t.table} to fill"))

    def receive(self, item: object, now: float) -> None:
        """Take one thing the link or the player delivered at ``now`` (a body, a presence
        change, the lobby, a decision); what a peer sent never raises out of here."""
        self.clock = now
        self._guard(self.table.router.take_in, item)

    def handle_timer(self, now: float) -> None:
        """Take what can be taken now and check the clocks at ``now``."""
        self.clock = now
        self._guard(self._step)

    def _step(self) -> None:
        self.table.router.advance()
        self.check_timers(self.clock)

    def timer(self) -> float | None:
        """When :meth:`check_timers` next has something to do (None: only something that
        arrives can move the machine). Early is harmless (nothing is due yet, and the
        next call says when); late is not, so every wait of :meth:`check_timers` is here:
        a returning seat's wait, else the clocks' and the away seats' deadlines, and the
        next ask for a seat."""
        t = self.table
        rejoin = t.coming_back.due()
        due: list[float | None] = [rejoin] if rejoin is not None else [
            t.clocks.timer(), *t.away_seats.deadlines()]
        due.append(t.seating.asking_due())
        return min((d for d in due if d is not None), default=None)

    def check_timers(self, now: float) -> None:
        """Blame whoever is late; end the waits that have run out. A seat asks again for
        a seat; a coordinator answers a return that has become acceptable before its own
        vote on that seat's clock; a returning seat gives up once its wait is over; the
        hand's clocks are held while the table holds for an away seat (its waits still
        followed: a seat that becomes awaited while away is timed from then)."""
        t = self.table
        t.seating.ask_seat_again(now)
        t.return_desk.returns_due()
        if t.phase is SessionPhase.REJOIN:
            t.coming_back.check_timer(now)
        elif not (t.phase is SessionPhase.MATCH and t.away_seats.hold_for_away(now)):
            t.clocks.check_timers(now)
        elif t.phase is SessionPhase.MATCH and t.hand is not None:
            t.clocks.silence.track_awaited(now)

    def _guard(self, work: Callable[..., None], *args: object) -> None:
        """Run one piece of work; a bug reached through peer input (or the local player)
        is logged and the machine goes on (what caused it is gone)."""
        try:
            work(*args)
        except (SessionError, TableGone):  # the machine's own ends, not failures
            raise
        except Exception:  # no peer input may stop the table
            if self.table.strict:
                raise
            self.table.unexpected += 1
            log.exception("table %s: unexpected failure, going on", self.table.table)
