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
notes a REJOIN; the coordinator answers it (:meth:`Rejoining.answer_returns`) only for
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
to the result its seats publish (see Limits). The embedded broker of ``lodam host`` runs
in a process of its own (:mod:`lodam_p2p.transport.hostbroker`), so a killed host does not take
the table's broker with it.

*Giving up.* When a seat stays away past ``rejoin_grace`` it has left: it is blamed
(``left``) and the match ends with the result of the seats that remain, as for any
seat that cannot be waited for.

Limits
------
- Trust: a returning seat needs a majority of the other seats to agree; a table
  where half the others are away or lie cannot take it back. A majority of liars can
  seat it in a state its journal does not contradict (after deals it missed).
- The lot: a seat that drops while the first dealer is being drawn cannot rejoin that
  lot; the lot's own timeout ends the table.
- The coordinator itself away: REJOIN waits for no one else; a returning seat gives up
  after ``rejoin_grace`` without an answer.
- A hand is lost at each return, even one that could in principle go on.
- A coordinator in league with the returning seat can answer a return its own rules
  would refuse (only it saw what they rest on); it cannot answer after its own audit
  opening, past the limit, without a REJOIN, or into a hand already begun.
- In a short First-and-last deal a RESUME can cross the deal's last card: a peer that
  settled the deal first drops it while the others void the deal (nobody signs twice,
  but the table splits and one seat may be found silent).
- A restarted seat whose will nobody saw (its new connection announced first) is taken
  back on its missed clock only at a table of three; with more seats the table votes on
  its silence (their votes could cross the RESUME).
- A restarted host that only watched (``--watch``, no seat of its own) holds no hand
  and is waited for by nobody: it follows the table to its end and takes the result a
  majority of the seats publish (their RESULT), without the hands in between; it
  cannot come back to a table that ended while it was gone, nor (for now) to a game
  other than Lodam, whose RESULT does not carry the standings.
  Its seats come back together, and only the seats that stayed vote: at a table of
  three, a host with two seats of its own comes back on the word of the third alone.
- A table whose every seat is coming back cannot resume (nobody holds the match).
- A game played through the game interface (Lorum) travels as the game saves it
  (:meth:`Game.match_state <lodam_p2p.games.Game.match_state>`). A short
  First-and-last's stack that carries over is held only in memory: when a seat comes
  back then, every peer drops it at RESUME (:meth:`Rejoining.drop_carried_deck`) and
  the next deal shuffles anew, so the rest of that deck is never dealt. A RESUME
  carries at most 64 KiB (:data:`~lodam_p2p.session.wire.MAX_STATE`): some 25 rounds
  of Lorum.
- The grace is each peer's own setting (``--option rejoin_grace``); peers configured
  differently may end the wait at different times.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from lodam_p2p.player import DealEnded, Notice, NoticeLevel
from lodam_p2p.session.away import COUNTDOWN_EVERY
from lodam_p2p.session.course import SessionPhase
from lodam_p2p.session.handplay import Route
from lodam_p2p.session.journal import SeatJournal, match_snapshot
from lodam_p2p.session.log import deal_ended_line
from lodam_p2p.session.resumestate import (
    MAX_RETURNS,
    RETURNS,
    VOIDS,
    TableGone,
    outcome_json,
    pack_state,
    read_state,
)
from lodam_p2p.session.returning import Returning
from lodam_p2p.session.wire import Body, Msg

__all__ = ["COUNTDOWN_EVERY", "MAX_RETURNS", "Rejoining", "TableGone"]

log = logging.getLogger("lodam_p2p.session")


