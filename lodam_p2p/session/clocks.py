"""The clocks of a session: the table's time limit, and what follows when it passes.

A mixin of :class:`~lodam_p2p.session.course.Course`. A seat that waits past the table's
limit for another seat signs a TIMEOUT vote naming that seat and the step. A vote is a
claim that every machine checks for itself before it counts (protocol/SPEC.md, "Rules
the table enforces"; the book is :class:`~lodam_p2p.session.ballot.Ballot`): the named
seat must be one this machine awaits at that step, and its time by this machine's own
clock must have run out; until then the vote is pending, and the step moving on — the
accused answered — drops it. Two counted votes of independent seats (neither the
accused nor a seat that would win by its exit, :meth:`Clocks.gainers`) put the silent
seat at fault (:meth:`Course.offence <lodam_p2p.session.course.Course.offence>`); where
fewer than two such seats are left, every other seat's counted vote voids the hand
without blame and the match ends as a draw among the seats still playing.

When the public part awaits the holder of a card (Lorum's Quartet) nobody can name the
silent seat: the vote names the step and :data:`HOLDER` for the seat, and once every
active seat but one (the silent holder) has voted so, each seat opens its secrets and
the audit names the holder (:meth:`~lodam_p2p.session.gamehand.GameHand.silence`). One
seat alone cannot start that audit: the holder may be about to play. The lot, the
lobby, a blamed seat's grace and the linger after the result have their own waits.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any

from lodam_p2p.fairdeal import Blame
from lodam_p2p.fairdeal import Phase as FairPhase
from lodam_p2p.session.ballot import Ballot
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.verdict import draw_reason
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
    spectator: SpectatorLog | None
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

    def spectate(self, line: str) -> None:
        raise NotImplementedError

    def end_in_draw(self) -> None:
        raise NotImplementedError

    def _deal_void(self, reason: str, audit: str, blamed: int) -> None:
        raise NotImplementedError

    @cached_property
    def ballot(self) -> Ballot:
        """This machine's book of TIMEOUT votes and of its waits at the current step."""
        return Ballot()

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
        """Take ``voter``'s TIMEOUT vote (SPEC.md, "Rules the table enforces"): dropped
        unless this machine awaits the named seat at the named step as it arrives;
        pending until that seat's time here runs out; then counted, and judged."""
        assert self.match is not None
        silent, active = body.args[0], self.active()
        if not (0 <= voter < len(active) and active[voter]):
            return
        if silent != HOLDER and not (0 <= silent < len(active) and active[silent]
                                     and voter != silent):
            return
        key = (body.hand, body.step, silent)
        if voter in self.votes.get(key, ()) or self.hand is None:
            return
        now = self.now()
        self.track_awaited(now)
        if key[:2] != self.ballot.step or silent not in self.ballot.since:
            # this machine does not wait for that seat at that step: the vote cannot be
            # a fact here, and never becomes one (a wait that begins later began after
            # the vote, which cannot report it)
            return
        if self.ballot.pend(key, voter):
            self.count_votes(now)

    def count_votes(self, now: float) -> None:
        """Count the pending votes that check here now: the named seat is one this
        machine awaits at the named step, and its time here has run out. Votes for a
        step this machine has left are dropped; the others stay pending."""
        if self.hand is None or self.phase is not SessionPhase.MATCH or self.holding():
            return
        self.track_awaited(now)
        ballot, limit, hand = self.ballot, self._limit(), self.hand
        for key in sorted(ballot.pending):
            if self.hand is not hand:
                return  # a verdict ended the hand: the votes left go with its step
            if key[:2] != ballot.step:
                continue
            due = ballot.deadline(key[2], limit)
            if due is None or now < due:
                continue
            self.votes.setdefault(key, set()).update(ballot.pending.pop(key, set()))
            self._judge(key)

    def _judge(self, key: tuple[int, int, int]) -> None:
        """Act on the counted votes of ``key``: convict on two independent voters, or —
        where fewer than two could ever vote — void the hand and end in a draw."""
        _hand_no, step, silent = key
        voters, active = self.votes[key], self.active()
        if silent == HOLDER:
            self._holder_vote(step, voters, active)
            return
        others = {s for s in range(len(active)) if active[s] and s != silent}
        gain = self.gainers(silent)
        independent = (voters & others) - gain
        if len(independent) >= 2:
            detail = (f"silent at step {step} past the table's limit of "
                      f"{self._limit():g} s")
            self.offence(Blame(silent, "timeout", detail), announce=False)
        elif voters >= others and len(others - gain) < 2:
            self._void_as_draw(silent, step)

    def gainers(self, accused: int) -> set[int]:
        """The seats that would gain from putting ``accused`` out for silence (SPEC.md,
        "Timeouts are checked facts"): the one seat its exit would leave alone in play,
        winner of the match on its own word and its own clock. Where two or more others
        remain, each counted vote is a wait every honest peer saw run out on its own
        clock, and nobody's profit decides."""
        active = self.active()
        others = {s for s in range(len(active)) if active[s] and s != accused}
        return others if len(others) == 1 else set()

    def _void_as_draw(self, silent: int, step: int) -> None:
        """Too few seats are left to convict ``silent`` without a seat that gains from
        it: the hand is void, nobody is blamed, and the match ends as a draw among the
        seats still playing (never an award to the accuser)."""
        reason = draw_reason(silent, step, self._limit())
        self.spectate(reason)
        self.drain_hand()
        self._deal_void(reason, f"not reached: {reason}", silent)
        self.end_in_draw()

    def _holder_vote(self, step: int, voters: set[int], active: tuple[bool, ...]) -> None:
        """Counted votes that the holder awaited at ``step`` is silent: once every active
        seat but one has voted so, the table's seats open their secrets."""
        hand = self.hand
        if not isinstance(hand, GameHand):
            return
        if len(voters) >= sum(active) - 1 and step not in hand.silenced:
            hand.silence(step, self.now())
            self.drain_hand()

    def track_awaited(self, now: float) -> None:
        """Time the seats the hand awaits at its current step, from when this machine
        first saw each awaited; a seat no longer awaited answered, and the votes against
        it at this step are cancelled (SPEC.md: any frame of the accused that answers
        the step)."""
        hand, ballot = self.hand, self.ballot
        assert hand is not None
        step = (self.hand_no, hand.step)
        if self._awaited != step or ballot.step != step:
            self._awaited = step
            ballot.restart(step, now)
            self.votes = {key: voters for key, voters in self.votes.items()
                          if key[:2] >= step}  # the accused answered those steps
        ballot.hold(self.holding(), now, self.timing.grace_s)
        for seat in ballot.await_seats(self._awaited_seats(), now):
            key = (*step, seat)
            self.votes.pop(key, None)
            ballot.pending.pop(key, None)

    def overdue(self, seat: int, now: float) -> bool:
        """Whether this machine awaits ``seat`` at the hand's current step and the seat's
        time there has run out by this machine's clock (held time given back)."""
        hand, ballot = self.hand, self.ballot
        if hand is None or ballot.step != (self.hand_no, hand.step) or self._awaited != ballot.step:
            return False
        due = ballot.deadline(seat, self._limit())
        return due is not None and now >= due

    def _awaited_seats(self) -> set[int]:
        """Every seat the hand awaits now, this machine's own included (a vote against
        it checks here too), and :data:`HOLDER` while the holder of a card is awaited."""
        hand = self.hand
        assert hand is not None
        seats: set[int] = set()
        awaited = hand.awaited()
        if awaited is not None:
            seats.add(awaited[0])
        elif hand.fair.phase is not FairPhase.ABORTED:
            waiting = hand.fair.awaited()
            if waiting:
                seats.update(waiting[0])
        if isinstance(hand, GameHand) and hand.holder_turn() is not None:
            seats.add(HOLDER)
        return seats

    def holding(self) -> bool:
        """Whether the table holds its clocks for a seat that is away (:mod:`.away`)."""
        return False

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
            due.append(self._vote_deadline() or 0.0)
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
        self._count_lot_votes(now)

    def _lot_vote_due(self) -> bool:
        """The lot waits for another seat and this seat's vote on it is still to come,
        or a vote on it waits for this seat's own deadline (as :meth:`_vote_due` for a
        hand)."""
        if self.lot is None:
            return False
        missing = [s for s in self.lot.missing() if s != self.seat]
        own = self.seat is not None and bool(missing) and (0, 0, missing[0]) not in self._voted
        return own or any(key[:2] == (0, 0) for key in self.ballot.pending)

    def lot_vote(self, voter: int, body: Body) -> None:
        """A TIMEOUT vote in the lot, checked as a hand's (SPEC.md, "Rules the table
        enforces"): counted once the lot here still misses the named seat past this
        machine's own deadline; once every other seat's vote is counted, the match never
        starts."""
        assert self.roster is not None
        silent, seats = body.args[0], len(self.roster.sitters)
        if not (0 <= silent < seats and 0 <= voter < seats) or voter == silent:
            return
        self.ballot.pending.setdefault((0, 0, silent), set()).add(voter)
        self._count_lot_votes(self.now())

    def _count_lot_votes(self, now: float) -> None:
        """Count the lot's pending votes that check now; drop those against a seat the
        lot no longer misses (it answered)."""
        if self.lot is None or self.roster is None or now < self.lot_since + self._limit():
            return
        missing, seats = set(self.lot.missing()), len(self.roster.sitters)
        for key in sorted(k for k in self.ballot.pending if k[:2] == (0, 0)):
            voters = self.ballot.pending.pop(key)
            silent = key[2]
            if silent not in missing:
                continue
            counted = self.votes.setdefault(key, set())
            counted |= voters
            quorum = set(range(seats)) - {silent}
            if counted >= quorum:
                self.blames.append(f"seat {silent}: lot: silent past the table's limit of "
                                   f"{self._limit():g} s (votes of seats "
                                   f"{', '.join(str(s) for s in sorted(quorum))})")
                self.last_blamed = silent
                self.finish(early=True)
                return

    def _hand_timers(self, now: float) -> None:
        """Vote against each other seat whose time here has run out; count the votes
        that check now."""
        self.track_awaited(now)
        limit = self._limit()
        for seat, since in sorted(self.ballot.since.items()):
            if seat != self.seat and now >= since + limit:
                self.vote_timeout(seat)
        self.count_votes(now)

    def _vote_due(self) -> bool:
        """The hand's current wait can still end in this seat's TIMEOUT vote, or in
        counting a pending vote: once every such deadline is past, only a message
        (another vote, the awaited frame, a result) can move the hand; a loop that
        kept waking for it would spin until then."""
        return self._vote_deadline() is not None

    def _vote_deadline(self) -> float | None:
        """The next time a vote of this seat falls due or a pending vote checks."""
        ballot, limit = self.ballot, self._limit()
        if self.hand is None or ballot.step is None or self._awaited != ballot.step:
            return None
        due = []
        for seat, since in ballot.since.items():
            key = (*ballot.step, seat)
            if (seat != self.seat and self.hand.me is not None and key not in self._voted) \
                    or key in ballot.pending:
                due.append(since + limit)
        return min(due, default=None)
