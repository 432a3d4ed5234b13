"""The stream's limits: what one peer can make an endpoint hold or send (protocol/SPEC.md,
"Limits"). Every assertion counts frames and bytes; time is passed in."""

from __future__ import annotations

import logging

import pytest

from lodam_p2p.transport.frames import Frame, FrameKind, ResendRequest
from lodam_p2p.transport.stream import StreamEndpoint, StreamLimits, TokenBucket

LIMITS = StreamLimits()


def _data(sender: str, seq: int, size: int) -> bytes:
    return Frame(FrameKind.DATA, sender, seq, bytes(size)).encode()


def _resend(requester: str, target: str, first: int, last: int) -> bytes:
    body = ResendRequest(target, ((first, last),)).encode()
    return Frame(FrameKind.RESEND, requester, 0, body).encode()


def _answers(sender: StreamEndpoint, to: str = "") -> list[bytes]:
    """The resend answers ``sender`` has to publish (each for its asker only)."""
    assert sender.frames_to_send() == []  # never on the topic every peer reads
    answers = sender.answers_to_send()
    assert not to or {asker for asker, _ in answers} <= {to}
    return [frame for _, frame in answers]


class CountingSeal:
    """A seal that counts what it signs (a stand-in for the link's signature)."""

    def __init__(self) -> None:
        self.signed = 0

    def __call__(self, frame: bytes) -> bytes:
        self.signed += 1
        return b"sig:" + frame


def _sender(frames: int, size: int) -> tuple[StreamEndpoint, CountingSeal, list[bytes]]:
    seal = CountingSeal()
    ann = StreamEndpoint("ann", seal=seal, heartbeat_interval=None)
    sent = [ann.send(bytes(size), now=0.0) for _ in range(frames)]
    return ann, seal, sent


def test_a_resend_publishes_the_frames_signed_when_sent_and_signs_nothing() -> None:
    ann, seal, sent = _sender(frames=40, size=100)
    assert seal.signed == 40
    ann.receive("bob", _resend("bob", "ann", 1, 40), now=0.0)
    assert _answers(ann) == sent  # the very bytes first published
    assert seal.signed == 40


def test_one_requester_gets_at_most_its_burst_then_its_rate() -> None:
    ann, seal, _sent = _sender(frames=256, size=4000)
    resent = 0
    for _ in range(100):  # 100 requests for a megabyte each, at one instant
        ann.receive("mal", _resend("mal", "ann", 1, 256), now=10.0)
        resent += sum(len(f) for f in _answers(ann, to="mal"))
    assert 0 < resent <= LIMITS.resend_burst
    for second in range(1, 6):  # then five seconds of it
        for _ in range(100):
            ann.receive("mal", _resend("mal", "ann", 1, 256), now=10.0 + second)
            resent += sum(len(f) for f in _answers(ann, to="mal"))
    assert resent <= LIMITS.resend_burst + 5 * LIMITS.resend_rate
    assert seal.signed == 256
    # another requester has a budget of its own
    ann.receive("bob", _resend("bob", "ann", 1, 10), now=15.0)
    assert len(_answers(ann, to="bob")) == 10


def test_requests_beyond_their_count_are_not_answered() -> None:
    ann, _seal, _sent = _sender(frames=4, size=10)
    answered = 0
    for _ in range(1000):
        ann.receive("mal", _resend("mal", "ann", 1, 1), now=0.0)
        answered += len(_answers(ann, to="mal"))
    assert answered == LIMITS.request_burst


