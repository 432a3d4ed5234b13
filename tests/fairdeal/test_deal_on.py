"""A carried deck deals on (``Hand.deal_on``): the same keys and shuffled deck, a second
DEAL for the next deal's positions, and no share of a position not dealt yet."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from lodam_p2p.fairdeal import Hand, HandConfig, LocalProtocolError, Phase


def _entropy(seed: bytes) -> Callable[[int], bytes]:
    counter = [0]

    def draw(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(seed + counter[0].to_bytes(8, "big")).digest()
            counter[0] += 1
        return out[:n]

    return draw


def _schedule(start: int, seats: int, size: int) -> tuple[int | None, ...]:
    return tuple((j - start) % seats if start <= j < start + seats * size else None
                 for j in range(30))


def _table() -> tuple[dict[int | None, Hand], HandConfig]:
    ids = {s: Ed25519PrivateKey.from_private_bytes(bytes([s + 1]) * 32) for s in range(3)}
    raw = tuple(ids[s].public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
                for s in range(3))
    config = HandConfig(b"t" * 16, 1, (0, 1, 2), raw, 30, _schedule(0, 3, 2))
    hands: dict[int | None, Hand] = {
        s: Hand(config, s, ids[s], _entropy(bytes([s])), 0.0) for s in range(3)}
    hands[None] = Hand(config, None, None, None, 0.0)
    return hands, config


def _flush(hands: dict[int | None, Hand]) -> None:
    moved = True
    while moved:
        moved = False
        for s, hand in hands.items():
            for raw in hand.outgoing():
                moved = True
                assert s is not None
                for other, peer in hands.items():
                    if other != s:
                        peer.receive(s, raw, 0.0)


def test_a_carried_deck_deals_on_without_a_share_of_the_stack() -> None:
    hands, config = _table()
    _flush(hands)
    first = {s: dict(hands[s].cards) for s in range(3)}
    for s in range(3):  # the first deal is played out: every card revealed
        for position in config.positions_of(s):
            hands[s].reveal(position, 0.0)
    _flush(hands)
    nxt = _schedule(6, 3, 2)
    for hand in hands.values():
        hand.deal_on(nxt, 0.0)
        assert hand.phase is Phase.DEAL
    _flush(hands)
    watcher = hands[None]
    assert all(h.phase is Phase.PLAY for h in hands.values())
    for s in range(3):
        dealt = {j for j, owner in enumerate(nxt) if owner == s}
        assert set(hands[s].cards) == set(first[s]) | dealt
    # shares are public only for positions dealt so far; the stack (12 … 29) has none
    assert {j for j, d in watcher.record.shares.items() if d} == set(range(12))
    assert set(watcher.record.revealed) == set(range(6)) and watcher.cards == {}


def test_a_carried_deck_never_deals_a_position_twice() -> None:
    hands, _config = _table()
    _flush(hands)
    with pytest.raises(LocalProtocolError):
        hands[0].deal_on(_schedule(0, 3, 2), 0.0)
