"""One session: one seat (or a watcher) at a networked table, from the lobby to the result.

Theory of operation. Everything a session learns arrives as a :class:`Body` in the
queue of the peer that sent it, in that peer's order (:mod:`.link`). The session takes
the message at the head of each queue when its time has come (:meth:`Session._route`):
lobby messages at once, lot messages in the lot, hand messages when they belong to the
current hand and — for decisions — when the public deal awaits exactly that seat at
exactly that step (:meth:`HandPlay.route`). Messages that belong later wait; stale or
out-of-place ones are dropped with the reason logged. The session's own messages go
through its own queue the same way, so every peer applies the same events in the same
order.

Once something moves, :meth:`Session._after` does what follows from it: reveal the lot,
start the match, send what the hand produced, tell the player, ask it when the seat is
to act, settle an audited deal. Every wait has a deadline (:mod:`.course`): past the
table's time limit a seat votes against the silent seat, and the table expels it once
every other active seat has voted; after the result the session lingers briefly to
answer resends.

Nothing a peer sends can stop a session: every message is handled inside a guard
(:meth:`Session._handle`) that logs and drops whatever a handler did not expect, and
``run()`` survives anything raised while it works through peer input. Only the loss of
the broker, or a START without this seat, ends a session early.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lodam_p2p.fairdeal import Blame, LocalProtocolError, RemoteProtocolError
from lodam_p2p.games.lodam import Action
from lodam_p2p.player import Notice, Phase, Progress, SeatInfo, SeatsChanged
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.handplay import Blamed, Refused, Route
from lodam_p2p.session.journal import SeatJournal
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.link import (
    Delivered,
    Link,
    LinkDown,
    LobbySeen,
    OwnWillSeen,
    PresenceSeen,
)
from lodam_p2p.session.lobby import HostDesk, Roster, renamed_notice
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.lot import Lot, LotError
from lodam_p2p.session.rejoin import Rejoining, TableGone
from lodam_p2p.session.wire import BadMessage, Body, Msg
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport import TransportError, topics

log = logging.getLogger("lodam_p2p.session")

#: The longest the loop waits for input without looking at the clocks: a safety net
#: only, every deadline is in :meth:`Session.timer`.
MAX_IDLE = 1.0

#: Refused answers in a row after which the seat's default (or first legal) is taken.
MAX_REFUSALS = 5


class SessionError(Exception):
    """The session could not play (the broker went away, the table never filled …)."""


@dataclass(frozen=True, slots=True)
class Decided:
    """The local player's answer for ``step`` of ``hand`` (None: it failed)."""

    hand: int
    step: int
    action: Action | None


