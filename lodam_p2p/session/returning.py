"""The returning seat: it sits down again from its journal, asks to be taken back, and
counts the others' accounts of the match before it believes any (:mod:`.rejoin`
explains the design: "Coming back" and "Checking").

:class:`SeatReturn` is a part the table machine owns and calls (its ``coming_back``),
reaching it only through :class:`ReturningTable`: it holds the returning seat's own
state (the seat it waits for, the accounts counted, its wait) and asks the table's
side of returns (:class:`~.rejoin.ReturnDesk`, the machine's ``return_desk``) who the
coordinator is and how the table goes on after a return. A host that only watched
follows the table to its result the same way (:meth:`SeatReturn.begin`).

Limits
------
What returning (here and in :mod:`.rejoin`) cannot do:

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
  back then, every peer drops it at RESUME (:meth:`ReturnDesk.drop_carried_deck`) and
  the next deal shuffles anew, so the rest of that deck is never dealt. A RESUME
  carries at most 64 KiB (:data:`~lodam_p2p.session.wire.MAX_STATE`): some 25 rounds
  of Lorum.
- The grace is each peer's own setting (``--option rejoin_grace``); peers configured
  differently may end the wait at different times.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from lodam_p2p.games import DEFAULT_GAME, Game
from lodam_p2p.player import Phase, Progress, TableEvent
from lodam_p2p.session.handplay import Route
from lodam_p2p.session.journal import SeatJournal, check_snapshot, contradiction, match_from
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.log import match_ended_lines
from lodam_p2p.session.matchview import MatchView
from lodam_p2p.session.phases import SessionPhase, Timing
from lodam_p2p.session.rejoin import ReturnDesk
from lodam_p2p.session.resumestate import (
    TableGone,
    kept_snapshot,
    outcome_from,
    outcome_json,
    pack_state,
    read_state,
    return_counts,
    snapshot_of,
)
from lodam_p2p.session.signed import SignedRecord
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome

__all__ = ["ReturningTable", "SeatReturn"]

log = logging.getLogger("lodam_p2p.session")


class ReturningTable(MatchView, Protocol):
    """What the returning seat's part reads and calls on the table machine that owns it."""

    me: str
    journal: SeatJournal
    timing: Timing
    voids_in_row: int
    outcome: MatchOutcome | None
    results: dict[str, tuple[Any, ...]]
    signed: SignedRecord
    linger_until: float
    return_desk: ReturnDesk

    def now(self) -> float: ...
    def send(self, body: Body) -> None: ...
    def keep(self, **fields: Any) -> None: ...
    def tell(self, event: TableEvent) -> None: ...
    def tell_seats(self) -> None: ...
    def spectate(self, line: str) -> None: ...
    def watching_host(self) -> bool: ...
    def online(self, peer: str) -> bool: ...


