"""One deal of a game without exchanges (Lorum) at one peer: what it holds and knows.

:class:`GameDeal` is the base of :class:`~lodam_p2p.session.gamehand.GameHand` (whose
module docstring tells how a deal is played over the wire). It holds the deal's state —
the game's plan and public part, the fair-deal hand (a fresh one, or the last deal's
when the deck carries over, :func:`carries`), which deck positions each seat still
holds, the moves taken, the step — and answers what does not take a message: whose
move the deal awaits (a seat, or the holder of a card, :meth:`GameDeal.holder_turn`),
this seat's cards and view, and how a move is decoded and applied to the public part.

It also holds the audit's checker (:meth:`GameDeal._check`), which the fair-deal hand
calls with the opened deck: the replay of the full deal over the logged moves, up to
the fewest moves any seat had taken when it opened its secrets. The first move the
rules refuse, or the silent holder of the awaited card, is the verdict; opening one's
secrets before the end, when the table had not found a holder silent, is an offence.

Sans-IO, as the hand: it never reads a clock (``now`` comes in as an argument).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Blame, Hand, HandConfig, Phase
from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.games import (
    DealPlan,
    Game,
    GameError,
    GameMatch,
    Holder,
    PublicMove,
    WireAction,
)
from lodam_p2p.session.handbase import HandBase
from lodam_p2p.session.handtypes import Applied, Blamed, Refused
from lodam_p2p.session.wire import Body, Msg


def carries(plan: DealPlan) -> bool:
    """Whether a deal by ``plan`` is one of a deck that carries over: it leaves a stack
    for the next deal, or deals from the last one's (Lorum's short First-and-last)."""
    return bool(plan.talon) or not plan.fresh


@dataclass(slots=True)
class PendingMove:
    """A move whose card is being revealed."""

    seat: int
    kind: str
    args: tuple[Any, ...]
    position: int


class GameDeal(HandBase):
    """One deal as followed by ``seat`` (None: a watcher): its state, and what it knows
    without taking a message (see the module docstring)."""

    def __init__(self, game: Game, match: GameMatch, identities: tuple[bytes, ...],
                 seat: int | None, *, table_id: bytes, hand: int,
                 identity: Ed25519PrivateKey | None, entropy: Entropy, now: float,
                 timeout: float, carried: Hand | None = None) -> None:
        self.game, self.match, self.seat = game, match, seat
        self.plan = plan = game.deal_plan(match)
        self.number = hand
        self.public = game.public_start(match)
        #: dealt face down to everyone: the protocol deals nobody anything, and each play
        #: is revealed by every seat's share of the player's next position in dealt order
        self.blind = game.face_down(match)
        players = len(identities)
        order = tuple((match.dealer + 1 + k) % players for k in range(players))
        schedule = (None,) * len(plan.pack) if self.blind else plan.schedule
        self.me = seat
        #: the deck carries over from the last deal (see the module docstring): the same
        #: fair-deal hand deals on; its context stays the hand number of its first deal
        self.carried = carried is not None and not plan.fresh and carries(plan)
        if self.carried:
            assert carried is not None
            self.fair = carried
            self.fair.check_with(self._check)
            self.fair.deal_on(schedule, now)
        else:
            config = HandConfig(table_id, hand, order, tuple(identities[s] for s in order),
                                len(plan.pack), schedule, timeout)
            self.fair = Hand(config, seat, identity if seat is not None else None,
                             entropy if seat is not None else None, now,
                             checker=self._check, lazy=seat is None)
        self.config = self.fair.config
        #: a short deal of a deck that may carry on: every card it deals is played, and
        #: its check is the replay over them, with no secret opened (see ``_played_check``)
        self.short = carries(plan)
        self._played_ok = False  #: the replay over the played cards passed
        self.holdings = {s: set(plan.positions_of(s)) for s in order}
        self.step = 0
        self.since = now  #: when the current step began
        self.log: list[Any] = []  #: every move taken, the game's actions, for the audit
        self.outbox: list[Body] = []
        self.applied: list[Applied] = []
        self.full: Any = None
        self.verdict: Blame | None = None
        self.stalled = False  #: this seat gave up waiting for a silent holder
        #: the steps at which the table agreed (TIMEOUT votes) that a holder was silent
        self.silenced: set[int] = set()
        self.last_fed: dict[int, tuple[bytes, ...]] = {}
        self._pending: PendingMove | None = None
        self._mine: Any = None
        self._finished = False
        self._blind_sent = -1  #: the step this seat last sent its blind play for
        #: the steps at which the public part awaited a card's holder, not a seat
        self.holder_steps: set[int] = set()
        #: per seat, the moves it had taken when it opened its secrets (its NOTES); the
        #: audit replays the moves up to the fewest (every peer sees every NOTES)
        self.opened_at: dict[int, int] = {}
        self._note_turn()
        self.flush()

    @property
    def hand_no(self) -> int:
        """The session's hand number (a carried deck's context is its first deal's)."""
        return self.number

    @property
    def audited(self) -> bool:
        """The audit passed (for a short deal: the replay over its played cards)."""
        return self._played_ok or self.fair.phase is Phase.DONE

    # --- what the hand waits for ------------------------------------------------------

    def holder_turn(self) -> Holder | None:
        """The card whose holder is awaited, when the public part names no seat."""
        if self.public.is_over or not self.dealt or self._pending is not None:
            return None
        turn = self.game.turn(self.public)
        return turn if isinstance(turn, Holder) else None

    def awaited(self) -> tuple[int, Msg] | None:
        """The seat whose move the hand waits for now (None: nobody known to all, or
        this seat when it holds the card the public part awaits)."""
        if (self._pending is not None or self.public.is_over or self.stalled
                or self.fair.phase is not Phase.PLAY):
            return None
        turn = self.game.turn(self.public)
        if isinstance(turn, Holder):
            return (self.me, Msg.MOVE) if self.me is not None and (
                turn.card in self.hand_cards()) else None
        return None if turn is None else (turn, Msg.MOVE)

    def _note_turn(self) -> None:
        if not self.public.is_over and isinstance(self.game.turn(self.public), Holder):
            self.holder_steps.add(self.step)

    def my_turn(self) -> bool:
        """This seat must decide now (never in a blind deal: its next card is played)."""
        due = self.awaited()
        return due is not None and due[0] == self.seat and not self.blind

    def next_position(self, seat: int) -> int | None:
        """Blind: the position ``seat`` plays next, the first of its dealt order left."""
        left = [p for p in self.plan.positions_of(seat) if p in self.holdings[seat]]
        return left[0] if left else None
    def _decode(self, seat: int, kind: str, args: tuple[Any, ...], card: Any) -> Any:
        try:
            return self.game.decode_action(seat, WireAction(kind, args, card))
        except GameError as err:
            if card is None:
                raise Refused(str(err)) from None
            raise Blamed(Blame(seat, "move", str(err))) from None

    def _apply(self, seat: int, action: Any, *, refuse: bool) -> None:
        """Advance the public part by ``seat``'s ``action``: refused (ignored) when it
        showed no card, an offence when its revealed card does not fit."""
        wire = self.game.encode_action(action)
        try:
            self.game.public_apply(self.public, PublicMove(seat, wire.seen_by_all()))
        except (self.game.illegal_action, ValueError) as err:
            reason = self.game.refusal_reason(err)
            if refuse:
                raise Refused(reason) from None
            raise Blamed(Blame(seat, "play", reason)) from None
        self.log.append(action)
        self.step += 1
        self._note_turn()
        shown = self.game.public_action(action)
        if seat == self.seat and self._mine is not None:
            shown, self._mine = self._mine, None
        self.applied.append(Applied(seat, shown, f"seat {seat}: {action}"))

    # --- this seat's moves --------------------------------------------------------------

    def hand_cards(self) -> tuple[Any, ...]:
        """This seat's current hand, in pack order."""
        if self.me is None:
            return ()
        indices = sorted(self.fair.cards[pos] for pos in self.holdings[self.me]
                         if pos in self.fair.cards)
        return tuple(self.plan.pack[i] for i in indices)

    def view(self) -> Any:
        """What this seat may know now: the public part and its own hand."""
        assert self.seat is not None
        return self.game.seat_view(self.public, self.seat, self.hand_cards())

    def _position_of(self, card: Any) -> int:
        assert self.me is not None
        for position in self.holdings[self.me]:
            if position in self.fair.cards and self.plan.pack[self.fair.cards[position]] == card:
                return position
        raise GameError(f"{card} is not in this seat's hand")

    # --- the audit ----------------------------------------------------------------------

    def _check(self, indices: tuple[int, ...], masked: Mapping[int, int]) -> Blame | None:
        """The fair-deal audit's checker: replay the full deal over the logged moves."""
        cut = min(self.opened_at.values(), default=len(self.log))
        deck = tuple(self.plan.pack[i] for i in indices)
        replayed = self.game.replay(self.match, deck, self.log[:cut])
        self.full = replayed.deal
        error = replayed.error
        if error is not None:
            self.verdict = Blame(error.seat, error.offence, error.message[:160])
        elif not replayed.deal.is_over and not (cut in self.holder_steps
                                                and cut in self.silenced):
            first = min(s for s, step in self.opened_at.items() if step == cut)
            self.verdict = Blame(first, "early-audit", f"opened its secrets at step {cut}, "
                                 "before the end, when the table had not found a card's "
                                 "holder silent")
        elif not replayed.deal.is_over:
            seat = replayed.deal.to_act
            self.verdict = Blame(seat if seat is not None else 0, "silent-holder",
                                 f"held the card awaited at step {cut} and did not "
                                 "play it")
        return self.verdict
