"""Coming back: a seat whose process stopped sits down again, and the table waits for it.

Design
------
A LAN party is laptops on Wi-Fi: a lid closes, a process is killed, the broker is
restarted. The table must neither end for everyone nor blame the person who dropped.

*Noticing.* A seat's connection registers a Last Will on its presence topic
(:mod:`lodam_p2p.transport.presence`); the broker publishes it the moment the TCP
connection dies (at once on a crash, within 1.5 keep-alives on a silent network). Every
peer then marks the seat *away* (:attr:`.away.AwaySeats.away`), tells its player who is
gone and how long the table waits (``rejoin_grace``, 60 s by default), and holds every
decision and protocol timer of the hand: nobody is blamed for waiting on a seat that is
known to be gone. A broker restart fires no will: every connection comes back, the
streams' resend requests fill whatever was lost, and the hand simply goes on. A process
that outlived its connection (a laptop asleep past the keep-alive) sees its own will
when it reconnects and sends REJOIN itself, from the same stream: the others' clocks
for the hand ran before the hold, so the hand is dealt again rather than resumed.

*Coming back.* A restarted process reads its journal (:mod:`.journal`): the same
identity key, hence the same peer name and seat; the table's START; the match state
as of the last settled deal. It opens a new epoch of its message stream (so nobody
mistakes its new frames for duplicates of its old ones) and publishes REJOIN. The
hand in progress cannot resume: its secrets (hand key, shuffle permutation, shares)
were in the dead process's memory, and they are deliberately not written to disk at
every message. So the hand is voided *without blame* and the same dealer deals again.

*Agreeing.* Which hand is void and what the match state is must be the same at every
peer, or the final results would differ. One peer decides: the *coordinator*, the
lowest seat that is not coming back. REJOIN names the seats returning together with
the sender (the local seats of a restarted host process: none of them holds the match
any more), so every peer that heard it picks the same coordinator; a RESUME from a
seat that is not yet known to be the coordinator waits for that REJOIN. When every
seat of the table is coming back at once, nobody holds the match: the returning seats
say so and stop at once, and their journals start a new match next time.

*Who may come back* (protocol/SPEC.md 13, "Returning: rules the table enforces"). A
return voids a hand without blame, so it is worth something to a cheater. Every peer
notes a REJOIN; the coordinator answers it (:meth:`ReturnDesk.answer_returns`) only for
a seat it saw go since the last hand that passed its audit — presence gone, or its
clock missed before the coordinator voted on it — and only while the hand is open (no
audit opening out, its play not over); a REJOIN not acceptable yet stands until the
hand it names, or a later one, passes its audit. A seat is taken back at most
:data:`~.resumestate.MAX_RETURNS` times a match: the next RESUME for it is applied as
the seat leaving.

On REJOIN the coordinator publishes RESUME (signed, in its own stream like every
message): the returning seat, the number of the next hand (always the one after its
own: a hand number is never dealt twice, see :mod:`.signed`), and the match state
(counters, dealer, deals played, audits, blames, returns per seat, failed hands in a
row). Every peer, the coordinator included, applies RESUME in the coordinator's stream
order, only after it heard the REJOIN it answers: a peer still in an earlier hand waits
until it has caught up, one for which that hand is over drops it; the hand in progress
is voided; the next hand is dealt. A peer
keeps its *own* match state (it played the same deals; one that differs from the
coordinator's is logged) and tells it to the returning seat in an ATTEST (signed, in its
own stream).

*Checking.* The returning seat does not take the coordinator's word. It counts the
coordinator's RESUME and the others' ATTESTs as votes and sits down only in a state that
(1) a majority of the other seats that are not coming back with it told it, the
coordinator among those heard, (2) is sound (every field of its type and range,
:func:`~.journal.check_snapshot`), and (3) can follow its own journal
(:func:`~.journal.contradiction`: the match only moves forward, and without a deal
played since the journal's snapshot nothing a deal settles may have changed). A lying
coordinator is outvoted by the seats that played the same deals; a lie the journal
contradicts is refused even if a majority repeats it, and the seat gives up when the
grace runs out. A match already over is told the same way (``{"outcome": …}``; the
others answer REJOIN with ATTEST while they linger). The returning seat then adopts that
state, so its result and ``--json`` line are the same as everyone's.

*The host.* A restarted ``lodam host`` comes back the same way: its journal keeps an
entry per session of the process (the watcher that keeps the lobby, and each local
seat), so the same command puts the same identities back in a new stream epoch. Each
local seat sends REJOIN; the watcher, which has no seat to ask for, follows the first
local seat back in: it counts the same RESUME and ATTESTs, checks them against its own
journal, and adopts the same state, so the host's ``--json`` line is the one every seat
prints. The others never needed the watcher: while it is gone they wait only for its
seats, as for any seat that is away. A host without seats of its own follows the table
to the result its seats publish (see :mod:`.returning`, Limits). The embedded broker of
``lodam host`` runs in a process of its own (:mod:`lodam_p2p.transport.hostbroker`), so
a killed host does not take the table's broker with it.

*Giving up.* When a seat stays away past ``rejoin_grace`` it has left: it is blamed
(``left``) and the match ends with the result of the seats that remain, as for any
seat that cannot be waited for.

:class:`ReturnDesk` (the machine's ``return_desk``, through :class:`ReturnTable`) is every
peer's side of a return; :class:`~.returning.SeatReturn` the returning seat's own, and
the limits of returning; :mod:`.redeal` how the table goes on once a return is taken,
at every peer and at the returning seat alike.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from lodam_p2p.player import Notice, NoticeLevel
from lodam_p2p.session.away import COUNTDOWN_EVERY
from lodam_p2p.session.clocks import TableClocks
from lodam_p2p.session.handplay import Route
from lodam_p2p.session.journal import match_snapshot
from lodam_p2p.session.phases import SessionPhase
from lodam_p2p.session.redeal import RedealTable, drop_deck, go_on, tell_void
from lodam_p2p.session.resumestate import (
    MAX_RETURNS,
    RETURNS,
    VOIDS,
    TableGone,
    outcome_json,
    pack_state,
    read_state,
)
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome

__all__ = ["COUNTDOWN_EVERY", "MAX_RETURNS", "ReturnDesk", "ReturnTable", "TableGone"]

log = logging.getLogger("lodam_p2p.session")


class ReturnTable(RedealTable, Protocol):
    """What the returns' part reads and calls on the table machine that owns it (and,
    through :class:`~.redeal.RedealTable`, what going on after a return does)."""

    outcome: MatchOutcome | None
    clocks: TableClocks

    def now(self) -> float: ...
    def send(self, body: Body) -> None: ...
    def active(self) -> tuple[bool, ...]: ...


class ReturnDesk:
    """Seats coming back, as every peer at the table follows them (see the module
    docstring): who asked back, the coordinator's answer, the RESUME applied."""

    def __init__(self, table: ReturnTable) -> None:
        self.table = table
        #: per returning seat, the seats coming back with it (itself included), as its
        #: REJOIN told: none of them can coordinate its return
        self.returning: dict[int, frozenset[int]] = {}
        #: per seat whose REJOIN was heard and not yet answered, the last hand it began
        self.asked_back: dict[int, int] = {}
        #: at the coordinator, per seat asking back and not answered yet: the last hand
        #: it began (a request stands until answered, or until that hand or a later one
        #: passes its audit)
        self.pending: dict[int, int] = {}
        #: per seat this machine saw go away, the hand it was in then
        self.went_away: dict[int, int] = {}
        #: the hand in which this seat, as coordinator, last answered a return
        self.answered_in: int | None = None
        #: per seat, the returns the table took this match (:data:`MAX_RETURNS`)
        self.returns: dict[int, int] = {}

    def coordinator(self, back: int) -> int | None:
        """The seat that answers a returning seat: the lowest one not coming back with
        it (None: every seat is coming back)."""
        roster = self.table.roster
        assert roster is not None
        out = self.returning.get(back, frozenset()) | {back}
        return min((s for s in range(len(roster.sitters)) if s not in out), default=None)

    def own_will_seen(self) -> None:
        """This process lost its connection long enough for the broker to publish its
        will: the others hold the table for it, so it asks to be taken back (its own
        REJOIN counts as heard here, so that it follows the RESUME that answers it)."""
        t = self.table
        if t.seat is not None and t.phase in (SessionPhase.MATCH, SessionPhase.GRACE):
            self.returning[t.seat] = frozenset({t.seat})
            self.asked_back[t.seat] = t.hand_no
            t.send(Body(Msg.REJOIN, args=(t.hand_no, [])))

    def seat_gone(self, seat: int) -> None:
        """Note that this machine saw ``seat`` go (the first condition of its return)."""
        t = self.table
        if t.phase in (SessionPhase.MATCH, SessionPhase.GRACE) and seat != t.seat:
            self.went_away[seat] = t.hand_no
            self.answer_returns()

    def returns_due(self) -> None:
        """Answer a return that has become acceptable (a seat asking back that has
        missed its clock since), before this seat's own vote on that clock."""
        if self.pending and self.table.phase in (SessionPhase.MATCH, SessionPhase.GRACE):
            self.answer_returns()

    def settled(self) -> None:
        """The hand passed its audit, every seat answering all through it: a seat that
        went away before the hand and a REJOIN about it or an earlier one no longer
        stand. (A seat may go away while this seat still settles a hand that seat has
        finished, and ask back from the next one: that stands.)"""
        hand = self.table.hand_no
        self.went_away = {s: h for s, h in self.went_away.items() if h >= hand}
        for seat, asked in sorted(self.pending.items()):
            if asked <= hand:
                log.info("table %s: seat %d's return refused: %s", self.table.table, seat,
                         self.return_refused(seat))
                del self.pending[seat]

    # --- REJOIN and RESUME ---------------------------------------------------------

    def route_resume(self, sender: int, body: Body) -> Route:
        """Where ``sender``'s RESUME goes at a peer that is not coming back
        (protocol/SPEC.md, "Returning"; a returning seat routes its own,
        :meth:`.returning.SeatReturn.route_resume`).

        A peer takes a RESUME only in the coordinator's stream order and only where
        every honest peer decides alike: it waits until the REJOIN it answers is heard
        (no REJOIN, no return) and until this peer has caught up with the hand the
        RESUME voids; it drops a RESUME from any seat but the coordinator, one that does
        not name the hand after the one it voids, and one whose hand is already over
        here (a RESUME never names a hand already begun)."""
        t = self.table
        back, nxt = body.args[0], body.args[1]
        if t.phase not in (SessionPhase.MATCH, SessionPhase.GRACE):
            return Route.DROP
        if back not in self.asked_back:
            return Route.WAIT  # the REJOIN it answers is still to come (or never comes)
        if sender != self.coordinator(back) or nxt != body.hand + 1 \
                or body.hand < t.hand_no:
            return Route.DROP
        return Route.TAKE if body.hand == t.hand_no else Route.WAIT

    def take_rejoin(self, seat: int, together: list[int], hand: int = 0) -> None:
        """A seat asks to be taken back (``together``: the seats coming back with it;
        ``hand``: the last hand it began). Every peer notes that it asked; its
        coordinator answers RESUME once the return is acceptable (:meth:`answer_returns`),
        and otherwise not at all."""
        t = self.table
        assert t.roster is not None
        players = len(t.roster.sitters)
        self.returning[seat] = frozenset([seat, *(s for s in together if s < players)])
        if t.phase is SessionPhase.REJOIN:
            self.asked_back[seat] = hand  # for when this seat, back too, follows its RESUME
            return
        if t.phase in (SessionPhase.LINGER, SessionPhase.DONE) and t.outcome is not None:
            if t.seat is not None:
                state: dict[str, Any] = {"outcome": outcome_json(t.outcome)}
                kind = Msg.RESUME if t.seat == self.coordinator(seat) else Msg.ATTEST
                t.send(Body(kind, t.hand_no, 0, (seat, t.hand_no, pack_state(state))))
            return
        if t.match is None or t.phase not in (SessionPhase.MATCH, SessionPhase.GRACE):
            return  # the lot: not resumable (see .returning, Limits)
        if seat not in self.asked_back:  # told once, however often it asks
            t.tell(Notice(NoticeLevel.INFO, f"seat {seat} asks to be taken back"))
        self.asked_back[seat] = hand
        if t.seat is not None and t.seat == self.coordinator(seat):
            self.pending[seat] = hand
            self.answer_returns()

    def answer_returns(self) -> None:
        """As the coordinator, answer every pending REJOIN that is now acceptable, one
        at a time (each RESUME moves the hand on: the next waits until it is applied)."""
        t = self.table
        for seat in sorted(self.pending):
            if t.seat != self.coordinator(seat):
                del self.pending[seat]
            elif self.answered_in != t.hand_no and self.return_refused(seat) is None:
                del self.pending[seat]
                self.answered_in = t.hand_no
                self._answer(seat)

    def return_refused(self, seat: int) -> str | None:
        """Why the coordinator cannot take ``seat`` back now, or None if it can
        (protocol/SPEC.md, "Returning"): it must have seen the seat go away in this
        hand (its presence gone, or its clock missed before this seat voted on it), and
        the hand must still be open (no audit opening out, its play not over)."""
        t = self.table
        hand, asked = t.hand, self.pending.get(seat, 0)
        if asked > t.hand_no:
            return f"it began hand {asked}, this seat is still in hand {t.hand_no}"
        if hand is not None and t.clocks.silence.voted_on(seat, t.hand_no):
            return "this seat has voted on its silence in this hand: the table decides"
        if seat not in self.went_away and not self._missed_clock(seat):
            return "it was never seen gone since the last hand it played through"
        if hand is not None and (hand.fair.opened() or hand.public.is_over):
            return "the hand's play is over or its audit openings are out"
        return None

    def _missed_clock(self, seat: int) -> bool:
        """Whether the hand awaits ``seat`` at its current step past the table's limit,
        where no conviction of that silence can do without this seat's own vote: fewer
        than two other seats in play could vote on it. This seat answers before it votes
        (:meth:`returns_due`, first in the machine's ``check_timers``), so every peer
        takes its RESUME before any conviction; where two others could convict without
        it, their votes could cross its RESUME and the peers would judge differently, so
        there the table's vote decides."""
        t = self.table
        others = [s for s, playing in enumerate(t.active()) if playing
                  and s not in (seat, t.seat)]
        return len(others) < 2 and t.clocks.silence.overdue(seat, t.now())

    def _answer(self, seat: int) -> None:
        """Publish the RESUME of ``seat``'s return: the hand after this one, and the
        match state as it will stand then (this return counted)."""
        t = self.table
        nxt = t.hand_no + 1
        state = self.return_state(seat, nxt)
        t.send(Body(Msg.RESUME, t.hand_no, 0, (seat, nxt, pack_state(state))))

    def return_state(self, seat: int, nxt: int) -> dict[str, Any]:
        """The match state after ``seat``'s return, to resume in hand ``nxt``: the
        snapshot, the returns counted per seat, and the failed hands in a row."""
        t = self.table
        assert t.match is not None and t.roster is not None
        returns = [self.returns.get(s, 0) + (s == seat) for s in range(len(t.roster.sitters))]
        return {**match_snapshot(t.match, nxt, t.audits, t.blames, t.game),
                RETURNS: returns, VOIDS: t.voids_in_row + 1}

    def take_resume(self, body: Body) -> None:
        """Take the coordinator's RESUME (see the module docstring) at a peer that is
        not coming back: the order to deal again (a returning seat counts it as a vote,
        :meth:`.returning.SeatReturn.take_resume`)."""
        t = self.table
        seat, nxt, blob = body.args
        state = read_state(t.table, blob)
        if state is None:
            return
        if t.phase in (SessionPhase.MATCH, SessionPhase.GRACE) and "outcome" not in state:
            self._resume_table(seat, nxt, state)

    def _resume_table(self, seat: int, nxt: int, state: dict[str, Any]) -> None:
        """Apply a return everywhere but at the returning seat: the hand under way is
        void and hand ``nxt`` is dealt, or the seat, back once too often, has left."""
        t = self.table
        self.asked_back.pop(seat, None)
        self.pending.pop(seat, None)
        self.went_away.pop(seat, None)
        mine = self.return_state(seat, nxt)
        if t.seat is not None and t.seat != self.coordinator(seat):
            t.send(Body(Msg.ATTEST, t.hand_no, 0, (seat, nxt, pack_state(mine))))
        if mine != state:  # this seat played the same deals: its own state stands
            log.warning("table %s: the match state seat %d's coordinator told differs "
                        "from ours; keeping ours", t.table, seat)
        self.drop_carried_deck()
        self.returns[seat] = count = self.returns.get(seat, 0) + 1
        if t.hand is not None:
            tell_void(t, seat, count)
        t.hand, t.hand_no = None, nxt
        self.after_return(seat, count)

    def after_return(self, seat: int, count: int) -> None:
        """Go on after ``seat``'s ``count``-th return (``hand_no`` is the next hand;
        :func:`.redeal.go_on`)."""
        go_on(self.table, seat, count)

    def drop_carried_deck(self) -> bool:
        """Drop a short deal's deck that carries over, which the returning seat lost
        (:func:`.redeal.drop_deck`). True if a deck was carried."""
        return drop_deck(self.table)
