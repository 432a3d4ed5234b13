"""Whatever bytes arrive, ``receive()`` raises nothing but the protocol's remote error
(h11's fuzz invariant); unsigned junk leaves the hand untouched."""

from __future__ import annotations

import hashlib

import msgpack
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal import Phase, RemoteProtocolError
from lodam_p2p.fairdeal.messages import decode as decode_message
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from tests.fairdeal.table import Table, forge, identity, make_config

CONFIG = make_config(3, 32)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _feed(table: Table, sender: int, raw: bytes) -> RemoteProtocolError | None:
    try:
        table.hands[0].receive(sender, raw, 0.0)
    except RemoteProtocolError as err:
        return err
    return None


@FAST
@given(raw=st.binary(max_size=400), sender=st.integers(0, 300))
def test_random_bytes_raise_only_the_remote_error(raw: bytes, sender: int) -> None:
    table = Table.build(CONFIG)
    err = _feed(table, sender, raw)
    if sender != 0:  # bytes "from ourselves" are our own echo and ignored
        assert err is not None and not err.attributable
    assert table.hands[0].phase is Phase.KEYS


@FAST
@given(body=st.binary(max_size=300))
def test_signed_random_bodies_blame_their_signer(body: bytes) -> None:
    table = Table.build(CONFIG)
    err = _feed(table, 1, forge(CONFIG, 1, body, 0))
    assert err is not None and err.attributable and err.seat == 1


_FIELD = st.one_of(st.binary(max_size=120), st.integers(-5, 70000), st.none(), st.booleans(),
                   st.text(max_size=5), st.lists(st.integers(0, 3), max_size=3))


@FAST
@given(kind=st.integers(0, 8), fields=st.lists(_FIELD, max_size=5))
def test_signed_structured_junk_blames_its_signer(kind: int, fields: list[object]) -> None:
    table = Table.build(CONFIG)
    body = msgpack.packb([kind, *fields], use_bin_type=True)
    err = _feed(table, 1, forge(CONFIG, 1, body, 0))
    assert err is not None and err.attributable and err.seat == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_messages_mid_hand(data: st.DataObject) -> None:
    """Flip bytes in a genuine later message and re-sign it: caught, never a crash."""
    table = Table.build(CONFIG, seed=b"fuzz")
    table.flush()
    table.hands[1].reveal(CONFIG.positions_of(1)[0], 0.0)
    genuine = table.hands[1].sent_since(0)
    seq = len(genuine) - 1
    body = bytearray(genuine[seq][SIG_LEN + HEADER_LEN :])
    for _ in range(data.draw(st.integers(1, 4))):
        body[data.draw(st.integers(0, len(body) - 1))] ^= data.draw(st.integers(1, 255))
    prev = _digest(genuine[seq - 1])
    err = _feed(table, 1, forge(CONFIG, 1, bytes(body), seq, prev=prev, key=identity(1)))
    assert err is None or (err.attributable and err.seat == 1)


def _digest(raw: bytes) -> bytes:
    return hashlib.sha256(raw).digest()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_shuffle_and_proof_blame_the_shuffler(data: st.DataObject) -> None:
    """Flip bytes anywhere in a genuine shuffle's deck or proof and re-sign it: the
    shuffler is blamed, no seat deals a share, nothing crashes. (The commitment is
    spared: the proof is bound to it, so a flipped one is refused on arrival as well,
    see test_cheats' ``_recommitted``.)"""
    table = Table.build(CONFIG, seed=b"fuzz")
    table.flush()
    genuine = table.hands[1].sent_since(0)
    body = bytearray(genuine[1][SIG_LEN + HEADER_LEN :])
    commitment = decode_message(bytes(body)).commitment  # type: ignore[union-attr]
    start = bytes(body).find(commitment)
    spared = range(start, start + len(commitment))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(body) - 1).filter(lambda i: i not in spared))
        body[at] ^= data.draw(st.integers(1, 255))
    assume(bytes(body) != genuine[1][SIG_LEN + HEADER_LEN :])  # two flips may cancel
    fresh = Table.build(CONFIG, seed=b"fuzz")
    for s in (1, 2):
        fresh.hands[0].receive(s, fresh.hands[s].sent_since(0)[0], 0.0)
    raw = forge(CONFIG, 1, bytes(body), 1, prev=_digest(genuine[0]), key=identity(1))
    err = _feed(fresh, 1, raw)
    assert err is not None and err.attributable and err.seat == 1
    assert not fresh.hands[0].record.dealt


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.sampled_from(["transfer", "remask"]))
def test_mutated_transfers_and_remasks_blame_their_sender(data: st.DataObject,
                                                          which: str) -> None:
    """Flip bytes in a genuine transfer (its ciphertext, its key-switch proof) or
    re-mask and re-sign it: its sender is blamed, or the body still says what it
    said; never a crash, and never a card that is not the giver's."""
    table = Table.build(CONFIG, seed=b"fuzz")
    table.flush()
    held = CONFIG.positions_of(1)
    if which == "transfer":
        table.hands[1].transfer(held[0], 2, 0.0)
    else:
        table.hands[1].remask(held, 0.0)
    genuine = table.hands[1].sent_since(0)
    seq = len(genuine) - 1
    body = bytearray(genuine[seq][SIG_LEN + HEADER_LEN :])
    for _ in range(data.draw(st.integers(1, 3))):
        body[data.draw(st.integers(0, len(body) - 1))] ^= data.draw(st.integers(1, 255))
    assume(bytes(body) != genuine[seq][SIG_LEN + HEADER_LEN :])
    fresh = Table.build(CONFIG, seed=b"fuzz")  # the same seats: the same envelopes
    fresh.flush()
    try:
        fresh.hands[2].receive(1, forge(CONFIG, 1, bytes(body), seq, prev=_digest(
            genuine[seq - 1]), key=identity(1)), 0.0)
    except RemoteProtocolError as caught:
        assert caught.attributable and caught.seat == 1
        return
    # taken: then it is still a true transfer of seat 1's card (or a true re-mask)
    cards = fresh.hands[2].cards
    assert all(cards[p] == table.hands[1].cards[p] for p in cards if p in table.hands[1].cards)
