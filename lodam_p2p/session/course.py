"""The course of a match at one session: hands begun, settled and voided.

:class:`MatchCourse` is a part the table machine
(:class:`~lodam_p2p.session.seat.TableMachine`) owns and calls (its ``course``),
reaching it only through :class:`CourseTable`. It knows the match always through the
table's :class:`~lodam_p2p.games.Game`: it starts each hand with fresh keys
(:class:`~lodam_p2p.session.handplay.HandPlay` for a game whose actions pass cards face
down, :class:`~lodam_p2p.session.gamehand.GameHand` for the others, which the game's
side of the course makes, :mod:`.gamecourse`), keeps the match state in the journal
before a hand's first envelope goes out, settles it when the audit passes
(:meth:`Game.finish_deal <lodam_p2p.games.Game.finish_deal>` on the replayed deal, for
every game), and handles the ways a hand can fail (protocol/SPEC.md, "Evidence and
blame"):

- an **offence proven by a signed message** — a proof that fails as it arrives, two
  signed messages for one step, a card played without its reveal, an audit opening
  sent early, a revoke or false exchange found by the audit: every honest peer checks
  the same signed messages and reaches the same verdict (:mod:`.judging`), so the
  offender is put out of the match (:meth:`Game.put_out
  <lodam_p2p.games.Game.put_out>`), the hand is void and the same dealer deals again.
  The peer publishes its claim with the evidence (VOID); a claim is never a verdict by
  itself — a peer acts only on evidence it checked;
- **silence**, decided by the table: a seat that waits past the table's time limit
  (one for every seat, from START) for another seat signs a TIMEOUT vote naming that
  seat and the step; once two independent seats' votes check out here (:mod:`.clocks`),
  the silent seat is out the same way. One seat's timeout alone blames nobody;
- the **lot** failing: the match never starts, and the result says who broke it.

A game that puts nobody out (Lorum; :attr:`Game.puts_out <lodam_p2p.games.Game.puts_out>`
is false) follows the same course (:mod:`.gamecourse`): an offence costs what the game
says and the same dealer deals again. The end of the match, and who stands where, is
:mod:`.ending`.

Every blame line reads ``seat N: check: detail (hand H)`` with the guilty seat first,
built only from what every honest peer saw alike, so the lines agree at every peer;
they travel in the signed RESULT.
"""


from __future__ import annotations

import logging
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, Transcript
from lodam_p2p.player import (
    DealEnded,
    Notice,
    NoticeLevel,
    Phase,
    Progress,
    TableEvent,
    ViewChanged,
)
from lodam_p2p.session.effects import Event, TranscriptReady
from lodam_p2p.session.gamecourse import GameCourse
from lodam_p2p.session.handplay import HandPlay
from lodam_p2p.session.journal import match_snapshot
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.log import applied_line, deal_ended_line, dealer_line, hand_line
from lodam_p2p.session.matchview import MatchView
from lodam_p2p.session.phases import SessionPhase, Timing
from lodam_p2p.session.signed import SignedRecord
from lodam_p2p.session.wire import MAX_ENVELOPES, Body, Msg
from lodam_p2p.tableplan import SeatPlan

__all__ = ["MAX_VOIDS", "CourseTable", "MatchCourse", "SessionPhase", "Timing", "blame_line"]

log = logging.getLogger("lodam_p2p.session")

#: Failed hands in a row after which the table ends.
MAX_VOIDS = 3


class CourseTable(MatchView, Protocol):
    """What the course of the match reads and calls on the table machine that owns it."""

    plan: SeatPlan | None
    identity: Ed25519PrivateKey
    entropy: Entropy
    timing: Timing
    voids_in_row: int
    last_blamed: int | None
    signed: SignedRecord
    events: list[Event]
    grace_until: float
    deal_times: list[float]
    remasks_audited: int
    game_course: GameCourse

    def now(self) -> float: ...
    def limit(self) -> float: ...
    def send(self, body: Body) -> None: ...
    def tell(self, event: TableEvent) -> None: ...
    def spectate(self, line: str) -> None: ...
    def keep(self, **fields: Any) -> None: ...
    def online(self, peer: str) -> bool: ...
    def scores(self) -> tuple[int, ...]: ...
    def active(self) -> tuple[bool, ...]: ...
    def finish(self, *, early: bool) -> None: ...


