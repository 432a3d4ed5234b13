"""The way into a table machine: what the link and the player deliver, each peer's
queue, and where each message goes.

:class:`Router` is a part the table machine owns and calls (its ``router``), reaching it
only through :class:`RouterTable`, which names the machine's shared state it reads and
the parts it hands messages to. Everything delivered comes in through
:meth:`Router.take_in`: a body goes into its sender's queue (:mod:`.held`: a flood is cut
there), a presence change, the lobby, the player's decision, the machine's own will, a
stream fault each to the part that acts on it.

A peer's bodies wait in that peer's queue, in its order (:mod:`.link`); the router takes
the head of each queue when its time has come (:meth:`Router.route`): lobby messages
at once, lot messages in the lot, hand messages when they belong to the current hand and
— for decisions — when the public deal awaits exactly that seat at exactly that step
(:meth:`HandPlay.route <lodam_p2p.session.handplay.HandPlay.route>`). Later ones wait;
stale or out-of-place ones are dropped with the reason logged. The machine's own
messages go through its own queue the same way, so every peer applies the same events
in the same order. A message routed TAKE is applied by the table of transitions
(:data:`_FROM_ANY`, :data:`_FROM_SEAT`) or by the hand (:mod:`.judging`); then
:meth:`Router.after` does what follows from it. Every message is handled inside a guard
(:meth:`Router.handle`) that logs and drops whatever a handler did not foresee.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from lodam_p2p.fairdeal import Blame
from lodam_p2p.player import Notice, NoticeLevel, TableEvent
from lodam_p2p.session.asking import Asking
from lodam_p2p.session.away import AwaySeats
from lodam_p2p.session.clocks import TableClocks
from lodam_p2p.session.course import MatchCourse
from lodam_p2p.session.effects import Decided, SessionError
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.handplay import Route
from lodam_p2p.session.held import hold
from lodam_p2p.session.judging import HandJudge
from lodam_p2p.session.link import (
    Delivered,
    HeardFrom,
    LinkDown,
    LobbySeen,
    OwnWillSeen,
    PresenceSeen,
    StreamFaultSeen,
)
from lodam_p2p.session.lobby import HostDesk, Roster
from lodam_p2p.session.phases import SessionPhase
from lodam_p2p.session.rejoin import ReturnDesk, TableGone
from lodam_p2p.session.returning import SeatReturn
from lodam_p2p.session.seating import SeatingDesk
from lodam_p2p.session.wire import BadMessage, Body, Msg

__all__ = ["Router", "RouterTable"]

log = logging.getLogger("lodam_p2p.session")


class RouterTable(Protocol):
    """What the router reads on the table machine that owns it, and the parts it hands
    messages to."""

    table: str
    me: str
    host: str | None
    desk: HostDesk | None
    seat: int | None
    phase: SessionPhase
    roster: Roster | None
    hand: HandMachine | None  #: the hand under way (None between hands)
    hand_no: int
    queues: dict[str, deque[Body]]
    present: set[str]
    pubkeys: dict[str, bytes]
    retained: list[tuple[str, bytes]]
    results: dict[str, tuple[Any, ...]]
    outgoing: list[Body]
    ignored: int
    unexpected: int
    strict: bool
    seating: SeatingDesk
    asking: Asking
    clocks: TableClocks
    away_seats: AwaySeats
    course: MatchCourse
    judge: HandJudge
    return_desk: ReturnDesk
    coming_back: SeatReturn

    def now(self) -> float: ...
    def ignore(self, peer: str, reason: str) -> None: ...
    def tell(self, event: TableEvent) -> None: ...
    def tell_seats(self) -> None: ...
    def seat_gone(self, seat: int) -> None: ...
    def active(self) -> tuple[bool, ...]: ...
    def offence(self, blame: Blame, evidence: tuple[bytes, ...] = (), *,
                announce: bool = True) -> None: ...


class Router:
    """Takes what is delivered to a machine and routes each message (see the module
    docstring)."""

    def __init__(self, table: RouterTable) -> None:
        self.table = table

    # --- intake -------------------------------------------------------------------------

    def take_in(self, item: object) -> None:
        """Take one thing the link or the player delivered."""
        t = self.table
        if isinstance(item, Delivered):
            try:
                body = Body.decode(item.body)
            except BadMessage as err:
                t.ignore(item.sender, str(err))
                return
            t.pubkeys[item.sender] = item.pubkey
            if body.kind in (Msg.RESULT, Msg.ATTEST):  # at once: it may sit behind bodies
                # that never fit (ATTEST: behind the abandoned hand's, at a returning seat)
                self.handle(item.sender, body)
                return
            if not hold(t.queues, item.sender, body, len(item.body),
                        started=t.roster is not None):  # a flood: see .held
                t.ignored += 1
        elif isinstance(item, PresenceSeen):
            self._presence(item)
        elif isinstance(item, LobbySeen):
            t.seating.lobby_seen(item.announcement)
        elif isinstance(item, Decided):
            t.asking.decided(item)
        elif isinstance(item, OwnWillSeen):
            t.return_desk.own_will_seen()
        elif isinstance(item, HeardFrom):
            self._heard_from(item.peer)
        elif isinstance(item, StreamFaultSeen):
            self._stream_fault(item)
        elif isinstance(item, LinkDown):
            raise SessionError(f"lost the broker: {item.reason}")

    def _presence(self, seen: PresenceSeen) -> None:
        t = self.table
        if seen.online:
            t.present.add(seen.peer)
        else:
            t.present.discard(seen.peer)
            t.seating.left_lobby(seen.peer)
        if (t.phase is SessionPhase.LOBBY and t.desk is None and not seen.online
                and seen.peer == t.host):
            if t.seating.host_topic is not None:  # its announcement, left standing
                t.retained.append((t.seating.host_topic, b""))
            raise TableGone(f"the host of table {t.table} left before the start")
        seat = t.roster.seat_of(seen.peer) if t.roster is not None else None
        if seat is not None:
            t.tell_seats()
            if seen.online:
                t.away_seats.seat_back(seat)
                t.course.came_back(seen.peer)
            else:
                t.seat_gone(seat)

    def _heard_from(self, peer: str) -> None:
        """A will is a hint (protocol/SPEC.md, "The broker and strangers"): a seat held
        for as away whose signed frame came since is back; only the table's checked
        timeout puts a silent seat out."""
        t = self.table
        seat = t.roster.seat_of(peer) if t.roster is not None else None
        if seat is not None and seat in t.away_seats.away:
            t.away_seats.seat_back(seat)

    def _stream_fault(self, seen: StreamFaultSeen) -> None:
        """A broker fault is told, never blamed on a seat; a seated peer's fork (two
        signed frames at one position of its stream) is an offence, its two frames the
        evidence that goes with the claim."""
        t = self.table
        fault = seen.fault
        seat = t.roster.seat_of(fault.sender) if t.roster is not None else None
        if fault.broker or seat is None:
            t.tell(Notice(NoticeLevel.WARNING, f"the broker: {fault.line()}"))
            return
        if (t.phase is SessionPhase.MATCH and t.hand is not None
                and t.active()[seat] and seat != t.seat):
            t.offence(Blame(seat, "equivocation", fault.detail[:120]), fault.evidence)

    # --- routing ------------------------------------------------------------------------

    def advance(self) -> None:
        """Take the head of every queue whose time has come, until nothing moves."""
        t = self.table
        moved = True
        while moved:
            moved = False
            for peer, queue in list(t.queues.items()):
                while queue and t.phase is not SessionPhase.DONE:
                    route = self.route(peer, queue[0])
                    if route is Route.WAIT:
                        break
                    body = queue.popleft()
                    moved = True
                    if route is Route.TAKE:
                        self.handle(peer, body)
                    elif peer != t.me:  # our own, after the hand moved on: nothing lost
                        t.ignore(peer, f"{body.kind.name} (hand {body.hand}, step "
                                 f"{body.step}) out of place at hand {t.hand_no}")
            moved = self.after() or moved

    def handle(self, peer: str, body: Body) -> None:
        """Take ``body``; whatever a handler did not foresee drops the message, logged."""
        t = self.table
        try:
            self._take(peer, body)
        except (SessionError, TableGone):  # the machine's own ends, not failures
            raise
        except Exception as err:  # a peer never crashes a machine
            if t.strict:
                raise
            t.unexpected += 1
            log.warning("table %s: %s from %s failed: %r", t.table, body.kind.name, peer,
                        err, exc_info=log.isEnabledFor(logging.DEBUG))
            t.ignore(peer, f"{body.kind.name} could not be taken: {err!r}")

    def route(self, peer: str, body: Body) -> Route:
        """Where ``peer``'s ``body`` goes now: taken, held back, or dropped."""
        try:
            return self._route_of(peer, body)
        except Exception as err:  # a peer never crashes a session
            self.table.ignore(peer, f"{body.kind.name} could not be routed: {err!r}")
            return Route.DROP

    def _route_of(self, peer: str, body: Body) -> Route:
        t = self.table
        kind = body.kind
        if kind in (Msg.JOIN, Msg.LEAVE):
            return Route.TAKE  # for the host's desk; others just pass them by
        if kind in (Msg.SEATS, Msg.START):
            if t.host is None:
                return Route.WAIT  # the announcement naming the host is still to come
            if t.phase is not SessionPhase.LOBBY:
                t.seating.stray_roster(peer, body)  # a seated peer's false START is blamed
                return Route.DROP
            if peer == t.host:
                return Route.TAKE
            t.seating.stray_roster(peer, body)  # kept, to blame if its signer is seated
            return Route.DROP
        if kind in (Msg.RESULT, Msg.BYE):
            return Route.TAKE
        if t.roster is None:
            return Route.WAIT
        seat = t.roster.seat_of(peer)
        if seat is None:
            return Route.DROP
        if kind in (Msg.REJOIN, Msg.ATTEST):
            return Route.TAKE
        if kind is Msg.RESUME:
            if t.phase is SessionPhase.REJOIN:
                return t.coming_back.route_resume(seat, body)
            return t.return_desk.route_resume(seat, body)
        if t.phase is SessionPhase.REJOIN:
            # the coordinator's RESUME comes after all it said of the old hand; others'
            # messages may already belong to the next hand: they wait for RESUME
            return Route.DROP if t.coming_back.drops(seat) else Route.WAIT
        if kind in (Msg.LOT_COMMIT, Msg.LOT_REVEAL) or (kind is Msg.TIMEOUT and body.hand == 0):
            return Route.TAKE if t.phase is SessionPhase.LOT else Route.DROP
        if kind is Msg.TIMEOUT and body.hand > t.hand_no:
            return Route.DROP  # a vote on a hand not begun here cannot be a fact here
        if t.phase is SessionPhase.LOT or body.hand > t.hand_no:
            return Route.WAIT
        if body.hand < t.hand_no or t.hand is None:
            return Route.DROP if body.hand < t.hand_no else Route.WAIT
        if kind in (Msg.VOID, Msg.TIMEOUT):
            return Route.TAKE
        return t.hand.route(seat, body)

    def _take(self, peer: str, body: Body) -> None:
        """Apply ``body`` (routed TAKE) by the table of transitions: :data:`_FROM_ANY`
        for what any peer may say, :data:`_FROM_SEAT` for a seated peer's messages, the
        hand for the rest (:meth:`HandJudge.hand_message`)."""
        t = self.table
        anyone = _FROM_ANY.get(body.kind)
        if anyone is not None:
            anyone(t, peer, body)
            return
        seat = t.roster.seat_of(peer) if t.roster is not None else None
        if seat is None:
            return
        seated = _FROM_SEAT.get(body.kind)
        if seated is not None:
            seated(t, peer, seat, body)
        else:
            t.judge.hand_message(seat, body)

    def after(self) -> bool:
        """Act on what just moved; True if this machine queued messages of its own."""
        t = self.table
        before = len(t.outgoing)
        t.seating.lot_moves()
        if t.phase is SessionPhase.MATCH and t.hand is not None:
            t.course.drain_hand()
            t.course.tell_applied()
            t.asking.maybe_ask()
            if t.hand is not None and t.hand.audited:
                t.return_desk.settled()
                t.course.settle()
        return len(t.outgoing) > before


