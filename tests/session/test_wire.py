"""Signed frames and message bodies: what is accepted and what is refused."""

from __future__ import annotations

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session.handtypes import Refused
from lodam_p2p.session.lot import Lot, LotError, draw
from lodam_p2p.session.movebody import BadMove, ExchangeMove, GameMove, Tag
from lodam_p2p.session.wire import (
    MAX_PAYLOAD,
    RETIRED,
    BadMessage,
    Body,
    Msg,
    open_frame,
    peer_name,
    raw_public,
    seal_frame,
)


def test_bodies_round_trip() -> None:
    body = Body(Msg.MOVE, hand=3, step=17, args=("play", 12), envelopes=(b"x" * 200,))
    assert Body.decode(body.encode()) == body
    offer = Body(Msg.MOVE, 1, 2, ("offer", "coat", bytes(32)))
    assert Body.decode(offer.encode()) == offer
    assert ExchangeMove.read(Body.decode(offer.encode())) == ExchangeMove(
        Tag.OFFER, ("coat", bytes(32)))
    lay = Body(Msg.MOVE, 1, 2, GameMove("lay", (1, "S"), 7).args())
    assert GameMove.read(Body.decode(lay.encode())) == GameMove("lay", (1, "S"), 7)


@pytest.mark.parametrize("kind", sorted(RETIRED))
def test_a_retired_kind_is_refused_by_name(kind: int) -> None:
    """A body of an older peer's own kind for a Lodam move is refused, never misread."""
    data = msgpack.packb([1, kind, 1, 0, [3], []])
    with pytest.raises(BadMessage, match=f"kind {kind} \\({RETIRED[kind]}\\) is retired"):
        Body.decode(data)
    assert kind not in {int(k) for k in Msg}


@pytest.mark.parametrize("tag", list(Tag))
def test_every_exchange_move_round_trips_through_the_wire(tag: Tag) -> None:
    fields = {Tag.PLAY: (4,), Tag.OFFER: (None, None), Tag.ANSWER: (None,),
              Tag.OUTCOME: (True, 9), Tag.SWALLOW: (False,), Tag.DECLARE: (True, 2),
              Tag.CHALLENGE: (None,), Tag.REMASK: ()}[tag]
    move = ExchangeMove(tag, fields)
    body = Body.decode(Body(Msg.MOVE, 2, 5, move.args()).encode())
    assert body.kind is Msg.MOVE and ExchangeMove.read(body) == move


@pytest.mark.parametrize("args", [
    ("twelve",),  # no such move
    ("play", "twelve"),
    ("play", 12, 13),
    ("play",),
    ("offer", "spade", bytes(32)),
    ("offer", "coat", bytes(31)),
    ("answer", 70000),
    ("outcome", 1, 5),
    ("declare", 1, None),
    ("challenge", 300),
    ("remask", None),
])
def test_a_move_a_hand_with_exchanges_cannot_read_is_refused(args: tuple[object, ...]) -> None:
    body = Body.decode(Body(Msg.MOVE, 1, 0, args).encode())  # the wire only bounds it
    with pytest.raises(BadMove) as refused:
        ExchangeMove.read(body)
    assert isinstance(refused.value, Refused)


@pytest.mark.parametrize("args", [
    ("lay",), ("lay", [], 3, 4), ("lay", [], "3"), ("lay", [], bytes(2)),
    ("lay", [], 70000), ("lay", 3, None), ("lay", None, None),
])
def test_a_move_a_game_hand_cannot_read_is_refused(args: tuple[object, ...]) -> None:
    body = Body.decode(Body(Msg.MOVE, 1, 0, args).encode())
    with pytest.raises(BadMove):
        GameMove.read(body)


def test_a_result_carries_the_standings_or_is_read_without_them() -> None:
    full = Body(Msg.RESULT, args=([0], 3, 3, [1, 0], ["seat 1: left: gone (hand 2)"], [0, 1]))
    assert Body.decode(full.encode()) == full
    earlier = Body(Msg.RESULT, args=([0], 3, 3, [1, 0], []))
    assert Body.decode(earlier.encode()) == earlier


