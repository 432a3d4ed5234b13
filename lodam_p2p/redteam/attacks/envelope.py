"""The attacks of ``lodam adversary``: one malicious seat's ways to cheat, one class each.

An :class:`Attack` hooks into an :class:`~lodam_p2p.redteam.seat.Adversary`
session at four places: the bodies it is about to publish (:meth:`Attack.outgoing`:
tamper with them, add to them, or hold them back), each turn of its loop
(:meth:`Attack.tick`), the decisions its random player takes (:meth:`Attack.decide`)
and the start of the match (:meth:`Attack.seated`). It mounts its attack at the first
chance, once, and records that it did (``attempted``) and what it got out of it
(``learned``: only what it actually recovered, never a guess). Everything else the
seat does is what an honest random bot does. The attacks on decisions pick and alter
actions through the table's game (:class:`~lodam_p2p.games.Game`): a card traded face
down is one whose action the others may not see, a card played is one that travels face
up, and an altered action is the same wire action with another card.

These attacks are for people who test fair-deal protocols (and for this project's own
tests): each is one thing a seated peer with valid keys can send. A table that works
as protocol/SPEC.md says refuses each of them, or convicts the attacker on the evidence.
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
from lodam_p2p.fairdeal.proofs import Proof
from lodam_p2p.fairdeal.remask import Remask
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from lodam_p2p.fairdeal.wire import seal as seal_envelope
from lodam_p2p.games import Game, Passage, WireAction
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.wire import Body, Msg, raw_public

if TYPE_CHECKING:
    from lodam_p2p.redteam.seat import Adversary


#: Where ``prev`` (the digest of the sender's envelope before) sits in an envelope.
_PREV = slice(SIG_LEN + HEADER_LEN - 32, SIG_LEN + HEADER_LEN)


def reseal(adv: Adversary, raw: bytes, body: bytes, header: bytes | None = None, *,
           instead: bool = True) -> bytes:
    """``raw`` with its body (and header) replaced, signed again with the seat's key.

    ``instead``: the new envelope takes the old one's place in the seat's chain, so its
    later envelopes are chained to it (:func:`relink`) and the cheat is judged on its
    own, not on a broken chain."""
    signed = (header or raw[SIG_LEN:SIG_LEN + HEADER_LEN]) + body
    new = adv.identity.sign(signed) + signed
    if instead:
        adv.relinked[hashlib.sha256(raw).digest()] = hashlib.sha256(new).digest()
    return new


def relink(adv: Adversary, raw: bytes) -> bytes:
    """``raw`` chained to the replacement of the envelope it followed, if one was sent."""
    prev = adv.relinked.get(raw[_PREV])
    if prev is None:
        return raw
    signed = raw[SIG_LEN:_PREV.start] + prev + raw[_PREV.stop:]
    new = adv.identity.sign(signed) + signed
    adv.relinked[hashlib.sha256(raw).digest()] = hashlib.sha256(new).digest()
    return new


def envelope_kind(raw: bytes) -> Kind | None:
    """The fair-deal kind of an envelope this seat made (None if it does not parse)."""
    try:
        return kind_of(decode_message(raw[SIG_LEN + HEADER_LEN:]))
    except (ValueError, KeyError):
        return None


def _game(adv: Adversary) -> Game:
    """The game the adversary's table plays (known once the match began)."""
    assert adv.game is not None
    return adv.game


def _trades(adv: Adversary, view: Any) -> list[Any]:
    """The legal actions that pass a card face down to another seat (offers, answers)."""
    game = _game(adv)
    return [a for a in view.legal if game.public_action(a) is None]


def _bad(proof: Proof | None) -> Proof | None:
    return None if proof is None else replace(proof, s=proof.s + 1)


