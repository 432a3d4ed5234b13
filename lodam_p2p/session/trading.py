"""Exchanges at one peer: offers, the two transfers, the outcome, and the re-masks.

A part of :class:`~lodam_p2p.session.handplay.HandPlay`, which owns it and whose public
deal, holdings and fair-deal hand it works on; it keeps the exchanges' own state (the
offers' commitments, the re-masks due). An offer is a kind and a
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
to check and carry).

*The acceptor's re-mask waits for its own next turn.* The acceptor learns its holding
only from the outcome. Were the table to wait for its re-mask before the next decision,
every exchange would cost one more trip through the broker for nothing: no other seat's
decision reads the acceptor's positions. So the acceptor re-masks when the hand next
awaits *it* — just before its next decision, in the frames that carry that decision, or
at the deal's end before the audit opening (:meth:`HandPlay.awaited
<lodam_p2p.session.handplay.HandPlay.awaited>` names it with ``REMASK`` then, and its
clock runs as for any decision). Why this is safe: (1) every peer takes the re-mask at
the same point of the one order of the hand — the step at which the acceptor is
awaited, before its decision — since a re-mask is routed only then (an early one
waits, a stale one is dropped, alike everywhere); (2) until then the acceptor reveals
nothing (a play, an answer's transfer and the audit opening all come after it), so the
old positions name nothing anybody sees; (3) positions a re-mask makes are numbered by
the seat and its round alone (:func:`~lodam_p2p.fairdeal.remask.first_position`), never
by arrival. A re-mask is checked against the public holding: one that takes anything
but exactly the seat's holding, or comes when none is due, blames its seat, and so does
an answer or an outcome that does not hand its card over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lodam_p2p.fairdeal import Blame, Event, Phase, Remasked
from lodam_p2p.fairdeal.messages import RemaskMsg
from lodam_p2p.fairdeal.remask import Handover
from lodam_p2p.games import LoggedMove, Passage, PublicMove, WireAction
from lodam_p2p.session.handtypes import Blamed, Pending, Refused
from lodam_p2p.session.movebody import Tag

if TYPE_CHECKING:
    from lodam_p2p.session.handplay import HandPlay


class Trading:
    """Offers, outcomes and re-masks of ``hand`` (see the module docstring)."""

    def __init__(self, hand: HandPlay) -> None:
        self.hand = hand
        #: each offer's commitment to the position put down, by the offer's step
        self.commitments: dict[int, bytes] = {}
        #: the step of the last offer made (-1: none yet)
        self.offer_step = -1
        #: traders whose re-mask is due and not yet in
        self.due: set[int] = set()
        self.remask_sent = False
        #: this seat's own re-mask made in its outcome, before that outcome is taken
        self.own_early: list[Remasked] = []

    # --- offers and outcomes ------------------------------------------------------------

    def take_offer(self, seat: int, args: tuple[object, ...]) -> None:
        """``seat``'s offer: its kind and commitment (both None: no offer)."""
        hand = self.hand
        kind, commitment = args
        if (kind is None) != (commitment is None):
            raise Refused("an offer needs both a kind and a commitment")
        assert kind is None or isinstance(kind, str)
        self.offer_step = hand.step
        if isinstance(commitment, bytes):
            self.commitments[hand.step] = commitment
        passage = None if kind is None else Passage.FACE_DOWN
        hand.decide(PublicMove(seat, WireAction("offer", (kind,), None, passage)),
                    LoggedMove(seat, "offer", hand.step, (kind,)))

    def handed(self, seat: int, position: int, to: int) -> int:
        """The position made by ``seat``'s transfer of ``position`` to ``to``, which the
        body just fed must have carried: a trader's answer or outcome names the card it
        hands over, and its envelopes hand it over (the body is the evidence)."""
        record = self.hand.fair.record
        made = record.switched.get(position)
        handover = record.made_of(made) if made is not None else None
        if made is None or not isinstance(handover, Handover) or handover.seat != seat \
                or handover.to != to:
            raise Blamed(Blame(seat, "transfer", f"named position {position} for an "
                               f"exchange with seat {to} without handing it over"))
        return made

    def trade(self, pending: Pending, now: float) -> None:
        """This seat, the offerer, has the acceptor's card: hand its own over and say
        the outcome, with its re-mask."""
        hand = self.hand
        fair = hand.fair
        offerer, acceptor = pending.trade_with, pending.seat
        if offerer != hand.me or pending.sent or pending.position not in fair.cards:
            return
        assert offerer is not None
        mine, _salt = hand.own.my_offers[self.offer_step]
        theirs = hand.pack[fair.cards[pending.position]]
        void = hand.exchanges.void(hand.pack[fair.cards[mine]], theirs)
        pending.sent = True
        hand.flush()
        fair.transfer(mine, acceptor, now)
        holding = set(hand.holdings[offerer])
        if not void:
            holding = holding - {mine} | {fair.record.switched[pending.position]}
        fair.remask(sorted(holding), now)
        hand.outbox.append(hand.move_body(Tag.OUTCOME, (void, mine), fair.outgoing()))

    def take_outcome(self, seat: int, fields: tuple[object, ...],
                     envelopes: tuple[bytes, ...], now: float) -> None:
        """The offerer's outcome (its MOVE's fields and envelopes): its transfer is fed
        first, the outcome applied (the holdings and the re-masks due), and only then
        its re-mask, which must take the offerer's holding after the exchange."""
        hand = self.hand
        pending = hand.pending
        assert pending is not None and pending.trade_with == seat
        void, position = fields
        assert isinstance(position, int)
        if position not in hand.holdings[seat]:
            raise Refused(f"seat {seat} does not hold position {position}")
        remasks = tuple(data for data in envelopes
                        if isinstance(hand.signed_message(seat, data), RemaskMsg))
        hand.feed(seat, tuple(e for e in envelopes if e not in remasks), now, poll=False)
        if hand.fair.phase is Phase.ABORTED:
            return
        acceptor = pending.seat
        to_acceptor = self.handed(seat, position, acceptor)
        to_offerer = hand.fair.record.switched[pending.position]
        move = PublicMove(acceptor, WireAction("answer", (), None, Passage.TO_ONE), None,
                          (bool(void),))
        try:
            hand.game.public_apply(hand.public, move)
        except (hand.game.illegal_action, ValueError) as err:
            raise Refused(hand.game.refusal_reason(err)) from None
        hand.pending = None
        if not void:
            hand.holdings[seat].remove(position)
            hand.holdings[acceptor].remove(pending.position)
            hand.holdings[seat].add(to_offerer)
            hand.holdings[acceptor].add(to_acceptor)
        self.due |= {seat, acceptor}
        if hand.me in (seat, acceptor):
            self.remask_sent = seat == hand.me  # an offerer re-masks in its outcome
        hand.since = now
        hand.note_applied(move, LoggedMove(acceptor, "answer", hand.step,
                                           (pending.position, position, bool(void))))
        self.screen_remask(seat, remasks)
        early, self.own_early = self.own_early, []
        self.follow_remasks(list(early))
        hand.feed(seat, remasks, now)

    # --- re-masks -----------------------------------------------------------------------

    def remasking(self) -> int | None:
        """The trader whose re-mask is awaited (the lower one while both are), or None."""
        return min(self.due) if self.due else None

    def remask_due(self, seat: int) -> bool:
        """Whether ``seat``'s re-mask is due and not yet in."""
        return seat in self.due

    def screen_remask(self, seat: int, envelopes: tuple[bytes, ...]) -> None:
        """A re-mask must take exactly the seat's holding: judged on the signed envelope
        before it is fed, so that one naming positions that do not exist yet cannot make
        the table wait."""
        hand = self.hand
        for data in envelopes:
            message = hand.signed_message(seat, data)
            if isinstance(message, RemaskMsg) and set(message.inputs) != hand.holdings[seat]:
                raise Blamed(Blame(seat, "remask", "re-masked positions other than its "
                                   "holding"), (data,))

    def follow_remasks(self, events: list[Event]) -> None:
        """Map holdings to the new positions as re-masks arrive; blame a stray one."""
        hand = self.hand
        for event in events:
            if isinstance(event, Remasked):
                seat = event.seat
                if seat == hand.me and not self.remask_due(seat):
                    # made with this seat's outcome, which its own queue has not given
                    # back yet (the session makes its own re-masks right)
                    self.own_early.append(event)
                    continue
                if not self.remask_due(seat) or set(event.inputs) != hand.holdings[seat]:
                    raise Blamed(Blame(seat, "remask", "re-masked positions other than its "
                                       "holding, or when no re-mask was due"))
                hand.holdings[seat] = set(event.outputs)
                self.due.discard(seat)

    def remask_mine(self, now: float) -> None:
        """Re-mask this seat's holding when the hand awaits it: as the acceptor, just
        before this seat's next decision (or at the deal's end), in the frames that
        carry that decision (see the module docstring)."""
        hand = self.hand
        if hand.me is None or self.remask_sent or hand.awaited() != (hand.me, Tag.REMASK):
            return
        self.remask_sent = True
        hand.fair.remask(sorted(hand.holdings[hand.me]), now)
        hand.outbox.append(hand.move_body(Tag.REMASK, (), hand.fair.outgoing()))
