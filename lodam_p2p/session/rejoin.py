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
lowest seat that is not coming back. REJOIN names the seats returning together with
the sender (the local seats of a restarted host process: none of them holds the match
any more), so every peer that heard it picks the same coordinator; a RESUME from a
seat that is not yet known to be the coordinator waits for that REJOIN. When every
seat of the table is coming back at once, nobody holds the match: the returning seats
say so and stop at once, and their journals start a new match next time.

On REJOIN the coordinator publishes RESUME (signed, in its own stream like every
message): the returning seat, the number of the next hand, and the match state
(counters, dealer, deals played, audits, blames). Every peer, the coordinator included,
applies RESUME in the coordinator's stream order: a peer still in an earlier hand waits
until it has caught up; the hand in progress is voided; the next hand is dealt. A peer
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
seats, as for any seat that is away.

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
- A restarted host comes back only beside a seat of its own (``--watch`` alone cannot).
  Its seats come back together, and only the seats that stayed vote: at a table of
  three, a host with two seats of its own comes back on the word of the third alone.
- A table whose every seat is coming back cannot resume (nobody holds the match).
- A game played through the game interface (Lorum) travels as the game saves it
  (:meth:`Game.match_state <lodam_p2p.games.Game.match_state>`). A Lorum seat cannot
  come back while a short First-and-last's stack carries over (that deck is held only
  in memory): the state is refused and the grace runs out. A RESUME carries at most
  64 KiB (:data:`~lodam_p2p.session.wire.MAX_STATE`): some 25 rounds of Lorum.
- The grace is each peer's own setting (``--option rejoin_grace``); peers configured
  differently may end the wait at different times.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Sequence
from typing import Any