class Attack:
    """One way to cheat (see the module docstring); the base plays honestly."""

    kind = ""
    summary = ""
    seat_kind = "bot:random"

    def __init__(self) -> None:
        self.attempted = False
        self.learned: list[str] = []

    def outgoing(self, adv: Adversary, body: Body) -> list[Body]:
        """The bodies to publish in place of ``body``."""
        return [body]

    def tick(self, adv: Adversary) -> None:
        """Called on every turn of the session's loop."""

    def decide(self, adv: Adversary, view: Any, action: Any) -> Any:
        """The action to send in place of the player's ``action`` (``view``: the seat's
        view in the table's game)."""
        return action

    def withholds(self, adv: Adversary) -> bool:
        """Whether the seat keeps its player from deciding now."""
        return False

    def seated(self, adv: Adversary) -> None:
        """The roster is known."""


class EnvelopeAttack(Attack):
    """Tamper with the seat's first envelope of kind ``target`` in hand 1."""

    target = Kind.KEY
    any_hand = False  #: mount in a later hand too (the first chance may come later)

    def outgoing(self, adv: Adversary, body: Body) -> list[Body]:
        if self.attempted or (body.hand != 1 and not self.any_hand) or not body.envelopes:
            return [body]
        for i, raw in enumerate(body.envelopes):
            if envelope_kind(raw) is self.target:
                self.attempted = True
                return self.tamper(adv, body, i, raw)
        return [body]

    def tamper(self, adv: Adversary, body: Body, index: int, raw: bytes) -> list[Body]:
        """The bodies that replace ``body``, whose envelope ``index`` is ``raw``."""
        message = decode_message(raw[SIG_LEN + HEADER_LEN:])
        envelopes = list(body.envelopes)
        envelopes[index] = reseal(adv, raw, encode(self.change(message)))
        return [replace(body, envelopes=tuple(envelopes))]

    def change(self, message: object) -> KeyMsg | ShuffleMsg | DealMsg:
        """The tampered message."""
        raise NotImplementedError


class BadKeyProof(EnvelopeAttack):
    kind, summary, target = "bad-key-proof", "a hand key whose proof of knowledge fails", Kind.KEY

    def change(self, message: object) -> KeyMsg:
        assert isinstance(message, KeyMsg)
        proof = _bad(message.proof)
        assert proof is not None
        return replace(message, proof=proof)


class BadShareProof(EnvelopeAttack):
    kind, summary, target = "bad-share-proof", "deal shares whose proof fails", Kind.DEAL

    def change(self, message: object) -> DealMsg:
        assert isinstance(message, DealMsg)
        return replace(message, proof=_bad(message.proof))


class ShuffleDrop(EnvelopeAttack):
    kind, summary, target = "shuffle-drop", "a shuffle that drops a card", Kind.SHUFFLE

    def change(self, message: object) -> ShuffleMsg:
        assert isinstance(message, ShuffleMsg)
        return replace(message, deck=message.deck[:-1])


class ShuffleDuplicate(EnvelopeAttack):
    kind, summary, target = ("shuffle-duplicate", "a shuffle that copies one card over another",
                             Kind.SHUFFLE)

    def change(self, message: object) -> ShuffleMsg:
        assert isinstance(message, ShuffleMsg)
        return replace(message, deck=(message.deck[0], *message.deck[:-1]))


class ShuffleCommitmentMismatch(EnvelopeAttack):
    kind, summary, target = ("shuffle-commitment-mismatch",
                             "a shuffle beside a commitment its proof was not made for",
                             Kind.SHUFFLE)

    def change(self, message: object) -> ShuffleMsg:
        assert isinstance(message, ShuffleMsg)
        return replace(message, commitment=hashlib.sha256(message.commitment).digest())


class DeckReplace(EnvelopeAttack):
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

    def tamper(self, adv: Adversary, body: Body, index: int, raw: bytes) -> list[Body]:
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

    def tick(self, adv: Adversary) -> None:
        hand = adv.hand
        if (self.learned or not self.last or hand is None or adv.hand_no != self.hand
                or not hand.dealt or hand.me is None):
            return
        # The deal went ahead on this seat's deck: every position's card is known.
        schedule = hand.config.schedule
        self.learned = [str(hand.pack[k]) for k in range(len(schedule))
                        if schedule[k] != hand.me]


