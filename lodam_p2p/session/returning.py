"""The returning seat: it sits down again from its journal, asks to be taken back, and
counts the others' accounts of the match before it believes any (:mod:`.rejoin`
explains the design: "Coming back" and "Checking").
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from typing import Any

from lodam_p2p.games import DEFAULT_GAME, Game
from lodam_p2p.player import Notice, NoticeLevel, Phase, Progress
from lodam_p2p.session.course import MAX_VOIDS, Course, SessionPhase
from lodam_p2p.session.journal import SeatJournal, check_snapshot, contradiction, match_from
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.log import match_ended_lines
from lodam_p2p.session.resumestate import (
    MAX_RETURNS,
    TableGone,
    kept_snapshot,
    outcome_from,
    outcome_json,
    pack_state,
    read_state,
    return_counts,
    snapshot_of,
)
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome

log = logging.getLogger("lodam_p2p.session")


class Returning(Course):
    """The part of a session that comes back to a table from its journal."""

    me: str
    journal: SeatJournal
    follow: str | None
    _rejoin_deadline: float
    #: the seat whose return this session waits for: its own, or the followed one
    _back: int | None
    _votes: dict[int, tuple[int, bytes]]
    _together: tuple[str, ...]
    #: per returning seat, the seats coming back with it (itself included), as its
    #: REJOIN told: none of them can coordinate its return
    _returning: dict[int, frozenset[int]]
    #: per seat whose REJOIN was heard and not yet answered, the last hand it began
    _asked_back: dict[int, int]
    #: at the coordinator, per seat asking back and not answered yet: the last hand it
    #: began (a request stands until answered, or until that hand or a later one
    #: passes its audit)
    _pending: dict[int, int]
    #: per seat this machine saw go away, the hand it was in then
    _went_away: dict[int, int]
    #: per seat, the returns the table took this match (:data:`MAX_RETURNS`)
    returns: dict[int, int]

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
            self.keep(start=None)
            raise TableGone(f"the journal's match is unusable ({err}); start again for a "
                            "new one") from None
        self.roster, self.seat = roster, roster.seat_of(self.me)
        self._back = self.seat
        if self.seat is None and self.follow is not None:
            self._back = roster.seat_of(self.follow)
        if self._back is None and self.follow is None and self.watching_host():
            return self._watch_again(roster)
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
            self.keep(start=None)  # nobody holds the match: the next start is new
            raise TableGone(f"every seat of table {self.table} is coming back at once: "
                            "nobody holds the match to resume it; start a new one")
        if self.seat is None:
            return roster
        kept = self.journal.entry.get("match")
        hand = kept.get("hand_no") if isinstance(kept, dict) else None
        self.send(Body(Msg.REJOIN, args=(hand if isinstance(hand, int) and 0 <= hand < 2**32
                                         else 0, sorted(together - {self.seat, None}))))
        return roster

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

    def rejoin_timer(self, now: float) -> None:
        """A returning seat that hears no RESUME within the grace gives up."""
        if self._back is None:
            self._watch_timer(now)
            return
        if self.phase is SessionPhase.REJOIN and now >= self._rejoin_deadline:
            self.keep(start=None)  # given up: the next start is a new match
            raise TableGone(f"table {self.table} did not take this seat back within "
                            f"{self.timing.grace_s:g} s")

    def take_attest(self, voter: int, body: Body) -> None:
        """Another seat's own view of the state this returning seat resumes into."""
        seat, nxt, blob = body.args
        if self.phase is not SessionPhase.REJOIN or seat != self._back or voter == seat:
            return
        state = read_state(self.table, blob)
        if state is not None:
            self._vote(voter, nxt, state)

    def rejoin_drops(self, seat: int) -> bool:
        """Whether a returning seat drops ``seat``'s message rather than holding it: the
        coordinator's messages before its RESUME belong to the abandoned hand (a host
        that only watches, back, follows nothing but the results)."""
        if self._back is None:
            return True
        return seat == self.coordinator(self._back) and seat not in self._votes

    def _vote(self, voter: int, nxt: int, state: dict[str, Any]) -> None:
        """Count one seat's account of where the match stands; resume once a majority
        of the other seats, the coordinator among those heard, agree on a state that
        can follow this seat's own journal."""
        assert self.roster is not None and self._back is not None
        self._votes[voter] = (-1 if "outcome" in state else nxt, pack_state(state))
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
        kept = kept_snapshot(self.journal.entry.get("match"), players)
        if "outcome" in state:
            try:
                outcome = outcome_from(self.table, state["outcome"])
            except TableGone as err:
                return str(err)
            if kept is not None and outcome.deals < kept["deals_played"]:
                return "a result with fewer deals than the journal holds"
            return None
        try:
            return_counts(state, players)
            state = snapshot_of(state)
            check_snapshot(state, players)
            match_from(state, self.roster.options, self._played(), players)
        except ValueError as err:
            return str(err)
        if state["hand_no"] != nxt:
            return f"state of hand {state['hand_no']} told for hand {nxt}"
        if nxt <= self.signed.begun:
            return f"hand {nxt} was begun here before (hand {self.signed.begun})"
        return contradiction(state, kept)

    def _resume_here(self, nxt: int, state: dict[str, Any]) -> None:
        """Sit down in ``state`` (checked by :meth:`_vote`)."""
        assert self.roster is not None
        self._votes.clear()
        if "outcome" in state:
            self.outcome = outcome_from(self.table, state["outcome"])
            self.keep(outcome=outcome_json(self.outcome))
            self.phase = SessionPhase.DONE
            return
        players = len(self.roster.sitters)
        returns, voids = return_counts(state, players)
        self.game = self._played()
        self.match = match_from(snapshot_of(state), self.roster.options, self.game, players)
        self.audits, self.blames = state["audits"], list(state["blames"])
        self.returns = {seat: count for seat, count in enumerate(returns) if count}
        assert self._back is not None
        self.voids_in_row = voids - 1  # as before this return: counted again below
        self.hand_no, self.hand, self.phase = nxt, None, SessionPhase.MATCH
        self.tell_seats()
        self._after_return(self._back, returns[self._back])

    def _after_return(self, seat: int, count: int) -> None:
        """Go on after ``seat``'s ``count``-th return (``hand_no`` is the next hand)."""
        if count > MAX_RETURNS:
            self.away_seats.away.pop(seat, None)
            self.last_blamed = seat
            self.blames.append(f"seat {seat}: left: came back more than {MAX_RETURNS} "
                               f"times (hand {self.hand_no - 1})")
            self.tell(Notice(NoticeLevel.WARNING, f"seat {seat} came back more than "
                             f"{MAX_RETURNS} times: it counts as having left", seat))
            self.finish(early=True)
            return
        self.voids_in_row += 1
        if self.voids_in_row >= MAX_VOIDS:
            self.finish(early=True)
        else:
            self.new_hand()

    def _played(self) -> Game:
        """The game played at this table."""
        assert self.roster is not None
        return self.roster.game

    def rejoin_due(self) -> float | None:
        """A returning seat's wait (None: it is not returning)."""
        return self._rejoin_deadline if self.phase is SessionPhase.REJOIN else None

    # --- a host that only watched ----------------------------------------------------

    def _watch_again(self, roster: Roster) -> Roster:
        """Back as a host that only watched (``--watch``, no seat of its own): the table
        never waited for it, and it holds no hand to resume, so it follows the table
        to its end and takes the result a majority of the seats publish. The hands in
        between are not in its log."""
        if roster.game.name != DEFAULT_GAME:
            raise TableGone(f"the host of {roster.game.title} table {self.table} comes "
                            "back only beside a seat of its own")
        self.phase = SessionPhase.REJOIN
        self._rejoin_deadline = self.now() + self.timing.grace_s
        self.spectate(f"back at table {self.table}: following it to its result")
        return roster

    def _watch_timer(self, now: float) -> None:
        """Take the seats' result once a majority agree; give up once no seat has been
        connected for the grace (the table ended unheard)."""
        assert self.roster is not None
        outcome = self._told_result()
        if outcome is not None:
            self._watched_to_the_end(outcome, now)
        elif any(self.online(s.peer) for s in self.roster.sitters):
            self._rejoin_deadline = now + self.timing.grace_s
        elif now >= self._rejoin_deadline:
            self.keep(start=None)
            raise TableGone(f"table {self.table} ended without this host hearing its "
                            "result")

    def _told_result(self) -> MatchOutcome | None:
        """The result (RESULT) a majority of the seats published alike, if any."""
        assert self.roster is not None
        told = [self.results[s.peer] for s in self.roster.sitters if s.peer in self.results]
        counts = Counter(repr(args) for args in told)
        needed = len(self.roster.sitters) // 2 + 1
        for args in told:
            if counts[repr(args)] >= needed:
                winners, deals, audits, lives, blames, *standings = args
                return MatchOutcome(self.table, tuple(winners), deals, audits,
                                    tuple(blames), tuple(lives),
                                    standings=tuple(standings[0]) if standings else ())
        return None

    def _watched_to_the_end(self, outcome: MatchOutcome, now: float) -> None:
        """Keep and tell the result, say it too (seats linger for the host's), linger."""
        self.outcome = outcome
        self.keep(outcome=outcome_json(outcome))
        for line in match_ended_lines(outcome):
            self.spectate(line)
        self.send(Body(Msg.RESULT, args=(list(outcome.winners), outcome.deals,
                                         outcome.audits_passed, list(outcome.lives),
                                         list(outcome.blames), list(outcome.standings))))
        self.phase, self.linger_until = SessionPhase.LINGER, now + self.timing.linger_s
