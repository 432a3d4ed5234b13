"""Coming back: a seat whose process stopped sits down again, and the table waits for it.

Design
------
A LAN party is laptops on Wi-Fi: a lid closes, a process is killed, the broker is
restarted. The table must neither end for everyone nor blame the person who dropped.

*Noticing.* A seat's connection registers a Last Will on its presence topic
(:mod:`lodam_p2p.transport.presence`); the broker publishes it the moment the TCP
connection dies (at once on a crash, within 1.5 keep-alives on a silent network). Every
peer then marks the seat *away* (:attr:`Rejoining.away`), tells its player who is gone
and how long the table waits (``rejoin_grace``, 60 s by default), and holds every
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
lowest seat other than the returning one. On REJOIN it publishes RESUME (signed, in its
own stream like every message): the returning seat, the number of the next hand, and
the match state (counters, dealer, deals played, audits, blames). Every peer, the
coordinator included, applies RESUME in the coordinator's stream order: a peer still in
an earlier hand waits until it has caught up; the hand in progress is voided; the
match state is the coordinator's (a peer whose own differs logs it); the next hand is
dealt. The returning seat adopts the same state, so its result and ``--json`` line are
the same as everyone's.

*Giving up.* When a seat stays away past ``rejoin_grace`` it has left: it is blamed
(``left``) and the match ends with the result of the seats that remain, as for any
seat that cannot be waited for.

Limits
------
- Trust: the match state a returning seat adopts is the coordinator's word. Every
  other peer checks it against its own and says so in its log, but does not refuse it.
- The lot: a seat that drops while the first dealer is being drawn cannot rejoin that
  lot; the lot's own timeout ends the table.
- The coordinator itself away: REJOIN waits for no one else; a returning seat gives up
  after ``rejoin_grace`` without an answer.
- A hand is lost at each return, even one that could in principle go on.
- The grace is each peer's own setting (``--option rejoin_grace``); peers configured
  differently may end the wait at different times.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from lodam_p2p.player import DealEnded, Notice, NoticeLevel, Phase, Progress
from lodam_p2p.session.course import Course, SessionPhase
from lodam_p2p.session.journal import SeatJournal, match_from, match_snapshot
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome

log = logging.getLogger("lodam_p2p.session")

#: How often the countdown of an away seat is repeated to the player, in seconds.
COUNTDOWN_EVERY = 10.0


class TableGone(Exception):
    """The table cannot be played any more (its host left before the start, or it went
    on without this returning seat)."""


class Rejoining(Course):
    """The part of a session that journals the match and handles seats coming back."""

    me: str
    journal: SeatJournal
    away: dict[int, float]
    _rejoin_deadline: float
    _countdown_at: dict[int, float]

    def setup_rejoin(self, journal: SeatJournal | None) -> None:
        """Attach the journal (None: nothing is kept) and clear the away list."""
        self.journal = journal or SeatJournal(None, "seat", self.table)
        self.away, self._countdown_at = {}, {}
        self._rejoin_deadline = 0.0

    # --- journaling ----------------------------------------------------------------

    def journal_start(self, body: Body, host: str | None) -> None:
        """Keep the START (roster, options, table id) and the host."""
        table_id, options, rows = body.args
        self.journal.keep(start=[table_id.hex(), options,
                                 [[p, k.hex(), n, kind] for p, k, n, kind in rows]],
                          host=host, match=None)

    def new_hand(self) -> None:
        """Keep the match state, then begin the hand."""
        if self.match is not None:
            self.journal.keep(match=match_snapshot(self.match, self.hand_no, self.audits,
                                                   self.blames))
        super().new_hand()

    def finish(self, *, early: bool) -> None:
        """The match is over: keep the outcome."""
        super().finish(early=early)
        if self.outcome is not None:
            self.journal.keep(outcome=_outcome_json(self.outcome))

    # --- the returning seat --------------------------------------------------------

    def rejoin_begin(self) -> Roster:
        """Sit down again from the journal: roster and seat back, REJOIN sent."""
        try:
            table_id, options, rows = self.journal.entry["start"]
            body = Body(Msg.START, args=(bytes.fromhex(table_id), options, [
                [p, bytes.fromhex(k), n, kind] for p, k, n, kind in rows]))
            roster = Roster.from_start(body)
        except (KeyError, TypeError, ValueError) as err:
            self.journal.keep(start=None)
            raise TableGone(f"the journal's match is unusable ({err}); start again for a "
                            "new one") from None
        self.roster, self.seat = roster, roster.seat_of(self.me)
        if self.seat is None:
            raise TableGone(f"the journal's table {self.table} has no seat for this key")
        self.phase = SessionPhase.REJOIN
        self._rejoin_deadline = self.now() + self.timing.grace_s
        kept = self.journal.entry.get("match")
        hand = kept.get("hand_no") if isinstance(kept, dict) else None
        self.send(Body(Msg.REJOIN, args=(hand if isinstance(hand, int) and 0 <= hand < 2**32
                                         else 0,)))
        self.tell(Progress(Phase.LOBBY, detail=f"back at table {self.table}: waiting to resume"))
        return roster

    def own_will_seen(self) -> None:
        """This process lost its connection long enough for the broker to publish its
        will: the others hold the table for it, so it asks to be taken back."""
        if self.seat is not None and self.phase in (SessionPhase.MATCH, SessionPhase.GRACE):
            self.send(Body(Msg.REJOIN, args=(self.hand_no,)))

    def coordinator(self, back: int) -> int:
        """The seat that answers a returning seat: the lowest other one."""
        return 1 if back == 0 else 0

    # --- seats going and coming ----------------------------------------------------

    def seat_gone(self, seat: int) -> None:
        """A seated peer's presence went away: hold the table for it."""
        if self.phase not in (SessionPhase.MATCH, SessionPhase.GRACE) or seat == self.seat:
            return
        now = self.now()
        self.away.setdefault(seat, now)
        self._countdown_at[seat] = now
        self._tell_away(seat, now)

    def seat_back(self, seat: int) -> None:
        """A seated peer's presence is back (same process, or a new one: REJOIN follows)."""
        if self.away.pop(seat, None) is not None:
            self._awaited = ()  # restart the decision clock of the hand
            self.tell(Notice(NoticeLevel.INFO, f"seat {seat} is back"))

    def _tell_away(self, seat: int, now: float) -> None:
        left = max(0.0, self.away[seat] + self.timing.grace_s - now)
        text = f"seat {seat} is gone: waiting {left:.0f} s for it to come back"
        self.tell(Notice(NoticeLevel.WARNING, text, seat))
        self.tell(Progress(Phase.DEAL_OVER, (seat,), text))
        if self.spectator is not None:
            self.spectator.line(text)

    def hold_for_away(self, now: float) -> bool:
        """True while the table waits for an away seat; ends the match when the wait is
        over (the seat has left)."""
        if not self.away:
            return False
        for seat, since in sorted(self.away.items()):
            if now >= since + self.timing.grace_s:
                self.away.clear()
                self.last_blamed = seat
                self.blames.append(f"seat {seat}: left: away for {self.timing.grace_s:g} s "
                                   f"(hand {self.hand_no})")
                self.finish(early=True)
                return True
            if now >= self._countdown_at.get(seat, since) + COUNTDOWN_EVERY:
                self._countdown_at[seat] = now
                self._tell_away(seat, now)
        return True

    def rejoin_timer(self, now: float) -> None:
        """A returning seat that hears no RESUME within the grace gives up."""
        if self.phase is SessionPhase.REJOIN and now >= self._rejoin_deadline:
            self.journal.keep(start=None)  # given up: the next start is a new match
            raise TableGone(f"table {self.table} did not take this seat back within "
                            f"{self.timing.grace_s:g} s")

    # --- REJOIN and RESUME ---------------------------------------------------------

    def route_resume(self, body: Body) -> bool:
        """Whether RESUME may be applied now (False: wait until this peer caught up)."""
        return self.phase is SessionPhase.REJOIN or self.hand is None or body.hand <= self.hand_no

    def take_rejoin(self, seat: int) -> None:
        """A seat is back with a new process; the coordinator answers RESUME."""
        self.away.pop(seat, None)
        self._awaited = ()
        self.tell(Notice(NoticeLevel.INFO, f"seat {seat} is back at the table"))
        if self.seat != self.coordinator(seat) or self.phase is SessionPhase.REJOIN:
            return
        if self.phase in (SessionPhase.LINGER, SessionPhase.DONE) and self.outcome is not None:
            state: dict[str, Any] = {"outcome": _outcome_json(self.outcome)}
            self.send(Body(Msg.RESUME, self.hand_no, 0, (seat, self.hand_no, _pack(state))))
            return
        if self.match is None or self.phase not in (SessionPhase.MATCH, SessionPhase.GRACE):
            return  # the lot: not resumable (see Limits)
        nxt = self.hand_no + 1 if self.hand is not None else self.hand_no
        state = match_snapshot(self.match, nxt, self.audits, self.blames)
        self.send(Body(Msg.RESUME, self.hand_no, 0, (seat, nxt, _pack(state))))

    def take_resume(self, body: Body) -> None:
        """Apply the coordinator's RESUME (see the module docstring)."""
        seat, nxt, blob = body.args
        try:
            state = json.loads(blob)
            if not isinstance(state, dict):
                raise ValueError("not an object")
        except ValueError as err:
            log.warning("table %s: unreadable RESUME: %s", self.table, err)
            return
        if self.phase is SessionPhase.REJOIN and seat == self.seat:
            self._resume_here(nxt, state)
        elif self.phase in (SessionPhase.MATCH, SessionPhase.GRACE) and self.hand_no <= nxt:
            self._resume_table(seat, nxt, state)

    def _resume_here(self, nxt: int, state: dict[str, Any]) -> None:
        assert self.roster is not None
        if "outcome" in state:
            self.outcome = _outcome_from(self.table, state["outcome"])
            self.journal.keep(outcome=_outcome_json(self.outcome))
            self.phase = SessionPhase.DONE
            return
        try:
            self.match = match_from(state, self.roster.options)
        except ValueError as err:
            raise TableGone(f"table {self.table} sent an unusable match state: {err}") from None
        self.audits, self.blames = int(state.get("audits", 0)), list(state.get("blames", []))
        self.hand_no, self.hand, self.phase = nxt, None, SessionPhase.MATCH
        self.tell_seats()
        self.new_hand()

    def _resume_table(self, seat: int, nxt: int, state: dict[str, Any]) -> None:
        assert self.match is not None and self.roster is not None
        if self.hand is not None and self.hand_no == nxt:
            return  # this hand began already (the seat's presence came back first)
        if self.hand is not None:
            reason = f"seat {seat} came back: the hand is dealt again (no blame)"
            lives = tuple(self.match.lives)
            zero = (0,) * len(lives)
            self.tell(DealEnded(zero, zero, lives, reason, "not reached: a seat came back",
                                void=True))
            if self.spectator is not None:
                self.spectator.deal_ended(reason, "not reached", lives)
        mine = match_snapshot(self.match, nxt, self.audits, self.blames)
        if mine != state:
            log.warning("table %s: the match state of the coordinator differs from ours; "
                        "taking the coordinator's", self.table)
            try:
                self.match = match_from(state, self.roster.options)
                self.audits = int(state.get("audits", self.audits))
                self.blames = list(state.get("blames", self.blames))
            except ValueError as err:
                log.warning("table %s: unusable RESUME state: %s", self.table, err)
        self.hand, self.hand_no = None, nxt
        self.new_hand()

    def tell_seats(self) -> None:
        """Tell the player the seats (the session says how)."""

    def check_timers(self, now: float) -> None:
        """Hold the hand's timers while a seat is away; a returning seat's own wait."""
        if self.phase is SessionPhase.REJOIN:
            self.rejoin_timer(now)
        elif not (self.phase is SessionPhase.MATCH and self.hold_for_away(now)):
            super().check_timers(now)


def _pack(state: dict[str, Any]) -> bytes:
    return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()


def _outcome_json(outcome: MatchOutcome) -> dict[str, Any]:
    return {**outcome.to_json(), "lives": list(outcome.lives), "payouts": list(outcome.payouts)}


def _outcome_from(table: str, data: Any) -> MatchOutcome:
    if not isinstance(data, dict):
        raise TableGone(f"table {table} sent an unusable result")
    try:
        return MatchOutcome(table, tuple(int(w) for w in data["winners"]), int(data["deals"]),
                            int(data["audits_passed"]), tuple(str(b) for b in data["blames"]),
                            tuple(int(v) for v in data.get("lives", ())),
                            tuple(int(v) for v in data.get("payouts", ())))
    except (KeyError, TypeError, ValueError) as err:
        raise TableGone(f"table {table} sent an unusable result: {err}") from None


