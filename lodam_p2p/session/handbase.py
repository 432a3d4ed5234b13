"""What every hand machine at one peer shares: the fair-deal envelopes, signed and fed.

The base of :class:`~lodam_p2p.session.handplay.HandPlay` (Lodam) and
:class:`~lodam_p2p.session.gamehand.GameHand` (games without exchanges): it feeds a
seat's envelopes to the fair-deal :class:`~lodam_p2p.fairdeal.Hand`, keeps the last
ones as the evidence a VOID carries, says whether an envelope is one a seat signed
for this hand, and queues what the protocol produced as PROTO bodies. The step its
bodies carry is each hand's own (a Lodam hand counts it, a Lorum hand reads its deal's),
so the base names it only as what a body needs (``_Stepped``).
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Protocol

from lodam_p2p.fairdeal import Blame, Hand, HandConfig, Phase, RemoteProtocolError
from lodam_p2p.fairdeal.messages import AuditMsg, RevealMsg
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN, open_envelope
from lodam_p2p.session.handtypes import Blamed
from lodam_p2p.session.wire import MAX_ENVELOPES, Body, Msg


class _Stepped(Protocol):
    """A hand whose bodies carry its hand number and step: each hand keeps its step
    its own way (a Lodam hand as its own count, a Lorum hand as its deal's)."""

    @property
    def hand_no(self) -> int: ...

    @property
    def step(self) -> int: ...


class HandBase(abc.ABC):
    """Envelopes in and out of the fair-deal hand (see the module docstring)."""

    config: HandConfig
    fair: Hand
    outbox: list[Body]
    #: each seat's envelopes last fed: the evidence a VOID carries against it
    last_fed: dict[int, tuple[bytes, ...]]

    @property
    def hand_no(self) -> int:
        """The hand number of the session's bodies (here the fair-deal context too)."""
        return self.config.hand

    @property
    def dealt(self) -> bool:
        """Every seat's cards are dealt (the protocol is in play or later)."""
        return self.fair.phase in (Phase.PLAY, Phase.AUDIT, Phase.DONE)

    @property
    def audited(self) -> bool:
        """The audit passed: the hand's full deal is the replayed one."""
        return self.fair.phase is Phase.DONE

    @abc.abstractmethod
    def poll(self, now: float) -> None:
        """Finish what the protocol now allows, and queue what it produced."""

    def vigilant(self) -> None:
        """A seat claims a cheat: a follower that left proofs of shuffle unchecked (it
        answers nothing) checks them now, and every later one as it comes."""
        self.fair.vigilant()

    def earlier_offence(self) -> RemoteProtocolError | None:
        """Before a follower convicts on a session check, the first of the proofs it took
        unchecked that fails (the offence an eager follower would have convicted on)."""
        try:
            self.fair.vigilant()
        except RemoteProtocolError as err:
            return err
        return None

    def signed_message(self, seat: int, data: bytes) -> object:
        """The fair-deal message of the envelope ``data`` that ``seat`` signed (the hand
        keeps what it opened here, so feeding the envelope next costs no second
        signature check and decoding)."""
        return self.fair.peek(seat, data)

    def signed_by(self, seat: int, data: bytes) -> bytes | None:
        """The body of ``data`` if it is an envelope ``seat`` signed for this hand."""
        if seat not in self.config.seats:
            return None
        key = self.config.identities[self.config.seats.index(seat)]
        try:
            return open_envelope(data, seat, key, self.config.table_id, self.config.hand).body
        except RemoteProtocolError:
            return None

    def taken_from(self, seat: int, data: bytes) -> bool:
        """Whether the envelope ``data`` has a sequence number already taken from ``seat``."""
        seq = int.from_bytes(data[SIG_LEN + 25:SIG_LEN + 29], "big")
        return len(data) >= SIG_LEN + HEADER_LEN and seq < self.fair.wanted().get(seat, 0)

    def is_opening(self, seat: int, data: bytes) -> bool:
        """Whether ``data`` is an audit opening that ``seat`` signed for this hand."""
        return isinstance(self.signed_message(seat, data), AuditMsg)

    def screen_envelopes(self, seat: int, body: Body, reveal_due: Callable[[int], bool],
                         outside: str) -> None:
        """Refuse, in a body of ``seat`` that is no NOTES, an audit opening, and a reveal
        of a position ``reveal_due`` does not allow (``outside`` words where it may
        reveal): :class:`~lodam_p2p.session.handtypes.Blamed`, the envelope as evidence.

        An opening reveals the seat's hand key and shuffle; sent early (inside a PROTO,
        a play …) it would move every hand to the audit mid-deal. The signed envelope
        is proof against its signer, whatever the state of the hand that reads it."""
        if body.kind is Msg.NOTES:
            return
        for data in body.envelopes:
            message = self.signed_message(seat, data)
            if isinstance(message, AuditMsg):
                raise Blamed(Blame(seat, "early-audit", "sent its audit opening before the "
                                   "end of the deal"), (data,))
            if isinstance(message, RevealMsg) and not reveal_due(message.position):
                raise Blamed(Blame(seat, "false-reveal", f"revealed position "
                                   f"{message.position} {outside}"), (data,))

    def feed(self, seat: int, envelopes: tuple[bytes, ...], now: float, *,
             own: bool = True, poll: bool = True) -> None:
        """Fair-deal envelopes from ``seat``; unattributable junk is skipped.

        ``own``: they came in a body ``seat`` signed for this hand. Then an envelope it
        signed for another table or hand is its own doing (a replay), not junk: the
        signature checked, so nobody else can have made the body carry it. ``poll``:
        finish what the protocol now allows (``False`` for a caller that has more of
        the body to apply first)."""
        if envelopes:
            self.last_fed[seat] = envelopes
        for data in envelopes:
            try:
                self.fair.receive(seat, data, now)
            except RemoteProtocolError as err:
                if err.attributable:
                    raise
                if own and err.check == "context":
                    raise Blamed(Blame(seat, "replay", "sent an envelope it signed for "
                                       "another table or hand"), (data,)) from None
        if poll:
            self.poll(now)

    def flush(self) -> None:
        """Queue what the fair-deal protocol produced, as PROTO bodies."""
        envelopes = self.fair.outgoing()
        for start in range(0, len(envelopes), MAX_ENVELOPES):
            chunk = tuple(envelopes[start:start + MAX_ENVELOPES])
            self.outbox.append(Body(Msg.PROTO, self.hand_no, 0, (), chunk))

    def _body(self: _Stepped, kind: Msg, args: tuple[object, ...],
              envelopes: list[bytes]) -> Body:
        """A body of this hand at its current step."""
        return Body(kind, self.hand_no, self.step, args, tuple(envelopes))
