"""Hash-chained streams: forks are the signer's, splits, replays and withheld frames the
broker's, and whatever an honest network does shows neither fork nor split."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.transport.chain import REPLAY_SLACK, WITHHELD_ASKS, StreamFault
from lodam_p2p.transport.frames import Frame, FrameKind, ResendRequest, digest
from lodam_p2p.transport.stream import StreamEndpoint

ANN, BOB, CID = "annannannann", "bobbobbobbob", "cidcidcidcid"


def kinds(faults: list[StreamFault]) -> list[str]:
    return [fault.kind for fault in faults]


def test_frames_chain_and_echo_what_their_sender_reached() -> None:
    ann, bob = StreamEndpoint(ANN), StreamEndpoint(BOB)
    first, second = ann.send(b"a", now=0), ann.send(b"b", now=0)
    assert Frame.decode(first).prev == b""
    assert Frame.decode(second).prev == digest(first)
    bob.receive(ANN, first, now=0)
    bob.receive(ANN, second, now=0)
    reply = Frame.decode(bob.send(b"x", now=0))
    assert reply.heads == ((ANN[:8], 2, digest(second)),)
    assert Frame.decode(bob.status(now=1)).heads == reply.heads


def test_two_frames_at_one_position_are_the_signers_fork_with_both_as_evidence() -> None:
    honest, forked, bob = StreamEndpoint(ANN), StreamEndpoint(ANN), StreamEndpoint(BOB)
    one, other = honest.send(b"one", now=0), forked.send(b"other", now=0)
    bob.receive(ANN, one, now=0)
    bob.receive(ANN, one, now=0)  # the same frame again: nothing
    assert bob.faults() == []
    bob.receive(ANN, other, now=0)
    [fault] = bob.faults()
    assert (fault.kind, fault.sender, fault.seq, fault.broker) == ("equivocation", ANN, 1, False)
    assert set(fault.evidence) == {one, other}
    assert [d.body for d in bob.deliveries()] == [b"one"]


def test_a_frame_not_chained_to_the_one_before_is_a_fork() -> None:
    ann, bob = StreamEndpoint(ANN), StreamEndpoint(BOB)
    first = ann.send(b"a", now=0)
    stray = Frame(FrameKind.DATA, ANN, 2, b"b", digest(b"something else")).encode()
    bob.receive(ANN, stray, now=0)  # early: judged when it is delivered
    assert bob.faults() == []
    bob.receive(ANN, first, now=0)
    [fault] = bob.faults()
    assert (fault.kind, fault.seq, fault.evidence) == ("equivocation", 2, (first, stray))


def test_an_echo_of_another_frame_at_a_position_is_a_split_not_a_fork() -> None:
    ann, forked = StreamEndpoint(ANN), StreamEndpoint(ANN)
    bob, cid = StreamEndpoint(BOB), StreamEndpoint(CID)
    bob.receive(ANN, ann.send(b"shown to bob", now=0), now=0)
    cid.receive(ANN, forked.send(b"shown to cid", now=0), now=0)
    echo = cid.send(b"c", now=0)
    bob.receive(CID, echo, now=0)
    [fault] = bob.faults()
    assert (fault.kind, fault.sender, fault.seq, fault.by) == ("split", ANN, 1, CID)
    assert fault.broker and fault.evidence[0] == echo


def test_an_old_frame_nobody_asked_for_again_is_a_replay() -> None:
    ann, bob = StreamEndpoint(ANN), StreamEndpoint(BOB)
    frames = [ann.send(bytes([i]), now=0) for i in range(REPLAY_SLACK + 4)]
    for frame in frames:
        bob.receive(ANN, frame, now=0)
    bob.receive(ANN, frames[-2], now=0)  # at-least-once delivery: not a replay
    assert bob.faults() == []
    bob.receive(ANN, frames[0], now=0)
    [fault] = bob.faults()
    assert (fault.kind, fault.seq, fault.evidence, fault.broker) == ("replay", 1,
                                                                     (frames[0],), True)
    bob.receive(ANN, frames[0], now=0)  # reported once
    assert bob.faults() == []


def test_an_old_frame_somebody_asked_for_again_is_a_resend() -> None:
    ann, bob = StreamEndpoint(ANN), StreamEndpoint(BOB)
    frames = [ann.send(bytes([i]), now=0) for i in range(REPLAY_SLACK + 4)]
    for frame in frames:
        bob.receive(ANN, frame, now=0)
    ask = Frame(FrameKind.RESEND, CID, 0, ResendRequest(ANN, ((1, 3),)).encode()).encode()
    bob.receive(CID, ask, now=0)
    bob.receive(ANN, frames[0], now=0)
    assert bob.faults() == []


def test_an_echoed_position_is_asked_for_at_once_and_withheld_after_the_asks() -> None:
    ann, bob, cid = StreamEndpoint(ANN), StreamEndpoint(BOB), StreamEndpoint(CID)
    first, second = ann.send(b"a", now=0), ann.send(b"b", now=0)
    bob.receive(ANN, first, now=0)
    cid.receive(ANN, first, now=0)
    cid.receive(ANN, second, now=0)  # the broker shows #2 to cid only
    bob.receive(CID, cid.send(b"c", now=0), now=0)
    [ask] = bob.frames_to_send()
    request = ResendRequest.decode(Frame.decode(ask).body)
    assert (request.target, request.ranges) == (ANN, ((2, 2),))
    now = 0.0
    for _ in range(WITHHELD_ASKS - 1):
        assert bob.faults() == []
        now += 1.0
        bob.handle_timer(now)
    [fault] = bob.faults()
    assert (fault.kind, fault.sender, fault.seq, fault.by) == ("withheld", ANN, 2, CID)
    bob.receive(ANN, second, now=now)  # it comes at last: delivered, nothing more
    assert [d.body for d in bob.deliveries() if d.sender == ANN] == [b"a", b"b"]
    assert bob.faults() == []


def test_a_stranger_echoes_nothing_and_is_not_heard_about_others() -> None:
    bob = StreamEndpoint(BOB, lobby=True)
    ann = StreamEndpoint(ANN)
    bob.receive(ANN, ann.send(b"a", now=0), now=0)
    lie = Frame(FrameKind.STATUS, CID, 0, b"", b"", ((ANN[:8], 1, bytes(16)),)).encode()
    bob.receive(CID, lie, now=0)
    assert bob.faults() == [] and Frame.decode(bob.send(b"x", now=0)).heads == ()


PEERS = (ANN, BOB, CID)


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_no_honest_network_schedule_shows_a_fork_or_a_split(data: st.DataObject) -> None:
    """Drops, duplicates, reorders and old copies of frames (what a hostile broker can
    do with what the seats really sent) never make an honest sender look forked, nor
    two honest seats look split."""
    endpoints = {p: StreamEndpoint(p, retry_interval=0.5) for p in PEERS}
    sent: list[tuple[str, bytes]] = []  # every publication, for replays
    flight: list[tuple[str, str, bytes]] = []
    faults: list[StreamFault] = []
    now = 0.0

    def publish(sender: str, frame: bytes, to: str | None = None) -> None:
        sent.append((sender, frame))
        flight.extend((r, sender, frame) for r in PEERS if r != sender and to in (None, r))

    for _step in range(data.draw(st.integers(0, 120))):
        now += data.draw(st.sampled_from([0.0, 0.3, 1.0]))
        action = data.draw(st.sampled_from(["send", "deliver", "drop", "replay", "timer"]))
        if action == "send":
            peer = data.draw(st.sampled_from(PEERS))
            publish(peer, endpoints[peer].send(data.draw(st.binary(max_size=4)), now))
        elif action == "replay" and sent:
            sender, frame = data.draw(st.sampled_from(sent))
            flight.append((data.draw(st.sampled_from(PEERS)), sender, frame))
        elif action == "timer":
            for endpoint in endpoints.values():
                endpoint.handle_timer(now)
        elif flight:
            receiver, sender, frame = flight.pop(data.draw(st.integers(0, len(flight) - 1)))
            if action == "deliver" and receiver != sender:
                endpoints[receiver].receive(sender, frame, now)
        for peer, endpoint in endpoints.items():
            for frame in endpoint.frames_to_send():
                publish(peer, frame)
            for asker, frame in endpoint.answers_to_send():
                publish(peer, frame, to=asker)
            faults.extend(endpoint.faults())
    assert not [f for f in faults if f.kind in ("equivocation", "split")], faults
    assert set(kinds(faults)) <= {"replay", "withheld"}
