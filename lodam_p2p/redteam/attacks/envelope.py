"""Attacks on the fair-deal envelopes a seat signs: false proofs, false shuffles, forged
re-masks and transfers, reveals out of turn, equivocation and replays.

Each is one thing a seated peer with valid keys can send. A table that works as
protocol/SPEC.md says refuses each of them when it arrives, before anything rests on it,
and convicts the sender on the evidence (the signed envelope itself).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lodam_p2p.fairdeal.group import (
    add,
    base_mul,
    card_lookup,
    card_points,
    encode_point,
    mul,
    random_scalar,
    sub,
)
from lodam_p2p.fairdeal.messages import (
    DealMsg,
    KeyMsg,
    Kind,
    RemaskMsg,
    RevealMsg,
    ShuffleMsg,
    TransferMsg,
    encode,
    kind_of,
)
from lodam_p2p.fairdeal.messages import decode as decode_message
from lodam_p2p.fairdeal.remask import Remask
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from lodam_p2p.fairdeal.wire import seal as seal_envelope
from lodam_p2p.redteam.attacks.base import (
    Attack,
    bad_proof,
    envelope_kind,
    framed,
    reseal,
    trades,
    without_exchanges,
)
from lodam_p2p.session.wire import Body, Msg

if TYPE_CHECKING:
    from lodam_p2p.redteam.seat import Cheat


class EnvelopeAttack(Attack):
    """Tamper with the seat's first envelope of kind ``target`` in hand 1."""

    target = Kind.KEY
    any_hand = False  #: mount in a later hand too (the first chance may come later)

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        if self.attempted or (body.hand != 1 and not self.any_hand) or not body.envelopes:
            return [body]
        for i, raw in enumerate(body.envelopes):
            if envelope_kind(raw) is self.target:
                self.attempted = True
                return self.tamper(adv, body, i, raw)
        return [body]

    def tamper(self, adv: Cheat, body: Body, index: int, raw: bytes) -> list[Body]:
        """The bodies that replace ``body``, whose envelope ``index`` is ``raw``."""
        message = decode_message(raw[SIG_LEN + HEADER_LEN:])
        envelopes = list(body.envelopes)
        envelopes[index] = reseal(adv, raw, encode(self.change(message)))
        return [replace(body, envelopes=tuple(envelopes))]

    def change(self, message: object) -> KeyMsg | ShuffleMsg | DealMsg:
        """The tampered message."""
        raise NotImplementedError


class BadKeyProof(EnvelopeAttack):
    """Publish a hand key whose proof of knowledge fails (its response moved by one).

    The table must refuse the key on arrival and convict its signer (key-proof) before
    any card rests on it."""

    kind, summary, target = "bad-key-proof", "a hand key whose proof of knowledge fails", Kind.KEY

    def change(self, message: object) -> KeyMsg:
        assert isinstance(message, KeyMsg)
        proof = bad_proof(message.proof)
        assert proof is not None
        return replace(message, proof=proof)


class BadShareProof(EnvelopeAttack):
    """Publish deal shares whose Chaum–Pedersen proof fails.

    The table must refuse the shares before using them and convict their signer
    (share-proof)."""

    kind, summary, target = "bad-share-proof", "deal shares whose proof fails", Kind.DEAL

    def change(self, message: object) -> DealMsg:
        assert isinstance(message, DealMsg)
        return replace(message, proof=bad_proof(message.proof))


class ShuffleDrop(EnvelopeAttack):
    """Publish a shuffle one card short.

    The table must refuse it (the deck's size, or its proof) and convict its signer
    before any card is dealt."""

    kind, summary, target = "shuffle-drop", "a shuffle that drops a card", Kind.SHUFFLE

    def change(self, message: object) -> ShuffleMsg:
        assert isinstance(message, ShuffleMsg)
        return replace(message, deck=message.deck[:-1])


class ShuffleDuplicate(EnvelopeAttack):
    """Publish a shuffle in which one ciphertext is copied over another.

    The table must refuse it (two equal ciphertexts, or the proof) and convict its signer
    before any card is dealt."""

    kind, summary, target = ("shuffle-duplicate", "a shuffle that copies one card over another",
                             Kind.SHUFFLE)

    def change(self, message: object) -> ShuffleMsg:
        assert isinstance(message, ShuffleMsg)
        return replace(message, deck=(message.deck[0], *message.deck[:-1]))


