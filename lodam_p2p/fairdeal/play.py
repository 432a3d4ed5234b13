"""The play phase of a hand: reveals, transfers and re-masks, commanded and received.

A mixin of :class:`~lodam_p2p.fairdeal.hand.Hand` (kept apart to keep each module
short): the commands a seat's caller gives during play, the handlers that apply the
matching messages from any seat, and what the hand waits for meanwhile. Everything it
uses of the hand is declared below and provided by ``Hand``.
"""

from __future__ import annotations

from collections.abc import Iterable

from lodam_p2p.fairdeal.config import (
    Anomaly,
    CardLearned,
    CardRevealed,
    Event,
    HandConfig,
    Phase,
    Remasked,
    RemaskShared,
)
from lodam_p2p.fairdeal.errors import LocalProtocolError
from lodam_p2p.fairdeal.messages import (
    MAX_REMASK,
    AuditMsg,
    Message,
    RemaskMsg,
    RevealMsg,
    SharesMsg,
    TransferMsg,
)
from lodam_p2p.fairdeal.proofs import prove_shares
from lodam_p2p.fairdeal.record import Record
from lodam_p2p.fairdeal.remask import (
    Remask,
    carry_shares,
    remask_commitment,
    remask_secret,
)
from lodam_p2p.fairdeal.seat import SeatSecrets
from lodam_p2p.fairdeal.shuffle import apply_shuffle
from lodam_p2p.fairdeal.shuffleproof import prove_shuffle
from lodam_p2p.fairdeal.transfer import seal, transfer_key

Waiting = tuple[list[int], float, str]


