"""Exchanges at one peer: offers, the two transfers, the outcome, and the re-masks.

A mixin of :class:`~lodam_p2p.session.handplay.HandPlay`. An offer is a kind and a
salted commitment to the position put down; an accepting answer hands its card over at
once (a fair-deal transfer to the offerer: the card re-encrypted under the offerer's
key, a new position the offerer holds); the offerer, having learnt that card, hands
its own over the same way and announces the outcome, void or done, as the game's rule
says (:meth:`HiddenExchange.void <lodam_p2p.games.HiddenExchange.void>`). Both traders
learn both cards. When the exchange is done each trader's holding swaps its card for
the position the other's transfer made; when it is void the holdings stay.

Then, void or done, each trader **re-masks its whole holding** (fair-deal ``remask``):
the same cards under fresh positions that only it can link to the old ones, so when a
traded card (or, after a void exchange, the offered one) is later played, the position
it is revealed from says nothing of the exchange. Nobody answers a re-mask. The
offerer knows its holding after the exchange when it announces the outcome, so its
re-mask travels in the outcome's MOVE, after its transfer (one body fewer for every peer
to check and carry); the acceptor re-masks once the outcome is in. The next decision
waits until both are in (:meth:`Trading.remasking`). A re-mask is checked against the
public holding: one that takes anything but exactly the seat's holding, or comes when
none is due, blames its seat, and so does an answer or an outcome that does not hand
its card over.
"""

from __future__ import annotations

from typing import Any

from lodam_p2p.fairdeal import Blame, Event, Hand, Phase, Remasked
from lodam_p2p.fairdeal.messages import RemaskMsg
from lodam_p2p.fairdeal.remask import Handover
from lodam_p2p.games import Game, HiddenExchange, LoggedMove, Passage, PublicMove, WireAction
from lodam_p2p.session.handtypes import Blamed, Pending, Refused
from lodam_p2p.session.movebody import Tag
from lodam_p2p.session.wire import Body


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
    #: traders whose re-mask is due and not yet in
    _remasking: set[int]
    _remask_sent: bool
    #: this seat's own re-mask made in its outcome, before that outcome is taken
    _own_early: list[Remasked]

    def _decide(self, move: PublicMove, entry: LoggedMove) -> None:
        raise NotImplementedError

    def _applied(self, move: PublicMove, entry: LoggedMove) -> None:
        raise NotImplementedError

    def feed(self, seat: int, envelopes: tuple[bytes, ...], now: float, *,
             own: bool = True, poll: bool = True) -> None:
        raise NotImplementedError

    def poll(self, now: float) -> None:
        raise NotImplementedError

    def _flush(self) -> None:
        raise NotImplementedError

    def _move(self, tag: Tag, fields: tuple[object, ...], envelopes: list[bytes]) -> Body:
        raise NotImplementedError

    def _signed_message(self, seat: int, data: bytes) -> object:
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

    def _handed(self, seat: int, position: int, to: int) -> int:
        """The position made by ``seat``'s transfer of ``position`` to ``to``, which the
        body just fed must have carried: a trader's answer or outcome names the card it
        hands over, and its envelopes hand it over (the body is the evidence)."""
        record = self.fair.record
        made = record.switched.get(position)
        handover = record.made_of(made) if made is not None else None
        if made is None or not isinstance(handover, Handover) or handover.seat != seat \
                or handover.to != to:
            raise Blamed(Blame(seat, "transfer", f"named position {position} for an "
                               f"exchange with seat {to} without handing it over"))
        return made

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
        holding = set(self.holdings[offerer])
        if not void:
            holding = holding - {mine} | {self.fair.record.switched[pending.position]}
        self.fair.remask(sorted(holding), now)
        self.outbox.append(self._move(Tag.OUTCOME, (void, mine), self.fair.outgoing()))

    def _take_outcome(self, seat: int, fields: tuple[object, ...],
                      envelopes: tuple[bytes, ...], now: float) -> None:
        """The offerer's outcome (its MOVE's fields and envelopes): its transfer is fed
        first, the outcome applied (the holdings and the re-masks due), and only then
        its re-mask, which must take the offerer's holding after the exchange."""
        pending = self._pending
        assert pending is not None and pending.trade_with == seat
        void, position = fields
        assert isinstance(position, int)
        if position not in self.holdings[seat]:
            raise Refused(f"seat {seat} does not hold position {position}")
        remasks = tuple(data for data in envelopes
                        if isinstance(self._signed_message(seat, data), RemaskMsg))
        self.feed(seat, tuple(e for e in envelopes if e not in remasks), now, poll=False)
        if self.fair.phase is Phase.ABORTED:
            return
        acceptor = pending.seat
        to_acceptor = self._handed(seat, position, acceptor)
        to_offerer = self.fair.record.switched[pending.position]
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
            self.holdings[seat].add(to_offerer)
            self.holdings[acceptor].add(to_acceptor)
        self._remasking = {seat, acceptor}
        self._remask_sent = seat == self.me  # an offerer re-masks in its outcome
        self.since = now
        self._applied(move, LoggedMove(acceptor, "answer", self.step,
                                       (pending.position, position, bool(void))))
        self._screen_remask(seat, remasks)
        early, self._own_early = self._own_early, []
        self._follow_remasks(list(early))
        self.feed(seat, remasks, now)

    # --- re-masks -----------------------------------------------------------------------

    def remasking(self) -> int | None:
        """The trader whose re-mask is awaited (the lower one while both are), or None."""
        return min(self._remasking) if self._remasking else None

    def _remask_due(self, seat: int) -> bool:
        return seat in self._remasking

    def _screen_remask(self, seat: int, envelopes: tuple[bytes, ...]) -> None:
        """A re-mask must take exactly the seat's holding: judged on the signed envelope
        before it is fed, so that one naming positions that do not exist yet cannot make
        the table wait."""
        for data in envelopes:
            message = self._signed_message(seat, data)
            if isinstance(message, RemaskMsg) and set(message.inputs) != self.holdings[seat]:
                raise Blamed(Blame(seat, "remask", "re-masked positions other than its "
                                   "holding"), (data,))

    def _follow_remasks(self, events: list[Event]) -> None:
        """Map holdings to the new positions as re-masks arrive; blame a stray one."""
        for event in events:
            if isinstance(event, Remasked):
                seat = event.seat
                if seat == self.me and not self._remask_due(seat):
                    # made with this seat's outcome, which its own queue has not given
                    # back yet (the session makes its own re-masks right)
                    self._own_early.append(event)
                    continue
                if not self._remask_due(seat) or set(event.inputs) != self.holdings[seat]:
                    raise Blamed(Blame(seat, "remask", "re-masked positions other than its "
                                       "holding, or when no re-mask was due"))
                self.holdings[seat] = set(event.outputs)
                self._remasking.discard(seat)

    def _remask_mine(self, now: float) -> None:
        """Re-mask this seat's holding when due (both traders at once: nothing answers a
        re-mask, so neither waits for the other)."""
        if self.me is None or not self._remask_due(self.me) or self._remask_sent:
            return
        self._remask_sent = True
        self.fair.remask(sorted(self.holdings[self.me]), now)
        self.outbox.append(self._move(Tag.REMASK, (), self.fair.outgoing()))
