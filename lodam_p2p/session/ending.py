"""The end of a match at one session: the outcome, told, kept and published.

:class:`MatchEnd` is a part the table machine owns and calls (its ``ending``), reaching
it only through :class:`EndingTable`. A match ends when the game says it is over, when
it cannot go on (:data:`~.course.MAX_VOIDS` failed hands in a row, a seat gone past its
grace, the lot broken) or as a draw (:meth:`MatchEnd.end_in_draw`, decided by the
clocks, :mod:`.clocks`). The outcome is told to the player, written on the spectator
log, kept in the journal and published (RESULT) to every seat; then the session
lingers to answer resends.

**Leaving never pays** (protocol/SPEC.md): a seat that left the match or was put out
of it — put out on evidence, gone past its grace time, or at fault in the run of void
hands that ended the match — stands below every seat that stayed, whatever its score,
and is never among the winners while a seat plays on (:meth:`MatchEnd.departed`, then
:meth:`Game.standings_with_leavers
<lodam_p2p.games.Game.standings_with_leavers>`). A match that ends as a draw has every
seat still playing for its winners.
"""

from __future__ import annotations

from typing import Any, Protocol

from lodam_p2p.games import Game, Standings
from lodam_p2p.player import MatchEnded, Phase, Progress, TableEvent
from lodam_p2p.session.course import MAX_VOIDS, MatchCourse
from lodam_p2p.session.gamecourse import GameCourse
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.log import match_ended_lines
from lodam_p2p.session.phases import SessionPhase, Timing
from lodam_p2p.session.resumestate import outcome_json
from lodam_p2p.session.verdict import departed_seats, early_reason, expelled_reason
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome

__all__ = ["DRAW_REASON", "EndingTable", "MatchEnd"]

#: Why a match ended as a draw (:meth:`MatchEnd.end_in_draw`).
DRAW_REASON = "the match ends as a draw among the seats still playing"


class EndingTable(Protocol):
    """What the end of the match reads and calls on the table machine that owns it."""

    table: str
    seat: int | None
    roster: Roster | None
    phase: SessionPhase
    timing: Timing
    match: Any  #: the game's match (None until the lot is drawn)
    game: Game | None
    hand_no: int
    blames: list[str]
    audits: int
    voids_in_row: int
    last_blamed: int | None
    outcome: MatchOutcome | None
    linger_until: float
    match_ended_at: float
    game_course: GameCourse
    course: MatchCourse

    def now(self) -> float: ...
    def send(self, body: Body) -> None: ...
    def tell(self, event: TableEvent) -> None: ...
    def spectate(self, line: str) -> None: ...
    def keep(self, **fields: Any) -> None: ...
    def watching_host(self) -> bool: ...
    def active(self) -> tuple[bool, ...]: ...


class MatchEnd:
    """The end of the match at one session (see the module docstring)."""

    def __init__(self, table: EndingTable) -> None:
        self.table = table
        #: the match ends as a draw among the seats still playing (:meth:`end_in_draw`)
        self.drawn = False

    def finish(self, *, early: bool) -> None:
        """The match is over (or cannot go on): the outcome, told, published and kept."""
        t = self.table
        deals = t.match.deals_played if t.match is not None else 0
        t.course.close_hand()
        t.match_ended_at = t.now()
        puts_out = t.game is None or t.game.puts_out
        reason = DRAW_REASON if self.drawn else self._early_reason() if early else (
            expelled_reason(t.blames) if puts_out else "")
        if reason:
            t.spectate(reason)
        if puts_out:
            t.outcome = self._put_out_outcome(early, deals, reason)
        else:
            t.outcome = t.game_course.outcome(t.table, deals, reason,
                                              self.final_standings(early=early))
        winners, lives = t.outcome.winners, t.outcome.lives
        t.tell(Progress(Phase.MATCH_OVER))
        for line in match_ended_lines(t.outcome):
            t.spectate(line)
        # the host's watcher says it is done too: a seat lingers for its resends as for
        # another seat's (a watcher still auditing the last deal may need them)
        if t.seat is not None or t.watching_host():
            t.send(Body(Msg.RESULT, args=(list(winners), min(deals, 255),
                                          min(t.audits, 255), list(lives),
                                          [b[:256] for b in t.blames[-16:]],
                                          list(t.outcome.standings))))
        t.phase, t.linger_until = SessionPhase.LINGER, t.now() + t.timing.linger_s
        t.keep(outcome=outcome_json(t.outcome))

    def end_in_draw(self) -> None:
        """End the match as a draw: every seat still playing is a winner, the seats
        that left stand below them as ever (:meth:`departed`)."""
        self.drawn = True
        self.finish(early=True)

    def _put_out_outcome(self, early: bool, deals: int, reason: str) -> MatchOutcome:
        """The outcome of a game that puts offenders out (or of a match never begun)."""
        t = self.table
        match, game = t.match, t.game
        if match is None or game is None:
            return MatchOutcome(t.table, (), deals, t.audits, tuple(t.blames))
        standings = self.final_standings(early=early)
        payouts = game.payouts(match) if match.is_over and not self.drawn else ()
        t.tell(MatchEnded(standings.winners, standings.order, deals, payouts, reason))
        return MatchOutcome(t.table, standings.winners, deals, t.audits,
                            tuple(t.blames), standings.scores, payouts, game=game.name,
                            standings=standings.order)

    def final_standings(self, *, early: bool) -> Standings:
        """The game's standings with the seats that :meth:`departed` below every seat
        that stayed (the same at every honest peer: built from the blames and the match,
        which agree everywhere)."""
        t = self.table
        assert t.match is not None and t.game is not None
        return t.game.standings_with_leavers(t.match, self.departed(early=early),
                                             draw=self.drawn)

    def departed(self, *, early: bool) -> list[int]:
        """The seats that left the match or were put out of it, the earliest first
        (:func:`~.verdict.departed_seats`, from the blames: the match's clock, the same
        at every honest peer)."""
        t = self.table
        if t.match is None or t.game is None:
            return []
        grace = t.phase is SessionPhase.GRACE
        return departed_seats(t.blames, t.active(), puts_out=t.game.puts_out,
                              ended_early=early and not self.drawn,
                              waited_for=t.last_blamed if grace else None,
                              voids=t.voids_in_row if t.voids_in_row >= MAX_VOIDS
                              else 0, hand_no=t.hand_no)

    def _early_reason(self) -> str:
        t = self.table
        return early_reason(seated=t.roster is not None, started=t.match is not None,
                            grace_over=t.phase is SessionPhase.GRACE,
                            voids=t.voids_in_row, blamed=t.last_blamed, blames=t.blames)
