"""The TIMEOUT votes one machine holds, and its own clock on the seats it awaits.

A vote is a claim, not a fact: the machine that receives one counts it only once its
own hand awaits the named seat at the named step and its own clock says that seat's
time has run out (protocol/SPEC.md, "Rules the table enforces"). Until then the vote is
*pending*; a vote for a step this machine has left behind is dropped, and so are the
votes against a seat once it answered the step. :class:`Ballot` is that book: per seat
awaited at the current step, since when this machine waits for it; the pending votes;
how long the table held the step for seats that were away; and per seat, the away
periods in which it let a step of its own run out. Pure: time comes in as arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: A vote's key: (hand, step, accused seat).
VoteKey = tuple[int, int, int]
#: Pending votes one voter may have here at once (a flood of votes for steps still to
#: come costs the machine at most this many entries per voter).
MAX_PENDING_PER_VOTER = 16


@dataclass
class Ballot:
    """One machine's book of TIMEOUT votes and waits (see the module docstring)."""

    #: the step timed now, (hand, step); None: start every clock afresh
    step: tuple[int, int] | None = None
    #: per seat awaited at :attr:`step` (or :data:`~.clocks.HOLDER`), since when, the
    #: time the table held for away seats given back
    since: dict[int, float] = field(default_factory=dict)
    #: per seat awaited at :attr:`step`, when this machine began waiting for it
    started: dict[int, float] = field(default_factory=dict)
    #: votes received but not yet checked true here: key → voters
    pending: dict[VoteKey, set[int]] = field(default_factory=dict)
    #: when the table began holding its clocks for an away seat (None: not holding)
    held_since: float | None = None
    #: how long the table has held :attr:`step` in all (capped by the grace time)
    held: float = 0.0
    #: per seat, the away periods in which its own step's time ran out
    misses: dict[int, int] = field(default_factory=dict)

    def restart(self, step: tuple[int, int], now: float) -> None:
        """A new step is timed from ``now``: forget the waits of the last one and the
        votes for steps before it."""
        self.step = step
        self.since.clear()
        self.started.clear()
        self.held = 0.0
        if self.held_since is not None:
            self.held_since = now
        self.pending = {key: voters for key, voters in self.pending.items()
                        if key[:2] >= step}

    def await_seats(self, seats: set[int], now: float) -> list[int]:
        """The seats awaited now; returns those no longer awaited (they answered)."""
        answered = [seat for seat in self.since if seat not in seats]
        for seat in answered:
            del self.since[seat]
            self.started.pop(seat, None)
        for seat in seats:
            self.since.setdefault(seat, now)
            self.started.setdefault(seat, now)
        return answered

    def deadline(self, seat: int, limit: float) -> float | None:
        """When ``seat``'s time at the current step runs out here (None: not awaited)."""
        since = self.since.get(seat)
        return None if since is None else since + limit

    def ran_out(self, seat: int, limit: float, now: float) -> bool:
        """Whether ``seat``'s time at the current step has run out by ``now`` counting
        every hold as time spent: the test of a missed step, which a seat cannot put
        off by going away again and again."""
        started = self.started.get(seat)
        return started is not None and now >= started + limit

    def pend(self, key: VoteKey, voter: int) -> bool:
        """Keep ``voter``'s vote until it can be checked; False if it was dropped (a
        vote for a step left behind, or one too many from this voter)."""
        if self.step is not None and key[:2] < self.step:
            return False
        if sum(voter in voters for voters in self.pending.values()) >= MAX_PENDING_PER_VOTER:
            return False
        self.pending.setdefault(key, set()).add(voter)
        return True

    def hold(self, holding: bool, now: float, cap: float) -> None:
        """Note whether the table holds its clocks for an away seat; when the hold ends,
        every wait of the step resumes where it stopped (the time held is given back,
        up to ``cap`` in all for one step)."""
        if holding and self.held_since is None:
            self.held_since = now
        elif not holding and self.held_since is not None:
            given = max(0.0, min(now - self.held_since, cap - self.held))
            self.held += given
            self.since = {seat: since + given for seat, since in self.since.items()}
            self.held_since = None