class ShuffleCommitmentMismatch(EnvelopeAttack):
    """Publish a shuffle beside a commitment its proof was not made for.

    The table must refuse it on arrival: the proof of shuffle is bound to its
    commitment."""

    kind, summary, target = ("shuffle-commitment-mismatch",
                             "a shuffle beside a commitment its proof was not made for",
                             Kind.SHUFFLE)

    def change(self, message: object) -> ShuffleMsg:
        assert isinstance(message, ShuffleMsg)
        return replace(message, commitment=hashlib.sha256(message.commitment).digest())


class DeckReplace(EnvelopeAttack):
    """Shuffle in fresh encryptions of the cards in an order of its own choosing, so
    that (as the last shuffler) it would know every seat's hand.

    The table must refuse the shuffle on its proof before a card is dealt: nothing is
    learned."""

    kind, summary, target = ("deck-replace",
                             "shuffle in fresh encryptions of cards in an order of its choice",
                             Kind.SHUFFLE)

    def __init__(self) -> None:
        super().__init__()
        self.hand: int | None = None
        self.last = False

    def change(self, message: object) -> ShuffleMsg:
        assert isinstance(message, ShuffleMsg)
        return message  # replaced in tamper(), which knows the hand

    def tamper(self, adv: Cheat, body: Body, index: int, raw: bytes) -> list[Body]:
        hand = adv.hand
        assert hand is not None and hand.me is not None
        record = hand.fair.record
        assert record.joint is not None
        message = decode_message(raw[SIG_LEN + HEADER_LEN:])
        assert isinstance(message, ShuffleMsg)
        # position k now holds card k: (r·G, M_k + r·H), r fresh for each
        deck = tuple((base_mul(r), add(m, mul(record.joint, r))) for m, r in zip(
            card_points(len(message.deck)),
            (random_scalar(adv.entropy) for _ in message.deck), strict=True))
        envelopes = list(body.envelopes)
        envelopes[index] = reseal(adv, raw, encode(replace(message, deck=deck)))
        self.hand, self.last = adv.hand_no, hand.config.seats[-1] == hand.me
        return [replace(body, envelopes=tuple(envelopes))]

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if (self.learned or not self.last or hand is None or adv.hand_no != self.hand
                or not hand.dealt or hand.me is None):
            return
        # The deal went ahead on this seat's deck: every position's card is known.
        schedule = hand.config.schedule
        self.learned = [str(hand.pack[k]) for k in range(len(schedule))
                        if schedule[k] != hand.me]


class RemaskSteal(EnvelopeAttack):
    """In an exchange's re-mask, put a re-randomised copy of another seat's card in
    place of its own, then watch for a share that would open it.

    The table must refuse the re-mask on its proof, and nobody ever shares for a
    re-mask: nothing is read."""

    kind, summary, target = ("remask-steal",
                             "re-mask a copy of another seat's card and read it from the shares",
                             Kind.REMASK)

    def __init__(self) -> None:
        super().__init__()
        self.stolen: tuple[int, int, int] | None = None  # hand, new position, victim

    def decide(self, adv: Cheat, view: Any, action: Any) -> Any:
        if without_exchanges(self, adv):
            return action
        offered = trades(adv, view)
        return action if self.attempted or not offered else offered[0]

    any_hand = True

    def tamper(self, adv: Cheat, body: Body, index: int, raw: bytes) -> list[Body]:
        # a re-randomised copy of another seat's held card in place of the first new
        # ciphertext: only that seat's share could open it, and nobody shares for a
        # re-mask; the attack watches for one all the same
        hand = adv.hand
        assert hand is not None and hand.me is not None
        record = hand.fair.record
        target = next((t for t, owner in enumerate(hand.config.schedule)
                       if owner is not None and owner != hand.me
                       and t not in record.revealed and not record.retired.get(t)), None)
        message = decode_message(raw[SIG_LEN + HEADER_LEN:])
        if target is None or not isinstance(message, RemaskMsg):
            self.attempted = False
            return [body]
        victim = hand.config.schedule[target]
        assert victim is not None
        a, b = record.held(target)
        r = random_scalar(adv.entropy)
        copy = (add(a, base_mul(r)), add(b, mul(record.keys[victim], r)))
        remask = record.rounds[(hand.me, record.next_round(hand.me) - 1)]
        assert isinstance(remask, Remask)
        out = remask.outputs[0]
        record.masked[out] = copy  # this seat's own record follows its published deck
        self.stolen = (adv.hand_no, out, victim)
        envelopes = list(body.envelopes)
        deck = (copy, *message.deck[1:])
        envelopes[index] = reseal(adv, raw, encode(replace(message, deck=deck)))
        return [replace(body, envelopes=tuple(envelopes))]

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if self.stolen is None or hand is None or adv.hand_no != self.stolen[0]:
            return
        _, out, victim = self.stolen
        share = hand.fair.record.shares.get(out, {}).get(victim)
        if share is None:
            return
        self.stolen = None
        point = sub(hand.fair.record.masked[out][1], share)
        card = card_lookup(hand.config.deck_size).get(encode_point(point))
        if card is not None and hand.pack[card] not in hand.view().hand:
            self.learned.append(str(hand.pack[card]))


