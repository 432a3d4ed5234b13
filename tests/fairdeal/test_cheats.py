"""Every cheat is caught, and blames the cheater and nobody else."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lodam_p2p.fairdeal import Anomaly, Blame, Hand, Phase, Transcript, verify_transcript
from lodam_p2p.fairdeal.group import Point, add, base_mul
from lodam_p2p.fairdeal.messages import (
    AuditMsg,
    DealMsg,
    KeyMsg,
    RevealMsg,
    ShuffleMsg,
    TransferMsg,
    decode,
    encode,
)
from lodam_p2p.fairdeal.proofs import Proof
from lodam_p2p.fairdeal.shuffle import ShuffleSecret
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from tests.fairdeal import cheats
from tests.fairdeal.table import Table, forge, identity, make_config

CHEATER = 1


def _table(cheater: type[Hand], seats: int = 4, deck: int = 32, **kw) -> Table:
    return Table.build(make_config(seats, deck), cheaters={CHEATER: cheater}, **kw)


def _assert_blamed(table: Table, check: str, seat: int = CHEATER) -> None:
    """Some honest seat caught ``seat`` on ``check``; no honest seat was blamed."""
    assert table.blamed() == {seat}
    caught = [e for s, errs in table.errors.items() if s != seat for e in errs]
    assert caught and all(e.seat == seat and e.check == check for e in caught), caught
    assert all(table.hands[s].phase is Phase.ABORTED for s in table.config.seats if s != seat)


def _verdict(table: Table) -> Blame | None:
    honest = next(s for s in table.config.seats if s != CHEATER)
    envelopes = table.hands[honest].envelopes() + table.hands[CHEATER].envelopes()
    return verify_transcript(Transcript(table.config, tuple(envelopes))).blame


def test_key_proof_that_fails() -> None:
    table = _table(cheats.tampering(KeyMsg, cheats.bad_key_proof))
    table.flush()
    _assert_blamed(table, "key-proof")


def test_deal_share_with_wrong_proof() -> None:
    table = _table(cheats.tampering(DealMsg, cheats.bad_deal_share))
    table.flush()
    _assert_blamed(table, "share-proof")


def test_revealed_share_with_wrong_proof() -> None:
    table = _table(cheats.tampering(RevealMsg, cheats.bad_reveal_share))
    table.flush()
    table.hands[CHEATER].reveal(table.config.positions_of(CHEATER)[0], 0.0)
    table.flush()
    _assert_blamed(table, "share-proof")


def _no_proofs(cheater: type[Hand]) -> Table:
    return Table.build(make_config(4, 32, proofs=False), cheaters={CHEATER: cheater})


class _NotAPermutation(Hand):
    def _shuffle_if_my_turn(self, now: float) -> None:
        if self._me is not None and self.record.next_shuffler() == self.seat:
            honest = self._me.draw_shuffle(self.config.deck_size)
            dropped = (honest.permutation[0], *honest.permutation[:-1])  # card dropped, one twice
            self._me.shuffle = ShuffleSecret(dropped, honest.randomness, honest.salt)
        super()._shuffle_if_my_turn(now)


def _replaced_deck(hand: Hand, msg: ShuffleMsg) -> ShuffleMsg:
    """Fresh encryptions of cards the shuffler chose (here: card 0 twice over)."""
    from lodam_p2p.fairdeal.group import card_points, mul
    joint = hand.record.joint
    m = card_points(hand.config.deck_size)[0]
    deck = tuple((base_mul(5 + k), add(m, mul(joint, 5 + k))) for k in range(len(msg.deck)))
    return replace(msg, deck=deck)


def _planted_key(hand: Hand, msg: ShuffleMsg) -> ShuffleMsg:
    b = msg.deck[0][1]
    return replace(msg, deck=((hand.record.keys[0], b), *msg.deck[1:]))


def _swapped(hand: Hand, msg: ShuffleMsg) -> ShuffleMsg:
    return replace(msg, deck=(msg.deck[1], msg.deck[0], *msg.deck[2:]))


def _no_proof(hand: Hand, msg: ShuffleMsg) -> ShuffleMsg:
    return replace(msg, proof=b"")


def _foreign_proof(hand: Hand, msg: ShuffleMsg) -> ShuffleMsg:
    """The honest proof, made for another seat's context."""
    from lodam_p2p.fairdeal.proofs import Context
    from lodam_p2p.fairdeal.shuffleproof import Statement, prove_shuffle
    rec = hand.record
    assert hand._me is not None and hand._me.shuffle is not None and rec.joint is not None
    other = Context(hand.config.table_id, hand.config.hand, 0)
    st = Statement(b"shuffle", other, rec.joint, rec.final_deck, msg.deck)
    return replace(msg, proof=prove_shuffle(st, hand._me.shuffle, hand._me.entropy).encode())