def test_a_flood_of_requests_is_logged_once_per_episode(caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    ann, _seal, _sent = _sender(frames=256, size=4000)
    with caplog.at_level(logging.WARNING, logger="lodam_p2p.transport"):
        for _ in range(500):
            ann.receive("mal", _resend("mal", "ann", 1, 256), now=0.0)
        assert len(caplog.records) == 1 and "mal" in caplog.records[0].getMessage()
        for _ in range(500):  # quiet long enough to fill its buckets: a new episode
            ann.receive("mal", _resend("mal", "ann", 1, 256), now=60.0)
    assert len(caplog.records) == 2


def test_overlapping_ranges_resend_each_frame_once() -> None:
    ann, _seal, sent = _sender(frames=5, size=10)
    body = ResendRequest("ann", ((2, 4), (1, 3), (4, 4), (9, 12))).encode()
    ann.receive("bob", Frame(FrameKind.RESEND, "bob", 0, body).encode(), now=0.0)
    assert _answers(ann) == sent[:4]


def test_early_frames_of_one_sender_stay_within_their_caps(caplog: pytest.LogCaptureFixture
                                                           ) -> None:
    bob = StreamEndpoint("bob")
    with caplog.at_level(logging.WARNING, logger="lodam_p2p.transport"):
        for seq in range(2, 4000):  # frame 1 never comes: everything else is early
            bob.receive("mal", _data("mal", seq, 8000), now=0.0)
    assert bob.held_bytes() <= LIMITS.early_bytes
    assert bob.held_frames() <= LIMITS.early_frames
    assert bob.held_bytes() > LIMITS.early_bytes - 8000  # the cap, not something smaller
    assert len([r for r in caplog.records if "cap" in r.getMessage()]) == 1
    held = bob.held_frames()
    bob.receive("mal", _data("mal", 1, 8000), now=0.0)  # the gap closes: all held delivered
    assert len(bob.deliveries()) == 1 + held
    assert bob.held_bytes() == 0


def test_the_count_cap_holds_for_small_frames() -> None:
    bob = StreamEndpoint("bob")
    for seq in range(2, 4000):
        bob.receive("mal", _data("mal", seq, 1), now=0.0)
    assert bob.held_frames() == LIMITS.early_frames


def test_a_lobby_follows_few_strangers_and_holds_little_of_each() -> None:
    host = StreamEndpoint("host", lobby=True)
    for key in range(1000):
        for seq in range(2, 40):
            host.receive(f"k{key}", _data(f"k{key}", seq, 3000), now=0.0)
    assert host.senders == LIMITS.strangers and host.evicted == 1000 - LIMITS.strangers
    assert host.held_bytes() <= LIMITS.strangers * LIMITS.stranger_bytes
    assert host.held_frames() <= LIMITS.strangers * LIMITS.stranger_frames
    host.receive("joe", _data("joe", 1, 10), now=0.0)  # a newcomer's JOIN gets through
    assert [d.sender for d in host.deliveries()] == ["joe"]
    host.admit(frozenset({"joe", "k999"}))
    assert host.senders == 2
    host.receive("k1", _data("k1", 1, 10), now=0.0)  # not seated: not followed
    assert host.senders == 2 and host.deliveries() == []


def test_admitted_senders_get_the_full_caps() -> None:
    host = StreamEndpoint("host", lobby=True)
    host.receive("ann", _data("ann", 1, 10), now=0.0)
    host.admit(frozenset({"ann"}))
    for seq in range(3, 40):
        host.receive("ann", _data("ann", seq, 3000), now=0.0)
    assert host.held_frames() == 37  # beyond a stranger's 16 frames and 64 KB


def test_a_token_bucket_refills_with_the_time_passed_in() -> None:
    bucket = TokenBucket(burst=10, rate=2)
    assert bucket.take(10, now=0.0) and not bucket.take(1, now=0.0)
    assert not bucket.take(3, now=1.0) and bucket.take(2, now=1.0)
    assert not bucket.take(1, now=0.5)  # a clock that goes back earns nothing
    assert bucket.take(10, now=100.0) and not bucket.full


def test_the_announced_host_is_never_drowned_by_the_crowd() -> None:
    joiner = StreamEndpoint("joe", lobby=True)
    joiner.expect("host")
    joiner.receive("host", _data("host", 2, 10), now=0.0)  # early, behind a lost frame 1
    for key in range(200):
        joiner.receive(f"k{key}", _data(f"k{key}", 2, 10), now=0.0)
    assert joiner.senders == LIMITS.strangers + 1  # the crowd, and the host kept
    joiner.receive("host", _data("host", 1, 10), now=0.0)
    assert [d.seq for d in joiner.deliveries()] == [1, 2]
    for seq in range(4, 41):  # 37 frames behind a gap: a host's caps, not a stranger's 16
        joiner.receive("host", _data("host", seq, 3000), now=0.0)
    assert joiner.held_frames() == LIMITS.strangers + 37
    joiner.expect("fake")  # another announcement: one host is ever expected
    assert joiner.senders == LIMITS.strangers
