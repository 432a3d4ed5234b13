"""Re-masking a holding after an exchange: the same cards under fresh positions that
only their holder can link to the old ones; cheats on the re-mask blame the re-masker."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from lodam_p2p.fairdeal import (
    AuditPassed,
    CardRevealed,
    Hand,
    LocalProtocolError,
    Phase,
    Remasked,
    RemaskShared,
    RemoteProtocolError,
    Transcript,
    verify_transcript,
)
from lodam_p2p.fairdeal.audit import check_remasks
from lodam_p2p.fairdeal.group import add, base_mul, mul
from lodam_p2p.fairdeal.messages import (
    MAX_REMASK,
    RemaskMsg,
    RevealMsg,
    SharesMsg,
    decode,
    encode,
)
from lodam_p2p.fairdeal.proofs import Proof, prove_shares
from lodam_p2p.fairdeal.shuffleproof import MAX_SHARE_KEYS
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from tests.fairdeal import cheats
from tests.fairdeal.table import Table, forge, make_config

A, B = 1, 2  # the traders; seat 0 (and 3, 4) only watch


def _of(table: Table, seat: int, kind: type) -> list:
    return [e for e in table.events[seat] if isinstance(e, kind)]


def _deal(table: Table, seat: int = 0) -> AuditPassed:
    return _of(table, seat, AuditPassed)[0]


@pytest.mark.parametrize("void", [False, True])
def test_traded_card_is_played_from_a_fresh_position(void: bool) -> None:
    table = Table.build(make_config(5, 52))
    table.flush()
    c = table.config
    pa, pb = c.positions_of(A)[0], c.positions_of(B)[0]
    card_a = table.hands[A].cards[pa]
    new = table.trade(A, B, pa, pb, void=void)
    assert not any(table.errors.values())
    holder = A if void else B  # who holds A's offered card now
    played = table.position_of(holder, card_a, new[holder])
    table.hands[holder].reveal(played, table.now)
    table.flush()
    table.finish()
    assert not any(table.errors.values())
    transferred = {pa, pb}
    for s in c.seats:
        shown = {e.position: e.card for e in _of(table, s, CardRevealed)}
        assert shown == {played: card_a}
        assert not transferred & set(shown)  # the play names no traded position
        # everyone saw the same re-masks, numbered alike, and their shares complete
        assert sorted((e.seat, e.outputs) for e in _of(table, s, Remasked)) == [
            (A, new[A]), (B, new[B])]
        assert {e.seat for e in _of(table, s, RemaskShared)} == {A, B}
    passed = _deal(table)
    assert passed.masked[played] == card_a
    assert sorted(passed.masked[p] for p in new[A] + new[B]) == sorted(
        passed.deal[p] for p in c.positions_of(A) + c.positions_of(B))
    verdict = verify_transcript(Transcript(c, tuple(table.hands[3].envelopes())))
    assert verdict.sound and verdict.deal == passed.deal


def test_a_remask_of_dealt_cards_carries_every_share() -> None:
    # every other seat's share of a dealt card is public: the re-mask carries them all,
    # nobody answers, and its new positions are usable at once
    table = Table.build(make_config(4, 32))
    table.flush()
    c, hand = table.config, table.hands[A]
    own = c.positions_of(A)
    new = hand.remask(own, 0.0)
    assert set(new).isdisjoint(range(c.deck_size)) and len(new) == len(own)
    assert sorted(hand.cards[p] for p in new) == sorted(hand.cards[p] for p in own)
    assert [e.outputs for e in hand.events() if isinstance(e, RemaskShared)] == [new]
    hand.reveal(new[0], 0.0)
    table.flush()
    with pytest.raises(LocalProtocolError, match="retired"):
        hand.reveal(own[0], 0.0)
    with pytest.raises(LocalProtocolError):
        hand.remask([c.positions_of(B)[0]], 0.0)  # not a card this seat can read
    assert not any(table.errors.values())
    assert not any(isinstance(m, SharesMsg) for m in _messages(table))
    assert {e.position for e in _of(table, 0, CardRevealed)} == {new[0]}
    assert {e.card for e in _of(table, 0, CardRevealed)} == {hand.cards[new[0]]}


def test_a_received_card_waits_for_its_givers_shares_only() -> None:
    # B's own share of the card it gave A is not public: B answers A's re-mask, and
    # the two watching seats' shares are carried
    table = Table.build(make_config(4, 32))
    table.flush()
    c, hand = table.config, table.hands[A]
    given = c.positions_of(B)[0]
    table.hands[B].transfer(given, A, 0.0)
    table.flush()
    new = hand.remask([*c.positions_of(A), given], 0.0)
    with pytest.raises(LocalProtocolError, match="not all in"):
        hand.reveal(new[0], 0.0)  # B's shares are still on their way
    table.flush()
    hand.reveal(new[0], 0.0)
    table.flush()
    assert not any(table.errors.values())
    answers = [(seat, m) for seat, m in _messages(table, with_seat=True)
               if isinstance(m, SharesMsg)]
    assert [seat for seat, _ in answers] == [B]
    remask = table.hands[0].record.rounds[(A, 0)]
    assert sorted(remask.shares) == sorted([0, 3, B]) and len(remask.msg.carried) == 2
    assert {e.card for e in _of(table, 3, CardRevealed)} == {hand.cards[new[0]]}


def _messages(table: Table, *, with_seat: bool = False) -> list:
    out = []
    for seat, raw in table.hands[0].envelopes():
        msg = decode(raw[SIG_LEN + HEADER_LEN :])
        out.append((seat, msg) if with_seat else msg)
    return out


def test_numbering_does_not_depend_on_arrival_order() -> None:
    """Two traders re-mask at once; seats that hear them in opposite orders agree."""
    table = Table.build(make_config(4, 32))
    table.flush()
    c = table.config
    new = {s: table.hands[s].remask(c.positions_of(s), 0.0) for s in (A, B)}
    out = {s: table.hands[s].outgoing() for s in (A, B)}
    for raw in out[A] + out[B]:
        table.deliver(A if raw in out[A] else B, raw, 0)
    for raw in out[B] + out[A]:
        table.deliver(A if raw in out[A] else B, raw, 3)
    table.flush()
    assert not any(table.errors.values())
    assert table.hands[0].record.holder == table.hands[3].record.holder == {
        p: s for s in (A, B) for p in new[s]}


def test_message_sizes() -> None:
    """SPEC.md section 5: a 9-card re-mask carrying three seats' shares, and the fourth
    seat's share batch, 5 seats and 52 cards."""
    table = Table.build(make_config(5, 52))
    table.flush()
    table.trade(A, B, table.config.positions_of(A)[0], table.config.positions_of(B)[0])
    sizes: dict[str, set[int]] = {}
    for _, raw in table.hands[0].envelopes():
        body = raw[SIG_LEN + HEADER_LEN :]
        sizes.setdefault(type(decode(body)).__name__, set()).add(len(body))
    # 9 × 2 + 9 × 66 + 32 + a 9-ciphertext proof carrying 3 keys (9 × 163 + 293 + 3 × 33),
    # 3 × 9 × 33 carried shares, and 15 bytes of msgpack
    assert sizes["RemaskMsg"] == {3409}
    assert sizes["SharesMsg"] == {370}  # 9 × 33 + 64, and 9 bytes of msgpack


