"""The clocks of a session: the table's time limit, and what follows when it passes.

A mixin of :class:`~lodam_p2p.session.course.Course`. A seat that waits past the table's
limit for another seat signs a TIMEOUT vote naming that seat and the step; once every
other active seat has voted alike, the silent seat is found at fault
(:meth:`Course.offence <lodam_p2p.session.course.Course.offence>`). When the public part
awaits the holder of a card (Lorum's Quartet) nobody can name the silent seat: the vote
names the step and :data:`HOLDER` for the seat, and once every active seat but one (the
silent holder) has voted so, each seat opens its secrets and the audit names the holder
(:meth:`~lodam_p2p.session.gamehand.GameHand.silence`). One seat alone cannot start that
audit: the holder may be about to play. The lot, the lobby, a blamed seat's grace and the
linger after the result have their own waits.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from lodam_p2p.fairdeal import Blame
from lodam_p2p.fairdeal import Phase as FairPhase
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.wire import Body, Msg

#: The seat a TIMEOUT vote names when it waits for whoever holds the awaited card.
HOLDER = 255


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


class Clocks:
    """Timers and votes of a session (see the module docstring)."""

    phase: SessionPhase
    timing: Timing
    roster: Any
    lot: Any
    hand: Any
    match: Any
    seat: int | None
    host: str | None
    me: str
    hand_no: int
    blames: list[str]
    last_blamed: int | None
    results: dict[str, tuple[Any, ...]]
    votes: dict[tuple[int, int, int], set[int]]
    _voted: set[tuple[int, int, int]]
    _awaited: tuple[object, ...]
    _awaited_since: float
    others_done_at: float | None
    lobby_since: float
    lot_since: float
    grace_until: float
    linger_until: float

    def send(self, body: Body) -> None:
        raise NotImplementedError

    def online(self, peer: str) -> bool:
        raise NotImplementedError

    def watching_host(self) -> bool:
        """This session is the host's watcher (it keeps the lobby, sits at no seat)."""
        return self.seat is None and self.host is not None and self.host == self.me

    def finish(self, *, early: bool) -> None:
        raise NotImplementedError

    def offence(self, blame: Blame, evidence: tuple[bytes, ...] = (), *,
                announce: bool = True) -> None:
        raise NotImplementedError

    def active(self) -> tuple[bool, ...]:
        raise NotImplementedError

    def drain_hand(self) -> None:
        raise NotImplementedError

    def _limit(self) -> float:
        raise NotImplementedError

    def now(self) -> float:
        raise NotImplementedError

    # --- silence: the table's decision ----------------------------------------------------

    def vote_timeout(self, silent: int) -> None:
        """Sign this seat's TIMEOUT vote against ``silent`` at the current step (once)."""
        hand = self.hand
        if hand is None or hand.me is None or silent == self.seat:
            return
        key = (self.hand_no, hand.step, silent)
        if key in self._voted:
            return
        self._voted.add(key)
        self.send(Body(Msg.TIMEOUT, self.hand_no, hand.step, (silent,)))

    def timeout_vote(self, voter: int, body: Body) -> None:
        """Count ``voter``'s TIMEOUT vote; when every other active seat agrees, expel."""
        assert self.match is not None
        silent, active = body.args[0], self.active()
        if silent == HOLDER:
            self._holder_vote(voter, body, active)
            return
        if not (0 <= silent < len(active) and active[silent] and active[voter]
                and voter != silent):
            return
        voters = self.votes.setdefault((body.hand, body.step, silent), set())
        voters.add(voter)
        quorum = {s for s in range(len(active)) if active[s] and s != silent}
        if voters >= quorum:
            seats = ", ".join(str(s) for s in sorted(quorum))
            detail = (f"silent at step {body.step} past the table's limit of "
                      f"{self._limit():g} s (votes of seats {seats})")
            self.offence(Blame(silent, "timeout", detail), announce=False)

    def _holder_vote(self, voter: int, body: Body, active: tuple[bool, ...]) -> None:
        """A vote that the holder awaited at ``body.step`` is silent: once every active
        seat but one has voted so, the table's seats open their secrets."""
        hand = self.hand
        if not isinstance(hand, GameHand) or not active[voter]:
            return
        voters = self.votes.setdefault((body.hand, body.step, HOLDER), set())
        voters.add(voter)
        if len(voters) >= sum(active) - 1 and body.step not in hand.silenced:
            hand.silence(body.step, self.now())
            self.drain_hand()

    def others_done(self, now: float) -> None:
        """Note when every other seat has published its result."""
        if self.roster is None or self.others_done_at is not None:
            return
        others = {s.peer for i, s in enumerate(self.roster.sitters) if i != self.seat}
        if others <= set(self.results):
            self.others_done_at = now

    def put_out_by_all(self) -> bool:
        """Every other seat has published its result, and each of them blames this seat
        (a blame begins ``seat N: ``, naming the seat it put out)."""
        if self.roster is None or self.seat is None or self.others_done_at is None:
            return False
        named = f"seat {self.seat}: "
        return all(any(blame.startswith(named) for blame in self.results[s.peer][4])
                   for i, s in enumerate(self.roster.sitters) if i != self.seat)

    def timer(self) -> float | None:
        """When :meth:`check_timers` next has something to do (None: only something that
        arrives can move the session). Early is harmless (nothing is due yet, and the
        next call says when); late is not, so every wait of :meth:`check_timers` is here.
        """
        limit = self._limit()
        due: list[float] = []
        if self.others_done_at is not None and self.phase in (
                SessionPhase.LOT, SessionPhase.MATCH, SessionPhase.GRACE):
            due.append(self.others_done_at + (0.0 if self.put_out_by_all() else limit))
        if self.phase is SessionPhase.LOBBY and self.timing.lobby_s is not None:
            due.append(self.lobby_since + self.timing.lobby_s)
        elif self.phase is SessionPhase.LOT and self._lot_vote_due():
            due.append(self.lot_since + limit)
        elif self.phase is SessionPhase.MATCH and self.hand is not None and self._vote_due():
            due.append(self._awaited_since + limit)
        elif self.phase is SessionPhase.GRACE:
            due.append(self.grace_until)
        elif self.phase is SessionPhase.LINGER:
            due.append(self.linger_until + min(limit, self.timing.timeout_s))
        return min(due, default=None)

    def check_timers(self, now: float) -> None:
        """Blame whoever is late; end the waits that have run out.

        A seat the others have left behind (every other seat sent its result and a
        time limit has passed since) ends too, with the result as it saw it: a seat
        the table put out has nobody left to play with. When every other result names
        this seat in its blames, it ends at once: no frame still on its way can bring
        it back to a table that has finished without it."""
        if (self.others_done_at is not None
                and (self.put_out_by_all() or now >= self.others_done_at + self._limit())
                and self.phase in (SessionPhase.LOT, SessionPhase.MATCH, SessionPhase.GRACE)):
            self.finish(early=True)
            return
        if self.phase is SessionPhase.LOBBY:
            limit = self.timing.lobby_s
            if limit is not None and now >= self.lobby_since + limit:
                self.finish(early=True)
        elif self.phase is SessionPhase.LOT:
            self._lot_timer(now)
        elif self.phase is SessionPhase.MATCH and self.hand is not None:
            self._hand_timers(now)
        elif self.phase is SessionPhase.GRACE and now >= self.grace_until:
            self.finish(early=True)
        elif self.phase is SessionPhase.LINGER:
            # a seat still playing the last deal may need this one's frames again: wait
            # for its result, up to a protocol step's time past the linger (never a
            # person's thinking time: nobody decides any more)
            extra = min(self._limit(), self.timing.timeout_s)
            if not self._lingering_for() or now >= self.linger_until + extra:
                self.phase = SessionPhase.DONE

    def _lingering_for(self) -> list[str]:
        """The peers a session that sent its result still waits for: every connected
        seat still in the match whose result has not come, and the host's watcher.

        Not a seat put out of the match: it plays no deal that needs this one's frames,
        and one that cheated may still sit in the hand the others voided, sending its
        result only a time limit after theirs (later still on a loaded machine)."""
        if self.roster is None:
            return []
        playing = self.active() if self.match is not None else None
        waiting = [s.peer for i, s in enumerate(self.roster.sitters)
                   if s.peer not in self.results and self.online(s.peer)
                   and (playing is None or playing[i])]
        host = self.host
        if (host is not None and not self.watching_host() and host not in self.results
                and self.online(host)):
            waiting.append(host)
        return waiting

    def _lot_timer(self, now: float) -> None:
        assert self.lot is not None
        missing = [s for s in self.lot.missing() if s != self.seat]
        if missing and now >= self.lot_since + self._limit() and self.seat is not None:
            key = (0, 0, missing[0])
            if key not in self._voted:
                self._voted.add(key)
                self.send(Body(Msg.TIMEOUT, 0, 0, (missing[0],)))

    def _lot_vote_due(self) -> bool:
        """The lot waits for another seat and this seat's vote on it is still to come
        (as :meth:`_vote_due` for a hand)."""
        if self.lot is None or self.seat is None:
            return False
        missing = [s for s in self.lot.missing() if s != self.seat]
        return bool(missing) and (0, 0, missing[0]) not in self._voted

    def lot_vote(self, voter: int, body: Body) -> None:
        """A TIMEOUT vote in the lot: once every other seat agrees, the match never starts."""
        assert self.roster is not None
        silent, seats = body.args[0], len(self.roster.sitters)
        if not 0 <= silent < seats or voter == silent:
            return
        voters = self.votes.setdefault((0, 0, silent), set())
        voters.add(voter)
        quorum = set(range(seats)) - {silent}
        if voters >= quorum:
            self.blames.append(f"seat {silent}: lot: silent past the table's limit of "
                               f"{self._limit():g} s (votes of seats "
                               f"{', '.join(str(s) for s in sorted(quorum))})")
            self.last_blamed = silent
            self.finish(early=True)

    def _hand_timers(self, now: float) -> None:
        hand = self.hand
        assert hand is not None
        silent = self._silent()
        key = (self.hand_no, hand.step, silent)
        if key != self._awaited:
            self._awaited, self._awaited_since = key, now
            return
        if silent is not None and now >= self._awaited_since + self._limit():
            self.vote_timeout(silent)
        elif (silent is None and isinstance(hand, GameHand) and hand.holder_turn() is not None
              and now >= self._awaited_since + self._limit()):
            self.vote_timeout(HOLDER)  # nobody knows who is silent: the audit will tell

    def _vote_due(self) -> bool:
        """The hand's current wait can still end in this seat's TIMEOUT vote: once that
        vote is cast, its deadline is past and stays past, and only a message (another
        vote, the awaited frame, a result) can move the hand; a loop that kept waking
        for it would spin until then."""
        if not self._awaited:
            return False
        hand_no, step, silent = self._awaited
        if silent is None:
            hand = self.hand
            if not (isinstance(hand, GameHand) and hand.holder_turn() is not None):
                return False
            silent = HOLDER
        return (hand_no, step, silent) not in self._voted

    def _silent(self) -> int | None:
        """The other seat this hand waits for: a decision, or a fair-deal step."""
        hand = self.hand
        assert hand is not None
        awaited = hand.awaited()
        if awaited is not None:
            return awaited[0] if awaited[0] != self.seat else None
        waiting = hand.fair.awaited() if hand.fair.phase is not FairPhase.ABORTED else None
        return waiting[0][0] if waiting else None
