"""Re-masking a holding after an exchange: the same cards under fresh positions that
only their holder can link to the old ones, held under its key alone, so nobody
answers; a card handed over is a position of its own, which only its receiver may
re-mask. Cheats on a re-mask or a transfer blame their sender."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lodam_p2p.fairdeal import (
    AuditPassed,
    CardRevealed,
    Hand,
    LocalProtocolError,
    Phase,
    Remasked,
    RemoteProtocolError,
    Transcript,
    verify_transcript,
)
from lodam_p2p.fairdeal.audit import check_remasks
from lodam_p2p.fairdeal.group import add, base_mul, mul
from lodam_p2p.fairdeal.messages import (
    MAX_REMASK,
    Kind,
    RemaskMsg,
    TransferMsg,
    decode,
    encode,
)
from lodam_p2p.fairdeal.remask import prg
from lodam_p2p.fairdeal.transfer import SwitchProof
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from tests.fairdeal import cheats
from tests.fairdeal.table import Table, forge, make_config

A, B = 1, 2  # the traders; seat 0 (and 3, 4) only watch


def _of(table: Table, seat: int, kind: type) -> list:
    return [e for e in table.events[seat] if isinstance(e, kind)]


def _deal(table: Table, seat: int = 0) -> AuditPassed:
    return _of(table, seat, AuditPassed)[0]


def _messages(table: Table, *, with_seat: bool = False) -> list:
    out = []
    for seat, raw in table.hands[0].envelopes():
        msg = decode(raw[SIG_LEN + HEADER_LEN :])
        out.append((seat, msg) if with_seat else msg)
    return out


def _next(hand: Hand) -> tuple[int, bytes]:
    """The sequence number and chain link of ``hand``'s next envelope."""
    return len(hand._sent), hashlib.sha256(hand._sent[-1]).digest()


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
    made = table.hands[0].record.switched
    traded = {pa, pb, made[pa], made[pb]}
    for s in c.seats:
        shown = {e.position: e.card for e in _of(table, s, CardRevealed)}
        assert shown == {played: card_a}
        assert not traded & set(shown)  # the play names no traded position
        # everyone saw the same re-masks, numbered alike
        assert sorted((e.seat, e.outputs) for e in _of(table, s, Remasked)) == [
            (A, new[A]), (B, new[B])]
    passed = _deal(table)
    assert passed.masked[played] == card_a
    assert passed.masked[made[pa]] == passed.deal[pa]
    assert sorted(passed.masked[p] for p in new[A] + new[B]) == sorted(
        passed.deal[p] for p in c.positions_of(A) + c.positions_of(B))
    verdict = verify_transcript(Transcript(c, tuple(table.hands[3].envelopes())))
    assert verdict.sound and verdict.deal == passed.deal


def test_nobody_answers_a_remask_or_a_transfer() -> None:
    # a held card is under its holder's key alone: after the deal, only the traders
    # speak in an exchange, and the positions they make are usable at once
    table = Table.build(make_config(4, 32))
    table.flush()
    before = len(_messages(table))
    c = table.config
    new = table.trade(A, B, c.positions_of(A)[0], c.positions_of(B)[0])
    hand = table.hands[B]
    hand.reveal(new[B][0], 0.0)
    table.flush()
    assert not any(table.errors.values())
    after = _messages(table, with_seat=True)[before:]
    assert sorted((s, type(m).__name__) for s, m in after) == [
        (A, "RemaskMsg"), (A, "TransferMsg"), (B, "RemaskMsg"), (B, "RevealMsg"),
        (B, "TransferMsg")]
    assert {e.card for e in _of(table, 3, CardRevealed)} == {hand.cards[new[B][0]]}


def test_a_remask_of_dealt_cards_is_usable_at_once() -> None:
    table = Table.build(make_config(4, 32))
    table.flush()
    c, hand = table.config, table.hands[A]
    own = c.positions_of(A)
    new = hand.remask(own, 0.0)
    assert set(new).isdisjoint(range(c.deck_size)) and len(new) == len(own)
    assert sorted(hand.cards[p] for p in new) == sorted(hand.cards[p] for p in own)
    hand.reveal(new[0], 0.0)  # before anything else arrived
    table.flush()
    with pytest.raises(LocalProtocolError, match="retired"):
        hand.reveal(own[0], 0.0)
    with pytest.raises(LocalProtocolError):
        hand.remask([c.positions_of(B)[0]], 0.0)  # not a card this seat holds
    assert not any(table.errors.values())
    assert {e.position for e in _of(table, 0, CardRevealed)} == {new[0]}
    assert {e.card for e in _of(table, 0, CardRevealed)} == {hand.cards[new[0]]}


