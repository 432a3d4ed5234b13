"""Cheating seats for the tests: ``Hand`` subclasses that tamper with what they send."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from lodam_p2p.fairdeal import Hand
from lodam_p2p.fairdeal.group import ORDER, add, base_mul, card_points, generator, mul
from lodam_p2p.fairdeal.messages import Message
from lodam_p2p.fairdeal.proofs import Proof
from lodam_p2p.fairdeal.sim import tampering

Tamper = Callable[[Hand, Any], Message]
#: A ``Hand`` that passes every message of a kind through a tamper before signing it
#: (its own record keeps the tampered version too): the harness's hook.
__all__ = ["Tamper", "tampering"]


def bump(proof: Proof) -> Proof:
    return Proof(proof.c, (proof.s + 1) % ORDER)


def shifted(point):
    return add(point, generator())


def bad_key_proof(hand: Hand, msg):
    return replace(msg, proof=bump(msg.proof))


def bad_deal_share(hand: Hand, msg):
    return replace(msg, shares=(shifted(msg.shares[0]), *msg.shares[1:]))


def bad_reveal_share(hand: Hand, msg):
    return replace(msg, share=shifted(msg.share))


def planted_remask(hand: Hand, msg):
    """A fresh encryption, under the re-masker's key, of a card of its choosing in
    place of its first new ciphertext: its own reveal would then show that card."""
    m = card_points(hand.config.deck_size)[0]
    key = hand.record.keys[hand.seat]
    return replace(msg, deck=((base_mul(99), add(m, mul(key, 99))), *msg.deck[1:]))


def duplicated_card(hand: Hand, msg):
    """Replace ciphertext 1 by a re-randomised copy of ciphertext 0 (r = 1)."""
    a, b = msg.deck[0]
    joint = hand.record.joint
    copy = (add(a, base_mul(1)), add(b, joint))
    return replace(msg, deck=(msg.deck[0], copy, *msg.deck[2:]))


def substituted_noise(hand: Hand, msg):
    """Replace every ciphertext by an encryption of a point that is no card."""
    joint = hand.record.joint
    noise = base_mul(12345)
    deck = tuple((base_mul(7 + k), add(noise, base_mul(k + 1))) for k in range(len(msg.deck)))
    del joint
    return replace(msg, deck=deck)


def wrong_salt(hand: Hand, msg):
    return replace(msg, salt=bytes(32))


def wrong_audit_key(hand: Hand, msg):
    return replace(msg, secret=(msg.secret + 1) % ORDER)


def shifted_transfer(hand: Hand, msg):
    """The handed-over ciphertext moved by G: the receiver would read another point (a
    card of the giver's choosing, had it moved it by the difference of two cards)."""
    return replace(msg, new=(msg.new[0], shifted(msg.new[1])))
