"""Topic names, name validation, presence payloads and lobby announcements."""

from __future__ import annotations

import pytest

from lodam_p2p.transport import topics
from lodam_p2p.transport.base import topic_matches
from lodam_p2p.transport.lobby import BadAnnouncement, TableAnnouncement
from lodam_p2p.transport.presence import BadPresence, Presence, PresenceTracker
from lodam_p2p.transport.topics import BadName, ParsedTopic, TopicKind
from tests.support.announcing import announced


def test_topic_names_follow_the_design() -> None:
    assert topics.peer_topic("oak", "ann") == "lodam/v3/t/oak/p/ann"
    assert topics.table_peers_pattern("oak") == "lodam/v3/t/oak/p/+"
    assert topics.presence_topic("oak", "ann") == "lodam/v3/t/oak/presence/ann"
    assert topics.lobby_topic("Kitchen table") == "lodam/v3/lobby/Kitchen table/+"
    assert topics.announcement_topic("oak", "7f3a") == "lodam/v3/lobby/oak/7f3a"
    assert topics.LOBBY_PATTERN == "lodam/v3/lobby/+/+"


@pytest.mark.parametrize(
    "name",
    ["", "a/b", "a+", "#", "$SYS", " oak", "oak ", "tab\tle", "x\n", "o" * 41, "é" * 31],
)
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(BadName):
        topics.check_name(name, "table")
    with pytest.raises(BadName):
        topics.peer_topic("oak", name)


@pytest.mark.parametrize("name", ["oak", "Kitchen table", "ann-2", "♠ spades", "o" * 40])
def test_good_names_pass(name: str) -> None:
    assert topics.check_name(name) == name
    assert topics.parse_topic(topics.peer_topic(name, name)) == ParsedTopic(
        TopicKind.PEER, name, name)


@pytest.mark.parametrize(
    ("topic", "parsed"),
    [
        ("lodam/v3/lobby/oak/7f3a", ParsedTopic(TopicKind.LOBBY, "oak", "7f3a")),
        ("lodam/v3/t/oak/presence/ann", ParsedTopic(TopicKind.PRESENCE, "oak", "ann")),
        ("lodam/v3/t/oak/p/ann/to/bob", ParsedTopic(TopicKind.PEER, "oak", "ann", "bob")),
    ],
)
def test_parse_topic(topic: str, parsed: ParsedTopic) -> None:
    assert topics.parse_topic(topic) == parsed


def test_an_answer_topic_is_read_by_its_asker_alone() -> None:
    answer = topics.answer_topic("oak", "ann", "bob")
    assert topic_matches(topics.table_answers_pattern("oak", "bob"), answer)
    assert not topic_matches(topics.table_answers_pattern("oak", "cid"), answer)
    assert not topic_matches(topics.table_peers_pattern("oak"), answer)
    with pytest.raises(BadName):
        topics.answer_topic("oak", "ann", "b/c")


def test_an_answer_belongs_to_its_senders_stream() -> None:
    stream = ("ann", topics.peer_topic("oak", "ann"))
    assert topics.stream_of(topics.answer_topic("oak", "ann", "bob")) == stream
    assert topics.stream_of(topics.peer_topic("oak", "ann")) == stream
    assert topics.stream_of(topics.presence_topic("oak", "ann")) is None
    assert topics.stream_of("lodam/v3/t/oak/p/ann/to") is None


@pytest.mark.parametrize(
    "topic",
    ["lodam/v1/lobby/oak", "lodam/v3/t/oak/q/ann", "lodam/v3/t/oak/p", "lodam/v3/lobby/",
     "lodam/v3/lobby/oak", "lodam/v3/lobby/oak/NOTHEX",
     "lodam/v3/t/oak/p/ann/x", "other", "lodam/v3/t/$x/p/ann", "lodam/v3/t/oak/p/ann/to",
     "lodam/v3/t/oak/p/ann/at/bob", "lodam/v3/t/oak/p/ann/to/$b", "lodam/v3/t/oak/q/ann/to/b",
     "lodam/v3/t/oak/p/ann/to/bob/x"],
)
def test_foreign_topics_are_refused(topic: str) -> None:
    with pytest.raises(BadName):
        topics.parse_topic(topic)


@pytest.mark.parametrize(
    ("pattern", "topic", "matches"),
    [
        ("a/+/c", "a/b/c", True), ("a/+/c", "a/b/d", False), ("a/#", "a", True),
        ("a/#", "a/b/c", True), ("a/+", "a/b/c", False), ("#", "x/y", True),
        ("a/b", "a/b", True), ("a/b", "a/b/c", False), ("a/+/+", "a/b", False),
    ],
)
def test_topic_matching(pattern: str, topic: str, matches: bool) -> None:
    assert topic_matches(pattern, topic) is matches


def test_presence_round_trip_and_bad_payloads() -> None:
    presence = Presence("ann", "00ff", online=True)
    assert Presence.decode(presence.encode()) == presence
    for junk in (b"", b"[]", b"{}", b"\xff", b'{"peer":"a/b","nonce":"1","online":true}',
                 b'{"peer":"a","nonce":"1","online":1}', b'{"peer":"a","nonce":""}',
                 b" " * 300):
        with pytest.raises(BadPresence):
            Presence.decode(junk)


def test_tracker_ignores_a_stale_will() -> None:
    tracker = PresenceTracker()
    assert tracker.observe(Presence("ann", "n1", True)) is not None
    assert tracker.observe(Presence("ann", "n1", False)) is not None  # dropped
    back = tracker.observe(Presence("ann", "n2", True))
    assert back is not None and back.online
    assert tracker.observe(Presence("ann", "n1", False)) is None  # the old will, late
    assert tracker.online() == {"ann"}
    gone = tracker.observe(Presence("ann", "n2", False))
    assert gone is not None and not gone.online and tracker.online() == set()


def test_announcement_round_trip() -> None:
    table = announced("oak", 1, 5, seated=("ann", "bob"), options=(("stakes", "3"),))
    assert TableAnnouncement.decode(table.encode(), topic_table="oak") == table
    assert table.joinable and table.topic == f"lodam/v3/lobby/oak/{table.fingerprint[:16]}"
    assert not TableAnnouncement("oak", "ann", 3, ("a", "b", "c")).joinable


@pytest.mark.parametrize(
    "payload",
    [b"", b"null", b"[1]", b"\xfe", b"{" * 5000,
     b'{"v":2,"table":"oak","host":"ann","seats":2,"seated":[],"options":{},"state":"open"}',
     b'{"v":2,"table":"oak","host":"ann","seats":5,"seated":[1],"options":{},"state":"open"}',
     b'{"v":2,"table":"oak","host":"ann","seats":5,"seated":[],"options":{},"state":"odd"}',
     b'{"v":2,"table":"o/k","host":"ann","seats":5,"seated":[],"options":{},"state":"open"}',
     b'{"v":true,"table":"oak","host":"ann","seats":5,"seated":[],"options":{},"state":"open"}',
     b'{"v":2,"table":"oak","host":"ann","seats":5,"seated":["a","a"],"options":{},'
     b'"state":"open"}'],
)
def test_bad_announcements_are_refused(payload: bytes) -> None:
    with pytest.raises(BadAnnouncement):
        TableAnnouncement.decode(payload)


def test_announcement_must_match_its_topic() -> None:
    payload = announced("oak", 1, 5).encode()
    with pytest.raises(BadAnnouncement, match="topic"):
        TableAnnouncement.decode(payload, topic_table="elm")
