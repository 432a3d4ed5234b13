"""The TIMEOUT votes of a hand: how a table decides that a seat is silent.

:class:`SilenceVotes` is the half of the table's clocks (:class:`~.clocks.TableClocks`
builds on it) that holds the book of votes (:class:`~lodam_p2p.session.ballot.Ballot`),
the votes counted, the votes this seat signed and the step it times, and reaches the
table machine only through :class:`ClockTable`, which names what the clocks read and
call there.

A seat that waits past the table's limit for another seat signs a TIMEOUT vote naming
that seat and the step. A vote is a claim that every machine checks for itself before
it counts (protocol/SPEC.md, "Rules the table enforces"): the named seat must be one
this machine awaits at that step, and its time by this machine's own clock must have
run out; until then the vote is pending, and the step moving on — the accused answered
— drops it. Two counted votes of independent seats (neither the accused nor a seat that
would win by its exit, :meth:`SilenceVotes.gainers`) put the silent seat at fault
(:meth:`ClockTable.offence`); where fewer than two such seats are left, every other
seat's counted vote voids the hand without blame and the match ends as a draw among the
seats still playing.

*A vote withheld stalls nothing.* A silent seat's partner could refuse to vote, so that
the one honest seat left never gathers two votes and waits for ever. So once a vote
against the silent seat has been counted here (this machine's own clock agrees that its
time ran out) and the grace time and :data:`STALL_LIMITS` more limits pass with neither
a verdict nor an answer, the hand is void without blame and the match ends as a draw among the seats
still playing (:meth:`SilenceVotes.stalled`) — what the rule gives a table too small to
convict, and never an award to anyone. An honest seat's vote comes within a limit or
so of the others' (each times the same step on its own clock), or, where it held its
clock for a seat it saw away (perhaps this one), within the grace time more, which is
all a step's holds may add up to; so where two honest seats are left they convict
long before that, and they never end apart.

When the public part awaits the holder of a card (Lorum's Quartet) nobody can name the
silent seat: the vote names the step and :data:`HOLDER` for the seat, and once every
active seat but one (the silent holder) has voted so, each seat opens its secrets and
the audit names the holder (:meth:`~lodam_p2p.session.gamehand.GameHand.silence`). One
seat alone cannot start that audit: the holder may be about to play.
"""

from __future__ import annotations

from typing import Any, Protocol

from lodam_p2p.fairdeal import Blame
from lodam_p2p.fairdeal import Phase as FairPhase
from lodam_p2p.session.ballot import Ballot, VoteKey
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.lot import Lot
from lodam_p2p.session.phases import SessionPhase, Timing
from lodam_p2p.session.verdict import draw_reason
from lodam_p2p.session.wire import Body, Msg

#: The seat a TIMEOUT vote names when it waits for whoever holds the awaited card.
HOLDER = 255
#: How many more of the table's limits a machine waits, once a vote against a silent seat
#: is counted here, for the other votes that could decide it (:meth:`SilenceVotes.stalled`)
STALL_LIMITS = 3
#: How many other seats in play must all vote a seat silent at a step it answered before
#: that seat accepts it (:meth:`SilenceVotes._named_silent`).
MIN_ACCUSERS = 3


class ClockTable(Protocol):
    """What the clocks read and call on the table machine that owns them."""

    phase: SessionPhase
    timing: Timing
    roster: Roster | None
    lot: Lot | None
    hand: HandMachine | None  #: the hand under way (None between hands)
    match: Any  #: the game's match (None until the lot is drawn)
    seat: int | None
    host: str | None
    hand_no: int
    blames: list[str]
    last_blamed: int | None
    results: dict[str, tuple[Any, ...]]
    lobby_since: float
    lot_since: float
    grace_until: float
    linger_until: float

    def now(self) -> float: ...
    def limit(self) -> float: ...
    def send(self, body: Body) -> None: ...
    def online(self, peer: str) -> bool: ...
    def watching_host(self) -> bool: ...
    def active(self) -> tuple[bool, ...]: ...
    def holding(self) -> bool: ...
    def offence(self, blame: Blame, evidence: tuple[bytes, ...] = (), *,
                announce: bool = True) -> None: ...
    def finish(self, *, early: bool) -> None: ...
    def end_in_draw(self) -> None: ...
    def deal_void(self, reason: str, audit: str, blamed: int) -> None: ...
    def drain_hand(self) -> None: ...
    def spectate(self, line: str) -> None: ...


