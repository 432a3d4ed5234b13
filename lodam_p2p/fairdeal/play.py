"""The play phase of a hand: reveals, transfers and re-masks, commanded and received.

A mixin of :class:`~lodam_p2p.fairdeal.hand.Hand` (kept apart to keep each module
short): the commands a seat's caller gives during play, the handlers that apply the
matching messages from any seat, and what the hand waits for meanwhile. Everything it
uses of the hand is declared below and provided by ``Hand``.

Nothing in play needs another seat's answer but the talon's top (every seat's share):
a card is held under its holder's key alone (record.py, "Held forms"), so its holder
reveals it, hands it over (transfer.py) or re-masks it (remask.py) by itself.
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
)
from lodam_p2p.fairdeal.errors import LocalProtocolError
from lodam_p2p.fairdeal.messages import (
    MAX_REMASK,
    AuditMsg,
    Message,
    RemaskMsg,
    RevealMsg,
    TransferMsg,
)
from lodam_p2p.fairdeal.record import Record
from lodam_p2p.fairdeal.remask import Handover, remask_commitment, remask_secret
from lodam_p2p.fairdeal.seat import SeatSecrets
from lodam_p2p.fairdeal.shuffle import apply_shuffle

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
    _openings: dict[int, AuditMsg]
    _reveal_since: dict[int, float]

    def _check_live(self) -> None:
        raise NotImplementedError

    def _act(self, msg: Message, now: float) -> None:
        raise NotImplementedError

    # --- commands -----------------------------------------------------------------------

    def reveal(self, position: int, now: float) -> None:
        """Publish this seat's share of ``position`` (a card played, the talon's top
        turned); the position is public once every share it needs is."""
        me = self._commanding(position)
        if not self.record.may_reveal(me.seat, position):
            raise LocalProtocolError(f"seat {me.seat} does not hold position {position}")
        if me.seat in self.record.shares.get(position, {}):
            raise LocalProtocolError(f"nothing to reveal at position {position}")
        self._act(me.reveal(self.record, position), now)
        # Wait (with a deadline) for the other shares only once this seat itself has
        # revealed: a partial reveal started by another seat alone must not put honest
        # seats on the clock for a reveal their session never asked for.
        if position not in self.record.revealed:
            self._reveal_since.setdefault(position, now)

    def transfer(self, position: int, to: int, now: float) -> int:
        """Hand the card at ``position`` to seat ``to``: re-encrypt it under ``to``'s hand
        key, with the proof. Returns the new position, held by ``to`` (who alone reads
        it, and re-masks it into its holding before playing it)."""
        me = self._commanding(position)
        rec = self.record
        if to == self.seat or to not in self.config.seats:
            raise LocalProtocolError(f"cannot transfer to seat {to}")
        if rec.holder_of(position) != me.seat or position in rec.given \
                or isinstance(rec.made_of(position), Handover):
            raise LocalProtocolError(f"seat {me.seat} cannot hand over position {position}")
        self._act(me.transfer(rec, position, to), now)
        output = rec.switched[position]
        if position in self.cards:
            self.cards[output] = self.cards[position]
        return output

    def remask(self, positions: Iterable[int], now: float) -> tuple[int, ...]:
        """Re-mask ``positions`` (this seat's whole holding, as its caller knows it): the
        same cards under fresh positions that only this seat can link to the old ones.
        Returns the new positions, which are usable at once; the old ones are retired
        for this seat. Which new position holds which card is in ``cards`` at once."""
        me = self._commanding(None)
        inputs = tuple(sorted(set(positions)))
        if self.phase is not Phase.PLAY or not 1 <= len(inputs) <= MAX_REMASK:
            raise LocalProtocolError(f"cannot re-mask {len(inputs)} positions now")
        rec = self.record
        for j in inputs:
            if j not in self.cards or rec.holder_of(j) != me.seat \
                    or me.seat in rec.retired.get(j, set()):
                raise LocalProtocolError(f"seat {self.seat} cannot re-mask position {j}")
        round_ = rec.next_round(me.seat)
        secret = remask_secret(me.remask_seed(), round_, len(inputs))
        deck = apply_shuffle(tuple(rec.held(j) for j in inputs), me.key, secret)
        proof = b""
        if self.config.proofs:
            st = rec.remask_proof_statement(me.seat, round_, inputs, deck)
            proof = rec.argument.encode(rec.argument.prove(st, secret, me.entropy))
        self._act(RemaskMsg(inputs, deck, remask_commitment(me.ctx, secret), proof), now)
        remask = rec.rounds[(me.seat, round_)]
        assert not isinstance(remask, Handover)
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
            if not self.record.exists(position):
                raise LocalProtocolError(f"no position {position}")
            if self.seat in self.record.retired.get(position, set()):
                raise LocalProtocolError(f"position {position} is retired (re-masked)")
        return self._me

    # --- what play waits for ------------------------------------------------------------

    def _awaited_in_play(self, remote: list[int]) -> Waiting | None:
        if not self._reveal_since:
            return None
        position, since = min(self._reveal_since.items(), key=lambda item: item[1])
        missing = [s for s in remote if s not in self.record.shares.get(position, {})]
        return (missing, since, f"share to reveal position {position}") if missing else None

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
        handover = self.record.add_transfer(seat, seq, msg, trusted=trusted)
        me = self._me
        if trusted or me is None or msg.to != me.seat:
            return
        card = me.decrypt(self.record, handover.output)
        if card is None:  # impossible once the switch and the deck are proven
            self._events.append(Anomaly(handover.output))
            return
        self.cards[handover.output] = self.cards[msg.position] = card
        self._events.append(CardLearned(handover.output, card, seat))

    def _on_remask(self, seat: int, msg: RemaskMsg, now: float, trusted: bool) -> None:
        remask = self.record.add_remask(seat, msg, trusted=trusted)
        self._events.append(Remasked(seat, remask.inputs, remask.outputs))