class RemaskSteal(EnvelopeAttack):
    kind, summary, target = ("remask-steal",
                             "re-mask a copy of another seat's card and read it from the shares",
                             Kind.REMASK)

    def __init__(self) -> None:
        super().__init__()
        self.stolen: tuple[int, int, int] | None = None  # hand, new position, victim

    def decide(self, adv: Adversary, view: Any, action: Any) -> Any:
        trades = _trades(adv, view)
        return action if self.attempted or not trades else trades[0]

    any_hand = True

    def tamper(self, adv: Adversary, body: Body, index: int, raw: bytes) -> list[Body]:
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

    def tick(self, adv: Adversary) -> None:
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
    kind, summary, target = ("forged-transfer",
                             "hand over, in an exchange, a ciphertext of a card of its choosing "
                             "instead of the card put down", Kind.TRANSFER)

    any_hand = True

    def decide(self, adv: Adversary, view: Any, action: Any) -> Any:
        trades = _trades(adv, view)
        return action if self.attempted or not trades else trades[0]

    def tamper(self, adv: Adversary, body: Body, index: int, raw: bytes) -> list[Body]:
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
    kind, summary = ("reveal-held-card",
                     "reveal, with a valid share, a card another seat holds after an exchange")

    def decide(self, adv: Adversary, view: Any, action: Any) -> Any:
        trades = _trades(adv, view)
        return action if self.attempted or not trades else trades[0]

    def tick(self, adv: Adversary) -> None:
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
    kind, summary, target = ("equivocation", "two different signed envelopes for one step",
                             Kind.KEY)

    def tamper(self, adv: Adversary, body: Body, index: int, raw: bytes) -> list[Body]:
        other = reseal(adv, raw, raw[SIG_LEN + HEADER_LEN:] + b"\x00", instead=False)
        return [body, Body(Msg.PROTO, body.hand, 0, (), (other,))]


class ReplayOtherTable(EnvelopeAttack):
    kind, summary, target = ("replay-other-table", "an envelope signed for another table",
                             Kind.KEY)

    def tamper(self, adv: Adversary, body: Body, index: int, raw: bytes) -> list[Body]:
        header = bytearray(raw[SIG_LEN:SIG_LEN + HEADER_LEN])
        header[4:20] = hashlib.sha256(bytes(header[4:20])).digest()[:16]  # another table id
        other = reseal(adv, raw, raw[SIG_LEN + HEADER_LEN:], bytes(header), instead=False)
        return [Body(Msg.PROTO, body.hand, 0, (), (other,)), body]


class ReplayOtherHand(Attack):
    kind, summary = "replay-other-hand", "an envelope of an earlier hand sent again"

    def __init__(self) -> None:
        super().__init__()
        self.kept: bytes | None = None

    def outgoing(self, adv: Adversary, body: Body) -> list[Body]:
        if self.kept is None and body.hand == 1 and body.envelopes:
            self.kept = body.envelopes[0]
        if self.attempted or self.kept is None or body.hand < 2:
            return [body]
        self.attempted = True
        return [Body(Msg.PROTO, body.hand, 0, (), (self.kept,)), body]


class VoidAnyone(Attack):
    kind, summary = "void-anyone", "void the hand naming an honest seat, and one past the end"

    def tick(self, adv: Adversary) -> None:
        hand = adv.hand
        if self.attempted or hand is None or adv.roster is None or not hand.dealt:
            return
        self.attempted = True
        seats = hand.config.seats
        victim = seats[0] if seats[0] != adv.seat else seats[1]
        adv.send(Body(Msg.VOID, adv.hand_no, 0, (victim, f"seat {victim}: cheated")))
        adv.send(Body(Msg.VOID, adv.hand_no, 0, (250, "seat 250: cheated")))


class EarlyAuditOpen(Attack):
    kind, summary = "early-audit-open", "open the audit secrets in the middle of the deal"

    def tick(self, adv: Adversary) -> None:
        hand = adv.hand
        if (self.attempted or hand is None or hand.me is None or not hand.dealt
                or hand.public.is_over):
            return
        self.attempted = True
        hand.fair.finish(adv.now())
        adv.send(Body(Msg.PROTO, adv.hand_no, 0, (), tuple(hand.fair.outgoing())))


