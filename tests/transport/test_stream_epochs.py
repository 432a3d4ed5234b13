"""Stream epochs: a restarted peer's new stream replaces its old one; a late joiner
follows the others from where they are."""

from __future__ import annotations

import pytest

from lodam_p2p.transport.frames import Frame, FrameKind, ResendRequest
from lodam_p2p.transport.stream import EPOCH_SPAN, MAX_EPOCH, StreamEndpoint, epoch_of


def test_a_new_epoch_replaces_a_stream_with_a_gap_that_will_never_be_filled() -> None:
    ann, bob = StreamEndpoint("ann"), StreamEndpoint("bob")
    bob.receive("ann", ann.send(b"1", now=0), now=0)
    assert [d.body for d in bob.deliveries()] == [b"1"]
    ann.send(b"lost with the crash", now=0)
    ann.handle_timer(5.0)
    for frame in ann.frames_to_send():  # a heartbeat: bob now knows of frame 2
        bob.receive("ann", frame, now=5.0)
    assert bob.frames_to_send()  # and asks for it, in vain
    again = StreamEndpoint("ann", epoch=1)
    first = again.send(b"back", now=6.0)
    assert epoch_of(Frame.decode(first).seq) == 1
    bob.receive("ann", first, now=6.0)
    assert [(d.seq, d.body) for d in bob.deliveries()] == [(1 * EPOCH_SPAN + 1, b"back")]
    bob.handle_timer(10.0)
    assert bob.frames_to_send() == []  # the old gap is forgotten


def test_frames_of_an_older_epoch_are_dropped_once_a_newer_one_is_followed() -> None:
    old, new, bob = StreamEndpoint("ann"), StreamEndpoint("ann", epoch=2), StreamEndpoint("bob")
    stale = old.send(b"old", now=0)
    bob.receive("ann", new.send(b"new", now=0), now=0)
    bob.receive("ann", stale, now=0)
    bob.receive("ann", old.status(now=0), now=0)
    assert [d.body for d in bob.deliveries()] == [b"new"]
    assert bob.frames_to_send() == []


def test_a_late_joiner_follows_a_sender_from_the_first_frame_it_sees() -> None:
    ann = StreamEndpoint("ann")
    for i in range(50):
        ann.send(bytes([i]), now=0)
    late = StreamEndpoint("bob", epoch=1, late_join=True)
    late.receive("ann", ann.status(now=1), now=1)
    late.receive("ann", ann.send(b"news", now=1), now=1)
    assert [d.body for d in late.deliveries()] == [b"news"]
    assert late.frames_to_send() == []  # nothing from before is asked for


def test_a_late_joiner_asks_for_what_follows_an_old_first_frame() -> None:
    ann = StreamEndpoint("ann")
    frames = [ann.send(bytes([i]), now=0) for i in range(5)]
    late = StreamEndpoint("bob", late_join=True)
    late.receive("ann", frames[2], now=0)
    late.receive("ann", frames[4], now=0)
    assert [d.seq for d in late.deliveries()] == [3]
    (request,) = late.frames_to_send()
    assert ResendRequest.decode(Frame.decode(request).body).ranges == ((4, 4),)


def test_the_epoch_is_bounded() -> None:
    with pytest.raises(ValueError):
        StreamEndpoint("ann", epoch=MAX_EPOCH + 1)
    top = StreamEndpoint("ann", epoch=MAX_EPOCH)
    assert Frame.decode(top.send(b"x", now=0)).seq < 2**63
    assert Frame.decode(top.status(now=0)).kind == FrameKind.STATUS
