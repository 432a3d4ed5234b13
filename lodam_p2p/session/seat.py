"""The table machine: one seat (or a watcher) at a networked table, from the lobby to
the result, with no I/O and no clock of its own.

Theory of operation. Everything a machine learns comes in through :meth:`receive` with
the time it arrived; time alone through :meth:`handle_timer`, which also moves whatever
can move now (call it after every batch of :meth:`receive`). What the machine says goes
into lists its runner (:mod:`.runner`) drains: ``outgoing`` (bodies to publish),
``retained`` (lobby writes) and ``events`` (:mod:`.effects`: tell the player, write the
spectator log and the journal, ask the player, admit the seated peers): no handler calls
out. :meth:`timer` says when it next has something to do; :meth:`now` is the last time
it was given, and every handler reads the clock there.

The machine is a line of classes with one base each — :class:`TableMachine` (routing),
:class:`~.seating.Seating` (the lobby and the lot), :class:`~.rejoin.Rejoining` and
:class:`~.returning.Returning` (seats coming back, the journal),
:class:`~.course.Course` (the match: hands begun, settled, voided, the end) — that owns
its parts, each a plain class with its own state that reaches the machine only through a
small protocol naming what it reads and calls there: the clocks and TIMEOUT votes
(:class:`~.clocks.TableClocks`, ``clocks``), the game's side of the course
(:class:`~.gamecourse.GameCourse`, ``game_course``), the seats that are away
(:class:`~.away.AwaySeats`, ``away_seats``) and the local player
(:class:`~.asking.Asking`, ``asking``). :meth:`TableMachine.timer` and
:meth:`TableMachine.check_timers` are the one place that puts the parts' waits
together.

A peer's bodies wait in that peer's queue, in its order (:mod:`.link`); the machine
takes the head of each queue when its time has come (:meth:`TableMachine._route`):
lobby messages at once, lot messages in the lot, hand messages when they belong to the
current hand and — for decisions — when the public deal awaits exactly that seat at
exactly that step (:meth:`HandPlay.route`). Later ones wait; stale or out-of-place ones
are dropped with the reason logged. The machine's own messages go through its own queue
the same way, so every peer applies the same events in the same order. A message routed
TAKE is applied by the table of transitions (:data:`_FROM_ANY`, :data:`_FROM_SEAT`) or
by the hand; then :meth:`TableMachine._after` does what follows from it.

Nothing a peer sends can stop a machine: every message is handled inside a guard
(:meth:`TableMachine._handle`) that logs and drops whatever a handler did not foresee,
and :meth:`receive` and :meth:`handle_timer` survive anything raised while they work
through peer input (``strict`` lets it out instead, for fuzzing). Only the loss of the
broker, a START without this seat (:class:`SessionError`) or a table gone
(:class:`~lodam_p2p.session.rejoin.TableGone`) end a machine early.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from lodam_p2p.fairdeal import Blame, LocalProtocolError, RemoteProtocolError
from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress
from lodam_p2p.session.asking import Asking
from lodam_p2p.session.course import Course, SessionPhase, Timing
from lodam_p2p.session.effects import Admit, Decided, Place, SessionError
from lodam_p2p.session.handplay import Blamed, Refused, Route
from lodam_p2p.session.held import hold
from lodam_p2p.session.journal import SeatJournal, match_snapshot
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.link import (
    Delivered,
    HeardFrom,
    LinkDown,
    LobbySeen,
    OwnWillSeen,
    PresenceSeen,
    StreamFaultSeen,
    proves_fork,
)
from lodam_p2p.session.lobby import HostDesk, Roster
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.rejoin import ReturnDesk, TableGone
from lodam_p2p.session.resumestate import outcome_json
from lodam_p2p.session.returning import SeatReturn
from lodam_p2p.session.seating import SeatingDesk
from lodam_p2p.session.wire import BadMessage, Body, Msg
from lodam_p2p.tableplan import SeatPlan

__all__ = ["Decided", "SessionError", "TableMachine"]

log = logging.getLogger("lodam_p2p.session")

class TableMachine(Course):
    """One peer at a table, as a machine: see the module docstring."""

    def __init__(self, place: Place, *, plan: SeatPlan | None, entropy: Entropy,
                 timing: Timing | None = None, host: str | None = None,
                 desk: HostDesk | None = None, spectator: SpectatorLog | None = None,
                 journal: SeatJournal | None = None, follow: str | None = None,
                 together: Sequence[str] = ()) -> None:
        super().__init__(place.table, plan, place.identity, entropy=entropy,
                         timing=timing or Timing(), spectator=spectator)
        self.me = place.peer
        #: the host's peer name (None: the first announcer heard), and at the host's
        #: watcher its desk
        self.host, self.desk = host, desk
        #: the identity key of every peer heard, by peer
        self.pubkeys: dict[str, bytes] = {}
        #: retained lobby writes (topic, payload) the runner publishes, in order
        self.retained: list[tuple[str, bytes]] = []
        #: the lobby and the lot: seats asked for and given, START, the first dealer
        self.seating: SeatingDesk = SeatingDesk(self)
        #: the local player's part: asked once per step, its answers taken
        self.asking = Asking(self)
        #: messages whose handler failed in a way it did not foresee (logged, dropped)
        self.unexpected = 0
        #: let such a failure out instead (fuzzing and tests look for them this way)
        self.strict = False
        #: this seat's journal (:mod:`.journal`; one that keeps nothing if none is given)
        self.journal = journal or SeatJournal(None, "seat", self.table)
        kept = self.journal.entry.get("match") if self.journal.rejoining else None
        begun = kept.get("hand_no") if isinstance(kept, dict) else None
        if isinstance(begun, int) and not isinstance(begun, bool) and begun >= 0:
            self.signed.begun = begun  # its last process may have signed in that hand
        #: seats coming back, as the table follows them (who asked, the coordinator)
        self.return_desk: ReturnDesk = ReturnDesk(self)
        #: this seat coming back from its journal (or a restarted host following one)
        self.coming_back: SeatReturn = SeatReturn(self, follow, together)

    # --- driving the machine ------------------------------------------------------------

    def start(self, now: float) -> None:
        """Begin at ``now``: announce a host's table, JOIN it, or ask to be taken back."""
        self._now = now
        self.lobby_since = now
        if self.journal.rejoining:
            self.host = self.host or self.journal.entry.get("host")
            roster = self.coming_back.begin()
            self.admit(roster)
            if self.desk is not None:  # a restarted host: the table is still playing
                self.desk.resume(roster)
                self.seating.announce()
            return
        if self.desk is not None:
            self.seating.announce()
        if self.plan is not None:
            self.seating.ask_for_seat()  # seated once the host's SEATS or START says so
        else:
            self.tell(Progress(Phase.LOBBY, detail=f"waiting for table {self.table} to fill"))

    def receive(self, item: object, now: float) -> None:
        """Take one thing the link or the player delivered at ``now`` (a body, a presence
        change, the lobby, a decision); what a peer sent never raises out of here."""
        self._now = now
        self._guard(self._intake, item)

    def handle_timer(self, now: float) -> None:
        """Take what can be taken now and check the clocks at ``now``."""
        self._now = now
        self._guard(self._step)

    def withdraw(self) -> None:
        """The host's table is over: take the announcement down."""
        if self.desk is not None:
            self.retained.append((self.desk.announcement().signed(self.identity).topic, b""))

    def admit(self, roster: Roster) -> None:
        """Take frames only from the seated table (and its host) from now on."""
        self.events.append(Admit(roster.peers | {self.host or self.me}))

    def ask_again(self) -> None:
        """Ask the player again for the step awaited (its last answer was lost)."""
        self.asking.asked = None
        self.asking.maybe_ask()

    @property
    def done(self) -> bool:
        """The machine has nothing more to do (the runner stops)."""
        return self.phase is SessionPhase.DONE

    def _step(self) -> None:
        self._advance()
        self.check_timers(self._now)

    def timer(self) -> float | None:
        """When :meth:`check_timers` next has something to do (None: only something that
        arrives can move the machine). Early is harmless (nothing is due yet, and the
        next call says when); late is not, so every wait of :meth:`check_timers` is here:
        a returning seat's wait, else the clocks' and the away seats' deadlines, and the
        next ask for a seat."""
        rejoin = self.coming_back.due()
        due: list[float | None] = [rejoin] if rejoin is not None else [
            self.clocks.timer(), *self.away_seats.deadlines()]
        due.append(self.seating.asking_due())
        return min((d for d in due if d is not None), default=None)

    def check_timers(self, now: float) -> None:
        """Blame whoever is late; end the waits that have run out. A seat asks again for
        a seat; a coordinator answers a return that has become acceptable before its own
        vote on that seat's clock; a returning seat gives up once its wait is over; the
        hand's clocks are held while the table holds for an away seat (its waits still
        followed: a seat that becomes awaited while away is timed from then)."""
        self.seating.ask_seat_again(now)
        self.return_desk.returns_due()
        if self.phase is SessionPhase.REJOIN:
            self.coming_back.check_timer(now)
        elif not (self.phase is SessionPhase.MATCH and self.away_seats.hold_for_away(now)):
            self.clocks.check_timers(now)
        elif self.phase is SessionPhase.MATCH and self.hand is not None:
            self.clocks.track_awaited(now)

    def _guard(self, work: Callable[..., None], *args: object) -> None:
        """Run one piece of work; a bug reached through peer input (or the local player)
        is logged and the machine goes on (what caused it is gone)."""
        try:
            work(*args)
        except (SessionError, TableGone):  # the machine's own ends, not failures
            raise
        except Exception:  # no peer input may stop the table
            if self.strict:
                raise
            self.unexpected += 1
            log.exception("table %s: unexpected failure, going on", self.table)

    # --- the journal and returns -----------------------------------------------------

    def journal_start(self, body: Body, host: str | None) -> None:
        """Keep the START (roster, options, table id, time limit) and the host."""
        table_id, options, rows, limit = body.args
        self.keep(start=[table_id.hex(), options,
                         [[p, k.hex(), n, kind] for p, k, n, kind in rows], limit],
                  host=host, match=None)

    def new_hand(self) -> None:
        """Keep the match state, then begin the hand, never under a number this seat
        has begun before (:mod:`.signed`): the journal keeps the number before the hand's
        first envelope is published (the runner carries out the :class:`Keep
        <lodam_p2p.session.effects.Keep>` before what follows it)."""
        if self.seat is not None:
            if self.hand_no <= self.signed.begun:
                log.error("table %s: hand %d was begun here before; dealing hand %d "
                          "instead of signing a second time", self.table, self.hand_no,
                          self.signed.begun + 1)
                self.hand_no = self.signed.begun + 1
            self.signed.begun = self.hand_no
        if self.match is not None:
            self.keep(match=match_snapshot(self.match, self.hand_no, self.audits, self.blames,
                                           self.game))
        super().new_hand()

    def finish(self, *, early: bool) -> None:
        """The match is over: keep the outcome."""
        super().finish(early=early)
        if self.outcome is not None:
            self.keep(outcome=outcome_json(self.outcome))

    def settle(self) -> None:
        """The hand passed its audit: the returns it decides are settled too
        (:meth:`ReturnDesk.settled`)."""
        self.return_desk.settled()
        super().settle()

    def seat_gone(self, seat: int) -> None:
        """A seated peer's presence went away: hold the table for it (:mod:`.away`), and
        note that this machine saw it go (the first condition of its return)."""
        self.away_seats.seat_gone(seat)
        self.return_desk.seat_gone(seat)

    def coordinator(self, back: int) -> int | None:
        """The seat that answers ``back``'s return (:meth:`ReturnDesk.coordinator`)."""
        return self.return_desk.coordinator(back)

    # --- intake -------------------------------------------------------------------------

    def _intake(self, item: object) -> None:
        if isinstance(item, Delivered):
            try:
                body = Body.decode(item.body)
            except BadMessage as err:
                self.ignore(item.sender, str(err))
                return
            self.pubkeys[item.sender] = item.pubkey
            if body.kind in (Msg.RESULT, Msg.ATTEST):  # at once: it may sit behind bodies
                # that never fit (ATTEST: behind the abandoned hand's, at a returning seat)
                self._handle(item.sender, body)
                return
            if not hold(self.queues, item.sender, body, len(item.body),
                        started=self.roster is not None):  # a flood: see .held
                self.ignored += 1
        elif isinstance(item, PresenceSeen):
            self._presence(item)
        elif isinstance(item, LobbySeen):
            self.seating.lobby_seen(item.announcement)
        elif isinstance(item, Decided):
            self.asking.decided(item)
        elif isinstance(item, OwnWillSeen):
            self.return_desk.own_will_seen()
        elif isinstance(item, HeardFrom):
            self._heard_from(item.peer)
        elif isinstance(item, StreamFaultSeen):
            self._stream_fault(item)
        elif isinstance(item, LinkDown):
            raise SessionError(f"lost the broker: {item.reason}")

    def _presence(self, seen: PresenceSeen) -> None:
        if seen.online:
            self.present.add(seen.peer)
        else:
            self.present.discard(seen.peer)
            self.seating.left_lobby(seen.peer)
        if (self.phase is SessionPhase.LOBBY and self.desk is None and not seen.online
                and seen.peer == self.host):
            if self.seating.host_topic is not None:  # its announcement, left standing
                self.retained.append((self.seating.host_topic, b""))
            raise TableGone(f"the host of table {self.table} left before the start")
        seat = self.roster.seat_of(seen.peer) if self.roster is not None else None
        if seat is not None:
            self.tell_seats()
            if seen.online:
                self.away_seats.seat_back(seat)
                self.came_back(seen.peer)
            else:
                self.seat_gone(seat)

    def _heard_from(self, peer: str) -> None:
        """A will is a hint (protocol/SPEC.md, "The broker and strangers"): a seat held
        for as away whose signed frame came since is back; only the table's checked
        timeout puts a silent seat out."""
        seat = self.roster.seat_of(peer) if self.roster is not None else None
        if seat is not None and seat in self.away_seats.away:
            self.away_seats.seat_back(seat)

    def _stream_fault(self, seen: StreamFaultSeen) -> None:
        """A broker fault is told, never blamed on a seat; a seated peer's fork (two
        signed frames at one position of its stream) is an offence, its two frames the
        evidence that goes with the claim."""
        fault = seen.fault
        seat = self.roster.seat_of(fault.sender) if self.roster is not None else None
        if fault.broker or seat is None:
            self.tell(Notice(NoticeLevel.WARNING, f"the broker: {fault.line()}"))
            return
        if (self.phase is SessionPhase.MATCH and self.hand is not None
                and self.active()[seat] and seat != self.seat):
            self.offence(Blame(seat, "equivocation", fault.detail[:120]), fault.evidence)

    # --- routing ------------------------------------------------------------------------

    def _advance(self) -> None:
        moved = True
        while moved:
            moved = False
            for peer, queue in list(self.queues.items()):
                while queue and self.phase is not SessionPhase.DONE:
                    route = self._route(peer, queue[0])
                    if route is Route.WAIT:
                        break
                    body = queue.popleft()
                    moved = True
                    if route is Route.TAKE:
                        self._handle(peer, body)
                    elif peer != self.me:  # our own, after the hand moved on: nothing lost
                        self.ignore(peer, f"{body.kind.name} (hand {body.hand}, step "
                                    f"{body.step}) out of place at hand {self.hand_no}")
            moved = self._after() or moved

    def _handle(self, peer: str, body: Body) -> None:
        """Take ``body``; whatever a handler did not foresee drops the message, logged."""
        try:
            self._take(peer, body)
        except (SessionError, TableGone):  # the machine's own ends, not failures
            raise
        except Exception as err:  # a peer never crashes a machine
            if self.strict:
                raise
            self.unexpected += 1
            log.warning("table %s: %s from %s failed: %r", self.table, body.kind.name, peer,
                        err, exc_info=log.isEnabledFor(logging.DEBUG))
            self.ignore(peer, f"{body.kind.name} could not be taken: {err!r}")

    def _route(self, peer: str, body: Body) -> Route:
        try:
            return self._route_of(peer, body)
        except Exception as err:  # a peer never crashes a session
            self.ignore(peer, f"{body.kind.name} could not be routed: {err!r}")
            return Route.DROP

    def _route_of(self, peer: str, body: Body) -> Route:
        kind = body.kind
        if kind in (Msg.JOIN, Msg.LEAVE):
            return Route.TAKE  # for the host's desk; others just pass them by
        if kind in (Msg.SEATS, Msg.START):
            if self.host is None:
                return Route.WAIT  # the announcement naming the host is still to come
            if self.phase is not SessionPhase.LOBBY:
                self.seating.stray_roster(peer, body)  # a seated peer's false START is blamed
                return Route.DROP
            if peer == self.host:
                return Route.TAKE
            self.seating.stray_roster(peer, body)  # kept, to blame if its signer is seated
            return Route.DROP
        if kind in (Msg.RESULT, Msg.BYE):
            return Route.TAKE
        if self.roster is None:
            return Route.WAIT
        seat = self.roster.seat_of(peer)
        if seat is None:
            return Route.DROP
        if kind in (Msg.REJOIN, Msg.ATTEST):
            return Route.TAKE
        if kind is Msg.RESUME:
            if self.phase is SessionPhase.REJOIN:
                return self.coming_back.route_resume(seat, body)
            return self.return_desk.route_resume(seat, body)
        if self.phase is SessionPhase.REJOIN:
            # the coordinator's RESUME comes after all it said of the old hand; others'
            # messages may already belong to the next hand: they wait for RESUME
            return Route.DROP if self.coming_back.drops(seat) else Route.WAIT
        if kind in (Msg.LOT_COMMIT, Msg.LOT_REVEAL) or (kind is Msg.TIMEOUT and body.hand == 0):
            return Route.TAKE if self.phase is SessionPhase.LOT else Route.DROP
        if kind is Msg.TIMEOUT and body.hand > self.hand_no:
            return Route.DROP  # a vote on a hand not begun here cannot be a fact here
        if self.phase is SessionPhase.LOT or body.hand > self.hand_no:
            return Route.WAIT
        if body.hand < self.hand_no or self.hand is None:
            return Route.DROP if body.hand < self.hand_no else Route.WAIT
        if kind in (Msg.VOID, Msg.TIMEOUT):
            return Route.TAKE
        return self.hand.route(seat, body)

    def _take(self, peer: str, body: Body) -> None:
        """Apply ``body`` (routed TAKE) by the table of transitions: :data:`_FROM_ANY`
        for what any peer may say, :data:`_FROM_SEAT` for a seated peer's messages, the
        hand for the rest."""
        anyone = _FROM_ANY.get(body.kind)
        if anyone is not None:
            anyone(self, peer, body)
            return
        seat = self.roster.seat_of(peer) if self.roster is not None else None
        if seat is None:
            return
        seated = _FROM_SEAT.get(body.kind)
        if seated is not None:
            seated(self, peer, seat, body)
        else:
            self._hand_message(seat, body)

    def _result(self, peer: str, body: Body) -> None:
        self.results[peer] = body.args
        self.clocks.others_done(self.now())

    def _timeout(self, seat: int, body: Body) -> None:
        """A TIMEOUT vote: in the lot (hand 0), or at a step of the hand."""
        if body.hand == 0:
            self.clocks.lot_vote(seat, body)
        else:
            self.clocks.timeout_vote(seat, body)

    # --- hands --------------------------------------------------------------------------

    def _hand_message(self, seat: int, body: Body) -> None:
        hand = self.hand
        assert hand is not None

        def take() -> None:
            hand.screen(seat, body)
            hand.take(seat, body, self.now())

        self._checked(f"seat {seat}", take)

    def _checked(self, peer: str, work: Callable[[], object]) -> bool:
        """Run ``work`` on the hand; True if it convicted a seat (now out)."""
        try:
            work()
        except Refused as err:
            self.ignore(peer, str(err))
        except Blamed as err:
            earlier = self._earlier_offence()
            if earlier is not None:
                self.protocol_failure(earlier)
            else:
                self.offence(err.blame, err.evidence)
            return True
        except RemoteProtocolError as err:
            self.protocol_failure(self._earlier_offence() or err)
            return True
        except LocalProtocolError as err:
            self.ignore(peer, f"out of place for the hand: {err}")
        return False

    def _earlier_offence(self) -> RemoteProtocolError | None:
        """A follower that took proofs unchecked convicts on the first of them that fails
        rather than on a later offence: the verdict the seats reached (SPEC.md 12)."""
        return None if self.hand is None else self.hand.earlier_offence()

    def _claim(self, peer: str, body: Body) -> None:
        """A VOID from seat ``peer``: check its evidence here (SPEC.md, "Evidence").

        A claim naming no other seat of the hand, or carrying no evidence at all, is
        false on its face (an honest seat claims only with evidence): its own signer is
        put out. Evidence that does not convict here (yet) is logged and ignored."""
        blamed, reason = body.args
        hand, match = self.hand, self.match
        seat = self.roster.seat_of(peer) if self.roster is not None else None
        if hand is None or match is None or seat is None or not self.active()[seat]:
            return
        signed = [e for e in body.envelopes if hand.signed_by(blamed, e) is not None]
        if blamed == seat or blamed not in hand.config.seats or not body.envelopes:
            self.offence(Blame(seat, "false-claim", f"claimed seat {blamed} cheated, "
                               "without evidence"), announce=False)
            return
        assert self.roster is not None
        if proves_fork(body.envelopes, self.table, self.roster.sitters[blamed].peer):
            self.offence(Blame(blamed, "equivocation", "two signed frames at one position "
                               "of its stream"), announce=False)
            return
        # Only envelopes at steps this seat already took from the named seat are fed:
        # they can show a second version of one (equivocation, which a seat may show to
        # one peer alone) but never move the hand ahead of the named seat's own bodies.
        # The rest this seat judges when they come from their signer.
        evidence = tuple(e for e in signed if hand.taken_from(blamed, e))

        def judge() -> None:
            # a follower that took proofs unchecked checks them first: the claim's
            # evidence may be a message it took without its check
            hand.vigilant()
            hand.feed(blamed, evidence, self.now(), own=False)

        if not self._checked(peer, judge):
            self.ignore(peer, f"VOID naming seat {blamed} with evidence that does not "
                        f"convict here: {reason}")

    def _after(self) -> bool:
        """Act on what just moved; True if this machine queued messages of its own."""
        before = len(self.outgoing)
        self.seating.lot_moves()
        if self.phase is SessionPhase.MATCH and self.hand is not None:
            self.drain_hand()
            self.tell_applied()
            self.asking.maybe_ask()
            if self.hand is not None and self.hand.audited:
                self.settle()
        return len(self.outgoing) > before