class WithheldAuditOpening(Attack):
    kind, summary = "withheld-audit-opening", "never open the audit secrets"

    def outgoing(self, adv: Adversary, body: Body) -> list[Body]:
        if body.kind is Msg.NOTES and not (self.attempted and body.hand != self.hand):
            self.attempted, self.hand = True, body.hand
            return []
        return [body]

    hand = 0


class Stall(Attack):
    kind, summary = "stall", "go silent in the middle of the first hand"

    def outgoing(self, adv: Adversary, body: Body) -> list[Body]:
        if body.hand == 1 and body.kind not in (Msg.RESULT, Msg.TIMEOUT, Msg.BYE):
            self.attempted = True
            return []
        return [body]


class SlowHuman(Attack):
    kind, summary = "slow-human", "claim to be human to take minutes over a decision"
    seat_kind = "human"

    def withholds(self, adv: Adversary) -> bool:
        if adv.hand_no == 1:
            self.attempted = True
            return True
        return False


class Revoke(Attack):
    kind, summary = "revoke", "play a card of another suit while holding the suit led"

    def decide(self, adv: Adversary, view: Any, action: Any) -> Any:
        game = _game(adv)
        wire = game.encode_action(action)
        if self.attempted or not _played(wire):
            return action
        legal = {w.card for w in map(game.encode_action, view.legal) if _played(w)}
        other = [c for c in view.hand if c not in legal]
        if not legal or not other:
            return action
        self.attempted = True
        return game.decode_action(view.seat, replace(wire, card=other[0]))


class FalseExchangeClaim(Attack):
    kind, summary = "false-exchange-claim", "offer a card while claiming it is of the other kind"

    def decide(self, adv: Adversary, view: Any, action: Any) -> Any:
        if self.attempted:
            return action
        game = _game(adv)
        offers = [a for a in view.legal if _claims_kind(game.encode_action(a))]
        return offers[0] if offers else action

    def outgoing(self, adv: Adversary, body: Body) -> list[Body]:
        if self.attempted or body.kind is not Msg.OFFER or body.args[0] is None:
            return [body]
        self.attempted = True
        other = "card" if body.args[0] == "coat" else "coat"
        return [replace(body, args=(other, body.args[1]))]


class PredictableSeed(Attack):
    kind, summary = ("predictable-seed",
                     "guess the other seats' secrets from small seeds (--seed 0..99)")
    #: how many seeds and places are tried (small: the search runs in the seat's loop)
    SEEDS, PLACES = 100, 6

    def seated(self, adv: Adversary) -> None:
        assert adv.roster is not None
        self.attempted = True
        wanted = {s.pubkey: i for i, s in enumerate(adv.roster.sitters) if i != adv.seat}
        for seed in range(self.SEEDS):
            for place in range(self.PLACES):
                key = raw_public(new_identity(seeded(seed, place)))
                if key in wanted:
                    self.learned.append(f"seat {wanted[key]}'s secrets (seed {seed}, "
                                        f"place {place})")


def _played(wire: WireAction) -> bool:
    """Whether ``wire`` puts a card down face up (a card played to a trick)."""
    return wire.card is not None and wire.passage is Passage.FACE_UP


def _claims_kind(wire: WireAction) -> bool:
    """Whether ``wire`` puts a card down face down and says what kind it is (an offer)."""
    return (wire.card is not None and wire.passage is Passage.FACE_DOWN
            and bool(wire.args) and wire.args[0] is not None)


ATTACKS: dict[str, type[Attack]] = {a.kind: a for a in (
    VoidAnyone, EarlyAuditOpen, SlowHuman, PredictableSeed, BadKeyProof, BadShareProof,
    ShuffleDrop, ShuffleDuplicate, ShuffleCommitmentMismatch, DeckReplace,
    RemaskSteal, ForgedTransfer, RevealHeldCard, ReplayOtherHand,
    ReplayOtherTable, Equivocation, FalseExchangeClaim, WithheldAuditOpening, Stall, Revoke)}
