"""The table machine: one seat (or a watcher) at a networked table, from the lobby to
the result, with no I/O and no clock of its own.

It is driven from outside: what it learns comes in through :meth:`receive` with the
time it arrived, time alone through :meth:`handle_timer`, and what it says goes into
lists its runner (:mod:`.runner`) drains; :meth:`timer` says when it next has something
to do and :meth:`now` is the last time it was given. :mod:`.driving` tells how (the
theory of operation, and why nothing a peer sends can stop a machine).

The machine holds the state every part reads (the phase, the roster and this seat, the
match and the hand under way, the blames, the queues and what goes out) and owns its
parts, each a plain class with its own state that reaches the machine only through a
small protocol naming what it reads and calls there: how it is driven
(:class:`~.driving.TableDrive`, ``drive``: the clock, what comes in, the parts' waits
put together), the way in
(:class:`~.routing.Router`, ``router``: each peer's queue, where each message goes),
the lobby and the lot (:class:`~.seating.SeatingDesk`, ``seating``), the course of the
match (:class:`~.course.MatchCourse`, ``course``: hands begun, settled, voided) and its
end (:class:`~.ending.MatchEnd`, ``ending``), the game's side of the course
(:class:`~.gamecourse.GameCourse`, ``game_course``), a hand's messages and claims
judged (:class:`~.judging.HandJudge`, ``judge``), the clocks and TIMEOUT votes
(:class:`~.clocks.TableClocks`, ``clocks``), the seats that are away
(:class:`~.away.AwaySeats`, ``away_seats``), seats coming back as the table follows
them (:class:`~.rejoin.ReturnDesk`, ``return_desk``) and this seat coming back from its
journal (:class:`~.returning.SeatReturn`, ``coming_back``), and the local player
(:class:`~.asking.Asking`, ``asking``). A part calls another only through the machine
(:meth:`finish`, :meth:`offence`, :meth:`new_hand`, …, each handing the call to the part
that does it) or through a part its protocol names.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from typing import Any

from lodam_p2p.fairdeal import Blame
from lodam_p2p.games import Game, Standings
from lodam_p2p.player import SeatInfo, SeatsChanged, TableEvent
from lodam_p2p.session.asking import Asking
from lodam_p2p.session.away import AwaySeats
from lodam_p2p.session.ballot import Ballot, VoteKey
from lodam_p2p.session.clocks import TableClocks
from lodam_p2p.session.course import MatchCourse
from lodam_p2p.session.driving import TableDrive
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
from lodam_p2p.session.journal import SeatJournal
from lodam_p2p.session.judging import HandJudge
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.lobby import HostDesk, Roster
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.lot import Lot
from lodam_p2p.session.phases import SessionPhase, Timing
from lodam_p2p.session.rejoin import ReturnDesk
from lodam_p2p.session.returning import SeatReturn
from lodam_p2p.session.routing import Router
from lodam_p2p.session.seating import SeatingDesk
from lodam_p2p.session.signed import SignedRecord
from lodam_p2p.session.wire import Body
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
        #: messages dropped here (the link counts those it dropped itself)
        self.ignored = 0
        #: this seat's journal (:mod:`.journal`; one that keeps nothing if none is given)
        self.journal = journal or SeatJournal(None, "seat", self.table)
        #: what this seat has signed, and the last hand it began (:mod:`.signed`): its
        #: last process may have signed in the hand its journal kept
        self.signed = SignedRecord(begun=_begun(self.journal))
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
        #: figures for benchmarks: seconds from each hand's start until it was dealt,
        #: the re-masks in the hands that passed their audit (each one proven and
        #: shared), and the clock at the match's start and end
        self.deal_times: list[float] = []
        self.remasks_audited = 0
        self.match_started_at = self.match_ended_at = 0.0
        # the parts, each with its own state, reaching this machine through a protocol
        #: the clock, what comes in, and the parts' waits put together
        self.drive: TableDrive = TableDrive(self)
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
        #: a hand's messages and claims, judged on what they prove
        self.judge: HandJudge = HandJudge(self)
        #: what the link and the player deliver, each peer's queue, and where it goes
        self.router: Router = Router(self)

    # --- what every part reads and calls here -------------------------------------------

    def now(self) -> float:
        """The clock: the last time the machine was given (``receive`` or
        ``handle_timer``; :attr:`TableDrive.clock <.driving.TableDrive.clock>`)."""
        return self.drive.clock

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
        """The clocks' book of TIMEOUT votes and waits (:attr:`SilenceVotes.ballot`)."""
        return self.clocks.silence.ballot

    @property
    def votes(self) -> dict[VoteKey, set[int]]:
        """The TIMEOUT votes counted here (:attr:`SilenceVotes.votes`)."""
        return self.clocks.silence.votes

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
        """Begin at ``now``: announce a host's table, JOIN it, or ask to be taken back
        (:meth:`TableDrive.start <.driving.TableDrive.start>`)."""
        self.drive.start(now)

    def receive(self, item: object, now: float) -> None:
        """Take one thing the link or the player delivered at ``now``; what a peer sent
        never raises out of here (:meth:`TableDrive.receive <.driving.TableDrive.receive>`)."""
        self.drive.receive(item, now)

    def handle_timer(self, now: float) -> None:
        """Take what can be taken now and check the clocks at ``now``
        (:meth:`TableDrive.handle_timer <.driving.TableDrive.handle_timer>`)."""
        self.drive.handle_timer(now)

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

    def timer(self) -> float | None:
        """When the machine next has something to do (None: only something that arrives
        can move it; :meth:`TableDrive.timer <.driving.TableDrive.timer>`)."""
        return self.drive.timer()

    def check_timers(self, now: float) -> None:
        """Blame whoever is late; end the waits that have run out
        (:meth:`TableDrive.check_timers <.driving.TableDrive.check_timers>`)."""
        self.drive.check_timers(now)


def _begun(journal: SeatJournal) -> int:
    """The last hand a seat's journal says it began (0: none, or nothing to resume)."""
    kept = journal.entry.get("match") if journal.rejoining else None
    begun = kept.get("hand_no") if isinstance(kept, dict) else None
    if isinstance(begun, int) and not isinstance(begun, bool) and begun >= 0:
        return begun
    return 0