def _result(t: RouterTable, peer: str, body: Body) -> None:
    t.results[peer] = body.args
    t.clocks.others_done(t.now())


def _timeout(t: RouterTable, seat: int, body: Body) -> None:
    """A TIMEOUT vote: in the lot (hand 0), or at a step of the hand."""
    if body.hand == 0:
        t.clocks.lot_vote(seat, body)
    else:
        t.clocks.silence.timeout_vote(seat, body)


#: What any peer may say, seated or not: message kind → what the session does.
_FROM_ANY: dict[Msg, Callable[[RouterTable, str, Body], None]] = {
    Msg.JOIN: lambda t, peer, body: t.seating.take_join(peer, body),
    Msg.LEAVE: lambda t, peer, _body: t.seating.left_lobby(peer),
    Msg.SEATS: lambda t, _peer, body: t.seating.take_seats(body),
    Msg.START: lambda t, _peer, body: t.seating.take_start(body),
    Msg.RESULT: _result,
    Msg.BYE: lambda _t, _peer, _body: None,
}
#: What a seated peer says outside the hand's own messages (those go to the hand);
#: a session's own REJOIN and VOID have done their work when it sent them.
_FROM_SEAT: dict[Msg, Callable[[RouterTable, str, int, Body], None]] = {
    Msg.REJOIN: lambda t, peer, seat, body: (
        None if peer == t.me else t.return_desk.take_rejoin(seat, body.args[1], body.args[0])),
    Msg.RESUME: lambda t, _peer, _seat, body: (
        t.coming_back.take_resume(body) if t.phase is SessionPhase.REJOIN
        else t.return_desk.take_resume(body)),
    Msg.ATTEST: lambda t, _peer, seat, body: t.coming_back.take_attest(seat, body),
    Msg.LOT_COMMIT: lambda t, _peer, seat, body: t.seating.take_lot(seat, body),
    Msg.LOT_REVEAL: lambda t, _peer, seat, body: t.seating.take_lot(seat, body),
    Msg.VOID: lambda t, peer, _seat, body: None if peer == t.me else t.judge.claim(peer, body),
    Msg.TIMEOUT: lambda t, _peer, seat, body: _timeout(t, seat, body),
}