class Session(Rejoining):
    """One peer at a table; ``await run()`` plays the match and returns its outcome."""

    def __init__(self, link: Link, *, plan: SeatPlan | None, entropy: Entropy,
                 timing: Timing | None = None, host: str | None = None,
                 desk: HostDesk | None = None, spectator: SpectatorLog | None = None,
                 journal: SeatJournal | None = None, follow: str | None = None,
                 together: Sequence[str] = ()) -> None:
        super().__init__(link.table, plan, link.identity, entropy=entropy,
                         timing=timing or Timing(), spectator=spectator)
        self.link = link
        self.me = link.peer
        self.host = host
        self.desk = desk
        self.inbox: asyncio.Queue[object] = asyncio.Queue()
        self.queues: dict[str, deque[Body]] = {}
        self.pubkeys: dict[str, bytes] = {}
        self._publish: list[tuple[str, bytes]] = []
        self._task: asyncio.Task[None] | None = None
        self._refusals = 0
        self._asked: tuple[int, int] | None = None
        self._renamed: Notice | None = None
        #: messages whose handler failed in a way it did not foresee (logged, dropped)
        self.unexpected = 0
        self.setup_rejoin(journal, follow, together)
        #: set once the link is open (subscribed): a restarted host's seats wait for it
        self.opened = asyncio.Event()

    # --- the loop -----------------------------------------------------------------------

    async def run(self) -> MatchOutcome:
        """Play from the lobby to the result."""
        await self.link.open(self.inbox)
        self.opened.set()
        try:
            self._begin()
            while self.phase is not SessionPhase.DONE:
                await self._flush()
                with contextlib.suppress(TimeoutError):
                    self.receive(await asyncio.wait_for(self.inbox.get(), self._idle()))
                while not self.inbox.empty():
                    self.receive(self.inbox.get_nowait())
                self.handle_timer(self.now())
            await self._flush()
            if self.desk is not None:
                self._publish.append((self.desk.announcement().topic, b""))
                await self._flush()
        except TransportError as err:
            raise SessionError(f"lost the broker: {err}") from None
        except TableGone as err:
            with contextlib.suppress(TransportError):
                await self._flush()
            raise SessionError(str(err)) from None
        finally:
            if self._task is not None:
                self._task.cancel()
            await self.link.close()
        assert self.outcome is not None
        return self.outcome

    def _idle(self) -> float:
        """How long the loop may wait for input: until the session's next deadline
        (:meth:`timer`), and never more than :data:`MAX_IDLE`."""
        due = self.timer()
        if due is None:
            return MAX_IDLE
        return min(MAX_IDLE, max(0.0, due - self.now()))

    # The loop above is the only part that awaits: everything it learns goes in through
    # receive(), time through handle_timer(), and what the session says comes out of
    # ``outgoing`` (and the retained lobby writes). The table is a machine driven by
    # these three; the link, the player's task and the clock stay out here.

    def receive(self, item: object) -> None:
        """Take one thing the link or the player delivered (a body, a presence change,
        the lobby, a decision); what a peer sent never raises out of here."""
        self._guard(self._intake, item)

    def handle_timer(self, now: float) -> None:
        """Take what can be taken now and check the clocks at ``now``."""
        self._guard(self._step, now)

    def _step(self, now: float | None = None) -> None:
        self._advance()
        self.check_timers(self.now() if now is None else now)

    def _guard(self, work: Callable[..., None], *args: object) -> None:
        """Run one piece of the loop; a bug reached through peer input (or the local
        player) is logged and the session goes on (what caused it is gone)."""
        try:
            work(*args)
        except (SessionError, TableGone):  # the session's own ends, not failures
            raise
        except Exception:  # no peer input may stop the table
            self.unexpected += 1
            log.exception("table %s: unexpected failure, going on", self.table)

    def now(self) -> float:
        """The event loop's clock."""
        return asyncio.get_running_loop().time()

    async def _flush(self) -> None:
        while self._publish:
            topic, payload = self._publish.pop(0)
            await self.link.publish_retained(topic, payload)
        while self.outgoing:
            await self.link.send(self.outgoing.pop(0))

    def send(self, body: Body) -> None:
        """Publish ``body`` and take it through this session's own queue."""
        self.outgoing.append(body)
        self.queues.setdefault(self.me, deque()).append(body)

    def _begin(self) -> None:
        self.lobby_since = self.now()
        if self.journal.rejoining:
            self.host = self.host or self.journal.entry.get("host")
            roster = self.rejoin_begin()
            self.link.restrict(roster.peers | {self.host or self.me})
            if self.desk is not None:  # a restarted host: the table is still playing
                self.desk.resume(roster)
                self._announce()
            return
        if self.desk is not None:
            self._announce()
        if self.plan is not None:
            self.send(Body(Msg.JOIN, args=(self.plan.name, self.plan.kind)))
        self.tell(Progress(Phase.LOBBY, detail=f"waiting for table {self.table} to fill"))

    def _announce(self) -> None:
        assert self.desk is not None
        announcement = self.desk.announcement()
        self._publish.append((announcement.topic, announcement.encode()))

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
            self.queues.setdefault(item.sender, deque()).append(body)
        elif isinstance(item, PresenceSeen):
            self._presence(item)
        elif isinstance(item, LobbySeen):
            if item.announcement is not None and self.host is None:
                self.host = item.announcement.host
        elif isinstance(item, Decided):
            self._decided(item)
        elif isinstance(item, OwnWillSeen):
            self.own_will_seen()
        elif isinstance(item, LinkDown):
            raise SessionError(f"lost the broker: {item.reason}")

    def ignore(self, peer: str, reason: str) -> None:
        """Log a dropped message and count it."""
        self.link.ignored += 1
        log.info("table %s: ignoring a message from %s: %s", self.table, peer, reason)

    def _presence(self, seen: PresenceSeen) -> None:
        if self.desk is not None and not seen.online and self.desk.leave(seen.peer):
            self._desk_changed()
        if (self.phase is SessionPhase.LOBBY and self.desk is None and not seen.online
                and seen.peer == self.host):
            self._publish.append((topics.lobby_topic(self.table), b""))
            raise TableGone(f"the host of table {self.table} left before the start")
        seat = self.roster.seat_of(seen.peer) if self.roster is not None else None
        if seat is not None:
            self.tell_seats()
            if seen.online:
                self.seat_back(seat)
                self.came_back(seen.peer)
            else:
                self.seat_gone(seat)

    def online(self, peer: str) -> bool:
        """Whether ``peer``'s presence says it is connected."""
        return peer == self.me or peer in self.link.presence.online()

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
        except (SessionError, TableGone):  # the session's own ends, not failures
            raise
        except Exception as err:  # a peer never crashes a session
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
            lobby = self.phase is SessionPhase.LOBBY
            return Route.TAKE if peer == self.host and lobby else Route.DROP
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
            return self.route_resume(seat, body)
        if self.phase is SessionPhase.REJOIN:
            # the coordinator's RESUME comes after all it said of the old hand; others'
            # messages may already belong to the next hand: they wait for RESUME
            return Route.DROP if self.rejoin_drops(seat) else Route.WAIT
        if kind in (Msg.LOT_COMMIT, Msg.LOT_REVEAL) or (kind is Msg.TIMEOUT and body.hand == 0):
            return Route.TAKE if self.phase is SessionPhase.LOT else Route.DROP
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

    def _left_lobby(self, peer: str) -> None:
        if self.desk is not None and self.desk.leave(peer):
            self._desk_changed()

    def _result(self, peer: str, body: Body) -> None:
        self.results[peer] = body.args
        self.others_done(self.now())

    def _timeout(self, seat: int, body: Body) -> None:
        """A TIMEOUT vote: in the lot (hand 0), or at a step of the hand."""
        if body.hand == 0:
            self.lot_vote(seat, body)
        else:
            self.timeout_vote(seat, body)

    # --- lobby and lot ------------------------------------------------------------------

    def _join(self, peer: str, body: Body) -> None:
        name, kind = body.args
        if self.desk is not None and self.desk.join(peer, self.pubkeys.get(peer, b""), name, kind):
            self._desk_changed()

    def _desk_changed(self) -> None:
        assert self.desk is not None
        self._announce()
        if self.desk.full and not self.desk.started:
            self.send(self.desk.start_body(self.entropy(16)))
            self._announce()
        else:
            self.send(self.desk.seats_body())

    def _seats(self, body: Body) -> None:
        rows, wanted = body.args
        seats = tuple(SeatInfo(i, name, kind) for i, (_p, name, kind) in enumerate(rows))
        mine = [i for i, row in enumerate(rows) if row[0] == self.me]
        if self.plan is not None and mine:
            self.plan.player.notify(SeatsChanged(seats, mine[0], wanted))
            renamed = renamed_notice(self.plan.name, seats[mine[0]].name)
            if renamed is not None and self._renamed != renamed:
                self._renamed = renamed
                self.plan.player.notify(renamed)

    def _start(self, body: Body) -> None:
        try:
            roster = Roster.from_start(body)
        except ValueError as err:
            self.ignore(self.host or "?", f"bad START: {err}")
            return
        seat = roster.seat_of(self.me)
        if self.plan is not None and seat is None:
            raise SessionError(f"table {self.table} started without this seat")
        self.roster, self.seat = roster, seat
        self.journal_start(body, self.host)
        self.link.restrict(roster.peers | {self.host or self.me})
        self.lot = Lot(roster.table_id, len(roster.sitters), seat, self.entropy)
        self.phase, self.lot_since = SessionPhase.LOT, self.now()
        self.match_started_at = self.lot_since
        if self.spectator is not None:
            self.spectator.seated(roster)
        self.tell_seats()
        self.tell(Progress(Phase.DRAWING, detail="drawing the first dealer by lot"))
        if seat is not None:
            self.send(Body(Msg.LOT_COMMIT, args=(self.lot.my_commitment(),)))

    def _lot_message(self, seat: int, body: Body) -> None:
        assert self.lot is not None
        if body.kind is Msg.LOT_COMMIT:
            self.lot.take_commit(seat, body.args[0])
            return
        try:
            self.lot.take_reveal(seat, body.args[0])
        except LotError as err:
            self.blames.append(f"seat {err.seat}: lot: {err.reason}")
            self.finish(early=True)

    def tell_seats(self) -> None:
        """Tell the player who sits where and who is connected."""
        if self.roster is None or self.plan is None or self.seat is None:
            return
        seats = tuple(SeatInfo(i, s.name, s.kind, self.online(s.peer))
                      for i, s in enumerate(self.roster.sitters))
        self.plan.player.notify(SeatsChanged(seats, self.seat))

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
            self.offence(err.blame, err.evidence)
            return True
        except RemoteProtocolError as err:
            self.protocol_failure(err)
            return True
        except LocalProtocolError as err:
            self.ignore(peer, f"out of place for the hand: {err}")
        return False

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
        # Only envelopes at steps this seat already took from the named seat are fed:
        # they can show a second version of one (equivocation, which a seat may show to
        # one peer alone) but never move the hand ahead of the named seat's own bodies.
        # The rest this seat judges when they come from their signer.
        evidence = tuple(e for e in signed if hand.taken_from(blamed, e))
        if not self._checked(peer, lambda: hand.feed(blamed, evidence, self.now(), own=False)):
            self.ignore(peer, f"VOID naming seat {blamed} with evidence that does not "
                        f"convict here: {reason}")

    def _after(self) -> bool:
        """Act on what just moved; True if this session queued messages of its own."""
        before = len(self.outgoing)
        if self.phase is SessionPhase.LOT and self.lot is not None:
            if self.lot.may_reveal():
                self.lot.revealed = True
                self.send(Body(Msg.LOT_REVEAL, args=(self.lot.nonce,)))
            dealer = self.lot.dealer()
            if dealer is not None:
                self.begin_match(dealer)
        if self.phase is SessionPhase.MATCH and self.hand is not None:
            self.drain_hand()
            self.tell_applied()
            self._maybe_ask()
            if self.hand is not None and self.hand.audited:
                self.settle()
        return len(self.outgoing) > before

    def _maybe_ask(self) -> None:
        hand = self.hand
        if self.plan is None or hand is None or not hand.my_turn():
            return
        key = (self.hand_no, hand.step)
        if self._asked == key:
            return
        self._asked = key
        self._ask(key)

    def _ask(self, key: tuple[int, int]) -> None:
        assert self.hand is not None and self.plan is not None
        view, player = self.hand.view(), self.plan.player

        async def decide() -> None:
            try:
                action: Action | None = await player.decide(view)
            except Exception as err:  # a player's bug must not stop the table
                log.warning("table %s: the player failed to decide: %s", self.table, err)
                action = None
            self.inbox.put_nowait(Decided(key[0], key[1], action))

        self._task = asyncio.create_task(decide())

    def _decided(self, decided: Decided) -> None:
        hand = self.hand
        if hand is None or (decided.hand, decided.step) != (self.hand_no, hand.step):
            return
        if not hand.my_turn():
            return
        view = hand.view()
        action = decided.action
        if not view.legal:  # the seat's cards are still arriving: ask again once they are
            self._asked = None
            return
        if action is None or action not in view.legal:
            self._refusals += 1
            if self._refusals < MAX_REFUSALS:
                self.refuse(action)
                self._ask((self.hand_no, hand.step))
                return
            action = next((a for a in view.legal if a == _default(view.legal)), view.legal[0])
        self._refusals = 0
        body = hand.act(action, self.now())
        self.drain_hand()
        self.send(body)