def test_a_card_handed_over_is_its_receivers_to_remask_only() -> None:
    table = Table.build(make_config(4, 32))
    table.flush()
    c, giver, taker = table.config, table.hands[B], table.hands[A]
    given = c.positions_of(B)[0]
    made = giver.transfer(given, A, 0.0)
    table.flush()
    assert taker.cards[made] == taker.cards[given] == giver.cards[given]
    assert all(table.hands[s].record.holder_of(made) == A for s in c.seats)
    with pytest.raises(LocalProtocolError, match="does not hold"):
        taker.reveal(made, 0.0)  # re-masked first, so that nobody links it to its play
    with pytest.raises(LocalProtocolError, match="cannot hand over"):
        taker.transfer(made, 3, 0.0)
    with pytest.raises(LocalProtocolError, match="cannot hand over"):
        giver.transfer(given, 3, 0.0)  # once handed over, it is gone
    with pytest.raises(LocalProtocolError):
        giver.remask([made], 0.0)
    new = taker.remask([*c.positions_of(A), made], 0.0)
    taker.reveal(table.position_of(A, giver.cards[given], new), 0.0)
    table.flush()
    assert not any(table.errors.values())
    assert {e.card for e in _of(table, 3, CardRevealed)} == {giver.cards[given]}


def test_numbering_does_not_depend_on_arrival_order() -> None:
    """Two traders hand over and re-mask at once; seats that hear them in opposite
    orders agree."""
    table = Table.build(make_config(4, 32))
    table.flush()
    c = table.config
    made = {s: table.hands[s].transfer(c.positions_of(s)[1], 3, 0.0) for s in (A, B)}
    new = {s: table.hands[s].remask(c.positions_of(s)[2:], 0.0) for s in (A, B)}
    out = {s: table.hands[s].outgoing() for s in (A, B)}
    for raw in out[A] + out[B]:
        table.deliver(A if raw in out[A] else B, raw, 0)
    for raw in out[B] + out[A]:
        table.deliver(A if raw in out[A] else B, raw, 3)
    table.flush()
    assert not any(table.errors.values())
    expected = {p: s for s in (A, B) for p in new[s]} | {made[A]: 3, made[B]: 3}
    assert table.hands[0].record.holder == table.hands[3].record.holder == expected


def test_message_sizes() -> None:
    """SPEC.md section 5: a 9-card re-mask and a transfer, 5 seats and 52 cards."""
    table = Table.build(make_config(5, 52))
    table.flush()
    table.trade(A, B, table.config.positions_of(A)[0], table.config.positions_of(B)[0])
    sizes: dict[str, set[int]] = {}
    for _, raw in table.hands[0].envelopes():
        body = raw[SIG_LEN + HEADER_LEN :]
        sizes.setdefault(type(decode(body)).__name__, set()).add(len(body))
    # 9 × 2 + 9 × 66 + 32 + a 9-ciphertext proof (9 × 163 + 293), 12 bytes of msgpack
    assert sizes["RemaskMsg"] == {2416}
    # the ciphertext (66) and the key-switch proof (96), 8 bytes of msgpack
    assert sizes["TransferMsg"] == {170}


def test_bodies_are_strict() -> None:
    msg = RemaskMsg((3, 5), ((base_mul(1), base_mul(2)), (base_mul(3), base_mul(4))), bytes(32))
    assert decode(encode(msg)) == msg
    for bad in (replace(msg, inputs=(5, 3)), replace(msg, inputs=(3, 3)),
                replace(msg, inputs=(3,)), replace(msg, inputs=tuple(range(MAX_REMASK + 1)))):
        with pytest.raises(ValueError):
            decode(encode(bad))
    transfer = TransferMsg(7, 2, (base_mul(5), base_mul(6)), SwitchProof(0, 1, 2))
    assert decode(encode(transfer)) == transfer
    body = encode(transfer)
    with pytest.raises(ValueError, match="not a curve point"):  # x above the field's p
        decode(body[:-131] + b"\x02" + b"\xff" * 32 + body[-98:])
    with pytest.raises(ValueError):  # a zero response
        decode(encode(replace(transfer, proof=SwitchProof(0, 0, 2))))
    with pytest.raises(ValueError, match="unknown message kind 8"):  # no SHARES any more
        decode(b"\x95\x08\x01\x00\xc4\x00\xc4\x00")
    assert max(Kind) == Kind.REMASK


