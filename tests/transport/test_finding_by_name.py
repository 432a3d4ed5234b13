"""Finding a table by name without --broker: DNS-SD, an address that answers (the
advert's other brokers kept to move to), a wait."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.cli import build_parser, cmd_join, main
from lodam_p2p.cli.finding import Finder, TableNotFound
from lodam_p2p.session import SessionError
from lodam_p2p.transport.discovery import TableAdvert
from tests.support.brokers import free_port

HOST_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OAK = TableAdvert("oak", "mqtt://10.213.0.2:1883", also=("mqtt://192.168.7.2:1883",)).signed(
    HOST_KEY)


class FakeLan:
    """A LAN whose adverts appear at a given time, on a clock that browsing moves."""

    def __init__(self, adverts: list[TableAdvert], from_s: float = 0.0,
                 answering: tuple[str, ...] = ()) -> None:
        self.now, self.adverts, self.from_s = 0.0, adverts, from_s
        self.answering = set(answering)
        self.probed: list[str] = []
        self.said: list[str] = []

    async def browse(self, timeout: float, *, until: Callable[[TableAdvert], bool]
                     ) -> list[TableAdvert]:
        if self.now < self.from_s:
            self.now += timeout
            return []
        return [a for a in self.adverts if until(a)] or self.adverts

    async def probe(self, url: str) -> bool:
        self.probed.append(url)
        return url in self.answering

    async def pause(self, seconds: float) -> None:
        self.now += seconds

    async def no_local(self, url: str, table: str) -> bool:
        return False

    def finder(self, label: str, wait_s: float, **more: Any) -> Finder:
        return Finder(label, wait_s, browse=self.browse, probe=self.probe,
                      announces=self.no_local, say=self.said.append, pause=self.pause,
                      clock=lambda: self.now, **more)


def test_a_table_advertised_is_joined_at_its_first_address_that_answers() -> None:
    lan = FakeLan([OAK], answering=("mqtt://192.168.7.2:1883",))
    # the one that answers first, the other kept to move to
    assert asyncio.run(lan.finder("oak", 60).find()) == (
        "mqtt://192.168.7.2:1883,mqtt://10.213.0.2:1883")
    assert lan.probed == ["mqtt://10.213.0.2:1883", "mqtt://192.168.7.2:1883"]
    assert lan.said == []


def test_a_table_not_yet_advertised_is_waited_for_with_one_line() -> None:
    lan = FakeLan([OAK], from_s=20, answering=("mqtt://10.213.0.2:1883",))
    assert asyncio.run(lan.finder("oak", 60).find()) == ",".join(OAK.brokers)
    assert len(lan.said) == 1 and lan.said[0].startswith("lodam: waiting for table oak…")
    assert "DNS-SD" in lan.said[0]


def test_a_pin_of_another_host_is_not_the_table() -> None:
    lan = FakeLan([OAK], answering=OAK.brokers)
    with pytest.raises(TableNotFound, match="no table oak#0000 found in 10 s"):
        asyncio.run(lan.finder("oak#0000", 10).find())
    assert lan.probed == []
    pin = OAK.fingerprint[:4]
    assert asyncio.run(lan.finder(f"oak#{pin}", 10).find()).startswith(f"{OAK.broker},")


def test_giving_up_says_what_was_looked_for_and_where() -> None:
    lan = FakeLan([OAK])  # advertised, but no address answers
    with pytest.raises(TableNotFound) as err:
        asyncio.run(lan.finder("oak", 30, local="mqtt://127.0.0.1:1883").find())
    why = str(err.value)
    assert lan.now >= 30
    assert "_lodam._tcp" in why and "table=oak" in why and "interfaces" in why
    assert "mqtt://127.0.0.1:1883" in why
    assert "did not answer: mqtt://10.213.0.2:1883, mqtt://192.168.7.2:1883" in why
    assert "--broker mqtt://HOST:1883" in why


def test_a_table_on_a_cluster_is_joined_with_every_node_it_advertises() -> None:
    nodes = ("mqtt://10.0.0.1:1883", "mqtt://10.0.0.2:1883", "mqtt://10.0.0.3:1883")
    cluster = TableAdvert("oak", nodes[0], nodes=nodes[1:]).signed(HOST_KEY)
    lan = FakeLan([cluster], answering=nodes[1:])  # the first node is down already
    found = asyncio.run(lan.finder("oak", 60).find())
    assert found == "mqtt://10.0.0.2:1883,mqtt://10.0.0.1:1883,mqtt://10.0.0.3:1883"
    assert lan.probed == list(nodes[:2])


def test_a_table_on_this_machines_broker_is_found_there() -> None:
    lan = FakeLan([])
    seen: list[tuple[str, str]] = []

    async def local(url: str, table: str) -> bool:
        seen.append((url, table))
        return True

    finder = lan.finder("oak#abcd", 30, local="mqtt://127.0.0.1:1883")
    finder.announces = local
    assert asyncio.run(finder.find()) == "mqtt://127.0.0.1:1883"
    assert seen == [("mqtt://127.0.0.1:1883", "oak")]


def test_join_and_bot_take_wait() -> None:
    parser = build_parser()
    assert parser.parse_args(["bot", "random", "--table", "oak", "--wait", "5"]).wait == 5
    assert parser.parse_args(["join", "oak", "--bot", "random"]).wait == 180
    with pytest.raises(SystemExit):
        parser.parse_args(["join", "oak", "--wait", "-1"])


def test_a_bot_found_its_table_by_name_joins_with_every_node(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    nodes = [f"mqtt://127.0.0.1:{free_port()}" for _ in range(3)]  # nobody listens there
    cluster = TableAdvert("oak", nodes[0], nodes=tuple(nodes[1:])).signed(HOST_KEY)
    lan = FakeLan([cluster], answering=(nodes[1],))
    monkeypatch.setattr(cmd_join, "find_broker",
                        lambda label, wait_s, local: asyncio.run(lan.finder(label, wait_s).find()))
    joined: list[str] = []

    async def join_table(*, broker_url: str, **_: Any) -> None:
        joined.append(broker_url)
        raise SessionError("stopped here: the test looks at the brokers only")

    monkeypatch.setattr(cmd_join, "join_table", join_table)
    assert main(["bot", "random", "--table", "oak", "--state-dir", str(tmp_path)]) == 1
    assert joined == [",".join([nodes[1], nodes[0], nodes[2]])]
