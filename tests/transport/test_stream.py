"""Frames and reliable streams: exactly once, in order, whatever the network does."""

from __future__ import annotations

import contextlib

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.transport.frames import Frame, FrameError, FrameKind, ResendRequest
from lodam_p2p.transport.stream import Delivery, StreamEndpoint

PEERS = ("ann", "bob", "cid")


class Network:
    """Every frame published by one peer goes to every other peer, via ``flight``."""

    def __init__(self, endpoints: dict[str, StreamEndpoint]) -> None:
        self.endpoints = endpoints
        self.flight: list[tuple[str, str, bytes]] = []  # (receiver, sender, frame)
        self.got: dict[str, list[Delivery]] = {name: [] for name in endpoints}

    def publish(self, sender: str, frame: bytes, to: str | None = None) -> None:
        self.flight.extend((r, sender, frame) for r in self.endpoints
                           if r != sender and to in (None, r))

    def deliver(self, index: int, now: float) -> None:
        receiver, sender, frame = self.flight.pop(index)
        endpoint = self.endpoints[receiver]
        endpoint.receive(sender, frame, now)
        self.got[receiver].extend(endpoint.deliveries())
        self.flush(receiver)

    def flush(self, name: str) -> None:
        for frame in self.endpoints[name].frames_to_send():
            self.publish(name, frame)
        for asker, frame in self.endpoints[name].answers_to_send():
            self.publish(name, frame, to=asker)


def bodies_from(deliveries: list[Delivery], sender: str) -> list[bytes]:
    return [d.body for d in deliveries if d.sender == sender]


@settings(max_examples=150, deadline=None)
@given(
    sent=st.fixed_dictionaries({p: st.lists(st.binary(max_size=8), max_size=12) for p in PEERS}),
    data=st.data(),
)
def test_any_drop_duplicate_reorder_pattern_delivers_each_message_once_in_order(
    sent: dict[str, list[bytes]], data: st.DataObject
) -> None:
    endpoints = {p: StreamEndpoint(p, retry_interval=0.5, heartbeat_interval=1.0) for p in PEERS}
    net = Network(endpoints)
    queued = {p: list(bodies) for p, bodies in sent.items()}
    now = 0.0
    for _step in range(data.draw(st.integers(0, 80), label="faulty steps")):
        now += data.draw(st.sampled_from([0.0, 0.1, 0.6]), label="tick")
        action = data.draw(st.sampled_from(["send", "deliver", "drop", "dup", "timer"]))
        if action == "send":
            peer = data.draw(st.sampled_from(PEERS))
            if queued[peer]:
                net.publish(peer, endpoints[peer].send(queued[peer].pop(0), now))
        elif action == "timer":
            for peer, endpoint in endpoints.items():
                endpoint.handle_timer(now)
                net.flush(peer)
        elif net.flight:
            index = data.draw(st.integers(0, len(net.flight) - 1), label="which")
            if action == "drop":
                net.flight.pop(index)
            elif action == "dup":
                net.flight.append(net.flight[index])
            else:
                net.deliver(index, now)
    for peer, bodies in queued.items():  # whatever was not sent yet goes now
        for body in bodies:
            net.publish(peer, endpoints[peer].send(body, now))
    for _round in range(60):  # the network heals: FIFO, nothing lost
        while net.flight:
            net.deliver(0, now)
        if all(bodies_from(net.got[r], s) == sent[s] for r in PEERS for s in PEERS if r != s):
            break
        now += 1.0
        for peer, endpoint in endpoints.items():
            endpoint.handle_timer(now)
            net.flush(peer)
    for receiver in PEERS:
        for sender in PEERS:
            if sender != receiver:
                assert bodies_from(net.got[receiver], sender) == sent[sender]
                seqs = [d.seq for d in net.got[receiver] if d.sender == sender]
                assert seqs == list(range(1, len(sent[sender]) + 1))