from lodam_p2p.games import DEFAULT_GAME, Game
from lodam_p2p.player import DealEnded, Notice, NoticeLevel, Phase, Progress
from lodam_p2p.session.course import Course, SessionPhase
from lodam_p2p.session.handplay import Route
from lodam_p2p.session.journal import (
    SeatJournal,
    check_snapshot,
    contradiction,
    match_from,
    match_snapshot,
)
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

    def setup_rejoin(self, journal: SeatJournal | None, follow: str | None = None,
                     together: Sequence[str] = ()) -> None:
        """Attach the journal (None: nothing is kept) and clear the away list.

        ``follow``: for a watcher (a restarted host), the peer of a seat of its own
        process whose return it follows (see :meth:`rejoin_begin`). ``together``: the
        peers of every seat of this process, which come back together."""
        self.journal = journal or SeatJournal(None, "seat", self.table)
        self.away, self._countdown_at = {}, {}
        self._rejoin_deadline = 0.0
        self.follow = follow
        #: the seat whose return this session waits for: its own, or the followed one
        self._back: int | None = None
        self._votes: dict[int, tuple[int, bytes]] = {}
        self._together = tuple(together)
        #: per returning seat, the seats coming back with it (itself included), as its
        #: REJOIN told: none of them can coordinate its return
        self._returning: dict[int, frozenset[int]] = {}

    # --- journaling ----------------------------------------------------------------

    def journal_start(self, body: Body, host: str | None) -> None:
        """Keep the START (roster, options, table id, time limit) and the host."""
        table_id, options, rows, limit = body.args
        self.journal.keep(start=[table_id.hex(), options,
                                 [[p, k.hex(), n, kind] for p, k, n, kind in rows], limit],
                          host=host, match=None)

    def new_hand(self) -> None:
        """Keep the match state, then begin the hand."""
        if self.match is not None:
            self.journal.keep(match=match_snapshot(self.match, self.hand_no, self.audits,
                                                   self.blames, self.game))
        super().new_hand()

    def finish(self, *, early: bool) -> None:
        """The match is over: keep the outcome."""
        super().finish(early=early)
        if self.outcome is not None:
            self.journal.keep(outcome=_outcome_json(self.outcome))

    # --- the returning seat --------------------------------------------------------

    def rejoin_begin(self) -> Roster:
        """Sit down again from the journal: roster and seat back, REJOIN sent.

        A watcher (the table's restarted host) has no seat to ask for: it follows a seat
        of its own process (``follow``) back in, counting the same RESUME and ATTESTs
        that seat counts and adopting the same state, so both print one result."""
        try:
            table_id, options, rows, limit = self.journal.entry["start"]
            body = Body(Msg.START, args=(bytes.fromhex(table_id), options, [
                [p, bytes.fromhex(k), n, kind] for p, k, n, kind in rows], limit))
            roster = Roster.from_start(body)
        except (KeyError, TypeError, ValueError) as err:
            self.journal.keep(start=None)
            raise TableGone(f"the journal's match is unusable ({err}); start again for a "
                            "new one") from None
        self.roster, self.seat = roster, roster.seat_of(self.me)
        self._back = self.seat
        if self.seat is None and self.follow is not None:
            self._back = roster.seat_of(self.follow)
        if self._back is None:
            raise TableGone(f"the journal's table {self.table} has no seat for this key"
                            if self.follow is None else f"the host of table {self.table} "
                            "comes back only beside a seat of its own")
        self.phase = SessionPhase.REJOIN
        self._rejoin_deadline = self.now() + self.timing.grace_s
        self.tell(Progress(Phase.LOBBY, detail=f"back at table {self.table}: waiting to resume"))
        together = {roster.seat_of(peer) for peer in self._together} | {self._back}
        self._returning[self._back] = frozenset(s for s in together if s is not None)
        if self.coordinator(self._back) is None:
            self.journal.keep(start=None)  # nobody holds the match: the next start is new
            raise TableGone(f"every seat of table {self.table} is coming back at once: "
                            "nobody holds the match to resume it; start a new one")
        if self.seat is None:
            return roster
        kept = self.journal.entry.get("match")
        hand = kept.get("hand_no") if isinstance(kept, dict) else None
        self.send(Body(Msg.REJOIN, args=(hand if isinstance(hand, int) and 0 <= hand < 2**32
                                         else 0, sorted(together - {self.seat, None}))))
        return roster

    def own_will_seen(self) -> None:
        """This process lost its connection long enough for the broker to publish its
        will: the others hold the table for it, so it asks to be taken back."""
        if self.seat is not None and self.phase in (SessionPhase.MATCH, SessionPhase.GRACE):
            self.send(Body(Msg.REJOIN, args=(self.hand_no, [])))

    def coordinator(self, back: int) -> int | None:
        """The seat that answers a returning seat: the lowest one not coming back with
        it (None: every seat is coming back)."""
        assert self.roster is not None
        out = self._returning.get(back, frozenset()) | {back}
        return min((s for s in range(len(self.roster.sitters)) if s not in out), default=None)

    def rejoin_unheard(self, back: int) -> bool:
        """Whether no REJOIN from ``back`` has been heard yet (which seats come back
        with it, hence its coordinator, is not known)."""
        return back not in self._returning

    # --- seats going and coming ----------------------------------------------------

    def seat_gone(self, seat: int) -> None:
        """A seated peer's presence went away: hold the table for it — unless the seat
        is done with the match (put out of it, or its result sent): nobody waits for
        such a seat, and a seat behind the others must not hold its clocks for one."""
        if self.phase not in (SessionPhase.MATCH, SessionPhase.GRACE) or seat == self.seat:
            return
        if self._done_with(seat):
            return
        now = self.now()
        self.away.setdefault(seat, now)
        self._countdown_at[seat] = now
        self._tell_away(seat, now)

    def _done_with(self, seat: int) -> bool:
        """Whether ``seat`` is out of the match or has sent its result."""
        assert self.roster is not None
        if self.roster.sitters[seat].peer in self.results:
            return True
        return self.match is not None and not self.active()[seat]

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

    def route_resume(self, sender: int, body: Body) -> Route:
        """Where ``sender``'s RESUME goes: dropped unless it is the coordinator's for a
        seat this peer waits for; held until this peer caught up, or until the REJOIN
        naming the seats back with the returning one (hence its coordinator) is heard.
        A returning seat takes only the RESUME of its own return."""
        back = body.args[0]
        if self.phase is SessionPhase.REJOIN:
            return Route.TAKE if back == self._back and sender == self.coordinator(back) \
                else Route.DROP
        if sender != self.coordinator(back):
            return Route.WAIT if self.rejoin_unheard(back) else Route.DROP
        return Route.TAKE if self.hand is None or body.hand <= self.hand_no else Route.WAIT

    def take_rejoin(self, seat: int, together: list[int]) -> None:
        """A seat is back with a new process (``together``: the seats coming back with
        it); the coordinator answers RESUME."""
        assert self.roster is not None
        players = len(self.roster.sitters)
        self._returning[seat] = frozenset([seat, *(s for s in together if s < players)])
        self.away.pop(seat, None)
        self._awaited = ()
        self.tell(Notice(NoticeLevel.INFO, f"seat {seat} is back at the table"))
        if self.seat is None or self.phase is SessionPhase.REJOIN:
            return
        if self.phase in (SessionPhase.LINGER, SessionPhase.DONE) and self.outcome is not None:
            state: dict[str, Any] = {"outcome": _outcome_json(self.outcome)}
            kind = Msg.RESUME if self.seat == self.coordinator(seat) else Msg.ATTEST
            self.send(Body(kind, self.hand_no, 0, (seat, self.hand_no, _pack(state))))
            return
        if self.seat != self.coordinator(seat):
            return  # its own view goes with the RESUME it takes (_resume_table)
        if self.match is None or self.phase not in (SessionPhase.MATCH, SessionPhase.GRACE):
            return  # the lot: not resumable (see Limits)
        nxt = self.hand_no + 1 if self.hand is not None else self.hand_no
        state = match_snapshot(self.match, nxt, self.audits, self.blames, self.game)
        self.send(Body(Msg.RESUME, self.hand_no, 0, (seat, nxt, _pack(state))))

    def take_resume(self, body: Body) -> None:
        """Take the coordinator's RESUME (see the module docstring): a vote at the
        returning seat, the order to deal again everywhere else."""
        seat, nxt, blob = body.args
        state = _read_state(self.table, blob)
        if state is None:
            return
        coordinator = self.coordinator(seat)
        if self.phase is SessionPhase.REJOIN and seat == self._back:
            if coordinator is not None:  # always so: routed only from the coordinator
                self._vote(coordinator, nxt, state)
        elif (self.phase in (SessionPhase.MATCH, SessionPhase.GRACE)
              and self.hand_no <= nxt <= self.hand_no + 2 and "outcome" not in state):
            self._resume_table(seat, nxt, state)

    def take_attest(self, voter: int, body: Body) -> None:
        """Another seat's own view of the state this returning seat resumes into."""
        seat, nxt, blob = body.args
        if self.phase is not SessionPhase.REJOIN or seat != self._back or voter == seat:
            return
        state = _read_state(self.table, blob)
        if state is not None:
            self._vote(voter, nxt, state)

    def rejoin_drops(self, seat: int) -> bool:
        """Whether a returning seat drops ``seat``'s message rather than holding it: the
        coordinator's messages before its RESUME belong to the abandoned hand."""
        assert self._back is not None
        return seat == self.coordinator(self._back) and seat not in self._votes

    def _vote(self, voter: int, nxt: int, state: dict[str, Any]) -> None:
        """Count one seat's account of where the match stands; resume once a majority
        of the other seats, the coordinator among those heard, agree on a state that
        can follow this seat's own journal."""
        assert self.roster is not None and self._back is not None
        self._votes[voter] = (-1 if "outcome" in state else nxt, _pack(state))
        if self.coordinator(self._back) not in self._votes:
            return
        voters = len(self.roster.sitters) - len(self._returning[self._back])
        needed = voters // 2 + 1
        for (told_nxt, blob), count in Counter(self._votes.values()).most_common():
            if count < needed:
                return
            told = json.loads(blob)
            problem = self._contradiction(told_nxt, told)
            if problem is None:
                self._resume_here(told_nxt, told)
                return
            log.warning("table %s: %d seats told a state this seat cannot take (%s)",
                        self.table, count, problem)

    def _contradiction(self, nxt: int, state: dict[str, Any]) -> str | None:
        """Why ``state`` cannot be resumed into here, or None (checked against what this
        seat's journal kept)."""
        assert self.roster is not None
        players = len(self.roster.sitters)
        kept = _kept_snapshot(self.journal.entry.get("match"), players)
        if "outcome" in state:
            try:
                outcome = _outcome_from(self.table, state["outcome"])
            except TableGone as err:
                return str(err)
            if kept is not None and outcome.deals < kept["deals_played"]:
                return "a result with fewer deals than the journal holds"
            return None
        try:
            check_snapshot(state, players)
            match_from(state, self.roster.options, self._played(), players)
        except ValueError as err:
            return str(err)
        if state["hand_no"] != nxt:
            return f"state of hand {state['hand_no']} told for hand {nxt}"
        return contradiction(state, kept)

    def _resume_here(self, nxt: int, state: dict[str, Any]) -> None:
        """Sit down in ``state`` (checked by :meth:`_vote`)."""
        assert self.roster is not None
        self._votes.clear()
        if "outcome" in state:
            self.outcome = _outcome_from(self.table, state["outcome"])
            self.journal.keep(outcome=_outcome_json(self.outcome))
            self.phase = SessionPhase.DONE
            return
        self.game = self._played()
        self.match = match_from(state, self.roster.options, self.game,
                                len(self.roster.sitters))
        self.audits, self.blames = state["audits"], list(state["blames"])
        self.hand_no, self.hand, self.phase = nxt, None, SessionPhase.MATCH
        self.tell_seats()
        self.new_hand()

    def _resume_table(self, seat: int, nxt: int, state: dict[str, Any]) -> None:
        assert self.match is not None and self.roster is not None
        mine = match_snapshot(self.match, nxt, self.audits, self.blames, self.game)
        if self.seat is not None and self.seat != self.coordinator(seat):
            self.send(Body(Msg.ATTEST, self.hand_no, 0, (seat, nxt, _pack(mine))))
        if mine != state:  # this seat played the same deals: its own state stands
            log.warning("table %s: the match state seat %d's coordinator told differs "
                        "from ours; keeping ours", self.table, seat)
        if self.hand is not None and self.hand_no == nxt:
            return  # this hand began already (the seat's presence came back first)
        if self.hand is not None:
            reason = f"seat {seat} came back: the hand is dealt again (no blame)"
            lives = self.scores() if self.game is not None else tuple(self.match.lives)
            zero = (0,) * len(lives)
            self.tell(DealEnded(zero, zero, lives, reason, "not reached: a seat came back",
                                void=True))
            if self.spectator is not None:
                self.spectator.deal_ended(reason, "not reached", lives)
        self.hand, self.hand_no = None, nxt
        self.new_hand()

    def _played(self) -> Game | None:
        """The game played through the game interface at this table (None: Lodam)."""
        assert self.roster is not None
        return self.roster.game if self.roster.game.name != DEFAULT_GAME else None

    def tell_seats(self) -> None:
        """Tell the player the seats (the session says how)."""

    def timer(self) -> float | None:
        """The next deadline: a returning seat's wait, an away seat's grace and
        countdown, and the session's own clocks."""
        if self.phase is SessionPhase.REJOIN:
            return self._rejoin_deadline
        due = [super().timer()]
        if self.phase is SessionPhase.MATCH:
            for seat, since in self.away.items():
                due += [since + self.timing.grace_s,
                        self._countdown_at.get(seat, since) + COUNTDOWN_EVERY]
        return min((d for d in due if d is not None), default=None)

    def check_timers(self, now: float) -> None:
        """Hold the hand's timers while a seat is away; a returning seat's own wait."""
        if self.phase is SessionPhase.REJOIN:
            self.rejoin_timer(now)
        elif not (self.phase is SessionPhase.MATCH and self.hold_for_away(now)):
            super().check_timers(now)


def _pack(state: dict[str, Any]) -> bytes:
    return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()


def _read_state(table: str, blob: bytes) -> dict[str, Any] | None:
    """The JSON object a RESUME or ATTEST carries, or None (logged) if it is none."""
    try:
        state = json.loads(blob)
    except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
        log.warning("table %s: unreadable match state: %s", table, err)
        return None
    if not isinstance(state, dict):
        log.warning("table %s: a match state that is not an object", table)
        return None
    return state


def _kept_snapshot(kept: object, players: int) -> dict[str, Any] | None:
    """The journal's match state, if it is a sound one."""
    try:
        return check_snapshot(kept, players)
    except ValueError:
        return None


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


