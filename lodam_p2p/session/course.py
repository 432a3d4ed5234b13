"""The course of a match at one session: hands begun, settled, voided, and the end.

:class:`Course` is the base of the table machine
(:class:`~lodam_p2p.session.seat.TableMachine`) that knows the match, and owns the
machine's parts (:mod:`.clocks`, :mod:`.gamecourse`, :mod:`.away`). It knows the match
always through the table's :class:`~lodam_p2p.games.Game`: it starts each hand with
fresh keys (:class:`~lodam_p2p.session.handplay.HandPlay` for a game whose actions
pass cards face down, :class:`~lodam_p2p.session.gamehand.GameHand` for the others),
settles it when the audit passes (:meth:`Game.finish_deal
<lodam_p2p.games.Game.finish_deal>` on the replayed deal, for every game), and
handles the ways a hand can fail (protocol/SPEC.md, "Evidence and blame"):

- an **offence proven by a signed message** — a proof that fails as it arrives, two
  signed messages for one step, a card played without its reveal, an audit opening
  sent early, a revoke or false exchange found by the audit: every honest peer checks
  the same signed messages and reaches the same verdict, so the offender is put out
  of the match (:meth:`Game.put_out <lodam_p2p.games.Game.put_out>`), the hand is void
  and the same dealer deals again.
  The peer publishes its claim with the evidence (VOID); a claim is never a verdict by
  itself — a peer acts only on evidence it checked;
- **silence**, decided by the table: a seat that waits past the table's time limit
  (one for every seat, from START) for another seat signs a TIMEOUT vote naming that
  seat and the step; once two independent seats' votes check out here (:mod:`.clocks`),
  the silent seat is out the same way. One seat's timeout alone blames nobody;
- the **lot** failing: the match never starts, and the result says who broke it.

A game that puts nobody out (Lorum; :attr:`Game.puts_out <lodam_p2p.games.Game.puts_out>`
is false) follows the same course (:mod:`.gamecourse`): an offence costs what the game
says and the same dealer deals again. The clocks and votes are in :mod:`.clocks`.

**Leaving never pays** (protocol/SPEC.md): a seat that left the match or was put out
of it — put out on evidence, gone past its grace time, or at fault in the run of void
hands that ended the match — stands below every seat that stayed, whatever its score,
and is never among the winners while a seat plays on (:meth:`Course.departed`, then
:meth:`Game.standings_with_leavers
<lodam_p2p.games.Game.standings_with_leavers>`). A match that ends as a draw
(:meth:`Course.end_in_draw`) has every seat still playing for its winners.

Every blame line reads ``seat N: check: detail (hand H)`` with the guilty seat first,
built only from what every honest peer saw alike, so the lines agree at every peer;
they travel in the signed RESULT.
"""


from __future__ import annotations

import logging
from collections import deque
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, RemoteProtocolError, Transcript
from lodam_p2p.games import Game, Standings
from lodam_p2p.player import (
    DealEnded,
    MatchEnded,
    Notice,
    NoticeLevel,
    Phase,
    Progress,
    SeatInfo,
    SeatsChanged,
    TableEvent,
    ViewChanged,
)
from lodam_p2p.session.audit import RULES_OFFENCES
from lodam_p2p.session.away import AwaySeats
from lodam_p2p.session.ballot import Ballot, VoteKey
from lodam_p2p.session.clocks import TableClocks
from lodam_p2p.session.effects import Event, Keep, Spectate, Tell, TranscriptReady
from lodam_p2p.session.gamecourse import GameCourse
from lodam_p2p.session.gamehand import GameHand
from lodam_p2p.session.handmachine import HandMachine
from lodam_p2p.session.handplay import HandPlay
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.log import (
    SpectatorLog,
    applied_line,
    deal_ended_line,
    dealer_line,
    hand_line,
    match_ended_lines,
)
from lodam_p2p.session.lot import Lot
from lodam_p2p.session.phases import SessionPhase, Timing
from lodam_p2p.session.signed import SignedRecord
from lodam_p2p.session.verdict import (
    FALSE_HOST,
    LEFT,
    departed_seats,
    early_reason,
    expelled_reason,
)
from lodam_p2p.session.wire import MAX_ENVELOPES, Body, Msg
from lodam_p2p.tableplan import MatchOutcome, SeatPlan