class ForgedTransfer(EnvelopeAttack):
    """In an exchange, hand over a ciphertext of a card of its choosing instead of the
    card put down.

    The table must refuse the transfer on its key-switch proof, at every seat, as it
    comes."""

    kind, summary, target = ("forged-transfer",
                             "hand over, in an exchange, a ciphertext of a card of its choosing "
                             "instead of the card put down", Kind.TRANSFER)

    any_hand = True

    def decide(self, adv: Cheat, view: Any, action: Any) -> Any:
        if without_exchanges(self, adv):
            return action
        offered = trades(adv, view)
        return action if self.attempted or not offered else offered[0]

    def tamper(self, adv: Cheat, body: Body, index: int, raw: bytes) -> list[Body]:
        # the switched ciphertext moved by M* − M: the receiver would read M*, another
        # card than the one the giver put down (and the audit's replay would follow it)
        hand = adv.hand
        assert hand is not None and hand.me is not None
        message = decode_message(raw[SIG_LEN + HEADER_LEN:])
        if not isinstance(message, TransferMsg):
            self.attempted = False
            return [body]
        real = hand.fair.cards[message.position]
        points = card_points(hand.config.deck_size)
        wanted = (real + 1) % hand.config.deck_size
        alpha, beta = message.new
        forged = replace(message, new=(alpha, add(sub(beta, points[real]), points[wanted])))
        envelopes = list(body.envelopes)
        envelopes[index] = reseal(adv, raw, encode(forged))
        return [replace(body, envelopes=tuple(envelopes))]


class RevealHeldCard(Attack):
    """After an exchange, reveal with a valid share a card it can read but no longer
    holds (the receiver's card now).

    The table must refuse the reveal before anyone decrypts it and convict the revealer
    (false-reveal)."""

    kind, summary = ("reveal-held-card",
                     "reveal, with a valid share, a card another seat holds after an exchange")

    def decide(self, adv: Cheat, view: Any, action: Any) -> Any:
        if without_exchanges(self, adv):
            return action
        offered = trades(adv, view)
        return action if self.attempted or not offered else offered[0]

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if self.attempted or hand is None or hand.me is None or hand.public.is_over:
            return
        record = hand.fair.record
        for position in sorted(hand.fair.cards):
            # a card it can read but does not hold: after a done exchange the position
            # it handed over (the receiver holds that card now), after a void one the
            # position the other trader's transfer made for it (the giver's card)
            if (position in hand.holdings[hand.me] or position in record.revealed
                    or position == hand.top or record.holder_of(position) != hand.me
                    or hand.me in record.retired.get(position, set())):
                continue
            # The honest API refuses a reveal of a card the seat may not reveal, so the
            # cheat builds the message itself, as a modified client would.
            me = getattr(hand.fair, "_me", None)
            if me is None:
                return
            self.attempted = True
            adv.send(Body(Msg.PROTO, adv.hand_no, 0, (), (_sealed(hand.fair, me.reveal(
                record, position)),)))
            return