def _default(legal: tuple[Action, ...]) -> Action:
    """The first legal action (the engine lists defaults first)."""
    return legal[0]


#: What any peer may say, seated or not: message kind → what the session does.
_FROM_ANY: dict[Msg, Callable[[Session, str, Body], None]] = {
    Msg.JOIN: lambda session, peer, body: session._join(peer, body),
    Msg.LEAVE: lambda session, peer, _body: session._left_lobby(peer),
    Msg.SEATS: lambda session, _peer, body: session._seats(body),
    Msg.START: lambda session, _peer, body: session._start(body),
    Msg.RESULT: lambda session, peer, body: session._result(peer, body),
    Msg.BYE: lambda _session, _peer, _body: None,
}
#: What a seated peer says outside the hand's own messages (those go to the hand);
#: a session's own REJOIN and VOID have done their work when it sent them.
_FROM_SEAT: dict[Msg, Callable[[Session, str, int, Body], None]] = {
    Msg.REJOIN: lambda session, peer, seat, body: (
        None if peer == session.me else session.take_rejoin(seat, body.args[1])),
    Msg.RESUME: lambda session, _peer, _seat, body: session.take_resume(body),
    Msg.ATTEST: lambda session, _peer, seat, body: session.take_attest(seat, body),
    Msg.LOT_COMMIT: lambda session, _peer, seat, body: session._lot_message(seat, body),
    Msg.LOT_REVEAL: lambda session, _peer, seat, body: session._lot_message(seat, body),
    Msg.VOID: lambda session, peer, _seat, body: (
        None if peer == session.me else session._claim(peer, body)),
    Msg.TIMEOUT: lambda session, _peer, seat, body: session._timeout(seat, body),
}
