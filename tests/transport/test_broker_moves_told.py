"""A seat on a list of brokers says which one it is on, and each move: its player gets
a notice (a person's screen shows it on the notice line) and the table's log a line (a
bot's output)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from lodam_p2p.player import Notice, NoticeLevel
from lodam_p2p.session.runner import SeatRunner
from lodam_p2p.transport import BrokerUrl


class Told:
    """A machine as far as the runner's broker notices reach: ``tell`` and a log."""

    def __init__(self) -> None:
        self.events: list[object] = []
        self.lines: list[str] = []
        self.spectator = SimpleNamespace(line=self.lines.append)

    def tell(self, event: object) -> None:
        self.events.append(event)


class Transport:
    """An MQTT transport as the runner sees it: its brokers, the one in use, ``on_move``."""

    def __init__(self, *urls: str) -> None:
        self.urls = tuple(BrokerUrl.parse(url) for url in urls)
        self.url = self.urls[0]
        self.on_move: Callable[[str, str], None] | None = None


def _told(transport: Transport) -> Told:
    """What a runner over ``transport`` tells once its link is open."""
    machine = Told()
    link: Any = SimpleNamespace(transport=transport)
    SeatRunner(machine, link)._tell_moves()  # type: ignore[arg-type]
    return machine


def test_a_seat_on_a_cluster_is_told_its_broker_and_each_move() -> None:
    transport = Transport("mqtt://10.0.0.1:1883", "mqtt://10.0.0.2:1883")
    machine = _told(transport)
    assert machine.events == [Notice(NoticeLevel.INFO, "on the broker mqtt://10.0.0.1:1883")]
    assert transport.on_move is not None
    transport.on_move("mqtt://10.0.0.1:1883", "mqtt://10.0.0.2:1883")
    moved = "moved from the broker mqtt://10.0.0.1:1883 to mqtt://10.0.0.2:1883"
    assert machine.events[1:] == [Notice(NoticeLevel.WARNING, moved)]
    assert machine.lines == ["on the broker mqtt://10.0.0.1:1883", moved]


def test_a_seat_on_one_broker_is_told_nothing_at_connect() -> None:
    transport = Transport("mqtt://10.0.0.1:1883")
    machine = _told(transport)
    assert machine.events == [] and machine.lines == []
    assert transport.on_move is not None  # a broker back after a restart says nothing
