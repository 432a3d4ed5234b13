"""Exchanges at one peer: offers, the two transfers, the outcome, and the re-masks.

A mixin of :class:`~lodam_p2p.session.handplay.HandPlay`. An offer is a kind and a
salted commitment to the position put down; an accepting answer hands its position over
at once (a private transfer to the offerer); the offerer, having learnt that card, hands
its own over and announces the outcome, void or done, as the game's rule says
(:meth:`HiddenExchange.void <lodam_p2p.games.HiddenExchange.void>`). Both traders learn
both cards; holdings swap only when it is done.

Then, void or done, each trader **re-masks its whole holding** (fair-deal ``remask``):
the same cards under fresh positions that only it can link to the old ones, so when a
traded card (or, after a void exchange, the offered one) is later played, the position
it is revealed from says nothing of the exchange. The next decision waits until both
re-masks are in and every seat's shares for them too (:meth:`Trading.remasking`). A
re-mask is checked against the public holding: one that takes anything but exactly the
seat's holding, or comes when none is due, blames its seat.
"""

from __future__ import annotations

from typing import Any

from lodam_p2p.fairdeal import Blame, Event, Hand, Phase, Remasked, RemaskShared
from lodam_p2p.games import Game, HiddenExchange, LoggedMove, Passage, PublicMove, WireAction
from lodam_p2p.session.handtypes import Blamed, Pending, Refused
from lodam_p2p.session.wire import Body, Msg


class Trading:
    """Offers, outcomes and re-masks (see the module docstring)."""

    game: Game
    exchanges: HiddenExchange
    me: int | None
    fair: Hand
    public: Any
    pack: tuple[Any, ...]
    holdings: dict[int, set[int]]
    step: int
    since: float
    commitments: dict[int, bytes]
    my_offers: dict[int, tuple[int, bytes]]
    outbox: list[Body]
    _pending: Pending | None
    _offer_step: int
    #: traders whose re-mask is due (False) or in but not yet shared by all (True)
    _remasking: dict[int, bool]
    _remask_sent: bool

    def _decide(self, move: PublicMove, entry: LoggedMove) -> None:
        raise NotImplementedError

    def _applied(self, move: PublicMove, entry: LoggedMove) -> None:
        raise NotImplementedError

    def feed(self, seat: int, envelopes: tuple[bytes, ...], now: float) -> None:
        raise NotImplementedError

    def poll(self, now: float) -> None:
        raise NotImplementedError

    def _flush(self) -> None:
        raise NotImplementedError

    def _body(self, kind: Msg, args: tuple[object, ...], envelopes: list[bytes]) -> Body:
        raise NotImplementedError

    # --- offers and outcomes ------------------------------------------------------------

    def _take_offer(self, seat: int, args: tuple[object, ...]) -> None:
        kind, commitment = args
        if (kind is None) != (commitment is None):
            raise Refused("an offer needs both a kind and a commitment")
        assert kind is None or isinstance(kind, str)
        self._offer_step = self.step
        if isinstance(commitment, bytes):
            self.commitments[self.step] = commitment
        passage = None if kind is None else Passage.FACE_DOWN
        self._decide(PublicMove(seat, WireAction("offer", (kind,), None, passage)),
                     LoggedMove(seat, "offer", self.step, (kind,)))

    def _trade(self, pending: Pending, now: float) -> None:
        offerer, acceptor = pending.trade_with, pending.seat
        if offerer != self.me or pending.sent or pending.position not in self.fair.cards:
            return
        assert offerer is not None
        mine, _salt = self.my_offers[self._offer_step]
        theirs = self.pack[self.fair.cards[pending.position]]
        void = self.exchanges.void(self.pack[self.fair.cards[mine]], theirs)
        pending.sent = True
        self._flush()
        self.fair.transfer(mine, acceptor, now)
        self.outbox.append(self._body(Msg.OUTCOME, (void, mine), self.fair.outgoing()))

    def _take_outcome(self, seat: int, body: Body, now: float) -> None:
        pending = self._pending
        assert pending is not None and pending.trade_with == seat
        void, position = body.args
        if position not in self.holdings[seat]:
            raise Refused(f"seat {seat} does not hold position {position}")
        self.feed(seat, body.envelopes, now)
        if self.fair.phase is Phase.ABORTED:
            return
        acceptor = pending.seat
        move = PublicMove(acceptor, WireAction("answer", (), None, Passage.TO_ONE), None,
                          (bool(void),))
        try:
            self.game.public_apply(self.public, move)
        except (self.game.illegal_action, ValueError) as err:
            raise Refused(self.game.refusal_reason(err)) from None
        self._pending = None
        if not void:
            self.holdings[seat].remove(position)
            self.holdings[acceptor].remove(pending.position)
            self.holdings[seat].add(pending.position)
            self.holdings[acceptor].add(position)
        self._remasking = {seat: False, acceptor: False}
        self._remask_sent = False
        self.since = now
        self._applied(move, LoggedMove(acceptor, "answer", self.step,
                                       (pending.position, position, bool(void))))
        self.poll(now)

    # --- re-masks -----------------------------------------------------------------------

    def remasking(self) -> int | None:
        """The trader whose re-mask is awaited (-1: both are in, shares still coming;
        None: no re-mask pending)."""
        due = sorted(s for s, applied in self._remasking.items() if not applied)
        if due:
            return due[0]
        return -1 if self._remasking else None

    def _remask_due(self, seat: int) -> bool:
        return self._remasking.get(seat) is False

    def _follow_remasks(self, events: list[Event]) -> None:
        """Map holdings to the new positions as re-masks arrive; blame a stray one."""
        for event in events:
            if isinstance(event, Remasked):
                seat = event.seat
                if not self._remask_due(seat) or set(event.inputs) != self.holdings[seat]:
                    raise Blamed(Blame(seat, "remask", "re-masked positions other than its "
                                       "holding, or when no re-mask was due"))
                self.holdings[seat] = set(event.outputs)
                self._remasking[seat] = True
            elif isinstance(event, RemaskShared) and self._remasking.get(event.seat):
                del self._remasking[event.seat]

    def _remask_mine(self, now: float) -> None:
        """Re-mask this seat's holding when due. Of the two traders the higher seat
        re-masks once the lower one's re-mask is in, and its REMASK body carries its
        shares for that re-mask too (one body fewer per exchange); the table waits for
        the lower trader meanwhile (:meth:`remasking`), never for the higher."""
        if self.me is None or not self._remask_due(self.me) or self._remask_sent:
            return
        if any(seat < self.me and not applied for seat, applied in self._remasking.items()):
            return
        self._remask_sent = True
        self.fair.remask(sorted(self.holdings[self.me]), now)
        self.outbox.append(self._body(Msg.REMASK, (), self.fair.outgoing()))