def test_bodies_are_strict() -> None:
    msg = RemaskMsg((3, 5), ((base_mul(1), base_mul(2)), (base_mul(3), base_mul(4))), bytes(32))
    assert decode(encode(msg)) == msg
    for bad in (replace(msg, inputs=(5, 3)), replace(msg, inputs=(3, 3)),
                replace(msg, inputs=(3,)), replace(msg, inputs=tuple(range(MAX_REMASK + 1)))):
        with pytest.raises(ValueError):
            decode(encode(bad))
    carried = replace(msg, carried=((base_mul(6), base_mul(7)), (base_mul(8), base_mul(9))))
    assert decode(encode(carried)) == carried
    for rows in (((base_mul(6),), (base_mul(7), base_mul(8))),  # 3 shares for 2 positions
                 ((base_mul(6), base_mul(7)),) * (MAX_SHARE_KEYS + 1)):
        with pytest.raises(ValueError, match="carried"):
            decode(encode(replace(msg, carried=rows)))
    body = encode(carried)
    with pytest.raises(ValueError):  # a carried share that is no curve point
        decode(body[:-33] + b"\x02" + b"\xff" * 32)
    shares = SharesMsg(1, 0, (base_mul(5),), Proof(1, 2))
    assert decode(encode(shares)) == shares
    with pytest.raises(ValueError):
        decode(encode(replace(shares, shares=())))


# --- cheats ----------------------------------------------------------------------------


def _cheater_trade(tamper: cheats.Tamper, *, proofs: bool = True) -> Table:
    table = Table.build(make_config(4, 32, proofs=proofs),
                        cheaters={A: cheats.tampering(RemaskMsg, tamper)})
    table.flush()
    c = table.config
    try:
        table.trade(A, B, c.positions_of(A)[0], c.positions_of(B)[0])
    except RemoteProtocolError as err:  # the cheater's own record refused what it sent
        assert err.seat == A
        table.flush()
    return table