def test_gap_asks_for_the_missing_range_and_the_answer_fills_it() -> None:
    ann, bob = StreamEndpoint("ann"), StreamEndpoint("bob")
    frames = [ann.send(bytes([i]), now=0) for i in range(1, 6)]
    for frame in (frames[0], frames[3], frames[4]):
        bob.receive("ann", frame, now=1)
    assert [d.body for d in bob.deliveries()] == [b"\x01"]
    requests = [Frame.decode(f) for f in bob.frames_to_send()]
    assert [r.kind for r in requests] == [FrameKind.RESEND]
    assert ResendRequest.decode(requests[0].body) == ResendRequest("ann", ((2, 3),))
    ann.receive("bob", requests[0].encode(), now=1)
    assert ann.frames_to_send() == []  # nothing for every peer: the answer is bob's
    for asker, frame in ann.answers_to_send():
        assert asker == "bob"
        bob.receive("ann", frame, now=1)
    assert [d.seq for d in bob.deliveries()] == [2, 3, 4, 5]
    assert bob.frames_to_send() == []


def test_lost_last_frame_is_noticed_at_the_heartbeat() -> None:
    ann, bob = StreamEndpoint("ann", heartbeat_interval=1.0), StreamEndpoint("bob")
    bob.receive("ann", ann.send(b"a", now=0), now=0)
    ann.send(b"b", now=0)  # lost
    assert ann.timer() == 1.0
    ann.handle_timer(1.0)
    (status,) = ann.frames_to_send()
    bob.receive("ann", status, now=1.0)
    (request,) = bob.frames_to_send()
    assert ResendRequest.decode(Frame.decode(request).body).ranges == ((2, 2),)
    assert bob.timer() == 1.5  # asks again unless the answer comes


def test_duplicates_and_own_frames_are_ignored() -> None:
    ann, bob = StreamEndpoint("ann"), StreamEndpoint("bob")
    frame = ann.send(b"x", now=0)
    for _ in range(3):
        bob.receive("ann", frame, now=0)
    ann.receive("ann", frame, now=0)
    assert len(bob.deliveries()) == 1 and ann.deliveries() == []


def test_forged_sender_and_garbage_raise_frame_error_and_change_nothing() -> None:
    ann, bob = StreamEndpoint("ann"), StreamEndpoint("bob")
    with pytest.raises(FrameError, match="claims sender"):
        bob.receive("cid", ann.send(b"x", now=0), now=0)
    bad = [
        b"", b"\xc1", b"\x91", msgpack.packb([1, 0, "ann", 0, b""]),
        msgpack.packb([2, 0, "ann", 1, b""]), msgpack.packb([1, 9, "ann", 1, b""]),
        msgpack.packb([1, 0, "a/b", 1, b""]), msgpack.packb([1, 0, "ann", True, b""]),
        msgpack.packb([1, 0, "ann", 2**63, b""]), msgpack.packb([1, 0, "ann", 1, "text"]),
        msgpack.packb([1, 2, "ann", 1, b"junk"]), msgpack.packb({"a": 1}),
        msgpack.packb([1, 2, "ann", 0, msgpack.packb(["bob", [[3, 2]]])]),
        msgpack.packb([1, 2, "ann", 0, msgpack.packb(["bob", []])]),
        b"\x95" + b"\x01" * 4 + b"\xc6\xff\xff\xff\xff",
        b"\xdd\xff\xff\xff\xff",
    ]
    for data in bad:
        with pytest.raises(FrameError):
            bob.receive("ann", bytes(data), now=0)
    assert bob.deliveries() == [] and bob.frames_to_send() == [] and bob.timer() is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_only_ever_raise_frame_error(data: bytes) -> None:
    bob = StreamEndpoint("bob")
    with contextlib.suppress(FrameError):  # anything else escaping is the failure
        bob.receive("ann", data, now=0)


def test_outbox_is_bounded_and_answers_are_capped() -> None:
    ann = StreamEndpoint("ann", history=4, max_resend=2)
    for i in range(10):
        ann.send(bytes([i]), now=0)
    request = ResendRequest("ann", ((1, 10),)).encode()
    ann.receive("bob", Frame(FrameKind.RESEND, "bob", 0, request).encode(), now=0)
    assert [Frame.decode(f).seq for _, f in ann.answers_to_send()] == [7, 8]