def _recommitted(hand: Hand, msg: ShuffleMsg) -> ShuffleMsg:
    """The honest deck and proof beside another commitment: the proof is bound to the
    commitment it was made for, so the swap is refused on arrival, not at the audit."""
    return replace(msg, commitment=bytes(b ^ 1 for b in msg.commitment))


@pytest.mark.parametrize("cheater", [
    cheats.tampering(ShuffleMsg, cheats.duplicated_card),
    cheats.tampering(ShuffleMsg, cheats.substituted_noise),
    cheats.tampering(ShuffleMsg, _replaced_deck),
    cheats.tampering(ShuffleMsg, _planted_key),
    cheats.tampering(ShuffleMsg, _swapped),
    cheats.tampering(ShuffleMsg, _no_proof),
    cheats.tampering(ShuffleMsg, _foreign_proof),
    cheats.tampering(ShuffleMsg, _recommitted),
    _NotAPermutation,
], ids=["duplicated", "noise", "replaced-deck", "planted-key", "swapped", "no-proof",
        "wrong-context", "other-commitment", "dropped"])
def test_a_false_shuffle_is_refused_at_once(cheater: type[Hand]) -> None:
    table = _table(cheater)
    table.flush()
    _assert_blamed(table, "shuffle")
    for s in table.config.seats:  # nobody dealt: no decryption share was released
        assert not table.hands[s].record.dealt
    assert _verdict(table) == table.errors[0][0].blame
    evidence = table.errors[0][0].evidence  # the cheater's signed shuffle
    assert evidence is not None and evidence == table.hands[CHEATER].sent_since(1)[0]


def test_without_proofs_a_duplicated_card_is_caught_at_audit() -> None:
    table = _no_proofs(cheats.tampering(ShuffleMsg, cheats.duplicated_card))
    table.flush()
    assert not any(table.errors.values())  # commit/reveal: nothing shows before the audit
    table.finish()
    _assert_blamed(table, "shuffle")
    assert _verdict(table) == table.errors[0][0].blame


def test_without_proofs_substituted_cards_show_an_anomaly_then_blame() -> None:
    table = _no_proofs(cheats.tampering(ShuffleMsg, cheats.substituted_noise))
    table.flush()
    assert any(isinstance(e, Anomaly) for e in table.events[0])
    table.finish()
    _assert_blamed(table, "shuffle")


def test_without_proofs_a_dropped_card_is_caught_at_audit() -> None:
    table = _no_proofs(_NotAPermutation)
    table.flush()
    table.finish()
    _assert_blamed(table, "shuffle")


def test_shuffle_that_does_not_open_to_its_commitment() -> None:
    table = _table(cheats.tampering(AuditMsg, cheats.wrong_salt))
    table.flush()
    table.finish()
    _assert_blamed(table, "shuffle-commitment")


def test_audit_key_that_does_not_match() -> None:
    table = _table(cheats.tampering(AuditMsg, cheats.wrong_audit_key))
    table.flush()
    table.finish()
    _assert_blamed(table, "audit-key")


def test_forged_signature_is_refused_and_the_hand_goes_on() -> None:
    table = Table.build(make_config(3, 32))
    impostor = identity(1, seed=b"impostor")
    fake = forge(table.config, 1, KeyMsg(_any_key(), _no_proof()), 0, key=impostor)
    table.deliver(1, fake, 0)
    genuine = table.hands[1].sent_since(0)[0]
    table.deliver(1, bytes([genuine[0] ^ 1]) + genuine[1:], 0)  # a flipped signature bit
    errors = table.errors[0]
    assert [(e.seat, e.check, e.attributable) for e in errors] == [(1, "signature", False)] * 2
    table.play_through()
    assert all(h.phase is Phase.DONE for h in table.hands.values())


def test_replay_from_another_hand_or_table_is_refused() -> None:
    first = Table.build(make_config(3, 32, hand=1))
    first.flush()
    old = first.hands[1].sent_since(0)[0]
    other_table = Table.build(make_config(3, 32, table=b"another-table-00"))
    second = Table.build(make_config(3, 32, hand=2))
    second.deliver(1, old, 0)
    second.deliver(1, other_table.hands[1].sent_since(0)[0], 0)
    found = [(e.seat, e.check, e.attributable) for e in second.errors[0]]
    assert found == [(1, "context", False)] * 2
    second.play_through()
    assert all(h.phase is Phase.DONE for h in second.hands.values())