__all__ = ["FALSE_HOST", "LEFT", "MAX_VOIDS", "Course", "SessionPhase", "Timing", "blame_line"]

log = logging.getLogger("lodam_p2p.session")

#: Failed hands in a row after which the table ends.
MAX_VOIDS = 3
#: Checks every peer makes alike with no claim to prompt it: the audit opening's (every
#: peer sees the same opening), and a transfer's key-switch proof, which every peer,
#: followers included, checks as it arrives.
_AUDIT_CHECKS = frozenset({"audit-key", "shuffle", "shuffle-commitment", "remask",
                           "remask-commitment", "transfer"})
#: Checks a proof of shuffle fails as it arrives (also the audit's, once seats opened).
_PROVEN = frozenset({"shuffle", "remask"})
#: Why a match ended as a draw (:meth:`Course.end_in_draw`).
DRAW_REASON = "the match ends as a draw among the seats still playing"


class Course:
    """The match as one session follows it; see the module docstring."""

    #: this peer's name, and its host's (set by the machine that sits here)
    me: str
    host: str | None
    #: the hand machine this session deals in a game without exchanges (a test seats a
    #: cheating one)
    hand_type: type[GameHand] = GameHand

    def __init__(self, table: str, plan: SeatPlan | None, identity: Ed25519PrivateKey, *,
                 entropy: Entropy, timing: Timing, spectator: SpectatorLog | None) -> None:
        self.table, self.plan, self.entropy, self.timing = table, plan, entropy, timing
        self.spectator = spectator
        self.identity = identity
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
        #: the match ends as a draw among the seats still playing (:meth:`end_in_draw`)
        self.drawn = False
        self.results: dict[str, tuple[Any, ...]] = {}
        self.outgoing: list[Body] = []
        #: per peer, its bodies not taken yet, in its order (this machine's own too)
        self.queues: dict[str, deque[Body]] = {}
        #: the peers whose presence says they are connected
        self.present: set[str] = set()
        self._now = 0.0
        #: messages dropped here (the link counts those it dropped itself)
        self.ignored = 0
        #: what this seat has signed, and the last hand it began (:mod:`.signed`)
        self.signed = SignedRecord()
        #: what the runner is asked to do (:mod:`.effects`), in order
        self.events: list[Event] = []
        self.lobby_since = self.lot_since = self.grace_until = self.linger_until = 0.0
        #: the table's clocks and TIMEOUT votes (a part of the machine)
        self.clocks = TableClocks(self)
        #: the match as the table's game runs it (a part of the machine)
        self.game_course = GameCourse(self)
        #: the seats that are gone, and the clocks held for them (a part of the machine)
        self.away_seats = AwaySeats(self)
        self._told_dealt = False
        #: figures for benchmarks: seconds from each hand's start until it was dealt,
        #: and the clock at the match's start and end
        self.deal_times: list[float] = []
        #: re-masks in the hands that passed their audit (each one proven and shared)
        self.remasks_audited = 0
        self.hand_started_at = self.match_started_at = self.match_ended_at = 0.0

    def now(self) -> float:
        """The clock: the last time the machine was given (``receive`` or
        ``handle_timer``)."""
        return self._now

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

    def standings(self) -> Standings:
        """The game's standings as they are."""
        return self.game_course.standings()

    def scores(self) -> tuple[int, ...]:
        """Per seat, the game's running score."""
        return self.game_course.scores()

    def watching_host(self) -> bool:
        """This session is the host's watcher (it keeps the lobby, sits at no seat)."""
        return self.seat is None and self.host is not None and self.host == self.me

    def holding(self) -> bool:
        """Whether the table holds its clocks for a seat that is away (:mod:`.away`)."""
        return self.away_seats.holding()

    @property
    def away(self) -> dict[int, float]:
        """The seats that are away, and since when (:attr:`AwaySeats.away`)."""
        return self.away_seats.away

    @property
    def ballot(self) -> Ballot:
        """The clocks' book of TIMEOUT votes and waits (:attr:`TableClocks.ballot`)."""
        return self.clocks.ballot

    @property
    def votes(self) -> dict[VoteKey, set[int]]:
        """The TIMEOUT votes counted here (:attr:`TableClocks.votes`)."""
        return self.clocks.votes

    # --- telling ------------------------------------------------------------------------

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

    def _wants_views(self) -> bool:
        """A seated player that takes a view after every move (a bot, which decides from
        the view it is asked with, does not: building one per move is wasted)."""
        return self.seat is not None and self.plan is not None and getattr(
            self.plan.player, "wants_views", True)

    def tell_applied(self) -> None:
        """Tell the player (and the log) the public decisions just taken."""
        hand = self.hand
        assert hand is not None
        if hand.dealt and not self._told_dealt:
            self._told_dealt = True
            self.deal_times.append(self.now() - self.hand_started_at)
            self.tell(Progress(Phase.PLAYING))
            if self._wants_views():
                self.tell(ViewChanged(hand.view(), deal=self._deal_shown()))
        for applied in hand.applied:
            line = applied_line(applied.text)
            if line is not None:
                self.spectate(line)
            if self._wants_views():
                self.tell(ViewChanged(hand.view(), applied.shown, deal=self._deal_shown()))
        hand.applied.clear()
        if hand.public.is_over and hand.dealt:
            self.tell(Progress(Phase.AUDIT, detail="opening the hand for the audit"))

    def _deal_shown(self) -> int:
        """The number of the deal in play as every seat shows it: the deals the match has
        counted, and one; not the hand number, which a hand dealt again moves on."""
        return int(self.match.deals_played) + 1 if self.match is not None else 0

    def drain_hand(self) -> None:
        """Send what the hand produced."""
        if self.hand is not None:
            bodies, self.hand.outbox = self.hand.outbox, []
            for body in bodies:
                self.send(body)

    def _close_hand(self) -> None:
        """Leave the hand, sending first what it made. A verdict can end a hand in the
        very pass in which this seat made its own audit opening (the last card and the
        others' openings taken together, the audit convicting): the others need that
        opening to reach the same verdict, and without it they would find this seat
        silent. The runner is handed the hand's transcript (:class:`TranscriptReady`),
        unless its deck carries over between deals (Lorum's short First-and-last): a
        transcript names one deal's schedule, and its verifier would read the later
        deals' shares against it."""
        self.drain_hand()
        if self.hand is not None and not getattr(self.hand, "short", False):
            fair = self.hand.fair
            self.events.append(TranscriptReady(
                self.table, fair.config.hand, self.seat,
                Transcript(fair.config, tuple(fair.envelopes()))))
        self.hand = None

    # --- hands --------------------------------------------------------------------------

    def begin_match(self, dealer: int) -> None:
        """The lot is drawn: the match begins."""
        assert self.roster is not None
        self.game = self.roster.game
        self.game_course.begin(dealer)
        self.spectate(dealer_line(dealer))
        self.phase = SessionPhase.MATCH
        self.new_hand()

    def new_hand(self) -> None:
        """Begin hand number ``hand_no`` with fresh keys."""
        assert self.match is not None and self.roster is not None and self.game is not None
        if self.game.exchanges is None:
            self.hand = self.game_course.hand()
            self._hand_begun()
            return
        m, r = self.match, self.roster
        identities = tuple(s.pubkey for s in r.sitters)
        self.hand = HandPlay(self.game, m, identities, self.seat, table_id=r.table_id,
                             hand=self.hand_no, identity=self.identity, entropy=self.entropy,
                             now=self.now(), timeout=self.limit())
        self.spectate(hand_line(self.hand_no, m.deals_played + 1, self.hand.public))
        self._hand_begun()

    def _hand_begun(self) -> None:
        self.phase, self._told_dealt = SessionPhase.MATCH, False
        self.hand_started_at = self.now()
        self.tell(Progress(Phase.SHUFFLING, detail=f"hand {self.hand_no}: keys and shuffle"))

    def settle(self) -> None:
        """The audit passed: settle the deal and go on."""
        assert self.hand is not None and self.hand.full is not None and self.match is not None
        self.audits += 1
        self.remasks_audited += len(self.hand.fair.record.remasks)
        self.voids_in_row = 0
        self.game_course.settle()
        self._next_hand()

    def _next_hand(self) -> None:
        assert self.match is not None
        self._close_hand()
        self.hand_no += 1
        self.tell(Progress(Phase.DEAL_OVER))
        if self.match.is_over:
            self.finish(early=False)
        else:
            self.new_hand()

    def protocol_failure(self, err: RemoteProtocolError) -> None:
        """A signed message failed a check (as it arrived, or at the audit): an offence.

        Every check the fair-deal hand makes on an attributable message is public: any
        peer holding the same signed envelopes reaches the same verdict."""
        hand = self.hand
        assert hand is not None
        # A proof that fails as it arrives is judged by every seat on its own, but a
        # follower that answers nothing (the host's watcher) takes proofs of shuffle
        # (the deck's and the re-masks') unchecked until a claim comes: the claim
        # carries the failed proof so that it checks too.
        arrived = err.check in _PROVEN and not hand.fair.opened()
        at_audit = not arrived and (
            (hand.verdict is not None and err.blame == hand.verdict)
            or err.check in _AUDIT_CHECKS or err.check in RULES_OFFENCES)
        evidence = () if at_audit else hand.last_fed.get(err.blame.seat, ())
        self.offence(err.blame, evidence)

    def offence(self, blame: Blame, evidence: tuple[bytes, ...] = (), *,
                announce: bool = True) -> None:
        """Proven: the offender is out, the hand is void, the same dealer deals again.

        ``evidence``: the offender's signed envelopes that prove it, published with the
        claim (VOID) so that a peer that has not seen them yet can check them too. There
        is no claim without evidence: verdicts of the audit, or on a message every peer
        takes alike, are reached by every peer on its own."""
        assert self.match is not None and self.game is not None
        if not 0 <= blame.seat < len(self.active()):
            return
        self.drain_hand()  # what the hand made before the verdict goes out before it
        if announce and evidence and self.seat is not None and self.hand is not None:
            self.send(Body(Msg.VOID, self.hand_no, 0, (blame.seat, str(blame)[:200]),
                           evidence[-MAX_ENVELOPES:]))
        self.blames.append(blame_line(blame, self.hand_no))
        self.last_blamed = blame.seat
        if not self.game.puts_out:
            self.game_course.offence(blame)
            if self.voids_in_row >= MAX_VOIDS:
                self._close_hand()
                self.finish(early=True)
            else:
                self._next_hand()
            return
        self.game.put_out(self.match, blame.seat)
        reason = f"seat {blame.seat} is out of the match: {blame.check} ({blame.detail})"
        self.deal_void(reason, f"failed: {blame}", blame.seat)
        self._next_hand()

    def active(self) -> tuple[bool, ...]:
        """Per seat, whether it still plays (everyone, in a game that puts nobody out)."""
        assert self.match is not None and self.game is not None
        if self.game.puts_out:
            return self.game.dealt_in(self.match)
        return (True,) * self.game_course.game_match().players

    def void(self, blame: Blame, *, announce: bool) -> None:
        """The hand is void without an offender put out (kept for a failing table)."""
        if self.hand is None:
            return
        self.drain_hand()
        if announce:
            self.send(Body(Msg.VOID, self.hand_no, 0, (blame.seat, str(blame)[:200])))
        self.blames.append(blame_line(blame, self.hand_no))
        self.voids_in_row += 1
        self.last_blamed = blame.seat
        self.deal_void(f"the hand is void: {blame}", f"not reached: {blame}", blame.seat)
        self._close_hand()
        self.hand_no += 1
        if self.voids_in_row >= MAX_VOIDS:
            self.finish(early=True)
        elif not self._seat_online(blame.seat):
            self.phase, self.grace_until = SessionPhase.GRACE, self.now() + self.timing.grace_s
            self.tell(Progress(Phase.DEAL_OVER, (blame.seat,), "waiting for a seat to return"))
        else:
            self.new_hand()

    def deal_void(self, reason: str, audit: str, blamed: int) -> None:
        assert self.match is not None
        lives = self.scores()
        zero = (0,) * len(lives)
        self.tell(Notice(NoticeLevel.ERROR, reason, blamed))
        self.tell(DealEnded(zero, zero, lives, reason, audit, void=True))
        self.spectate(deal_ended_line(reason, audit, lives))

    def _seat_online(self, seat: int) -> bool:
        assert self.roster is not None
        return self.online(self.roster.sitters[seat].peer)

    def came_back(self, peer: str) -> None:
        """A seat's presence is back: if the table waited for it, deal again."""
        if (self.phase is SessionPhase.GRACE and self.roster is not None
                and self.last_blamed is not None
                and self.roster.sitters[self.last_blamed].peer == peer):
            self.new_hand()

    # --- the end ------------------------------------------------------------------------

    def finish(self, *, early: bool) -> None:
        """The match is over (or cannot go on): the outcome, told and published."""
        deals = self.match.deals_played if self.match is not None else 0
        self._close_hand()
        self.match_ended_at = self.now()
        puts_out = self.game is None or self.game.puts_out
        reason = DRAW_REASON if self.drawn else self._early_reason() if early else (
            expelled_reason(self.blames) if puts_out else "")
        if reason:
            self.spectate(reason)
        if puts_out:
            self.outcome = self._put_out_outcome(early, deals, reason)
        else:
            self.outcome = self.game_course.outcome(self.table, deals, reason,
                                                    self.final_standings(early=early))
        winners, lives = self.outcome.winners, self.outcome.lives
        self.tell(Progress(Phase.MATCH_OVER))
        for line in match_ended_lines(self.outcome):
            self.spectate(line)
        # the host's watcher says it is done too: a seat lingers for its resends as for
        # another seat's (a watcher still auditing the last deal may need them)
        if self.seat is not None or self.watching_host():
            self.send(Body(Msg.RESULT, args=(list(winners), min(deals, 255),
                                             min(self.audits, 255), list(lives),
                                             [b[:256] for b in self.blames[-16:]],
                                             list(self.outcome.standings))))
        self.phase, self.linger_until = SessionPhase.LINGER, self.now() + self.timing.linger_s

    def end_in_draw(self) -> None:
        """End the match as a draw: every seat still playing is a winner, the seats
        that left stand below them as ever (:meth:`departed`)."""
        self.drawn = True
        self.finish(early=True)

    def _put_out_outcome(self, early: bool, deals: int, reason: str) -> MatchOutcome:
        """The outcome of a game that puts offenders out (or of a match never begun)."""
        match, game = self.match, self.game
        if match is None or game is None:
            return MatchOutcome(self.table, (), deals, self.audits, tuple(self.blames))
        standings = self.final_standings(early=early)
        payouts = game.payouts(match) if match.is_over and not self.drawn else ()
        self.tell(MatchEnded(standings.winners, standings.order, deals, payouts, reason))
        return MatchOutcome(self.table, standings.winners, deals, self.audits,
                            tuple(self.blames), standings.scores, payouts, game=game.name,
                            standings=standings.order)

    def final_standings(self, *, early: bool) -> Standings:
        """The game's standings with the seats that :meth:`departed` below every seat
        that stayed (the same at every honest peer: built from the blames and the match,
        which agree everywhere)."""
        assert self.match is not None and self.game is not None
        return self.game.standings_with_leavers(self.match, self.departed(early=early),
                                                draw=self.drawn)

    def departed(self, *, early: bool) -> list[int]:
        """The seats that left the match or were put out of it, the earliest first
        (:func:`~.verdict.departed_seats`, from the blames: the match's clock, the same
        at every honest peer)."""
        if self.match is None or self.game is None:
            return []
        grace = self.phase is SessionPhase.GRACE
        return departed_seats(self.blames, self.active(), puts_out=self.game.puts_out,
                              ended_early=early and not self.drawn,
                              waited_for=self.last_blamed if grace else None,
                              voids=self.voids_in_row if self.voids_in_row >= MAX_VOIDS
                              else 0, hand_no=self.hand_no)

    def _early_reason(self) -> str:
        return early_reason(seated=self.roster is not None, started=self.match is not None,
                            grace_over=self.phase is SessionPhase.GRACE,
                            voids=self.voids_in_row, blamed=self.last_blamed, blames=self.blames)

    def _remaining(self) -> list[int]:
        """The seats still in the match."""
        return [seat for seat, playing in enumerate(self.active()) if playing]

    def limit(self) -> float:
        """The table's time limit, the same for every seat (START; never a seat's claim)."""
        return self.roster.limit_s if self.roster is not None else self.timing.timeout_s


def blame_line(blame: Blame, hand: int) -> str:
    """The result's line for ``blame``: ``seat N: check: detail (hand H)``."""
    return f"seat {blame.seat}: {blame.check}: {blame.detail} (hand {hand})"