class SeatReturn:
    """A seat coming back to a table from its journal (see the module docstring)."""

    def __init__(self, table: ReturningTable, follow: str | None = None,
                 together: Sequence[str] = ()) -> None:
        """``follow``: for a watcher (a restarted host), the peer of a seat of its own
        process whose return it follows (see :meth:`begin`). ``together``: the peers of
        every seat of this process, which come back together."""
        self.table = table
        self.follow = follow
        self.together = tuple(together)
        #: when a returning seat gives up waiting (or a watcher, hearing nobody)
        self.deadline = 0.0
        #: the seat whose return this session waits for: its own, or the followed one
        self.back: int | None = None
        #: per seat heard, its account of the match: (the next hand, or -1 for a result;
        #: the packed state)
        self.votes: dict[int, tuple[int, bytes]] = {}

    def begin(self) -> Roster:
        """Sit down again from the journal: roster and seat back, REJOIN sent.

        A watcher (the table's restarted host) has no seat to ask for: it follows a seat
        of its own process (``follow``) back in, counting the same RESUME and ATTESTs
        that seat counts and adopting the same state, so both print one result."""
        t = self.table
        try:
            table_id, options, rows, limit = t.journal.entry["start"]
            body = Body(Msg.START, args=(bytes.fromhex(table_id), options, [
                [p, bytes.fromhex(k), n, kind] for p, k, n, kind in rows], limit))
            roster = Roster.from_start(body)
        except (KeyError, TypeError, ValueError) as err:
            t.keep(start=None)
            raise TableGone(f"the journal's match is unusable ({err}); start again for a "
                            "new one") from None
        t.roster, t.seat = roster, roster.seat_of(t.me)
        self.back = t.seat
        if t.seat is None and self.follow is not None:
            self.back = roster.seat_of(self.follow)
        if self.back is None and self.follow is None and t.watching_host():
            return self._watch_again(roster)
        if self.back is None:
            raise TableGone(f"the journal's table {t.table} has no seat for this key"
                            if self.follow is None else f"the host of table {t.table} "
                            "comes back only beside a seat of its own")
        t.phase = SessionPhase.REJOIN
        self.deadline = t.now() + t.timing.grace_s
        t.tell(Progress(Phase.LOBBY, detail=f"back at table {t.table}: waiting to resume"))
        together = {roster.seat_of(peer) for peer in self.together} | {self.back}
        desk = t.return_desk
        desk.returning[self.back] = frozenset(s for s in together if s is not None)
        if desk.coordinator(self.back) is None:
            t.keep(start=None)  # nobody holds the match: the next start is new
            raise TableGone(f"every seat of table {t.table} is coming back at once: "
                            "nobody holds the match to resume it; start a new one")
        if t.seat is None:
            return roster
        kept = t.journal.entry.get("match")
        hand = kept.get("hand_no") if isinstance(kept, dict) else None
        t.send(Body(Msg.REJOIN, args=(hand if isinstance(hand, int) and 0 <= hand < 2**32
                                      else 0, sorted(together - {t.seat, None}))))
        return roster

    def due(self) -> float | None:
        """A returning seat's wait (None: it is not returning)."""
        return self.deadline if self.table.phase is SessionPhase.REJOIN else None

    def check_timer(self, now: float) -> None:
        """A returning seat that hears no RESUME within the grace gives up."""
        t = self.table
        if self.back is None:
            self._watch_timer(now)
            return
        if t.phase is SessionPhase.REJOIN and now >= self.deadline:
            t.keep(start=None)  # given up: the next start is a new match
            raise TableGone(f"table {t.table} did not take this seat back within "
                            f"{t.timing.grace_s:g} s")

    # --- the accounts of the match ---------------------------------------------------

    def route_resume(self, sender: int, body: Body) -> Route:
        """Where ``sender``'s RESUME goes at a returning seat: its own
        coordinator's RESUME is a vote; another seat's return that follows it in the
        coordinator's stream waits until this seat sits down and then moves it on with
        the table (one before it belongs to the hands this seat missed)."""
        desk, back = self.table.return_desk, body.args[0]
        if back == self.back:
            return Route.TAKE if sender == desk.coordinator(back) else Route.DROP
        mine = desk.coordinator(self.back) if self.back is not None else None
        return Route.WAIT if sender == mine and sender in self.votes else Route.DROP

    def drops(self, seat: int) -> bool:
        """Whether a returning seat drops ``seat``'s message rather than holding it: the
        coordinator's messages before its RESUME belong to the abandoned hand (a host
        that only watches, back, follows nothing but the results)."""
        if self.back is None:
            return True
        return seat == self.table.return_desk.coordinator(self.back) and seat not in self.votes

    def take_resume(self, body: Body) -> None:
        """The coordinator's RESUME of this seat's return: a vote (routed only from the
        coordinator, :meth:`route_resume`)."""
        t = self.table
        seat, nxt, blob = body.args
        state = read_state(t.table, blob)
        if state is None:
            return
        coordinator = t.return_desk.coordinator(seat)
        if seat == self.back and coordinator is not None:
            self._vote(coordinator, nxt, state)

    def take_attest(self, voter: int, body: Body) -> None:
        """Another seat's own view of the state this returning seat resumes into."""
        t = self.table
        seat, nxt, blob = body.args
        if t.phase is not SessionPhase.REJOIN or seat != self.back or voter == seat:
            return
        state = read_state(t.table, blob)
        if state is not None:
            self._vote(voter, nxt, state)

    def _vote(self, voter: int, nxt: int, state: dict[str, Any]) -> None:
        """Count one seat's account of where the match stands; resume once a majority
        of the other seats, the coordinator among those heard, agree on a state that
        can follow this seat's own journal."""
        t = self.table
        desk = t.return_desk
        assert t.roster is not None and self.back is not None
        self.votes[voter] = (-1 if "outcome" in state else nxt, pack_state(state))
        if desk.coordinator(self.back) not in self.votes:
            return
        voters = len(t.roster.sitters) - len(desk.returning[self.back])
        needed = voters // 2 + 1
        for (told_nxt, blob), count in Counter(self.votes.values()).most_common():
            if count < needed:
                return
            told = json.loads(blob)
            problem = self._contradiction(told_nxt, told)
            if problem is None:
                self._resume_here(told_nxt, told)
                return
            log.warning("table %s: %d seats told a state this seat cannot take (%s)",
                        t.table, count, problem)

    def _contradiction(self, nxt: int, state: dict[str, Any]) -> str | None:
        """Why ``state`` cannot be resumed into here, or None (checked against what this
        seat's journal kept)."""
        t = self.table
        assert t.roster is not None
        players = len(t.roster.sitters)
        kept = kept_snapshot(t.journal.entry.get("match"), players)
        if "outcome" in state:
            try:
                outcome = outcome_from(t.table, state["outcome"])
            except TableGone as err:
                return str(err)
            if kept is not None and outcome.deals < kept["deals_played"]:
                return "a result with fewer deals than the journal holds"
            return None
        try:
            return_counts(state, players)
            state = snapshot_of(state)
            check_snapshot(state, players)
            match_from(state, t.roster.options, self._played(), players)
        except ValueError as err:
            return str(err)
        if state["hand_no"] != nxt:
            return f"state of hand {state['hand_no']} told for hand {nxt}"
        if nxt <= t.signed.begun:
            return f"hand {nxt} was begun here before (hand {t.signed.begun})"
        return contradiction(state, kept)

    def _resume_here(self, nxt: int, state: dict[str, Any]) -> None:
        """Sit down in ``state`` (checked by :meth:`_vote`)."""
        t = self.table
        assert t.roster is not None
        self.votes.clear()
        if "outcome" in state:
            t.outcome = outcome_from(t.table, state["outcome"])
            t.keep(outcome=outcome_json(t.outcome))
            t.phase = SessionPhase.DONE
            return
        players = len(t.roster.sitters)
        returns, voids = return_counts(state, players)
        t.game = self._played()
        t.match = match_from(snapshot_of(state), t.roster.options, t.game, players)
        t.audits, t.blames = state["audits"], list(state["blames"])
        desk = t.return_desk
        desk.returns = {seat: count for seat, count in enumerate(returns) if count}
        assert self.back is not None
        t.voids_in_row = voids - 1  # as before this return: counted again below
        t.hand_no, t.hand, t.phase = nxt, None, SessionPhase.MATCH
        t.tell_seats()
        desk.after_return(self.back, returns[self.back])

    def _played(self) -> Game:
        """The game played at this table."""
        assert self.table.roster is not None
        return self.table.roster.game

    # --- a host that only watched ----------------------------------------------------

    def _watch_again(self, roster: Roster) -> Roster:
        """Back as a host that only watched (``--watch``, no seat of its own): the table
        never waited for it, and it holds no hand to resume, so it follows the table
        to its end and takes the result a majority of the seats publish. The hands in
        between are not in its log."""
        t = self.table
        if roster.game.name != DEFAULT_GAME:
            raise TableGone(f"the host of {roster.game.title} table {t.table} comes "
                            "back only beside a seat of its own")
        t.phase = SessionPhase.REJOIN
        self.deadline = t.now() + t.timing.grace_s
        t.spectate(f"back at table {t.table}: following it to its result")
        return roster

    def _watch_timer(self, now: float) -> None:
        """Take the seats' result once a majority agree; give up once no seat has been
        connected for the grace (the table ended unheard)."""
        t = self.table
        assert t.roster is not None
        outcome = self._told_result()
        if outcome is not None:
            self._watched_to_the_end(outcome, now)
        elif any(t.online(s.peer) for s in t.roster.sitters):
            self.deadline = now + t.timing.grace_s
        elif now >= self.deadline:
            t.keep(start=None)
            raise TableGone(f"table {t.table} ended without this host hearing its "
                            "result")

    def _told_result(self) -> MatchOutcome | None:
        """The result (RESULT) a majority of the seats published alike, if any."""
        t = self.table
        assert t.roster is not None
        told = [t.results[s.peer] for s in t.roster.sitters if s.peer in t.results]
        counts = Counter(repr(args) for args in told)
        needed = len(t.roster.sitters) // 2 + 1
        for args in told:
            if counts[repr(args)] >= needed:
                winners, deals, audits, lives, blames, *standings = args
                return MatchOutcome(t.table, tuple(winners), deals, audits,
                                    tuple(blames), tuple(lives),
                                    standings=tuple(standings[0]) if standings else ())
        return None

    def _watched_to_the_end(self, outcome: MatchOutcome, now: float) -> None:
        """Keep and tell the result, say it too (seats linger for the host's), linger."""
        t = self.table
        t.outcome = outcome
        t.keep(outcome=outcome_json(outcome))
        for line in match_ended_lines(outcome):
            t.spectate(line)
        t.send(Body(Msg.RESULT, args=(list(outcome.winners), outcome.deals,
                                      outcome.audits_passed, list(outcome.lives),
                                      list(outcome.blames), list(outcome.standings))))
        t.phase, t.linger_until = SessionPhase.LINGER, now + t.timing.linger_s
