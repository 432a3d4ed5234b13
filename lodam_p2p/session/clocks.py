"""The clocks of a session: the table's time limit, and what follows when it passes.

:class:`TableClocks` is a part the table machine owns and calls (its ``clocks``): it holds
its own state and reaches the machine only through :class:`ClockTable`, which names what
it reads and calls there. It owns a part of its own, ``silence``
(:class:`~lodam_p2p.session.silence.SilenceVotes`): the TIMEOUT votes of a hand, the
rules that turn them into a verdict (that module's docstring tells them) and the book of
votes and waits that the lot's votes, kept here, share. Here are the waits of each
phase that lead to those votes, and the others: the lot, the lobby, a blamed seat's
grace, the linger after the result, and a seat the others have left behind.

:meth:`TableClocks.timer` says when :meth:`TableClocks.check_timers` next has something
to do; the runner sleeps until then or until something arrives, so every wait that
:meth:`~TableClocks.check_timers` acts on must appear in :meth:`~TableClocks.timer`, and
a wait that can no longer lead anywhere must not (the loop would spin on it).
"""

from __future__ import annotations

from lodam_p2p.session.phases import SessionPhase
from lodam_p2p.session.silence import HOLDER, MIN_ACCUSERS, ClockTable, SilenceVotes
from lodam_p2p.session.wire import Body, Msg

__all__ = ["HOLDER", "MIN_ACCUSERS", "ClockTable", "TableClocks"]