def test_old_body_resigned_for_this_hand_fails_its_challenge() -> None:
    first = Table.build(make_config(3, 32, hand=1))
    old_key = first.hands[1].record.keys[1]
    old_proof_msg = KeyMsg(old_key, _proof_of(first, 1))
    second = Table.build(make_config(3, 32, hand=2))
    second.deliver(1, forge(second.config, 1, old_proof_msg, 0), 0)
    assert [(e.seat, e.check) for e in second.errors[0]] == [(1, "key-proof")]


def test_equivocation_two_messages_one_sequence_number() -> None:
    table = Table.build(make_config(3, 32))
    genuine = table.hands[1].sent_since(0)[0]
    table.deliver(1, genuine, 0)
    other = KeyMsg(_any_key(), _no_proof())
    table.deliver(1, forge(table.config, 1, other, 0), 0)
    assert [(e.seat, e.check) for e in table.errors[0]] == [(1, "equivocation")]


def test_broken_chain_is_blamed() -> None:
    table = Table.build(make_config(3, 32))
    genuine = table.hands[1].sent_since(0)[0]
    table.deliver(1, genuine, 0)
    body = encode(ShuffleMsg((), bytes(32)))
    table.deliver(1, forge(table.config, 1, body, 1, prev=bytes(32)), 0)
    assert [(e.seat, e.check) for e in table.errors[0]] == [(1, "chain")]


@pytest.mark.parametrize(("body", "check"), [(b"\xc1", "malformed"), (None, "order")])
def test_malformed_or_out_of_order_bodies(body: bytes | None, check: str) -> None:
    table = Table.build(make_config(3, 32))
    msg = body if body is not None else DealMsg((), None)
    table.deliver(1, forge(table.config, 1, msg, 0), 0)
    assert [(e.seat, e.check) for e in table.errors[0]] == [(1, check)]


def test_a_false_transfer_is_refused_by_every_seat_at_once() -> None:
    # the key switch is public and proven: nobody has to take the receiver's word
    table = _table(cheats.tampering(TransferMsg, cheats.shifted_transfer))
    table.flush()
    table.hands[CHEATER].transfer(table.config.positions_of(CHEATER)[0], 2, 0.0)
    table.flush()
    for s in (0, 2, 3):
        assert [(e.seat, e.check) for e in table.errors[s]] == [(CHEATER, "transfer")]
    assert table.blamed() == {CHEATER}
    verdict = _verdict(table)
    assert verdict is not None and (verdict.seat, verdict.check) == (CHEATER, "transfer")


def _other_card(hand: Hand, msg: TransferMsg) -> TransferMsg:
    """A valid switch of the seat's second card, claimed for its first position."""
    assert hand._me is not None
    other = hand._me.transfer(hand.record, hand.config.positions_of(hand.seat)[1], msg.to)
    return replace(msg, new=other.new, proof=other.proof)


def test_a_transfer_of_another_card_than_its_position_is_refused() -> None:
    table = _table(cheats.tampering(TransferMsg, _other_card))
    table.flush()
    table.hands[CHEATER].transfer(table.config.positions_of(CHEATER)[0], 3, 0.0)
    table.flush()
    assert [(e.seat, e.check) for e in table.errors[3]] == [(CHEATER, "transfer")]
    assert [(e.seat, e.check) for e in table.errors[0]] == [(CHEATER, "transfer")]
    assert not table.hands[3].cards.keys() - set(table.config.positions_of(3))


def test_audit_checker_names_the_guilty_seat() -> None:
    seen: list[tuple[int, ...]] = []

    def checker(deal: tuple[int, ...], masked: object) -> Blame | None:
        seen.append(deal)
        return Blame(2, "rules", "seat 2 revoked in trick 1")

    table = Table.build(make_config(3, 32), checker=checker)
    table.play_through()
    assert table.blamed() == {2}
    assert {e.check for errs in table.errors.values() for e in errs} == {"rules"}
    assert len(set(seen)) == 1 and sorted(seen[0]) == list(range(32))


# --- helpers ---------------------------------------------------------------------------


def _any_key() -> Point:
    return base_mul(424242)


def _no_proof() -> Proof:
    return Proof(1, 1)


def _proof_of(table: Table, seat: int) -> Proof:
    raw = table.hands[seat].sent_since(0)[0]
    msg = decode(raw[SIG_LEN + HEADER_LEN :])
    assert isinstance(msg, KeyMsg)
    return msg.proof


def test_equivocation_is_provable_from_the_transcript() -> None:
    table = Table.build(make_config(3, 32))
    table.deliver(1, table.hands[1].sent_since(0)[0], 0)
    table.deliver(1, forge(table.config, 1, KeyMsg(_any_key(), _no_proof()), 0), 0)
    verdict = verify_transcript(Transcript(table.config, tuple(table.hands[0].envelopes())))
    assert verdict.blame is not None
    assert (verdict.blame.seat, verdict.blame.check) == (1, "equivocation")
