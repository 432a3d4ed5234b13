"""A host's LAN addresses, read from its network interfaces (a fake list here), and
where they show: the URLs announced for the table's broker, the DNS-SD advert's other
addresses, the lobby announcement, and the HOST column of ``lodam tables``."""

from __future__ import annotations

import ifaddr
import pytest

from lodam_p2p.cli.cmd_tables import TableRow, render
from lodam_p2p.games import get_game
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.transport.discovery import (
    TableAdvert,
    announced_brokers,
    hosts_of,
    lan_addresses,
    reachable_urls,
    with_addresses,
)
from lodam_p2p.transport.hostbroker import on_loopback
from lodam_p2p.transport.lobby import BadAnnouncement, TableAnnouncement, signed_bytes
from tests.support.announcing import host_key


def v4(address: str, prefix: int = 24) -> ifaddr.IP:
    return ifaddr.IP(address, prefix, "nic")


def v6(address: str, scope: int = 0) -> ifaddr.IP:
    return ifaddr.IP((address, 0, scope), 64, "nic")


#: A laptop on a LAN party's bridge: loopback, a wired and a wireless interface.
LAPTOP = [
    ifaddr.Adapter("lo", "lo", [v4("127.0.0.1", 8), v6("::1")]),
    ifaddr.Adapter("eth0", "eth0", [v4("169.254.7.7", 16), v6("fe80::1", 2),
                                    v6("fd00::5"), v4("10.213.0.5")]),
    ifaddr.Adapter("wlan0", "wlan0", [v4("192.168.1.20"), v4("10.213.0.5")]),
]


def test_lan_addresses_leave_out_loopback_and_ipv6_link_local() -> None:
    assert lan_addresses(LAPTOP) == ["10.213.0.5", "192.168.1.20", "169.254.7.7", "fd00::5"]
    assert lan_addresses(LAPTOP, ipv6=False) == ["10.213.0.5", "192.168.1.20", "169.254.7.7"]


def test_a_machine_with_only_loopback_has_no_lan_address() -> None:
    assert lan_addresses(LAPTOP[:1]) == []


def test_reachable_urls_follow_the_listening_address() -> None:
    assert reachable_urls("0.0.0.0", 1883, LAPTOP) == [
        "mqtt://10.213.0.5:1883", "mqtt://192.168.1.20:1883", "mqtt://169.254.7.7:1883"]
    assert reachable_urls("::", 1999, LAPTOP)[-1] == "mqtt://[fd00::5]:1999"
    assert reachable_urls("10.213.0.5", 1883, LAPTOP) == ["mqtt://10.213.0.5:1883"]
    assert reachable_urls("127.0.0.1", 1883, LAPTOP) == []
    assert reachable_urls("::1", 1883, LAPTOP) == []
    assert reachable_urls("localhost", 1883, LAPTOP) == []


def test_announced_brokers_of_a_host() -> None:
    # the host's own broker on every address: its port, at each LAN address
    assert announced_brokers("mqtt://127.0.0.1:40001", "0.0.0.0:0", LAPTOP) == (
        "mqtt://10.213.0.5:40001", "mqtt://192.168.1.20:40001", "mqtt://169.254.7.7:40001")
    # on loopback: nothing another machine could use
    assert announced_brokers("mqtt://127.0.0.1:1883", "127.0.0.1:1883", LAPTOP) == ()
    assert announced_brokers("mqtt://127.0.0.1:1883", None, LAPTOP) == ()
    # a broker of the venue's: itself, without the login
    assert announced_brokers("mqtt://ann:pw@10.213.0.9:1883", None, LAPTOP) == (
        "mqtt://10.213.0.9:1883",)
    assert announced_brokers("memory", None, LAPTOP) == ()


def test_hosts_of_urls_are_their_ip_addresses() -> None:
    assert hosts_of(["mqtt://10.213.0.5:1883", "mqtt://[fd00::5]:1883",
                     "mqtt://broker.lan:1883"]) == ["10.213.0.5", "fd00::5"]


