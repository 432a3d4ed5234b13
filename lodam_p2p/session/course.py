"""The course of a match at one session: hands begun, settled, voided, and the end.

:class:`Course` is the part of a :class:`~lodam_p2p.session.seat.Session` that knows the
match: it starts each hand (:class:`~lodam_p2p.session.handplay.HandPlay` with fresh
keys), settles it when the audit passes (``Match.finish_deal`` on the replayed deal),
and handles the three ways a hand can fail:

- an **offence proven by the audit** — a revoke (RULES.md 8), a false exchange, an
  audit opening that does not check: every honest peer reaches the same verdict, so
  the offender is put out of the match (``Match.revoke``) and the same dealer deals
  again;
- a **local blame** — a seat silent past its timeout, a proof that fails as it arrives,
  a card played without its reveal: the hand is void, the blame is published (VOID) so
  every peer voids it too, and the same dealer deals again once the blamed seat is
  connected; if it does not come back within the grace period, or hands keep failing,
  the table ends with a result signed by every remaining peer (RESULT);
- the **lot** failing: the match never starts, and the result says who broke it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, RemoteProtocolError
from lodam_p2p.local import standings_of
from lodam_p2p.player import (
    DealEnded,
    MatchEnded,
    Notice,
    NoticeLevel,
    Phase,
    Progress,
    TableEvent,
    ViewChanged,
)
from lodam_p2p.rules import Action, Match
from lodam_p2p.session.audit import RULES_OFFENCES, DealSetup
from lodam_p2p.session.handplay import HandPlay
from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.lobby import Roster
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.lot import Lot
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome, SeatPlan

#: Failed hands in a row after which the table ends.
MAX_VOIDS = 3
#: Checks that only the audit opening makes (every peer sees the same opening).
_AUDIT_CHECKS = frozenset({"audit-key", "shuffle", "shuffle-commitment", "remask",
                           "remask-commitment", "transfer"})


class SessionPhase(Enum):
    """Where a session is."""

    LOBBY = "lobby"  #: waiting for the table to fill
    LOT = "lot"  #: drawing the first dealer
    MATCH = "match"  #: playing hands
    GRACE = "grace"  #: a blamed seat is away; waiting for it to come back
    LINGER = "linger"  #: result sent; answering resends until everyone has sent theirs
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Timing:
    """How long a session waits for what."""

    timeout_s: float = 30.0  #: a protocol step, or a bot seat's decision
    human_s: float = 300.0  #: a decision of a seat announced as human
    grace_s: float = 60.0  #: a blamed, disconnected seat's time to come back
    linger_s: float = 5.0  #: after the result, time to answer resends
    lobby_s: float | None = None  #: time for the table to fill (None: no limit)
    heartbeat_s: float = 1.0  #: stream heartbeats (a lost last message is noticed by then)
    retry_s: float = 0.5  #: resend requests are repeated this often


class Course(ABC):
    """The match as one session follows it; see the module docstring."""

    def __init__(self, table: str, plan: SeatPlan | None, identity: Ed25519PrivateKey, *,
                 entropy: Entropy, timing: Timing, spectator: SpectatorLog | None) -> None:
        self.table, self.plan, self.entropy, self.timing = table, plan, entropy, timing
        self.spectator = spectator
        self.identity = identity
        self.phase = SessionPhase.LOBBY
        self.roster: Roster | None = None
        self.seat: int | None = None
        self.lot: Lot | None = None
        self.match: Match | None = None
        self.hand: HandPlay | None = None
        self.hand_no = 1
        self.blames: list[str] = []
        self.audits = 0
        self.voids_in_row = 0
        self.last_blamed: int | None = None
        self.outcome: MatchOutcome | None = None
        self.results: dict[str, tuple[Any, ...]] = {}
        self.outgoing: list[Body] = []
        self.lobby_since = self.lot_since = self.grace_until = self.linger_until = 0.0
        self._awaited: tuple[object, ...] = ()
        self._awaited_since = 0.0
        self._told_dealt = False
        #: figures for benchmarks: seconds from each hand's start until it was dealt,
        #: and the clock at the match's start and end
        self.deal_times: list[float] = []
        self.hand_started_at = self.match_started_at = self.match_ended_at = 0.0

    @abstractmethod
    def send(self, body: Body) -> None:
        """Publish a message of this session."""

    @abstractmethod
    def now(self) -> float:
        """The clock."""

    @abstractmethod
    def online(self, peer: str) -> bool:
        """Whether a peer is connected."""

    # --- telling ------------------------------------------------------------------------

    def tell(self, event: TableEvent) -> None:
        """Tell the local player, if any."""
        if self.plan is not None:
            self.plan.player.notify(event)

    def refuse(self, action: Action | None) -> None:
        """Tell the player its answer was refused."""
        self.tell(Notice(NoticeLevel.WARNING, f"refused: {action} is not a legal answer now"))

    def tell_applied(self) -> None:
        """Tell the player (and the log) the public decisions just taken."""
        hand = self.hand
        assert hand is not None
        if hand.dealt and not self._told_dealt:
            self._told_dealt = True
            self.deal_times.append(self.now() - self.hand_started_at)
            self.tell(Progress(Phase.PLAYING))
            if self.seat is not None:
                self.tell(ViewChanged(hand.view()))
        for applied in hand.applied:
            if self.spectator is not None:
                self.spectator.applied(applied.text)
            if self.seat is not None and self.plan is not None:
                self.tell(ViewChanged(hand.view(), applied.shown))
        hand.applied.clear()
        if hand.public.is_over and hand.dealt:
            self.tell(Progress(Phase.AUDIT, detail="opening the hand for the audit"))

    def drain_hand(self) -> None:
        """Send what the hand produced."""
        if self.hand is not None:
            bodies, self.hand.outbox = self.hand.outbox, []
            for body in bodies:
                self.send(body)

    # --- hands --------------------------------------------------------------------------

    def begin_match(self, dealer: int) -> None:
        """The lot is drawn: the match begins."""
        assert self.roster is not None
        self.match = Match.start(self.roster.options, len(self.roster.sitters), dealer)
        if self.spectator is not None:
            self.spectator.dealer_drawn(dealer)
        self.phase = SessionPhase.MATCH
        self.new_hand()

    def new_hand(self) -> None:
        """Begin hand number ``hand_no`` with fresh keys."""
        assert self.match is not None and self.roster is not None
        m, r = self.match, self.roster
        setup = DealSetup(r.options, m.dealer, tuple(m.lives), tuple(m.active), r.table_id,
                          self.hand_no)
        identities = tuple(s.pubkey for s in r.sitters)
        self.hand = HandPlay(setup, identities, self.seat, identity=self.identity,
                             entropy=self.entropy, now=self.now(),
                             timeout=self.timing.timeout_s)
        self.phase, self._told_dealt = SessionPhase.MATCH, False
        self.hand_started_at = self.now()
        if self.spectator is not None:
            self.spectator.hand_started(self.hand_no, m.deals_played + 1, self.hand.public)
        self.tell(Progress(Phase.SHUFFLING, detail=f"hand {self.hand_no}: keys and shuffle"))

    def settle(self) -> None:
        """The audit passed: settle the deal and go on."""
        assert self.hand is not None and self.hand.full is not None and self.match is not None
        result = self.match.finish_deal(self.hand.full)
        self.audits += 1
        self.voids_in_row = 0
        lives = tuple(self.match.lives)
        self.tell(DealEnded(result.points, result.counter_change, lives, result.reason,
                            "passed"))
        if self.spectator is not None:
            self.spectator.deal_ended(result.reason, "passed", lives)
        self._next_hand()

    def _next_hand(self) -> None:
        assert self.match is not None
        self.hand = None
        self.hand_no += 1
        self.tell(Progress(Phase.DEAL_OVER))
        if self.match.is_over:
            self.finish(early=False)
        else:
            self.new_hand()

    def protocol_failure(self, err: RemoteProtocolError) -> None:
        """A protocol error from the hand: an audit verdict, or a local blame."""
        hand = self.hand
        assert hand is not None
        verdict = hand.verdict is not None and err.blame == hand.verdict
        if verdict or err.check in _AUDIT_CHECKS or err.check in RULES_OFFENCES:
            self.offence(err.blame)
        else:
            self.void(err.blame, announce=True)

    def offence(self, blame: Blame) -> None:
        """Proven by the audit: the offender is out, the same dealer deals again."""
        assert self.match is not None
        self.blames.append(f"seat {blame.seat}: {blame.check}: {blame.detail} "
                           f"(hand {self.hand_no})")
        if self.match.active[blame.seat]:
            self.match.revoke(blame.seat)
        reason = f"seat {blame.seat} is out of the match: {blame.check} ({blame.detail})"
        self._deal_void(reason, f"failed: {blame}", blame.seat)
        self._next_hand()

    def void(self, blame: Blame, *, announce: bool) -> None:
        """A local blame: the hand is void (and everyone is told so)."""
        if self.hand is None:
            return
        if announce:
            self.send(Body(Msg.VOID, self.hand_no, 0, (blame.seat, str(blame)[:200])))
        self.blames.append(f"seat {blame.seat}: {blame.check}: {blame.detail} "
                           f"(hand {self.hand_no})")
        self.voids_in_row += 1
        self.last_blamed = blame.seat
        self._deal_void(f"the hand is void: {blame}", f"not reached: {blame}", blame.seat)
        self.hand = None
        self.hand_no += 1
        if self.voids_in_row >= MAX_VOIDS:
            self.finish(early=True)
        elif not self._seat_online(blame.seat):
            self.phase, self.grace_until = SessionPhase.GRACE, self.now() + self.timing.grace_s
            self.tell(Progress(Phase.DEAL_OVER, (blame.seat,), "waiting for a seat to return"))
        else:
            self.new_hand()

    def _deal_void(self, reason: str, audit: str, blamed: int) -> None:
        assert self.match is not None
        lives = tuple(self.match.lives)
        zero = (0,) * len(lives)
        self.tell(Notice(NoticeLevel.ERROR, reason, blamed))
        self.tell(DealEnded(zero, zero, lives, reason, audit, void=True))
        if self.spectator is not None:
            self.spectator.deal_ended(reason, audit, lives)

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
        winners, payouts, lives = self._winners(early)
        deals = self.match.deals_played if self.match is not None else 0
        self.outcome = MatchOutcome(self.table, winners, deals, self.audits, tuple(self.blames),
                                    lives, payouts)
        self.hand = None
        self.match_ended_at = self.now()
        if self.match is not None:
            self.tell(MatchEnded(winners, standings_of(self.match), deals, payouts))
        self.tell(Progress(Phase.MATCH_OVER))
        if self.spectator is not None:
            self.spectator.match_ended(self.outcome)
        if self.seat is not None:
            self.send(Body(Msg.RESULT, args=(list(winners), min(deals, 255),
                                             min(self.audits, 255), list(lives))))
        self.phase, self.linger_until = SessionPhase.LINGER, self.now() + self.timing.linger_s

    def _winners(self, early: bool) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        match = self.match
        if match is None:
            return (), (), ()
        lives = tuple(match.lives)
        if match.is_over:
            return tuple(match.winners), tuple(match.payouts()), lives
        left = [s for s in match.remaining() if s != self.last_blamed] or match.remaining()
        best = max(lives[s] for s in left)
        return tuple(s for s in left if lives[s] == best), (), lives

    def check_timers(self, now: float) -> None:
        """Blame whoever is late; end the waits that have run out."""
        if self.phase is SessionPhase.LOBBY:
            limit = self.timing.lobby_s
            if limit is not None and now >= self.lobby_since + limit:
                self.finish(early=True)
        elif self.phase is SessionPhase.LOT:
            self._lot_timer(now)
        elif self.phase is SessionPhase.MATCH and self.hand is not None:
            self._hand_timers(now)
        elif self.phase is SessionPhase.GRACE and now >= self.grace_until:
            self.finish(early=True)
        elif self.phase is SessionPhase.LINGER:
            waiting = [s.peer for s in self.roster.sitters if s.peer not in self.results
                       and self.online(s.peer)] if self.roster is not None else []
            if now >= self.linger_until or not waiting:
                self.phase = SessionPhase.DONE

    def _lot_timer(self, now: float) -> None:
        assert self.lot is not None
        missing = self.lot.missing()
        if missing and now >= self.lot_since + self.timing.timeout_s:
            self.blames.append(f"seat {missing[0]}: lot: silent for {self.timing.timeout_s:g} s")
            self.last_blamed = missing[0]
            self.finish(early=True)

    def _hand_timers(self, now: float) -> None:
        hand = self.hand
        assert hand is not None
        due = hand.fair.timer()
        if due is not None and now >= due:
            try:
                hand.fair.handle_timer(now)
            except RemoteProtocolError as err:
                self.void(err.blame, announce=True)
                return
        awaited = hand.awaited()
        key = (self.hand_no, hand.step, awaited)
        if key != self._awaited:
            self._awaited, self._awaited_since = key, now
            return
        if awaited is not None and now >= self._awaited_since + self._limit(awaited[0]):
            seat, kind = awaited
            detail = f"no {kind.name.lower()} within {self._limit(seat):g} s"
            self.void(Blame(seat, "timeout", detail), announce=True)

    def _limit(self, seat: int) -> float:
        assert self.roster is not None
        human = self.roster.sitters[seat].kind == "human"
        return self.timing.human_s if human else self.timing.timeout_s