class SilenceVotes:
    """The TIMEOUT votes of a table machine's hand (see the module docstring)."""

    def __init__(self, table: ClockTable) -> None:
        self.table = table
        #: this machine's book of TIMEOUT votes and of its waits at the current step
        self.ballot = Ballot()
        #: TIMEOUT votes counted: (hand, step, silent seat) → the seats that voted
        self.votes: dict[VoteKey, set[int]] = {}
        #: the votes this seat signed
        self.voted: set[VoteKey] = set()
        #: votes that name this seat silent, by the seats that cast them (accepted only
        #: when every other seat in play voted so: :meth:`_named_silent`)
        self.named: dict[VoteKey, set[int]] = {}
        #: the step of the hand timed now, (hand, step)
        self.awaited: tuple[object, ...] = ()

    def vote_timeout(self, silent: int) -> None:
        """Sign this seat's TIMEOUT vote against ``silent`` at the current step (once)."""
        t = self.table
        hand = t.hand
        if hand is None or hand.me is None or silent == t.seat:
            return
        key = (t.hand_no, hand.step, silent)
        if key in self.voted:
            return
        self.voted.add(key)
        t.send(Body(Msg.TIMEOUT, t.hand_no, hand.step, (silent,)))

    def timeout_vote(self, voter: int, body: Body) -> None:
        """Take ``voter``'s TIMEOUT vote (SPEC.md, "Rules the table enforces"): dropped
        unless this machine awaits the named seat at the named step as it arrives;
        pending until that seat's time here runs out; then counted, and judged."""
        t = self.table
        assert t.match is not None
        silent, active = body.args[0], t.active()
        if not (0 <= voter < len(active) and active[voter]):
            return
        if silent == t.seat and voter != silent and (
                (body.hand, body.step) != self.ballot.step or silent not in self.ballot.since):
            self._named_silent(voter, body)  # this seat has answered at that step
            return
        if silent != HOLDER and not (0 <= silent < len(active) and active[silent]
                                     and voter != silent):
            return
        key = (body.hand, body.step, silent)
        if voter in self.votes.get(key, ()) or t.hand is None:
            return
        now = t.now()
        self.track_awaited(now)
        if key[:2] != self.ballot.step or silent not in self.ballot.since:
            # this machine does not wait for that seat at that step: the vote cannot be
            # a fact here, and never becomes one (a wait that begins later began after
            # the vote, which cannot report it)
            return
        if self.ballot.pend(key, voter):
            self.count_votes(now)

    def _named_silent(self, voter: int, body: Body) -> None:
        """A vote that names this seat silent at a step of this hand it has answered (at a
        step where it still has to decide, the vote is checked like any other:
        :meth:`timeout_vote`).

        This seat knows it answered; a vote against it is false or its answer never
        reached the voter — a broker that censors it shows nothing else. It accepts
        the verdict only when every other seat in play voted so, and they are at least
        :data:`MIN_ACCUSERS` (a majority of a table of four or more; at three seats, two
        liars would be enough, so a censored seat there may end on its own result):
        then the others have put it out, or voided the
        hand, as :meth:`_judge` decides at each of them, and it does the same at the
        same step, so that it follows the match as they do and ends on their result
        instead of waiting alone at a table that went on without it."""
        t, hand, me = self.table, self.table.hand, self.table.seat
        active = t.active()
        if (hand is None or me is None or not active[me] or body.hand != t.hand_no
                or body.step > hand.step):
            return
        key = (body.hand, body.step, me)
        named = self.named.setdefault(key, set())
        named.add(voter)
        others = {s for s in range(len(active)) if active[s] and s != me}
        if len(others) >= MIN_ACCUSERS and others <= named and key not in self.votes:
            self.votes[key] = set(named)
            self._judge(key)

    def count_votes(self, now: float) -> None:
        """Count the pending votes that check here now: the named seat is one this
        machine awaits at the named step, and its time here has run out. Votes for a
        step this machine has left are dropped; the others stay pending."""
        t = self.table
        if t.hand is None or t.phase is not SessionPhase.MATCH or t.holding():
            return
        self.track_awaited(now)
        ballot, limit, hand = self.ballot, t.limit(), t.hand
        for key in sorted(ballot.pending):
            if t.hand is not hand:
                return  # a verdict ended the hand: the votes left go with its step
            if key[:2] != ballot.step:
                continue
            due = ballot.deadline(key[2], limit)
            if due is None or now < due:
                continue
            self.votes.setdefault(key, set()).update(ballot.pending.pop(key, set()))
            self._judge(key)

    def _judge(self, key: VoteKey) -> None:
        """Act on the counted votes of ``key``: convict on two independent voters, or —
        where fewer than two could ever vote — void the hand and end in a draw."""
        t = self.table
        _hand_no, step, silent = key
        voters, active = self.votes[key], t.active()
        if silent == HOLDER:
            self._holder_vote(step, voters, active)
            return
        others = {s for s in range(len(active)) if active[s] and s != silent}
        gain = self.gainers(silent)
        independent = (voters & others) - gain
        if len(independent) >= 2:
            detail = f"silent at step {step} past the table's limit of {t.limit():g} s"
            t.offence(Blame(silent, "timeout", detail), announce=False)
        elif voters >= others and len(others - gain) < 2:
            self._void_as_draw(silent, step)

    def stall_deadline(self) -> float | None:
        """When the wait for votes on a silent seat at the current step, one of them
        counted here, has run :data:`STALL_LIMITS` more limits (None: no such wait)."""
        ballot = self.ballot
        if ballot.step is None or self.awaited != ballot.step:
            return None
        due = [since + self._stall_wait() for seat, since in ballot.since.items()
               if seat != HOLDER and self.votes.get((*ballot.step, seat))]
        return min(due, default=None)

    def _stall_wait(self) -> float:
        """From the start of a wait to the end of its stall: the limit, the longest hold
        another seat may give that step for a seat it sees away (the grace time, which
        this seat may not see: it may be the one they see away), and
        :data:`STALL_LIMITS` more limits."""
        t = self.table
        return t.limit() * (1 + STALL_LIMITS) + t.timing.grace_s

    def stalled(self, now: float) -> None:
        """End a stall (see the module docstring): void the hand without blame, and end
        the match as a draw among the seats still playing."""
        t, ballot = self.table, self.ballot
        due = self.stall_deadline()
        if t.hand is None or t.holding() or due is None or now < due or ballot.step is None:
            return
        limit = t.limit()
        silent = min(seat for seat, since in ballot.since.items()
                     if seat != HOLDER and self.votes.get((*ballot.step, seat))
                     and now >= since + self._stall_wait())
        step = ballot.step[1]
        voters = sorted(self.votes[(*ballot.step, silent)])
        reason = (f"seat {silent} was silent at step {step} past the table's limit of "
                  f"{limit:g} s, and in {STALL_LIMITS} more limits only seat"
                  f"{'s' if len(voters) > 1 else ''} {', '.join(map(str, voters))} voted "
                  "so: too few to put it out, so the hand is void, nobody is blamed, and "
                  "the match ends as a draw")
        t.spectate(reason)
        t.drain_hand()
        t.deal_void(reason, f"not reached: {reason}", silent)
        t.end_in_draw()

    def gainers(self, accused: int) -> set[int]:
        """The seats that would gain from putting ``accused`` out for silence (SPEC.md,
        "Timeouts are checked facts"): the one seat its exit would leave alone in play,
        winner of the match on its own word and its own clock. Where two or more others
        remain, each counted vote is a wait every honest peer saw run out on its own
        clock, and nobody's profit decides."""
        active = self.table.active()
        others = {s for s in range(len(active)) if active[s] and s != accused}
        return others if len(others) == 1 else set()

    def _void_as_draw(self, silent: int, step: int) -> None:
        """Too few seats are left to convict ``silent`` without a seat that gains from
        it: the hand is void, nobody is blamed, and the match ends as a draw among the
        seats still playing (never an award to the accuser)."""
        t = self.table
        reason = draw_reason(silent, step, t.limit())
        t.spectate(reason)
        t.drain_hand()
        t.deal_void(reason, f"not reached: {reason}", silent)
        t.end_in_draw()

    def _holder_vote(self, step: int, voters: set[int], active: tuple[bool, ...]) -> None:
        """Counted votes that the holder awaited at ``step`` is silent: once every active
        seat but one has voted so, the table's seats open their secrets."""
        t = self.table
        hand = t.hand
        if hand is None:
            return
        if len(voters) >= sum(active) - 1 and step not in hand.silenced:
            hand.silence(step, t.now())
            t.drain_hand()

    def track_awaited(self, now: float) -> None:
        """Time the seats the hand awaits at its current step, from when this machine
        first saw each awaited; a seat no longer awaited answered, and the votes against
        it at this step are cancelled (SPEC.md: any frame of the accused that answers
        the step)."""
        t = self.table
        hand, ballot = t.hand, self.ballot
        assert hand is not None
        step = (t.hand_no, hand.step)
        if self.awaited != step or ballot.step != step:
            self.awaited = step
            ballot.restart(step, now)
            self.votes = {key: voters for key, voters in self.votes.items()
                          if key[:2] >= step}  # the accused answered those steps
        ballot.hold(t.holding(), now, t.timing.grace_s)
        for seat in ballot.await_seats(self._awaited_seats(), now):
            key = (*step, seat)
            self.votes.pop(key, None)
            ballot.pending.pop(key, None)

    def timed_now(self) -> bool:
        """Whether the ballot times the hand's current step (as :meth:`track_awaited`
        last saw it)."""
        t = self.table
        hand, ballot = t.hand, self.ballot
        return (hand is not None and ballot.step == (t.hand_no, hand.step)
                and self.awaited == ballot.step)

    def overdue(self, seat: int, now: float) -> bool:
        """Whether this machine awaits ``seat`` at the hand's current step and the seat's
        time there has run out by this machine's clock (held time given back)."""
        if not self.timed_now():
            return False
        due = self.ballot.deadline(seat, self.table.limit())
        return due is not None and now >= due

    def voted_on(self, seat: int, hand_no: int) -> bool:
        """Whether this seat signed a vote on ``seat``'s silence in hand ``hand_no``."""
        return any(key[0] == hand_no and key[2] == seat for key in self.voted)

    def _awaited_seats(self) -> set[int]:
        """Every seat the hand awaits now, this machine's own included (a vote against
        it checks here too), and :data:`HOLDER` while the holder of a card is awaited."""
        hand = self.table.hand
        assert hand is not None
        seats: set[int] = set()
        awaited = hand.awaited()
        if awaited is not None:
            seats.add(awaited[0])
        elif hand.fair.phase is not FairPhase.ABORTED:
            waiting = hand.fair.awaited()
            if waiting:
                seats.update(waiting[0])
        if hand.holder_turn() is not None:
            seats.add(HOLDER)
        return seats