def _sealed(fair: Any, msg: RevealMsg) -> bytes:
    """``msg`` signed and chained as the seat's next envelope, without applying it to
    the seat's own record (which, like every honest record, would refuse it)."""
    seq = len(fair._sent)
    raw: bytes = seal_envelope(fair._identity, encode(msg), table_id=fair.config.table_id,
                               hand=fair.config.hand, seat=fair.seat, seq=seq,
                               prev=fair._digest_of_last_sent())
    fair._sent.append(raw)
    fair._intake.follow(fair.seat, kind_of(msg))
    return raw


class Equivocation(EnvelopeAttack):
    """Publish two different signed envelopes for one step.

    The table must convict the signer on the two envelopes (equivocation), the same way
    at every honest seat."""

    kind, summary, target = ("equivocation", "two different signed envelopes for one step",
                             Kind.KEY)

    def tamper(self, adv: Cheat, body: Body, index: int, raw: bytes) -> list[Body]:
        other = reseal(adv, raw, raw[SIG_LEN + HEADER_LEN:] + b"\x00", instead=False)
        return [body, Body(Msg.PROTO, body.hand, 0, (), (other,))]


class ReplayOtherTable(EnvelopeAttack):
    """Publish an envelope signed for another table (its table id changed).

    The table must refuse it as a replay and convict its signer."""

    kind, summary, target = ("replay-other-table", "an envelope signed for another table",
                             Kind.KEY)

    def tamper(self, adv: Cheat, body: Body, index: int, raw: bytes) -> list[Body]:
        header = bytearray(raw[SIG_LEN:SIG_LEN + HEADER_LEN])
        header[4:20] = hashlib.sha256(bytes(header[4:20])).digest()[:16]  # another table id
        other = reseal(adv, raw, raw[SIG_LEN + HEADER_LEN:], bytes(header), instead=False)
        return [Body(Msg.PROTO, body.hand, 0, (), (other,)), body]


class ReplayOtherHand(Attack):
    """In a later hand, publish again an envelope it signed in the first hand.

    The table must refuse it as a replay and convict its signer."""

    kind, summary = "replay-other-hand", "an envelope of an earlier hand sent again"

    def __init__(self) -> None:
        super().__init__()
        self.kept: bytes | None = None

    def outgoing(self, adv: Cheat, body: Body) -> list[Body]:
        if self.kept is None and body.hand == 1 and body.envelopes:
            self.kept = body.envelopes[0]
        if self.attempted or self.kept is None or body.hand < 2:
            return [body]
        self.attempted = True
        return [Body(Msg.PROTO, body.hand, 0, (), (self.kept,)), body]




class ForeignSeatEnvelope(EnvelopeAttack):
    """Sign a hand key whose envelope header carries another seat's number, and send it
    in the seat's own stream before its real key.

    The table must take an envelope only as its stream's sender's: one that names
    another seat is refused (or convicts its signer), and the seat it names is never
    blamed for it."""

    kind, summary, target = ("foreign-seat-envelope",
                             "an envelope that names another seat's number, in its own stream",
                             Kind.KEY)
    _SEAT = SIG_LEN + 24  #: where the seat number sits in an envelope

    def tamper(self, adv: Cheat, body: Body, index: int, raw: bytes) -> list[Body]:
        hand = adv.hand
        assert hand is not None
        victim = next(s for s in hand.config.seats if s != hand.me)
        self.victim = victim
        header = bytearray(raw[SIG_LEN:SIG_LEN + HEADER_LEN])
        header[self._SEAT - SIG_LEN] = victim
        other = reseal(adv, raw, raw[SIG_LEN + HEADER_LEN:], bytes(header), instead=False)
        return [Body(Msg.PROTO, body.hand, 0, (), (other,)), body]

    victim: int | None = None

    def tick(self, adv: Cheat) -> None:
        if self.victim is not None and not self.learned and framed(adv, self.victim):
            self.learned.append(f"seat {self.victim} blamed for an envelope it never signed")