def _assert_blamed(table: Table, check: str, seat: int = A) -> None:
    assert table.blamed() == {seat}, table.errors
    caught = [e for s, errs in table.errors.items() if s != seat for e in errs]
    assert caught and all((e.seat, e.check) == (seat, check) for e in caught), caught
    honest = next(s for s in table.config.seats if s != seat)
    envelopes = table.hands[honest].envelopes() + table.hands[seat].envelopes()
    verdict = verify_transcript(Transcript(table.config, tuple(envelopes)))
    assert verdict.blame is not None and (verdict.blame.seat, verdict.blame.check) == (seat, check)


def _invented(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """Put a re-randomised copy of another seat's position in place of one card."""
    other = hand.config.positions_of(3)[0]
    a, b = hand.record.ciphertext(other)
    joint = hand.record.joint
    return replace(msg, deck=((add(a, base_mul(7)), add(b, mul(joint, 7))), *msg.deck[1:]))


def _dropped(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """Drop a card and hold another twice (a re-randomised copy of the first output)."""
    a, b = msg.deck[0]
    return replace(msg, deck=(msg.deck[0], (add(a, base_mul(1)), add(b, hand.record.joint)),
                              *msg.deck[2:]))


def _bad_commitment(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    return replace(msg, commitment=hashlib.sha256(msg.commitment).digest())


@pytest.mark.parametrize(("tamper", "check"), [
    (_invented, "remask"), (_dropped, "remask"), (_bad_commitment, "remask-commitment")])
def test_without_proofs_a_false_remask_is_caught_at_the_audit(tamper: cheats.Tamper,
                                                              check: str) -> None:
    table = _cheater_trade(tamper, proofs=False)
    assert not any(table.errors.values())  # commit/reveal: nothing shows before the audit
    table.finish()
    _assert_blamed(table, check)


def _planted_key(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """Seat 3's public key as the A part of a new ciphertext: shares for it would be
    x_i·X_3, the secret behind seat 3's private transfers."""
    return replace(msg, deck=((hand.record.keys[3], msg.deck[0][1]), *msg.deck[1:]))


def _forged_carried(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """A carried share moved by G: the re-masker's own reveal of that position would
    then decrypt to a card of its choosing."""
    row = (cheats.shifted(msg.carried[0][0]), *msg.carried[0][1:])
    return replace(msg, carried=(row, *msg.carried[1:]))


def _row_missing(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """One carrier's row left out (and one t4 with it, so that the body parses)."""
    assert msg.proof is not None
    return replace(msg, carried=msg.carried[1:], proof=replace(msg.proof, t=msg.proof.t[:-1]))


def _rows_swapped(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    return replace(msg, carried=(msg.carried[1], msg.carried[0], *msg.carried[2:]))


@pytest.mark.parametrize("tamper", [_invented, _dropped, _planted_key, _forged_carried,
                                    _row_missing, _rows_swapped])
def test_a_false_remask_is_refused_before_any_share_is_released(
        tamper: cheats.Tamper) -> None:
    table = _cheater_trade(tamper)
    _assert_blamed(table, "remask")
    for s in (0, B, 3):
        assert not any(isinstance(decode(raw[SIG_LEN + HEADER_LEN:]), SharesMsg)
                       and decode(raw[SIG_LEN + HEADER_LEN:]).seat == A
                       for raw in table.hands[s].sent_since(0))


def test_a_carrier_that_answers_anyway_is_blamed() -> None:
    # seat 3's shares of A's re-mask are carried: a SHARES from it (with a valid proof)
    # is a second word for one step
    table = Table.build(make_config(4, 32))
    table.flush()
    c, bystander = table.config, table.hands[3]
    table.hands[A].remask(c.positions_of(A), 0.0)
    table.flush()
    rec, me = bystander.record, bystander._me
    remask = rec.rounds[(A, 0)]
    shares = tuple(me.share(rec, j) for j in remask.outputs)
    entries = rec.remask_entries(remask, shares, 3)
    proof = prove_shares(me.ctx, me.x, me.key, entries, me.entropy, tag=b"remask")
    seq = len(bystander._sent)
    prev = hashlib.sha256(bystander._sent[-1]).digest()
    table.broadcast(3, forge(c, 3, SharesMsg(A, 0, shares, proof), seq, prev=prev))
    _assert_blamed(table, "shares", seat=3)


def test_the_audit_rederives_carried_shares() -> None:
    # a second line behind the proof: a carried share the opening does not re-derive
    table = Table.build(make_config(4, 32))
    table.play_through()
    rec = table.hands[0].record
    remask = next(r for r in rec.remasks if r.msg.carried)
    opening = table.hands[0]._openings[remask.seat]
    check_remasks(rec, remask.seat, opening)  # the honest record passes
    remask.msg = replace(remask.msg, carried=_forged_carried(table.hands[0], remask.msg).carried)
    with pytest.raises(RemoteProtocolError) as caught:
        check_remasks(rec, remask.seat, opening)
    assert (caught.value.seat, caught.value.check) == (remask.seat, "remask")
    assert "carries a share" in str(caught.value)


def test_without_proofs_nothing_is_carried_and_every_other_seat_answers() -> None:
    table = Table.build(make_config(4, 32, proofs=False))
    table.flush()
    table.hands[A].remask(table.config.positions_of(A), 0.0)
    table.flush()
    assert not any(table.errors.values())
    assert sorted(s for s, m in _messages(table, with_seat=True) if isinstance(m, SharesMsg)) \
        == [0, B, 3]
    assert table.hands[0].record.rounds[(A, 0)].msg.carried == ()


def test_a_remask_without_its_proof_is_refused() -> None:
    table = _cheater_trade(lambda hand, msg: replace(msg, proof=None))
    _assert_blamed(table, "remask")


def test_a_reveal_of_a_position_handed_over_in_a_void_exchange_is_refused() -> None:
    """After a void exchange the receiver has every share of the giver's card, but the
    giver still holds it (at a new position): the receiver may not reveal it."""
    table = Table.build(make_config(4, 32))
    table.flush()
    c, cheat = table.config, table.hands[B]
    pa, pb = c.positions_of(A)[0], c.positions_of(B)[0]
    table.trade(A, B, pa, pb, void=True)
    with pytest.raises(LocalProtocolError, match="does not hold"):
        cheat.reveal(pa, 0.0)
    entries = cheat._me.entries(cheat.record, pa, skip=set(cheat.record.shares.get(pa, {})))
    seq = len(cheat._sent)
    prev = hashlib.sha256(cheat._sent[-1]).digest()
    table.broadcast(B, forge(c, B, RevealMsg(pa, tuple(entries)), seq, prev=prev))
    _assert_blamed(table, "reveal", seat=B)
    assert all(pa not in table.hands[s].record.revealed for s in (0, A, 3))


def test_a_reveal_of_a_retired_position_is_blamed() -> None:
    table = Table.build(make_config(4, 32))
    table.flush()
    c, cheat = table.config, table.hands[A]
    old = c.positions_of(A)[0]
    entry = cheat._me.own_entry(cheat.record, old)  # made before the re-mask retires it
    cheat.remask(c.positions_of(A), 0.0)
    table.flush()
    seq = len(cheat._sent)
    prev = hashlib.sha256(cheat._sent[-1]).digest()
    table.broadcast(A, forge(c, A, RevealMsg(old, (entry,)), seq, prev=prev))
    _assert_blamed(table, "retired")


def test_a_remask_of_a_card_the_seat_cannot_read_gets_no_shares() -> None:
    """Re-masking someone else's position would make the others decrypt it for the
    re-masker: the message waits for a transfer that never comes, and no share is sent."""

    class Peeker(Hand):
        def peek(self) -> None:
            target = self.config.positions_of(3)[0]
            rec = self.record
            msg = RemaskMsg((target,), (rec.ciphertext(target),), bytes(32))
            self._act(replace(msg, deck=((add(msg.deck[0][0], base_mul(3)),
                                          add(msg.deck[0][1], mul(rec.joint, 3))),)), 0.0)

    table = Table.build(make_config(4, 32), cheaters={A: Peeker})
    table.flush()
    peeker = table.hands[A]
    assert isinstance(peeker, Peeker)
    with pytest.raises(RemoteProtocolError, match="cannot read"):
        peeker.peek()  # its own record refuses it; the envelope is out all the same
    table.flush()
    for s in (0, B, 3):
        assert not table.hands[s].record.remasks
        assert not any(isinstance(decode(raw[SIG_LEN + HEADER_LEN:]), SharesMsg)
                       for raw in table.hands[s].sent_since(0))
    assert all(table.hands[s].phase is Phase.PLAY for s in (0, B, 3))


def test_a_giver_may_not_reveal_a_position_it_handed_over() -> None:
    """The giver still has every share of the position it transferred; once handed over
    (the exchange done) the card is the receiver's, so the giver's reveal is refused."""
    table = Table.build(make_config(4, 32))
    table.flush()
    c, giver = table.config, table.hands[A]
    pa = c.positions_of(A)[0]
    entry = giver._me.own_entry(giver.record, pa)
    giver.transfer(pa, B, 0.0)
    table.flush()
    with pytest.raises(LocalProtocolError, match="does not hold"):
        giver.reveal(pa, 0.0)
    seq = len(giver._sent)
    prev = hashlib.sha256(giver._sent[-1]).digest()
    table.broadcast(A, forge(c, A, RevealMsg(pa, (entry,)), seq, prev=prev))
    _assert_blamed(table, "reveal")