#: What any peer may say, seated or not: message kind → what the session does.
_FROM_ANY: dict[Msg, Callable[[TableMachine, str, Body], None]] = {
    Msg.JOIN: lambda machine, peer, body: machine.seating.take_join(peer, body),
    Msg.LEAVE: lambda machine, peer, _body: machine.seating.left_lobby(peer),
    Msg.SEATS: lambda machine, _peer, body: machine.seating.take_seats(body),
    Msg.START: lambda machine, _peer, body: machine.seating.take_start(body),
    Msg.RESULT: lambda machine, peer, body: machine._result(peer, body),
    Msg.BYE: lambda _machine, _peer, _body: None,
}
#: What a seated peer says outside the hand's own messages (those go to the hand);
#: a session's own REJOIN and VOID have done their work when it sent them.
_FROM_SEAT: dict[Msg, Callable[[TableMachine, str, int, Body], None]] = {
    Msg.REJOIN: lambda machine, peer, seat, body: (
        None if peer == machine.me
        else machine.return_desk.take_rejoin(seat, body.args[1], body.args[0])),
    Msg.RESUME: lambda machine, _peer, _seat, body: (
        machine.coming_back.take_resume(body) if machine.phase is SessionPhase.REJOIN
        else machine.return_desk.take_resume(body)),
    Msg.ATTEST: lambda machine, _peer, seat, body: machine.coming_back.take_attest(seat, body),
    Msg.LOT_COMMIT: lambda machine, _peer, seat, body: machine.seating.take_lot(seat, body),
    Msg.LOT_REVEAL: lambda machine, _peer, seat, body: machine.seating.take_lot(seat, body),
    Msg.VOID: lambda machine, peer, _seat, body: (
        None if peer == machine.me else machine._claim(peer, body)),
    Msg.TIMEOUT: lambda machine, _peer, seat, body: machine._timeout(seat, body),
}