class MatchCourse:
    """The match as one session follows it, hand by hand; see the module docstring."""

    def __init__(self, table: CourseTable) -> None:
        self.table = table
        #: the player was told the hand under way is dealt
        self.told_dealt = False
        #: when the hand under way began (for :attr:`CourseTable.deal_times`)
        self.hand_started_at = 0.0

    # --- telling ------------------------------------------------------------------------

    def _wants_views(self) -> bool:
        """A seated player that takes a view after every move (a bot, which decides from
        the view it is asked with, does not: building one per move is wasted)."""
        t = self.table
        return t.seat is not None and t.plan is not None and getattr(
            t.plan.player, "wants_views", True)

    def tell_applied(self) -> None:
        """Tell the player (and the log) the public decisions just taken."""
        t = self.table
        hand = t.hand
        assert hand is not None
        if hand.dealt and not self.told_dealt:
            self.told_dealt = True
            t.deal_times.append(t.now() - self.hand_started_at)
            t.tell(Progress(Phase.PLAYING))
            if self._wants_views():
                t.tell(ViewChanged(hand.view(), deal=self._deal_shown()))
        for applied in hand.applied:
            line = applied_line(applied.text)
            if line is not None:
                t.spectate(line)
            if self._wants_views():
                t.tell(ViewChanged(hand.view(), applied.shown, deal=self._deal_shown()))
        hand.applied.clear()
        if hand.public.is_over and hand.dealt:
            t.tell(Progress(Phase.AUDIT, detail="opening the hand for the audit"))

    def _deal_shown(self) -> int:
        """The number of the deal in play as every seat shows it: the deals the match has
        counted, and one; not the hand number, which a hand dealt again moves on."""
        match = self.table.match
        return int(match.deals_played) + 1 if match is not None else 0

    def drain_hand(self) -> None:
        """Send what the hand produced."""
        t = self.table
        if t.hand is not None:
            bodies, t.hand.outbox = t.hand.outbox, []
            for body in bodies:
                t.send(body)

    def close_hand(self) -> None:
        """Leave the hand, sending first what it made. A verdict can end a hand in the
        very pass in which this seat made its own audit opening (the last card and the
        others' openings taken together, the audit convicting): the others need that
        opening to reach the same verdict, and without it they would find this seat
        silent. The runner is handed the hand's transcript (:class:`TranscriptReady`),
        unless its deck carries over between deals (Lorum's short First-and-last): a
        transcript names one deal's schedule, and its verifier would read the later
        deals' shares against it."""
        t = self.table
        self.drain_hand()
        if t.hand is not None and not getattr(t.hand, "short", False):
            fair = t.hand.fair
            t.events.append(TranscriptReady(
                t.table, fair.config.hand, t.seat,
                Transcript(fair.config, tuple(fair.envelopes()))))
        t.hand = None

    # --- hands --------------------------------------------------------------------------

    def begin_match(self, dealer: int) -> None:
        """The lot is drawn: the match begins."""
        t = self.table
        assert t.roster is not None
        t.game = t.roster.game
        t.game_course.begin(dealer)
        t.spectate(dealer_line(dealer))
        t.phase = SessionPhase.MATCH
        self.new_hand()

    def new_hand(self) -> None:
        """Begin hand number ``hand_no`` with fresh keys, never under a number this seat
        has begun before (:mod:`.signed`). The journal keeps the match state, and the
        number, before the hand's first envelope is published (the runner carries out
        the :class:`Keep <lodam_p2p.session.effects.Keep>` before what follows it)."""
        t = self.table
        if t.seat is not None:
            if t.hand_no <= t.signed.begun:
                log.error("table %s: hand %d was begun here before; dealing hand %d "
                          "instead of signing a second time", t.table, t.hand_no,
                          t.signed.begun + 1)
                t.hand_no = t.signed.begun + 1
            t.signed.begun = t.hand_no
        if t.match is not None:
            t.keep(match=match_snapshot(t.match, t.hand_no, t.audits, t.blames, t.game))
        assert t.match is not None and t.roster is not None and t.game is not None
        if t.game.exchanges is None:
            t.hand = t.game_course.hand()
            self._hand_begun()
            return
        m, r = t.match, t.roster
        identities = tuple(s.pubkey for s in r.sitters)
        hand = HandPlay(t.game, m, identities, t.seat, table_id=r.table_id,
                        hand=t.hand_no, identity=t.identity, entropy=t.entropy,
                        now=t.now(), timeout=t.limit())
        t.hand = hand
        t.spectate(hand_line(t.hand_no, m.deals_played + 1, hand.public))
        self._hand_begun()

    def _hand_begun(self) -> None:
        t = self.table
        t.phase, self.told_dealt = SessionPhase.MATCH, False
        self.hand_started_at = t.now()
        t.tell(Progress(Phase.SHUFFLING, detail=f"hand {t.hand_no}: keys and shuffle"))

    def settle(self) -> None:
        """The audit passed: settle the deal and go on."""
        t = self.table
        assert t.hand is not None and t.hand.full is not None and t.match is not None
        t.audits += 1
        t.remasks_audited += len(t.hand.fair.record.remasks)
        t.voids_in_row = 0
        t.game_course.settle()
        self._next_hand()

    def _next_hand(self) -> None:
        t = self.table
        assert t.match is not None
        self.close_hand()
        t.hand_no += 1
        t.tell(Progress(Phase.DEAL_OVER))
        if t.match.is_over:
            t.finish(early=False)
        else:
            self.new_hand()

    def offence(self, blame: Blame, evidence: tuple[bytes, ...] = (), *,
                announce: bool = True) -> None:
        """Proven: the offender is out, the hand is void, the same dealer deals again.

        ``evidence``: the offender's signed envelopes that prove it, published with the
        claim (VOID) so that a peer that has not seen them yet can check them too. There
        is no claim without evidence: verdicts of the audit, or on a message every peer
        takes alike, are reached by every peer on its own."""
        t = self.table
        assert t.match is not None and t.game is not None
        if not 0 <= blame.seat < len(t.active()):
            return
        self.drain_hand()  # what the hand made before the verdict goes out before it
        if announce and evidence and t.seat is not None and t.hand is not None:
            t.send(Body(Msg.VOID, t.hand_no, 0, (blame.seat, str(blame)[:200]),
                        evidence[-MAX_ENVELOPES:]))
        t.blames.append(blame_line(blame, t.hand_no))
        t.last_blamed = blame.seat
        if not t.game.puts_out:
            t.game_course.offence(blame)
            if t.voids_in_row >= MAX_VOIDS:
                self.close_hand()
                t.finish(early=True)
            else:
                self._next_hand()
            return
        t.game.put_out(t.match, blame.seat)
        reason = f"seat {blame.seat} is out of the match: {blame.check} ({blame.detail})"
        self.deal_void(reason, f"failed: {blame}", blame.seat)
        self._next_hand()

    def void(self, blame: Blame, *, announce: bool) -> None:
        """The hand is void without an offender put out (kept for a failing table)."""
        t = self.table
        if t.hand is None:
            return
        self.drain_hand()
        if announce:
            t.send(Body(Msg.VOID, t.hand_no, 0, (blame.seat, str(blame)[:200])))
        t.blames.append(blame_line(blame, t.hand_no))
        t.voids_in_row += 1
        t.last_blamed = blame.seat
        self.deal_void(f"the hand is void: {blame}", f"not reached: {blame}", blame.seat)
        self.close_hand()
        t.hand_no += 1
        if t.voids_in_row >= MAX_VOIDS:
            t.finish(early=True)
        elif not self._seat_online(blame.seat):
            t.phase, t.grace_until = SessionPhase.GRACE, t.now() + t.timing.grace_s
            t.tell(Progress(Phase.DEAL_OVER, (blame.seat,), "waiting for a seat to return"))
        else:
            self.new_hand()

    def deal_void(self, reason: str, audit: str, blamed: int) -> None:
        """Tell the player (and the log) that the hand is void, and why."""
        t = self.table
        assert t.match is not None
        lives = t.scores()
        zero = (0,) * len(lives)
        t.tell(Notice(NoticeLevel.ERROR, reason, blamed))
        t.tell(DealEnded(zero, zero, lives, reason, audit, void=True))
        t.spectate(deal_ended_line(reason, audit, lives))

    def _seat_online(self, seat: int) -> bool:
        t = self.table
        assert t.roster is not None
        return t.online(t.roster.sitters[seat].peer)

    def came_back(self, peer: str) -> None:
        """A seat's presence is back: if the table waited for it, deal again."""
        t = self.table
        if (t.phase is SessionPhase.GRACE and t.roster is not None
                and t.last_blamed is not None
                and t.roster.sitters[t.last_blamed].peer == peer):
            self.new_hand()


def blame_line(blame: Blame, hand: int) -> str:
    """The result's line for ``blame``: ``seat N: check: detail (hand H)``."""
    return f"seat {blame.seat}: {blame.check}: {blame.detail} (hand {hand})"