class TableClocks:
    """Timers and votes of a table machine (see the module docstring)."""

    def __init__(self, table: ClockTable) -> None:
        self.table = table
        #: the TIMEOUT votes of the hand, and the book they share with the lot's votes
        self.silence = SilenceVotes(table)
        #: when every other seat had sent its result (None: not yet)
        self.others_done_at: float | None = None

    # --- the end of the match ---------------------------------------------------------

    def others_done(self, now: float) -> None:
        """Note when every other seat has published its result."""
        t = self.table
        if t.roster is None or self.others_done_at is not None:
            return
        others = {s.peer for i, s in enumerate(t.roster.sitters) if i != t.seat}
        if others <= set(t.results):
            self.others_done_at = now

    def put_out_by_all(self) -> bool:
        """Every other seat has published its result, and each of them blames this seat
        (a blame begins ``seat N: ``, naming the seat it put out)."""
        t = self.table
        if t.roster is None or t.seat is None or self.others_done_at is None:
            return False
        named = f"seat {t.seat}: "
        return all(any(blame.startswith(named) for blame in t.results[s.peer][4])
                   for i, s in enumerate(t.roster.sitters) if i != t.seat)

    # --- the waits of each phase ------------------------------------------------------

    def timer(self) -> float | None:
        """When :meth:`check_timers` next has something to do (None: only something that
        arrives can move the session). Early is harmless (nothing is due yet, and the
        next call says when); late is not, so every wait of :meth:`check_timers` is here.
        """
        t = self.table
        limit = t.limit()
        due: list[float] = []
        if self.others_done_at is not None and t.phase in (
                SessionPhase.LOT, SessionPhase.MATCH, SessionPhase.GRACE):
            due.append(self.others_done_at + (0.0 if self.put_out_by_all() else limit))
        if t.phase is SessionPhase.LOBBY and t.timing.lobby_s is not None:
            due.append(t.lobby_since + t.timing.lobby_s)
        elif t.phase is SessionPhase.LOT and self._lot_vote_due():
            due.append(t.lot_since + limit)
        elif t.phase is SessionPhase.MATCH and t.hand is not None and self._vote_due():
            due.append(self._vote_deadline() or 0.0)
        elif t.phase is SessionPhase.GRACE:
            due.append(t.grace_until)
        elif t.phase is SessionPhase.LINGER:
            due.append(t.linger_until + min(limit, t.timing.timeout_s))
        return min(due, default=None)

    def check_timers(self, now: float) -> None:
        """Blame whoever is late; end the waits that have run out.

        A seat the others have left behind (every other seat sent its result and a
        time limit has passed since) ends too, with the result as it saw it: a seat
        the table put out has nobody left to play with. When every other result names
        this seat in its blames, it ends at once: no frame still on its way can bring
        it back to a table that has finished without it."""
        t = self.table
        if (self.others_done_at is not None
                and (self.put_out_by_all() or now >= self.others_done_at + t.limit())
                and t.phase in (SessionPhase.LOT, SessionPhase.MATCH, SessionPhase.GRACE)):
            t.finish(early=True)
            return
        if t.phase is SessionPhase.LOBBY:
            limit = t.timing.lobby_s
            if limit is not None and now >= t.lobby_since + limit:
                t.finish(early=True)
        elif t.phase is SessionPhase.LOT:
            self._lot_timer(now)
        elif t.phase is SessionPhase.MATCH and t.hand is not None:
            self._hand_timers(now)
        elif t.phase is SessionPhase.GRACE and now >= t.grace_until:
            t.finish(early=True)
        elif t.phase is SessionPhase.LINGER:
            # a seat still playing the last deal may need this one's frames again: wait
            # for its result, up to a protocol step's time past the linger (never a
            # person's thinking time: nobody decides any more)
            extra = min(t.limit(), t.timing.timeout_s)
            if not self._lingering_for() or now >= t.linger_until + extra:
                t.phase = SessionPhase.DONE

    def _lingering_for(self) -> list[str]:
        """The peers a session that sent its result still waits for: every connected
        seat still in the match whose result has not come, and the host's watcher.

        Not a seat put out of the match: it plays no deal that needs this one's frames,
        and one that cheated may still sit in the hand the others voided, sending its
        result only a time limit after theirs (later still on a loaded machine)."""
        t = self.table
        if t.roster is None:
            return []
        playing = t.active() if t.match is not None else None
        waiting = [s.peer for i, s in enumerate(t.roster.sitters)
                   if s.peer not in t.results and t.online(s.peer)
                   and (playing is None or playing[i])]
        host = t.host
        if (host is not None and not t.watching_host() and host not in t.results
                and t.online(host)):
            waiting.append(host)
        return waiting

    # --- the lot ------------------------------------------------------------------------

    def _lot_missing(self) -> list[int]:
        """The seats the lot still waits for, this one's own left out."""
        t = self.table
        return [] if t.lot is None else [s for s in t.lot.missing() if s != t.seat]

    def _lot_timer(self, now: float) -> None:
        t = self.table
        assert t.lot is not None
        missing = self._lot_missing()
        if missing and now >= t.lot_since + t.limit() and t.seat is not None:
            key = (0, 0, missing[0])
            if key not in self.silence.voted:
                self.silence.voted.add(key)
                t.send(Body(Msg.TIMEOUT, 0, 0, (missing[0],)))
        self._count_lot_votes(now)

    def _lot_vote_due(self) -> bool:
        """The lot waits for another seat and this seat's vote on it is still to come,
        or a vote on it waits for this seat's own deadline (as :meth:`_vote_due` for a
        hand)."""
        t = self.table
        if t.lot is None:
            return False
        missing = self._lot_missing()
        voted, pending = self.silence.voted, self.silence.ballot.pending
        own = t.seat is not None and bool(missing) and (0, 0, missing[0]) not in voted
        return own or any(key[:2] == (0, 0) for key in pending)

    def lot_vote(self, voter: int, body: Body) -> None:
        """A TIMEOUT vote in the lot, checked as a hand's (SPEC.md, "Rules the table
        enforces"): counted once the lot here still misses the named seat past this
        machine's own deadline; once every other seat's vote is counted, the match never
        starts."""
        t = self.table
        assert t.roster is not None
        silent, seats = body.args[0], len(t.roster.sitters)
        if not (0 <= silent < seats and 0 <= voter < seats) or voter == silent:
            return
        self.silence.ballot.pending.setdefault((0, 0, silent), set()).add(voter)
        self._count_lot_votes(t.now())

    def _count_lot_votes(self, now: float) -> None:
        """Count the lot's pending votes that check now; drop those against a seat the
        lot no longer misses (it answered)."""
        t = self.table
        if t.lot is None or t.roster is None or now < t.lot_since + t.limit():
            return
        missing, seats = set(t.lot.missing()), len(t.roster.sitters)
        for key in sorted(k for k in self.silence.ballot.pending if k[:2] == (0, 0)):
            voters = self.silence.ballot.pending.pop(key)
            silent = key[2]
            if silent not in missing:
                continue
            counted = self.silence.votes.setdefault(key, set())
            counted |= voters
            quorum = set(range(seats)) - {silent}
            if counted >= quorum:
                t.blames.append(f"seat {silent}: lot: silent past the table's limit of "
                                f"{t.limit():g} s (votes of seats "
                                f"{', '.join(str(s) for s in sorted(quorum))})")
                t.last_blamed = silent
                t.finish(early=True)
                return

    # --- the hand -----------------------------------------------------------------------

    def _hand_timers(self, now: float) -> None:
        """Vote against each other seat whose time here has run out; count the votes
        that check now."""
        t = self.table
        self.silence.track_awaited(now)
        limit = t.limit()
        for seat, since in sorted(self.silence.ballot.since.items()):
            if seat != t.seat and now >= since + limit:
                self.silence.vote_timeout(seat)
        self.silence.count_votes(now)
        if t.hand is not None and t.phase is SessionPhase.MATCH:
            self.silence.stalled(now)

    def _vote_due(self) -> bool:
        """The hand's current wait can still end in this seat's TIMEOUT vote, or in
        counting a pending vote: once every such deadline is past, only a message
        (another vote, the awaited frame, a result) can move the hand; a loop that
        kept waking for it would spin until then. Never while the table holds for an
        away seat (:mod:`.away` holds its timers): its deadline, once past, would wake
        the loop at once until the seat came back or the grace ran out."""
        return not self.table.holding() and self._vote_deadline() is not None

    def _vote_deadline(self) -> float | None:
        """The next time a vote of this seat falls due or a pending vote checks."""
        t = self.table
        silence, limit, hand = self.silence, t.limit(), t.hand
        ballot = silence.ballot
        if hand is None or ballot.step is None or silence.awaited != ballot.step:
            return None
        due = []
        for seat, since in ballot.since.items():
            key = (*ballot.step, seat)
            if (seat != t.seat and hand.me is not None and key not in silence.voted) \
                    or key in ballot.pending:
                due.append(since + limit)
        stall = silence.stall_deadline()
        if stall is not None:
            due.append(stall)
        return min(due, default=None)
