"""Seats that are gone: the table holds every clock for them, for the rejoin grace.

A mixin of the session (:mod:`.rejoin` explains the design). A seat whose presence goes
away mid-match is *away*: every decision and protocol timer of the hand is held, the
player is told who is gone and for how long the table waits, and a countdown repeats
every :data:`COUNTDOWN_EVERY` seconds. A seat that stays away past ``rejoin_grace`` has
left: it is blamed (``left``) and the match ends with the seats that remain.

Holding is a pause, not a new start: when the last away seat is back, every wait of the
hand's step resumes where it stopped (the time held is given back, at most the grace
time in all for one step). A seat's away period in which its own step's time ran out is
a *missed step*; after :data:`MAX_AWAY_MISSES` of them the table no longer holds for
that seat at all: its clock runs on while it is away, and the table votes on it as on
any silent seat (protocol/SPEC.md, "Rules the table enforces"). A will or a broker
move that costs the seat no step is never counted.
"""

from __future__ import annotations

from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress
from lodam_p2p.session.course import Course, SessionPhase

#: How often the countdown of an away seat is repeated to the player, in seconds.
COUNTDOWN_EVERY = 10.0
#: Away periods in which a seat let its own step run out, after which the table no
#: longer holds its clocks for that seat.
MAX_AWAY_MISSES = 3


class AwaySeats(Course):
    """The part of a session that waits for seats that are gone."""

    away: dict[int, float]
    _countdown_at: dict[int, float]

    def seat_gone(self, seat: int) -> None:
        """A seated peer's presence went away: hold the table for it — unless the seat
        is done with the match (put out of it, or its result sent): nobody waits for
        such a seat, and a seat behind the others must not hold its clocks for one."""
        if self.phase not in (SessionPhase.MATCH, SessionPhase.GRACE) or seat == self.seat:
            return
        if self._done_with(seat):
            return
        now = self.now()
        self.away.setdefault(seat, now)
        self._countdown_at[seat] = now
        self._tell_away(seat, now)

    def _done_with(self, seat: int) -> bool:
        """Whether ``seat`` is out of the match or has sent its result."""
        assert self.roster is not None
        if self.roster.sitters[seat].peer in self.results:
            return True
        return self.match is not None and not self.active()[seat]

    def seat_back(self, seat: int) -> None:
        """A seated peer's presence is back (same process, or a new one: REJOIN follows).
        The hand's clocks resume where they stopped (:meth:`Ballot.hold
        <lodam_p2p.session.ballot.Ballot.hold>`); an away period in which the seat's
        own step ran out is counted against it."""
        if self.away.pop(seat, None) is not None:
            self._count_missed(seat)
            self.tell(Notice(NoticeLevel.INFO, f"seat {seat} is back"))

    def _count_missed(self, seat: int) -> None:
        """Count ``seat``'s away period as a missed step if the table awaited it at the
        current step and its time here ran out while it was away (counting the time held
        for it before as time spent: coming back just in time, again and again, does
        not put it off)."""
        hand, ballot = self.hand, self.ballot
        if (self.phase is SessionPhase.MATCH and hand is not None
                and ballot.step == (self.hand_no, hand.step) == self._awaited
                and ballot.ran_out(seat, self._limit(), self.now())):
            ballot.misses[seat] = ballot.misses.get(seat, 0) + 1

    def holding(self) -> bool:
        """Whether the table holds its clocks: a seat is away that has not yet missed
        :data:`MAX_AWAY_MISSES` steps of its own while away."""
        misses = self.ballot.misses
        return any(misses.get(seat, 0) < MAX_AWAY_MISSES for seat in self.away)

    def _tell_away(self, seat: int, now: float) -> None:
        left = max(0.0, self.away[seat] + self.timing.grace_s - now)
        text = f"seat {seat} is gone: waiting {left:.0f} s for it to come back"
        self.tell(Notice(NoticeLevel.WARNING, text, seat))
        self.tell(Progress(Phase.DEAL_OVER, (seat,), text))
        self.spectate(text)

    def hold_for_away(self, now: float) -> bool:
        """True while the table holds its clocks for an away seat (:meth:`holding`) or
        this call ended the match (a seat stayed away past its grace: it has left)."""
        for seat in [s for s in self.away if self._done_with(s)]:
            del self.away[seat]  # put out while away (its clock ran on): nobody waits
            self._countdown_at.pop(seat, None)
        if not self.away:
            return False
        for seat, since in sorted(self.away.items()):
            if now >= since + self.timing.grace_s:
                self.away.clear()
                self.last_blamed = seat
                self.blames.append(f"seat {seat}: left: away for {self.timing.grace_s:g} s "
                                   f"(hand {self.hand_no})")
                self.finish(early=True)
                return True
            if now >= self._countdown_at.get(seat, since) + COUNTDOWN_EVERY:
                self._countdown_at[seat] = now
                self._tell_away(seat, now)
        return self.holding()


    def timer(self) -> float | None:
        """The next deadline: an away seat's grace and countdown, and the session's own
        clocks."""
        due = [super().timer()]
        if self.phase is SessionPhase.MATCH:
            for seat, since in self.away.items():
                due += [since + self.timing.grace_s,
                        self._countdown_at.get(seat, since) + COUNTDOWN_EVERY]
        return min((d for d in due if d is not None), default=None)

    def _vote_due(self) -> bool:
        """No vote on the hand while the table holds for an away seat
        (:meth:`hold_for_away` holds its timers): its deadline, once past, would wake
        the loop at once until the seat came back or the grace ran out."""
        return not self.holding() and super()._vote_due()

    def check_timers(self, now: float) -> None:
        """Hold the hand's timers while the table holds for an away seat; the waits of
        the hand are still followed (a seat that becomes awaited while away is timed
        from then)."""
        if not (self.phase is SessionPhase.MATCH and self.hold_for_away(now)):
            super().check_timers(now)
        elif self.phase is SessionPhase.MATCH and self.hand is not None:
            self.track_awaited(now)
