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
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from lodam_p2p.fairdeal import Blame, LocalProtocolError, RemoteProtocolError
from lodam_p2p.games import Game, Standings
from lodam_p2p.player import (
    Notice,
    NoticeLevel,
    Phase,
    Progress,
    SeatInfo,
    SeatsChanged,
    TableEvent,
)
from lodam_p2p.session.asking import Asking
from lodam_p2p.session.away import AwaySeats
from lodam_p2p.session.ballot import Ballot, VoteKey
from lodam_p2p.session.clocks import TableClocks
from lodam_p2p.session.course import MatchCourse
from lodam_p2p.session.effects import (
    Admit,
    Decided,
    Event,
    Keep,
    Place,
    SessionError,
    Spectate,
    Tell,
)
from lodam_p2p.session.ending import MatchEnd
from lodam_p2p.session.gamecourse import GameCourse
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.handplay import Blamed, Refused, Route
from lodam_p2p.session.held import hold
from lodam_p2p.session.journal import SeatJournal
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
from lodam_p2p.session.lot import Lot
from lodam_p2p.session.phases import SessionPhase, Timing
from lodam_p2p.session.rejoin import ReturnDesk, TableGone
from lodam_p2p.session.returning import SeatReturn
from lodam_p2p.session.seating import SeatingDesk
from lodam_p2p.session.signed import SignedRecord
from lodam_p2p.session.wire import BadMessage, Body, Msg
from lodam_p2p.tableplan import MatchOutcome, SeatPlan

__all__ = ["Decided", "SessionError", "TableMachine"]

log = logging.getLogger("lodam_p2p.session")

