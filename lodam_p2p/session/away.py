"""Seats that are gone: the table holds every clock for them, for the rejoin grace.

:class:`AwaySeats` is a part the table machine owns and calls (its ``away_seats``),
reaching it only through :class:`AwayTable` (:mod:`.rejoin` explains the design). A seat
whose presence goes away mid-match is *away*: every decision and protocol timer of the
hand is held, the player is told who is gone and for how long the table waits, and a
countdown repeats every :data:`COUNTDOWN_EVERY` seconds. A seat that stays away past
``rejoin_grace`` has left: it is blamed (``left``) and the match ends with the seats
that remain.

Holding is a pause, not a new start: when the last away seat is back, every wait of the
hand's step resumes where it stopped (the time held is given back, at most the grace
time in all for one step). A seat's away period in which its own step's time ran out is
a *missed step*; after :data:`MAX_AWAY_MISSES` of them the table no longer holds for
that seat at all: its clock runs on while it is away, and the table votes on it as on
any silent seat (protocol/SPEC.md, "Rules the table enforces"). A will or a broker
move that costs the seat no step is never counted.
"""

from __future__ import annotations

from typing import Any, Protocol

from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress, TableEvent
from lodam_p2p.session.clocks import TableClocks
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.phases import SessionPhase, Timing

#: How often the countdown of an away seat is repeated to the player, in seconds.
COUNTDOWN_EVERY = 10.0
#: Away periods in which a seat let its own step run out, after which the table no
#: longer holds its clocks for that seat.
MAX_AWAY_MISSES = 3


class AwayTable(Protocol):
    """What the away seats' part reads and calls on the table machine that owns it."""

    last_blamed: int | None
    phase: SessionPhase
    timing: Timing
    seat: int | None
    roster: Roster | None
    results: dict[str, tuple[Any, ...]]
    match: Any
    hand_no: int
    blames: list[str]
    clocks: TableClocks

    def active(self) -> tuple[bool, ...]: ...
    def limit(self) -> float: ...
    def now(self) -> float: ...
    def finish(self, *, early: bool) -> None: ...
    def tell(self, event: TableEvent) -> None: ...
    def spectate(self, line: str) -> None: ...


class AwaySeats:
    """The part of a machine that waits for seats that are gone."""

    def __init__(self, table: AwayTable) -> None:
        self.table = table
        #: per seat away, since when
        self.away: dict[int, float] = {}
        #: per seat away, when its countdown was last told
        self.countdown_at: dict[int, float] = {}

    def seat_gone(self, seat: int) -> None:
        """A seated peer's presence went away: hold the table for it — unless the seat
        is done with the match (put out of it, or its result sent): nobody waits for
        such a seat, and a seat behind the others must not hold its clocks for one."""
        t = self.table
        if t.phase not in (SessionPhase.MATCH, SessionPhase.GRACE) or seat == t.seat:
            return
        if self._done_with(seat):
            return
        now = t.now()
        self.away.setdefault(seat, now)
        self.countdown_at[seat] = now
        self._tell_away(seat, now)

    def _done_with(self, seat: int) -> bool:
        """Whether ``seat`` is out of the match or has sent its result."""
        t = self.table
        assert t.roster is not None
        if t.roster.sitters[seat].peer in t.results:
            return True
        return t.match is not None and not t.active()[seat]

    def seat_back(self, seat: int) -> None:
        """A seated peer's presence is back (same process, or a new one: REJOIN follows).
        The hand's clocks resume where they stopped (:meth:`Ballot.hold
        <lodam_p2p.session.ballot.Ballot.hold>`); an away period in which the seat's
        own step ran out is counted against it."""
        if self.away.pop(seat, None) is not None:
            self._count_missed(seat)
            self.table.tell(Notice(NoticeLevel.INFO, f"seat {seat} is back"))

    def _count_missed(self, seat: int) -> None:
        """Count ``seat``'s away period as a missed step if the table awaited it at the
        current step and its time here ran out while it was away (counting the time held
        for it before as time spent: coming back just in time, again and again, does
        not put it off)."""
        t = self.table
        ballot = t.clocks.silence.ballot
        if (t.phase is SessionPhase.MATCH and t.clocks.silence.timed_now()
                and ballot.ran_out(seat, t.limit(), t.now())):
            ballot.misses[seat] = ballot.misses.get(seat, 0) + 1

    def holding(self) -> bool:
        """Whether the table holds its clocks: a seat is away that has not yet missed
        :data:`MAX_AWAY_MISSES` steps of its own while away."""
        misses = self.table.clocks.silence.ballot.misses
        return any(misses.get(seat, 0) < MAX_AWAY_MISSES for seat in self.away)

    def _tell_away(self, seat: int, now: float) -> None:
        t = self.table
        left = max(0.0, self.away[seat] + t.timing.grace_s - now)
        text = f"seat {seat} is gone: waiting {left:.0f} s for it to come back"
        t.tell(Notice(NoticeLevel.WARNING, text, seat))
        t.tell(Progress(Phase.DEAL_OVER, (seat,), text))
        t.spectate(text)

    def hold_for_away(self, now: float) -> bool:
        """True while the table holds its clocks for an away seat (:meth:`holding`) or
        this call ended the match (a seat stayed away past its grace: it has left)."""
        t = self.table
        for seat in [s for s in self.away if self._done_with(s)]:
            del self.away[seat]  # put out while away (its clock ran on): nobody waits
            self.countdown_at.pop(seat, None)
        if not self.away:
            return False
        for seat, since in sorted(self.away.items()):
            if now >= since + t.timing.grace_s:
                self.away.clear()
                t.last_blamed = seat
                t.blames.append(f"seat {seat}: left: away for {t.timing.grace_s:g} s "
                                f"(hand {t.hand_no})")
                t.finish(early=True)
                return True
            if now >= self.countdown_at.get(seat, since) + COUNTDOWN_EVERY:
                self.countdown_at[seat] = now
                self._tell_away(seat, now)
        return self.holding()

    def deadlines(self) -> list[float]:
        """An away seat's grace and countdown, in a match."""
        t = self.table
        due: list[float] = []
        if t.phase is SessionPhase.MATCH:
            for seat, since in self.away.items():
                due += [since + t.timing.grace_s,
                        self.countdown_at.get(seat, since) + COUNTDOWN_EVERY]
        return due