@pytest.mark.parametrize("body", [
    Body(Msg.MOVE, args=()),
    Body(Msg.MOVE, args=(12,)),
    Body(Msg.MOVE, args=("",)),
    Body(Msg.MOVE, args=("play", *range(8))),
    Body(Msg.MOVE, args=("play", bytes(65))),
    Body(Msg.MOVE, args=("play", {"a": 1})),
    Body(Msg.MOVE, args=("play", [[1]])),
    Body(Msg.MOVE, args=("lay", [300], 3)),
    Body(Msg.MOVE, args=("lay", ["x" * 40], None)),
    Body(Msg.MOVE, args=("play", 2**32)),
    Body(Msg.LOT_COMMIT, args=(bytes(31),)),
    Body(Msg.PROTO, envelopes=tuple(b"e" for _ in range(9))),
    Body(Msg.RESULT, args=([0], 3, 3, [1, 0])),
    Body(Msg.RESULT, args=([0], 3, 3, [1, 0], [], ["first"])),
    Body(Msg.RESULT, args=([0], 3, 3, [1, 0], [], [1, 0], [])),
])
def test_malformed_bodies_are_refused(body: Body) -> None:
    with pytest.raises(BadMessage):
        Body.decode(body.encode())


@pytest.mark.parametrize("data", [b"", b"\xc1", b"\x96\x01\x08\x00\x00\x90", b"\xff" * 50])
def test_garbage_is_refused(data: bytes) -> None:
    with pytest.raises(BadMessage):
        Body.decode(data)


def test_frames_are_signed_for_the_topic_peer_and_table() -> None:
    key = Ed25519PrivateKey.generate()
    pub = raw_public(key)
    me = peer_name(pub)
    sealed = seal_frame(key, pub, "oak", b"frame")
    assert open_frame(sealed, "oak", me) == (pub, b"frame")
    with pytest.raises(BadMessage, match="signature"):
        open_frame(sealed, "elm", me)  # replayed at another table
    with pytest.raises(BadMessage, match="belong"):
        open_frame(sealed, "oak", peer_name(bytes(32)))  # on another peer's topic
    forged = sealed[:40] + bytes([sealed[40] ^ 1]) + sealed[41:]
    with pytest.raises(BadMessage, match="signature"):
        open_frame(forged, "oak", me)
    with pytest.raises(BadMessage, match="size"):
        open_frame(sealed + bytes(MAX_PAYLOAD), "oak", me)


def _fixed(value: int) -> object:
    return lambda n: bytes([value]) * n


def test_the_lot_draws_from_every_nonce_and_blames_a_false_reveal() -> None:
    table_id = bytes(16)
    lots = [Lot(table_id, 3, seat, _fixed(seat + 1)) for seat in range(3)]  # type: ignore[arg-type]
    for lot in lots:
        for other in lots:
            lot.take_commit(other.seat or 0, other.my_commitment())
    assert all(lot.may_reveal() for lot in lots)
    for lot in lots:
        for other in lots:
            lot.take_reveal(other.seat or 0, other.nonce)
    dealers = {lot.dealer() for lot in lots}
    assert dealers == {draw(table_id, [bytes([1]) * 32, bytes([2]) * 32, bytes([3]) * 32])}
    fresh = Lot(table_id, 3, None, _fixed(0))  # type: ignore[arg-type]
    fresh.take_commit(1, lots[1].my_commitment())
    with pytest.raises(LotError, match="does not open"):
        fresh.take_reveal(1, bytes(32))
    assert fresh.missing() == [0, 2]


def test_one_seat_changes_the_draw() -> None:
    table_id = bytes(16)
    draws = {draw(table_id, [bytes(32), bytes(32), bytes([k]) * 32]) for k in range(40)}
    assert draws == {0, 1, 2}
