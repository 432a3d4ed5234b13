"""A transport's backlog: a flood of peer messages beyond its caps is shed, never
presence nor lobby messages, and each episode is logged once."""

from __future__ import annotations

import logging

import pytest

from lodam_p2p.transport import topics
from lodam_p2p.transport.backlog import Backlog
from lodam_p2p.transport.base import Message

FLOOD = topics.peer_topic("oak", "pmallory")
HONEST = topics.peer_topic("oak", "pann")


def _message(topic: str, size: int) -> Message:
    return Message(topic, bytes(size), False)


def test_one_topic_is_shed_over_its_cap_and_others_still_come_in() -> None:
    backlog = Backlog(total=1000, per_topic=400)
    taken = [backlog.admit(_message(FLOOD, 100)) for _ in range(10)]
    assert taken == [True] * 4 + [False] * 6
    assert backlog.admit(_message(HONEST, 100)) and backlog.bytes == 500


def test_the_total_cap_sheds_peer_messages_but_keeps_presence_and_the_lobby() -> None:
    backlog = Backlog(total=1000, per_topic=1000)
    for n in range(10):
        assert backlog.admit(_message(topics.peer_topic("oak", f"p{n}"), 100))
    assert not backlog.admit(_message(HONEST, 1))
    assert backlog.admit(_message(topics.presence_topic("oak", "pann"), 200))
    assert backlog.admit(_message(topics.announcement_topic("oak", "7f3a"), 200))
    assert backlog.shed == 1


def test_what_is_read_makes_room_again(caplog: pytest.LogCaptureFixture) -> None:
    backlog = Backlog(total=1000, per_topic=1000)
    held = [_message(FLOOD, 250) for _ in range(4)]
    with caplog.at_level(logging.WARNING, logger="lodam_p2p.transport"):
        assert all(backlog.admit(m) for m in held)
        assert not any(backlog.admit(_message(FLOOD, 250)) for _ in range(50))
        assert len(caplog.records) == 1  # one line for the whole episode
        for message in held:
            backlog.taken(message)
        assert backlog.bytes == 0 and backlog.admit(_message(FLOOD, 250))
        backlog.admit(_message(FLOOD, 1000))  # a new episode: logged again
    assert len(caplog.records) == 2