def test_an_advert_learns_the_hosts_other_addresses() -> None:
    advert = TableAdvert("oak", "mqtt://10.213.0.5:1883")
    found = with_addresses(advert, ["10.213.0.5", "192.168.1.20", "fd00::5", "fe80::1%eth0"])
    assert found.brokers == ("mqtt://10.213.0.5:1883", "mqtt://192.168.1.20:1883",
                             "mqtt://[fd00::5]:1883")
    # a broker on another machine: the advertising machine's addresses are not its own
    elsewhere = TableAdvert("oak", "mqtt://10.213.0.9:1883")
    assert with_addresses(elsewhere, ["10.213.0.5"]) == elsewhere


def test_the_lobby_announcement_carries_the_brokers() -> None:
    options = get_game("lodam").parse_options([])
    desk = HostDesk("oak", "a" * 20, 4, options, brokers=("mqtt://10.213.0.5:1883",
                                                       "mqtt://[fd00::5]:1883"))
    announcement = desk.announcement().signed(host_key(1))
    assert announcement.brokers == ("mqtt://10.213.0.5:1883", "mqtt://[fd00::5]:1883")
    assert TableAnnouncement.decode(announcement.encode(), "oak") == announcement
    # none: the payload has no such field
    plain = HostDesk("oak", "a" * 20, 4, options).announcement().signed(host_key(1))
    assert b"brokers" not in plain.encode() and plain.brokers == ()


@pytest.mark.parametrize("brokers", [
    ["http://10.0.0.1"], ["mqtt://ann:pw@10.0.0.1:1883"], [7], "mqtt://10.0.0.1",
    [f"mqtt://10.0.0.{i}:1883" for i in range(17)],
])
def test_announcements_with_bad_brokers_are_refused(brokers: object) -> None:
    import json

    key = host_key(1)
    body = {"v": 3, "table": "oak", "host": "ann", "seats": 4, "seated": [], "options": {},
            "state": "open", "brokers": brokers,
            "key": key.public_key().public_bytes_raw().hex()}
    body["sig"] = key.sign(signed_bytes(body)).hex()  # signed: refused for its brokers
    with pytest.raises(BadAnnouncement, match="broker"):
        TableAnnouncement.decode(json.dumps(body).encode())


def test_tables_show_the_hosts_address_and_seats_taken_and_free() -> None:
    key_hash = "k" * 20
    announced = TableAnnouncement("oak", key_hash, 5, ("ann", "bob"), state="open",
                                  brokers=("mqtt://10.213.0.5:1883", "mqtt://[fd00::5]:1883"),
                                  ).signed(host_key(1))
    row = TableRow("oak", "mqtt://10.213.0.5:1883", {"lan", "broker"}, announced.fingerprint,
                   announced)
    lan_only = TableRow("elm", "mqtt://[fd00::7]:1883", {"lan"})
    text = render([lan_only, row])
    header, elm, oak = text.splitlines()
    assert header.split() == ["TABLE", "GAME", "TAKEN", "FREE", "STATE", "HOST", "FOUND"]
    assert oak.split() == [announced.label, "lodam", "2", "3", "open", "10.213.0.5:1883", "(+1)",
                           "broker+lan"]
    assert elm.split() == ["elm", "?", "?", "?", "?", "[fd00::7]:1883", "lan"]
    assert key_hash not in text


def test_a_loopback_url_is_told_apart() -> None:
    assert on_loopback("mqtt://127.0.0.1:1883") and on_loopback("mqtt://[::1]:1883")
    assert on_loopback("mqtt://localhost")
    assert not on_loopback("mqtt://10.213.0.5:1883") and not on_loopback("not a url")


def test_lodam_broker_on_every_address_says_where_other_machines_reach_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from lodam_p2p.cli.cmd_broker import serve
    from lodam_p2p.transport import discovery
    from lodam_p2p.transport.broker import ListenAddress
    from tests.support.aio import run

    monkeypatch.setattr(discovery.ifaddr, "get_adapters", lambda: LAPTOP)

    async def scenario() -> int:
        stop = asyncio.Event()
        stop.set()  # serves, says where, and stops at once
        return await serve(ListenAddress("0.0.0.0", 0), stop)

    assert run(scenario()) == 0
    out = capsys.readouterr().out
    port = out.split("clients use mqtt://127.0.0.1:")[1].split(")")[0]
    assert (f"other machines use mqtt://10.213.0.5:{port}, mqtt://192.168.1.20:{port}, "
            f"mqtt://169.254.7.7:{port}\n") in out