class PlayPhase:
    """Reveal, transfer and re-mask (see the module docstring)."""

    config: HandConfig
    seat: int | None
    record: Record
    phase: Phase
    cards: dict[int, int]
    _me: SeatSecrets | None
    _events: list[Event]
    _sent: list[bytes]
    _openings: dict[int, AuditMsg]
    _reveal_since: dict[int, float]
    _remask_since: dict[tuple[int, int], float]

    def _check_live(self) -> None:
        raise NotImplementedError

    def _act(self, msg: Message, now: float) -> None:
        raise NotImplementedError

    def _send(self, msg: Message, now: float) -> None:
        raise NotImplementedError

    # --- commands -----------------------------------------------------------------------

    def reveal(self, position: int, now: float) -> None:
        """Publish every share of ``position`` this seat can give (a card played, the
        talon's top turned); the position is public once every seat's share is."""
        me = self._commanding(position)
        if not self.record.may_reveal(me.seat, position):
            raise LocalProtocolError(f"seat {me.seat} does not hold position {position}")
        public = set(self.record.shares.get(position, {}))
        entries = me.entries(self.record, position, skip=public)
        if not entries:
            raise LocalProtocolError(f"nothing to reveal at position {position}")
        self._act(RevealMsg(position, tuple(entries)), now)
        # Wait (with a deadline) for the other shares only once this seat itself has
        # revealed: a partial reveal started by another seat alone must not put honest
        # seats on the clock for a reveal their session never asked for.
        if position not in self.record.revealed:
            self._reveal_since.setdefault(position, now)

    def transfer(self, position: int, to: int, now: float) -> None:
        """Hand ``position`` to seat ``to`` privately: seal to it the shares it lacks."""
        me = self._commanding(position)
        if to == self.seat or to not in self.config.seats:
            raise LocalProtocolError(f"cannot transfer to seat {to}")
        skip = self.record.public_sharers(position) | {to}
        entries = me.entries(self.record, position, skip=skip)
        if skip | {e.seat for e in entries} != set(self.config.seats):
            raise LocalProtocolError(f"seat {self.seat} cannot hand over position {position}")
        seq = len(self._sent)
        key = transfer_key(me.x, self.record.keys[to], me.ctx, to=to, position=position, seq=seq)
        self._act(TransferMsg(position, to, seal(key, entries)), now)

    def remask(self, positions: Iterable[int], now: float) -> tuple[int, ...]:
        """Re-mask ``positions`` (this seat's whole holding, as its caller knows it): the
        same cards under fresh positions that only this seat can link to the old ones.
        Returns the new positions; the old ones are retired for this seat. Which new
        position holds which card is in ``cards`` at once; the new positions can be
        revealed or transferred once every other seat's shares are in (``RemaskShared``):
        at once when the re-mask carries them all (record.py, ``carriers``), else when
        the holders the inputs came from have answered."""
        me = self._commanding(None)
        inputs = tuple(sorted(set(positions)))
        if self.phase is not Phase.PLAY or not 1 <= len(inputs) <= MAX_REMASK:
            raise LocalProtocolError(f"cannot re-mask {len(inputs)} positions now")
        rec = self.record
        for j in inputs:
            if j not in self.cards or me.seat in rec.retired.get(j, set()):
                raise LocalProtocolError(f"seat {self.seat} cannot re-mask position {j}")
        carriers = rec.carriers(me.seat, inputs)
        if not rec.carried_public(carriers, inputs):
            raise LocalProtocolError("a position to re-mask still waits for shares")
        round_ = sum(1 for r in rec.remasks if r.seat == me.seat)
        secret = remask_secret(me.remask_seed(), round_, len(inputs))
        assert rec.joint is not None
        deck = apply_shuffle(tuple(rec.ciphertext(j) for j in inputs), rec.joint, secret)
        carried = carry_shares(rec.carried_in(carriers, inputs),
                               tuple(rec.keys[c] for c in carriers), secret)
        proof = None
        if self.config.proofs:
            st = rec.statement_of_remask(me.seat, round_, inputs, deck, carried)
            proof = prove_shuffle(st, secret, me.entropy)
        self._act(RemaskMsg(inputs, deck, remask_commitment(me.ctx, secret), proof, carried),
                  now)
        remask = rec.rounds[(me.seat, round_)]
        for out, source in zip(remask.outputs, secret.permutation, strict=True):
            self.cards[out] = self.cards[inputs[source]]
        return remask.outputs

    def _commanding(self, position: int | None) -> SeatSecrets:
        self._check_live()
        if self._me is None:
            raise LocalProtocolError("an observer cannot act")
        if self.phase not in (Phase.PLAY, Phase.AUDIT):
            raise LocalProtocolError(f"not during the {self.phase.value} phase")
        if self.seat in self._openings:
            raise LocalProtocolError("this seat has opened its secrets")
        if position is not None:
            self._check_usable(position)
        return self._me

    def _check_usable(self, position: int) -> None:
        rec = self.record
        if not rec.exists(position):
            raise LocalProtocolError(f"no position {position}")
        if self.seat in rec.retired.get(position, set()):
            raise LocalProtocolError(f"position {position} is retired (re-masked)")
        remask = rec.remask_of(position)
        if remask is not None and not rec.shared(remask):
            raise LocalProtocolError(f"position {position}: its re-mask shares are not all in")

    # --- what play waits for ------------------------------------------------------------

    def _awaited_in_play(self, remote: list[int]) -> Waiting | None:
        rec = self.record
        waits: list[Waiting] = []
        if self._reveal_since:
            position, since = min(self._reveal_since.items(), key=lambda item: item[1])
            missing = [s for s in remote if s not in rec.shares.get(position, {})]
            waits.append((missing, since, f"share to reveal position {position}"))
        if self._remask_since:
            (seat, round_), since = min(self._remask_since.items(), key=lambda item: item[1])
            done = rec.rounds[(seat, round_)].shares
            missing = [s for s in remote if s != seat and s not in done]
            waits.append((missing, since, f"shares for re-mask {round_} of seat {seat}"))
        waits = [w for w in waits if w[0]]
        return min(waits, key=lambda w: w[1]) if waits else None

    # --- applying play messages -----------------------------------------------------------

    def _on_reveal(self, seat: int, msg: RevealMsg, now: float, trusted: bool) -> None:
        rec = self.record
        if not rec.add_reveal(seat, msg, trusted=trusted):
            return
        self._reveal_since.pop(msg.position, None)
        card = rec.public_card(msg.position)
        if card is None:
            self._events.append(Anomaly(msg.position))
            return
        rec.revealed[msg.position] = card
        self._events.append(CardRevealed(msg.position, card, seat))

    def _on_transfer(self, seat: int, seq: int, msg: TransferMsg, trusted: bool) -> None:
        rec = self.record
        rec.add_transfer(seat, seq, msg)
        me = self._me
        if trusted or me is None or msg.to != me.seat:
            return
        key = transfer_key(me.x, rec.keys[seat], rec.ctx(seat), to=me.seat,
                           position=msg.position, seq=seq)
        me.hold(msg.position, rec.open_transfer(seat, msg, key))
        card = me.decrypt(rec, msg.position)
        if card is None:
            self._events.append(Anomaly(msg.position))
            return
        self.cards[msg.position] = card
        self._events.append(CardLearned(msg.position, card, seat))

    def _on_remask(self, seat: int, msg: RemaskMsg, now: float, trusted: bool) -> None:
        remask = self.record.add_remask(seat, msg, trusted=trusted)
        self._events.append(Remasked(seat, remask.inputs, remask.outputs))
        if self.record.shared(remask):  # it carried every share: nobody need answer
            self._events.append(RemaskShared(seat, remask.outputs))
            return
        self._remask_since[(seat, remask.round)] = now
        me = self._me
        if me is not None and me.seat != seat and me.seat not in remask.shares \
                and self.seat not in self._openings:
            self._send_remask_shares(me, remask, now)

    def _send_remask_shares(self, me: SeatSecrets, remask: Remask, now: float) -> None:
        shares = tuple(me.share(self.record, j) for j in remask.outputs)
        entries = self.record.remask_entries(remask, shares, me.seat)
        proof = prove_shares(me.ctx, me.x, me.key, entries, me.entropy, tag=b"remask")
        self._send(SharesMsg(remask.seat, remask.round, shares, proof), now)

    def _on_shares(self, seat: int, msg: SharesMsg, trusted: bool) -> None:
        remask = self.record.add_shares(seat, msg, trusted=trusted)
        if self.record.shared(remask):
            self._remask_since.pop((remask.seat, remask.round), None)
            self._events.append(RemaskShared(remask.seat, remask.outputs))