class TableMachine:
    """One peer at a table, as a machine: see the module docstring."""

    #: the hand machine this session deals in a game without exchanges (a test seats a
    #: cheating one)
    hand_type: type[GameHand] = GameHand

    def __init__(self, place: Place, *, plan: SeatPlan | None, entropy: Entropy,
                 timing: Timing | None = None, host: str | None = None,
                 desk: HostDesk | None = None, spectator: SpectatorLog | None = None,
                 journal: SeatJournal | None = None, follow: str | None = None,
                 together: Sequence[str] = ()) -> None:
        self.table, self.plan, self.entropy = place.table, plan, entropy
        self.timing = timing or Timing()
        self.spectator = spectator
        self.identity = place.identity
        #: this peer's name
        self.me = place.peer
        #: the host's peer name (None: the first announcer heard), and at the host's
        #: watcher its desk
        self.host, self.desk = host, desk
        self.phase = SessionPhase.LOBBY
        self.roster: Roster | None = None
        self.seat: int | None = None
        self.lot: Lot | None = None
        #: the game's match (None until the lot is drawn)
        self.match: Any = None
        #: the hand under way (None between hands), Lodam's or another game's
        self.hand: HandMachine | None = None
        #: the table's game, from the match's start on
        self.game: Game | None = None
        self.hand_no = 1
        self.blames: list[str] = []
        self.audits = 0
        self.voids_in_row = 0
        self.last_blamed: int | None = None
        self.outcome: MatchOutcome | None = None
        self.results: dict[str, tuple[Any, ...]] = {}
        self.outgoing: list[Body] = []
        #: per peer, its bodies not taken yet, in its order (this machine's own too)
        self.queues: dict[str, deque[Body]] = {}
        #: the peers whose presence says they are connected
        self.present: set[str] = set()
        self._now = 0.0
        #: messages dropped here (the link counts those it dropped itself)
        self.ignored = 0
        #: what this seat has signed, and the last hand it began (:mod:`.signed`)
        self.signed = SignedRecord()
        #: what the runner is asked to do (:mod:`.effects`), in order
        self.events: list[Event] = []
        self.lobby_since = self.lot_since = self.grace_until = self.linger_until = 0.0
        #: the identity key of every peer heard, by peer
        self.pubkeys: dict[str, bytes] = {}
        #: retained lobby writes (topic, payload) the runner publishes, in order
        self.retained: list[tuple[str, bytes]] = []
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
        #: figures for benchmarks: seconds from each hand's start until it was dealt,
        #: the re-masks in the hands that passed their audit (each one proven and
        #: shared), and the clock at the match's start and end
        self.deal_times: list[float] = []
        self.remasks_audited = 0
        self.match_started_at = self.match_ended_at = 0.0
        # the parts, each with its own state, reaching this machine through a protocol
        #: the table's clocks and TIMEOUT votes
        self.clocks: TableClocks = TableClocks(self)
        #: the match as the table's game runs it
        self.game_course: GameCourse = GameCourse(self)
        #: the seats that are gone, and the clocks held for them
        self.away_seats: AwaySeats = AwaySeats(self)
        #: the course of the match: hands begun, settled, voided
        self.course: MatchCourse = MatchCourse(self)
        #: the end of the match: the outcome, told, kept and published
        self.ending: MatchEnd = MatchEnd(self)
        #: the lobby and the lot: seats asked for and given, START, the first dealer
        self.seating: SeatingDesk = SeatingDesk(self)
        #: the local player's part: asked once per step, its answers taken
        self.asking: Asking = Asking(self)
        #: seats coming back, as the table follows them (who asked, the coordinator)
        self.return_desk: ReturnDesk = ReturnDesk(self)
        #: this seat coming back from its journal (or a restarted host following one)
        self.coming_back: SeatReturn = SeatReturn(self, follow, together)

    # --- what every part reads and calls here -------------------------------------------

    def now(self) -> float:
        """The clock: the last time the machine was given (``receive`` or
        ``handle_timer``)."""
        return self._now

    def send(self, body: Body) -> None:
        """Publish ``body`` and take it through this machine's own queue (never a second
        envelope of this seat's for one (hand, seq): :meth:`may_publish`)."""
        if not self.may_publish(body):
            return
        self.outgoing.append(body)
        self.queues.setdefault(self.me, deque()).append(body)

    def may_publish(self, body: Body) -> bool:
        """Whether ``body`` may go out: never an envelope of this seat's own at a
        (hand, seq) where it published another one (:mod:`.signed`)."""
        if self.seat is None or not body.envelopes:
            return True
        clash = self.signed.clash(body.envelopes, self.seat)
        if clash is None:
            return True
        log.error("table %s: kept back a %s that would sign a second envelope at hand %d, "
                  "seq %d", self.table, body.kind.name, *clash)
        return False

    def ignore(self, peer: str, reason: str) -> None:
        """Log a dropped message and count it."""
        self.ignored += 1
        log.info("table %s: ignoring a message from %s: %s", self.table, peer, reason)

    def online(self, peer: str) -> bool:
        """Whether ``peer``'s presence says it is connected."""
        return peer == self.me or peer in self.present

    def tell(self, event: TableEvent) -> None:
        """Tell the local player, if any."""
        if self.plan is not None:
            self.events.append(Tell(event))

    def tell_seats(self) -> None:
        """Tell the player who sits where and who is connected."""
        if self.roster is None or self.plan is None or self.seat is None:
            return
        seats = tuple(SeatInfo(i, s.name, s.kind, self.online(s.peer))
                      for i, s in enumerate(self.roster.sitters))
        self.tell(SeatsChanged(seats, self.seat))

    def keep(self, **fields: Any) -> None:
        """Keep ``fields`` in this seat's journal (written before what follows is
        published)."""
        self.events.append(Keep(fields))

    def spectate(self, line: str) -> None:
        """Write ``line`` on the spectator log, if the table keeps one."""
        if self.spectator is not None:
            self.events.append(Spectate(line))

    def journal_start(self, body: Body, host: str | None) -> None:
        """Keep the START (roster, options, table id, time limit) and the host."""
        table_id, options, rows, limit = body.args
        self.keep(start=[table_id.hex(), options,
                         [[p, k.hex(), n, kind] for p, k, n, kind in rows], limit],
                  host=host, match=None)

    def limit(self) -> float:
        """The table's time limit, the same for every seat (START; never a seat's claim)."""
        return self.roster.limit_s if self.roster is not None else self.timing.timeout_s

    def watching_host(self) -> bool:
        """This session is the host's watcher (it keeps the lobby, sits at no seat)."""
        return self.seat is None and self.host is not None and self.host == self.me

    def active(self) -> tuple[bool, ...]:
        """Per seat, whether it still plays (everyone, in a game that puts nobody out)."""
        assert self.match is not None and self.game is not None
        if self.game.puts_out:
            return self.game.dealt_in(self.match)
        return (True,) * self.game_course.game_match().players

    def standings(self) -> Standings:
        """The game's standings as they are."""
        return self.game_course.standings()

    def scores(self) -> tuple[int, ...]:
        """Per seat, the game's running score."""
        return self.game_course.scores()

    def holding(self) -> bool:
        """Whether the table holds its clocks for a seat that is away (:mod:`.away`)."""
        return self.away_seats.holding()

    @property
    def away(self) -> dict[int, float]:
        """The seats that are away, and since when (:attr:`AwaySeats.away`)."""
        return self.away_seats.away

    @property
    def ballot(self) -> Ballot:
        """The clocks' book of TIMEOUT votes and waits (:attr:`TableClocks.ballot`)."""
        return self.clocks.ballot

    @property
    def votes(self) -> dict[VoteKey, set[int]]:
        """The TIMEOUT votes counted here (:attr:`TableClocks.votes`)."""
        return self.clocks.votes

    def seat_gone(self, seat: int) -> None:
        """A seated peer's presence went away: hold the table for it (:mod:`.away`), and
        note that this machine saw it go (the first condition of its return)."""
        self.away_seats.seat_gone(seat)
        self.return_desk.seat_gone(seat)

    def coordinator(self, back: int) -> int | None:
        """The seat that answers ``back``'s return (:meth:`ReturnDesk.coordinator`)."""
        return self.return_desk.coordinator(back)

    # --- the course of the match, as the parts call it (:mod:`.course`, :mod:`.ending`)

    def begin_match(self, dealer: int) -> None:
        """The lot is drawn: the match begins (:meth:`MatchCourse.begin_match`)."""
        self.course.begin_match(dealer)

    def new_hand(self) -> None:
        """Begin hand number ``hand_no`` (:meth:`MatchCourse.new_hand`)."""
        self.course.new_hand()

    def drain_hand(self) -> None:
        """Send what the hand produced (:meth:`MatchCourse.drain_hand`)."""
        self.course.drain_hand()

    def offence(self, blame: Blame, evidence: tuple[bytes, ...] = (), *,
                announce: bool = True) -> None:
        """A proven offence (:meth:`MatchCourse.offence`)."""
        self.course.offence(blame, evidence, announce=announce)

    def deal_void(self, reason: str, audit: str, blamed: int) -> None:
        """Tell that the hand is void (:meth:`MatchCourse.deal_void`)."""
        self.course.deal_void(reason, audit, blamed)

    def finish(self, *, early: bool) -> None:
        """The match is over (:meth:`MatchEnd.finish`)."""
        self.ending.finish(early=early)

    def end_in_draw(self) -> None:
        """End the match as a draw (:meth:`MatchEnd.end_in_draw`)."""
        self.ending.end_in_draw()

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
                self.course.came_back(seen.peer)
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
                self.course.protocol_failure(earlier)
            else:
                self.offence(err.blame, err.evidence)
            return True
        except RemoteProtocolError as err:
            self.course.protocol_failure(self._earlier_offence() or err)
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
            self.course.drain_hand()
            self.course.tell_applied()
            self.asking.maybe_ask()
            if self.hand is not None and self.hand.audited:
                self.return_desk.settled()
                self.course.settle()
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