class Rejoining(Returning):
    """The part of a session that journals the match and handles seats coming back."""

    def setup_rejoin(self, journal: SeatJournal | None, follow: str | None = None,
                     together: Sequence[str] = ()) -> None:
        """Attach the journal (None: nothing is kept) and clear the away list.

        ``follow``: for a watcher (a restarted host), the peer of a seat of its own
        process whose return it follows (see :meth:`rejoin_begin`). ``together``: the
        peers of every seat of this process, which come back together."""
        self.journal = journal or SeatJournal(None, "seat", self.table)
        self._rejoin_deadline = 0.0
        self.follow = follow
        self._back, self._votes, self._together = None, {}, tuple(together)
        self._returning, self._asked_back, self._pending, self._went_away = {}, {}, {}, {}
        self._answered_in: int | None = None
        self.returns = {}
        kept = self.journal.entry.get("match") if self.journal.rejoining else None
        begun = kept.get("hand_no") if isinstance(kept, dict) else None
        if isinstance(begun, int) and not isinstance(begun, bool) and begun >= 0:
            self.signed.begun = begun  # its last process may have signed in that hand

    # --- journaling ----------------------------------------------------------------

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

    def own_will_seen(self) -> None:
        """This process lost its connection long enough for the broker to publish its
        will: the others hold the table for it, so it asks to be taken back (its own
        REJOIN counts as heard here, so that it follows the RESUME that answers it)."""
        if self.seat is not None and self.phase in (SessionPhase.MATCH, SessionPhase.GRACE):
            self._returning[self.seat] = frozenset({self.seat})
            self._asked_back[self.seat] = self.hand_no
            self.send(Body(Msg.REJOIN, args=(self.hand_no, [])))

    def seat_gone(self, seat: int) -> None:
        """A seated peer's presence went away: hold the table for it (:mod:`.away`), and
        note that this machine saw it go (the first condition of its return)."""
        self.away_seats.seat_gone(seat)
        if self.phase in (SessionPhase.MATCH, SessionPhase.GRACE) and seat != self.seat:
            self._went_away[seat] = self.hand_no
            self.answer_returns()

    def returns_due(self) -> None:
        """Answer a return that has become acceptable (a seat asking back that has
        missed its clock since), before this seat's own vote on that clock."""
        if self._pending and self.phase in (SessionPhase.MATCH, SessionPhase.GRACE):
            self.answer_returns()

    # --- REJOIN and RESUME ---------------------------------------------------------

    def route_resume(self, sender: int, body: Body) -> Route:
        """Where ``sender``'s RESUME goes (protocol/SPEC.md, "Returning").

        A returning seat takes only the coordinator's RESUME of its own return. Every
        other peer takes a RESUME only in the coordinator's stream order and only where
        every honest peer decides alike: it waits until the REJOIN it answers is heard
        (no REJOIN, no return) and until this peer has caught up with the hand the
        RESUME voids; it drops a RESUME from any seat but the coordinator, one that does
        not name the hand after the one it voids, and one whose hand is already over
        here (a RESUME never names a hand already begun)."""
        back, nxt = body.args[0], body.args[1]
        if self.phase is SessionPhase.REJOIN:
            return self._route_back(sender, back)
        if self.phase not in (SessionPhase.MATCH, SessionPhase.GRACE):
            return Route.DROP
        if back not in self._asked_back:
            return Route.WAIT  # the REJOIN it answers is still to come (or never comes)
        if sender != self.coordinator(back) or nxt != body.hand + 1 \
                or body.hand < self.hand_no:
            return Route.DROP
        return Route.TAKE if body.hand == self.hand_no else Route.WAIT

    def _route_back(self, sender: int, back: int) -> Route:
        """At a returning seat: its own coordinator's RESUME is a vote; another seat's
        return that follows it in the coordinator's stream waits until this seat sits
        down and then moves it on with the table (one before it belongs to the hands
        this seat missed)."""
        if back == self._back:
            return Route.TAKE if sender == self.coordinator(back) else Route.DROP
        mine = self.coordinator(self._back) if self._back is not None else None
        return Route.WAIT if sender == mine and sender in self._votes else Route.DROP

    def take_rejoin(self, seat: int, together: list[int], hand: int = 0) -> None:
        """A seat asks to be taken back (``together``: the seats coming back with it;
        ``hand``: the last hand it began). Every peer notes that it asked; its
        coordinator answers RESUME once the return is acceptable (:meth:`answer_returns`),
        and otherwise not at all."""
        assert self.roster is not None
        players = len(self.roster.sitters)
        self._returning[seat] = frozenset([seat, *(s for s in together if s < players)])
        if self.phase is SessionPhase.REJOIN:
            self._asked_back[seat] = hand  # for when this seat, back too, follows its RESUME
            return
        if self.phase in (SessionPhase.LINGER, SessionPhase.DONE) and self.outcome is not None:
            if self.seat is not None:
                state: dict[str, Any] = {"outcome": outcome_json(self.outcome)}
                kind = Msg.RESUME if self.seat == self.coordinator(seat) else Msg.ATTEST
                self.send(Body(kind, self.hand_no, 0, (seat, self.hand_no, pack_state(state))))
            return
        if self.match is None or self.phase not in (SessionPhase.MATCH, SessionPhase.GRACE):
            return  # the lot: not resumable (see Limits)
        if seat not in self._asked_back:  # told once, however often it asks
            self.tell(Notice(NoticeLevel.INFO, f"seat {seat} asks to be taken back"))
        self._asked_back[seat] = hand
        if self.seat is not None and self.seat == self.coordinator(seat):
            self._pending[seat] = hand
            self.answer_returns()

    def answer_returns(self) -> None:
        """As the coordinator, answer every pending REJOIN that is now acceptable, one
        at a time (each RESUME moves the hand on: the next waits until it is applied)."""
        for seat in sorted(self._pending):
            if self.seat != self.coordinator(seat):
                del self._pending[seat]
            elif self._answered_in != self.hand_no and self.return_refused(seat) is None:
                del self._pending[seat]
                self._answered_in = self.hand_no
                self._answer(seat)

    def settle(self) -> None:
        """The hand passed its audit, every seat answering all through it: a seat that
        went away before the hand and a REJOIN about it or an earlier one no longer
        stand. (A seat may go away while this seat still settles a hand that seat has
        finished, and ask back from the next one: that stands.)"""
        hand = self.hand_no
        self._went_away = {s: h for s, h in self._went_away.items() if h >= hand}
        for seat, asked in sorted(self._pending.items()):
            if asked <= hand:
                log.info("table %s: seat %d's return refused: %s", self.table, seat,
                         self.return_refused(seat))
                del self._pending[seat]
        super().settle()

    def return_refused(self, seat: int) -> str | None:
        """Why the coordinator cannot take ``seat`` back now, or None if it can
        (protocol/SPEC.md, "Returning"): it must have seen the seat go away in this
        hand (its presence gone, or its clock missed before this seat voted on it), and
        the hand must still be open (no audit opening out, its play not over)."""
        hand, asked = self.hand, self._pending.get(seat, 0)
        if asked > self.hand_no:
            return f"it began hand {asked}, this seat is still in hand {self.hand_no}"
        if hand is not None and self.clocks.voted_on(seat, self.hand_no):
            return "this seat has voted on its silence in this hand: the table decides"
        if seat not in self._went_away and not self._missed_clock(seat):
            return "it was never seen gone since the last hand it played through"
        if hand is not None and (hand.fair.opened() or hand.public.is_over):
            return "the hand's play is over or its audit openings are out"
        return None

    def _missed_clock(self, seat: int) -> bool:
        """Whether the hand awaits ``seat`` at its current step past the table's limit,
        where no conviction of that silence can do without this seat's own vote: fewer
        than two other seats in play could vote on it. This seat answers before it votes
        (:meth:`check_timers`), so every peer takes its RESUME before any conviction;
        where two others could convict without it, their votes could cross its RESUME
        and the peers would judge differently, so there the table's vote decides."""
        others = [s for s, playing in enumerate(self.active()) if playing
                  and s not in (seat, self.seat)]
        return len(others) < 2 and self.clocks.overdue(seat, self.now())

    def _answer(self, seat: int) -> None:
        """Publish the RESUME of ``seat``'s return: the hand after this one, and the
        match state as it will stand then (this return counted)."""
        nxt = self.hand_no + 1
        state = self.return_state(seat, nxt)
        self.send(Body(Msg.RESUME, self.hand_no, 0, (seat, nxt, pack_state(state))))

    def return_state(self, seat: int, nxt: int) -> dict[str, Any]:
        """The match state after ``seat``'s return, to resume in hand ``nxt``: the
        snapshot, the returns counted per seat, and the failed hands in a row."""
        assert self.match is not None and self.roster is not None
        returns = [self.returns.get(s, 0) + (s == seat) for s in range(len(self.roster.sitters))]
        return {**match_snapshot(self.match, nxt, self.audits, self.blames, self.game),
                RETURNS: returns, VOIDS: self.voids_in_row + 1}

    def take_resume(self, body: Body) -> None:
        """Take the coordinator's RESUME (see the module docstring): a vote at the
        returning seat, the order to deal again everywhere else."""
        seat, nxt, blob = body.args
        state = read_state(self.table, blob)
        if state is None:
            return
        coordinator = self.coordinator(seat)
        if self.phase is SessionPhase.REJOIN and seat == self._back:
            if coordinator is not None:  # always so: routed only from the coordinator
                self._vote(coordinator, nxt, state)
        elif self.phase in (SessionPhase.MATCH, SessionPhase.GRACE) and "outcome" not in state:
            self._resume_table(seat, nxt, state)

    def _resume_table(self, seat: int, nxt: int, state: dict[str, Any]) -> None:
        """Apply a return everywhere but at the returning seat: the hand under way is
        void and hand ``nxt`` is dealt, or the seat, back once too often, has left."""
        self._asked_back.pop(seat, None)
        self._pending.pop(seat, None)
        self._went_away.pop(seat, None)
        mine = self.return_state(seat, nxt)
        if self.seat is not None and self.seat != self.coordinator(seat):
            self.send(Body(Msg.ATTEST, self.hand_no, 0, (seat, nxt, pack_state(mine))))
        if mine != state:  # this seat played the same deals: its own state stands
            log.warning("table %s: the match state seat %d's coordinator told differs "
                        "from ours; keeping ours", self.table, seat)
        self.drop_carried_deck()
        self.returns[seat] = count = self.returns.get(seat, 0) + 1
        if self.hand is not None:
            self._tell_void(seat, count)
        self.hand, self.hand_no = None, nxt
        self._after_return(seat, count)

    def _tell_void(self, seat: int, count: int) -> None:
        reason = (f"seat {seat} came back: the hand is void and dealt again, no blame "
                  f"(return {count} of {MAX_RETURNS} it may make this match)")
        if count > MAX_RETURNS:
            reason = f"seat {seat} came back once too often: it has left the match"
        lives = self.scores()
        zero = (0,) * len(lives)
        self.tell(DealEnded(zero, zero, lives, reason, "not reached: a seat came back",
                            void=True))
        word = "counters" if self.game is None or self.game.name == "lodam" else "scores"
        self.spectate(deal_ended_line(reason, "not reached", lives, word=word))

    def drop_carried_deck(self) -> bool:
        """A short deal's deck that carries over lives only in the seats' memory, and
        the returning seat lost it: every peer drops it at the coordinator's RESUME and
        restores its match as saved, so the next deal shuffles anew everywhere (the
        returning seat restores the same state). True if a deck was carried."""
        if self.game is None or self.roster is None or self.match is None:
            return False
        if self.game_course.deck is None and self.game.reshuffles(self.match):
            return False
        self.game_course.deck = None
        restored: Any = self.game.restore_match(self.roster.options, len(self.roster.sitters),
                                                self.game.match_state(self.match))
        self.match = restored
        return True