# --- cheats on a re-mask --------------------------------------------------------------


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
    """Put a re-randomised copy of another seat's held card in place of one card."""
    other = hand.config.positions_of(3)[0]
    a, b = hand.record.held(other)
    key = hand.record.keys[hand.seat]
    return replace(msg, deck=((add(a, base_mul(7)), add(b, mul(key, 7))), *msg.deck[1:]))


def _dropped(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """Drop a card and hold another twice (a re-randomised copy of the first output)."""
    a, b = msg.deck[0]
    key = hand.record.keys[hand.seat]
    return replace(msg, deck=(msg.deck[0], (add(a, base_mul(1)), add(b, key)), *msg.deck[2:]))


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
    """Seat 3's public key as the A part of a new ciphertext."""
    return replace(msg, deck=((hand.record.keys[3], msg.deck[0][1]), *msg.deck[1:]))


@pytest.mark.parametrize("tamper", [_invented, _dropped, cheats.planted_remask,
                                    _planted_key])
def test_a_false_remask_is_refused_on_arrival(tamper: cheats.Tamper) -> None:
    table = _cheater_trade(tamper)
    _assert_blamed(table, "remask")


def test_the_audit_rederives_remasks_under_the_holders_key() -> None:
    # a second line behind the proof: new ciphertexts the opening does not re-derive
    table = Table.build(make_config(4, 32))
    table.play_through()
    rec = table.hands[0].record
    remask = rec.remasks[0]
    opening = table.hands[0]._openings[remask.seat]
    check_remasks(rec, remask.seat, opening)  # the honest record passes
    forged = replace(remask, msg=replace(remask.msg, deck=(remask.msg.deck[1],
                                                           remask.msg.deck[0],
                                                           *remask.msg.deck[2:])))
    rec.made[rec.made.index(remask)] = forged
    with pytest.raises(RemoteProtocolError) as caught:
        check_remasks(rec, remask.seat, opening)
    assert (caught.value.seat, caught.value.check) == (remask.seat, "remask")


def test_without_proofs_nobody_answers_a_remask_either() -> None:
    table = Table.build(make_config(4, 32, proofs=False))
    table.flush()
    before = len(_messages(table))
    table.hands[A].remask(table.config.positions_of(A), 0.0)
    table.flush()
    assert not any(table.errors.values())
    assert [(s, type(m)) for s, m in _messages(table, with_seat=True)[before:]] == [
        (A, RemaskMsg)]
    assert table.hands[0].record.remasks[0].msg.proof == b""


def test_a_remask_without_its_proof_is_refused() -> None:
    table = _cheater_trade(lambda hand, msg: replace(msg, proof=b""))
    _assert_blamed(table, "remask")


def test_a_remask_of_a_card_the_seat_does_not_hold_is_blamed_at_once() -> None:
    """Taking another seat's position into a re-mask would let the re-masker reveal
    that seat's card as its own: refused (and blamed) as it comes."""

    class Taker(Hand):
        def take(self) -> None:
            target = self.config.positions_of(3)[0]
            rec = self.record
            a, b = rec.held(target)
            key = rec.keys[A]
            self._act(RemaskMsg((target,), ((add(a, base_mul(3)), add(b, mul(key, 3))),),
                                bytes(32)), 0.0)

    table = Table.build(make_config(4, 32), cheaters={A: Taker})
    table.flush()
    taker = table.hands[A]
    assert isinstance(taker, Taker)
    with pytest.raises(RemoteProtocolError, match="does not hold"):
        taker.take()  # its own record refuses it; the envelope is out all the same
    table.flush()
    _assert_blamed(table, "remask")


# --- cheats on reveals and transfers ----------------------------------------------------


def test_a_reveal_of_a_card_handed_over_in_a_void_exchange_is_refused() -> None:
    """After a void exchange the receiver can read the giver's card at the position the
    transfer made, but the giver still holds it: the receiver may not reveal it."""
    table = Table.build(make_config(4, 32))
    table.flush()
    c, cheat = table.config, table.hands[B]
    pa, pb = c.positions_of(A)[0], c.positions_of(B)[0]
    table.trade(A, B, pa, pb, void=True)
    made = cheat.record.switched[pa]
    with pytest.raises(LocalProtocolError, match="does not hold"):
        cheat.reveal(made, 0.0)
    me = cheat._me
    assert me is not None
    seq, prev = _next(cheat)
    table.broadcast(B, forge(c, B, me.reveal(cheat.record, made), seq, prev=prev))
    _assert_blamed(table, "reveal", seat=B)
    assert all(made not in table.hands[s].record.revealed for s in (0, A, 3))


def test_a_reveal_of_a_retired_position_is_blamed() -> None:
    table = Table.build(make_config(4, 32))
    table.flush()
    c, cheat = table.config, table.hands[A]
    old = c.positions_of(A)[0]
    assert cheat._me is not None
    reveal = cheat._me.reveal(cheat.record, old)  # made before the re-mask retires it
    cheat.remask(c.positions_of(A), 0.0)
    table.flush()
    seq, prev = _next(cheat)
    table.broadcast(A, forge(c, A, reveal, seq, prev=prev))
    _assert_blamed(table, "retired")


def test_a_giver_may_not_reveal_a_position_it_handed_over() -> None:
    """The giver can still read the position it handed over; once handed over (the
    exchange done) the card is the receiver's, so the giver's reveal is refused."""
    table = Table.build(make_config(4, 32))
    table.flush()
    c, giver = table.config, table.hands[A]
    pa = c.positions_of(A)[0]
    assert giver._me is not None
    reveal = giver._me.reveal(giver.record, pa)
    giver.transfer(pa, B, 0.0)
    table.flush()
    with pytest.raises(LocalProtocolError, match="does not hold"):
        giver.reveal(pa, 0.0)
    seq, prev = _next(giver)
    table.broadcast(A, forge(c, A, reveal, seq, prev=prev))
    _assert_blamed(table, "reveal")


def _forged_transfer(table: Table, seat: int, msg: TransferMsg) -> None:
    hand = table.hands[seat]
    seq, prev = _next(hand)
    table.broadcast(seat, forge(table.config, seat, msg, seq, prev=prev))


def _honest_switch(table: Table, seat: int, position: int, to: int) -> TransferMsg:
    """The message ``seat`` would send to hand ``position`` to ``to`` (not applied)."""
    hand = table.hands[seat]
    assert hand._me is not None
    return hand._me.transfer(hand.record, position, to)


@pytest.mark.parametrize("what", ["twice", "not-held", "to-itself", "made-by-transfer"])
def test_a_transfer_of_what_the_seat_may_not_hand_over_is_blamed(what: str) -> None:
    table = Table.build(make_config(4, 32))
    table.flush()
    c = table.config
    pa = c.positions_of(A)[0]
    if what == "twice":
        table.hands[A].transfer(pa, B, 0.0)
        table.flush()
        msg = _honest_switch(table, A, pa, 3)
    elif what == "not-held":
        msg = _honest_switch(table, B, c.positions_of(B)[0], 3)  # B's card, sent by A
    elif what == "to-itself":
        msg = replace(_honest_switch(table, A, pa, B), to=A)
    else:
        made = table.hands[B].transfer(c.positions_of(B)[0], A, 0.0)
        table.flush()
        msg = _honest_switch(table, A, pa, 3)
        msg = replace(msg, position=made)
    _forged_transfer(table, A, msg)
    _assert_blamed(table, "transfer")


def test_a_transfer_naming_a_public_key_as_its_ciphertext_is_blamed() -> None:
    table = Table.build(make_config(4, 32))
    table.flush()
    pa = table.config.positions_of(A)[0]
    msg = _honest_switch(table, A, pa, B)
    _forged_transfer(table, A, replace(msg, new=(table.hands[0].record.keys[3], msg.new[1])))
    _assert_blamed(table, "transfer")
    assert all(table.hands[s].phase is Phase.ABORTED for s in (0, B, 3))


@given(st.lists(st.integers(0, 300), max_size=40), st.binary(min_size=32, max_size=32),
       st.integers(0, 65535))
def test_the_remask_stream_is_the_spec_s_counter_mode_whatever_the_reads(
        sizes: list[int], seed: bytes, round_: int) -> None:
    """SPEC 4.6: SHA-256(tag ‖ seed ‖ u16 round ‖ u32 counter), concatenated, read in
    order — however the draws split it."""
    stream = prg(seed, round_)
    read = b"".join(stream(n) for n in sizes)
    prefix = b"lodam/v1/remask-prg\x00" + seed + round_.to_bytes(2, "big")
    blocks = b"".join(hashlib.sha256(prefix + i.to_bytes(4, "big")).digest()
                      for i in range(len(read) // 32 + 1))
    assert read == blocks[:len(read)]
