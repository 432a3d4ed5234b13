"""Seats that are gone: the table holds every clock for them, for the rejoin grace.

A mixin of the session (:mod:`.rejoin` explains the design). A seat whose presence goes
away mid-match is *away*: every decision and protocol timer of the hand is held, the
player is told who is gone and for how long the table waits, and a countdown repeats
every :data:`COUNTDOWN_EVERY` seconds. A seat that stays away past ``rejoin_grace`` has
left: it is blamed (``left``) and the match ends with the seats that remain.
"""

from __future__ import annotations

from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress
from lodam_p2p.session.course import Course, SessionPhase

#: How often the countdown of an away seat is repeated to the player, in seconds.
COUNTDOWN_EVERY = 10.0


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
        """A seated peer's presence is back (same process, or a new one: REJOIN follows)."""
        if self.away.pop(seat, None) is not None:
            self._awaited = ()  # restart the decision clock of the hand
            self.tell(Notice(NoticeLevel.INFO, f"seat {seat} is back"))

    def _tell_away(self, seat: int, now: float) -> None:
        left = max(0.0, self.away[seat] + self.timing.grace_s - now)
        text = f"seat {seat} is gone: waiting {left:.0f} s for it to come back"
        self.tell(Notice(NoticeLevel.WARNING, text, seat))
        self.tell(Progress(Phase.DEAL_OVER, (seat,), text))
        if self.spectator is not None:
            self.spectator.line(text)

    def hold_for_away(self, now: float) -> bool:
        """True while the table waits for an away seat; ends the match when the wait is
        over (the seat has left)."""
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
        return True


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
        """No vote on the hand while a seat is away (:meth:`hold_for_away` holds its
        timers): its deadline, once past, would wake the loop at once until the seat
        came back or the grace ran out."""
        return not self.away and super()._vote_due()

    def check_timers(self, now: float) -> None:
        """Hold the hand's timers while a seat is away."""
        if not (self.phase is SessionPhase.MATCH and self.hold_for_away(now)):
            super().check_timers(now)
