"""DNS-SD adverts, and ``lodam tables`` finding tables on the LAN and on a broker.

Multicast works on this machine's loopback interface, so adverts go round trip for
real (on 127.0.0.1 only, with table names unique to the test run).
"""

from __future__ import annotations

import json
import secrets

import pytest

from lodam_p2p.cli import main
from lodam_p2p.cli.cmd_tables import gather_tables
from lodam_p2p.transport.discovery import (
    Advertiser,
    BadAdvert,
    TableAdvert,
    browse,
    table_advertiser,
)
from lodam_p2p.transport.mqtt import MqttTransport
from lodam_p2p.transport.url import BrokerUrl
from tests.support.aio import run
from tests.support.announcing import announced, host_key
from tests.support.brokers import ThreadedAmqtt

LOOPBACK = ["127.0.0.1"]


def unique_table() -> str:
    return f"t-{secrets.token_hex(4)}"


def _raw(txt: dict[str, str]) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in txt.items()}


def test_txt_round_trip_drops_credentials() -> None:
    advert = TableAdvert("Kitchen table", "mqtt://ann:pw@192.168.1.5:1883").signed(host_key(1))
    txt = advert.txt()
    assert {k: txt[k] for k in ("v", "table", "broker")} == {
        "v": "3", "table": "Kitchen table", "broker": "mqtt://192.168.1.5:1883"}
    assert txt["key"] == host_key(1).public_key().public_bytes_raw().hex()
    found = TableAdvert.from_txt(_raw(txt))
    assert found.broker == "mqtt://192.168.1.5:1883" and found.key == advert.key
    assert found.label == f"Kitchen table#{advert.fingerprint[:4]}"


def test_txt_falls_back_to_the_srv_address() -> None:
    signed = TableAdvert("oak", "mqtt://10.0.0.2:1999", 2).signed(host_key(1)).txt()
    del signed["broker"]
    advert = TableAdvert.from_txt(_raw(signed), "mqtt://10.0.0.2:1999")
    assert advert.broker == "mqtt://10.0.0.2:1999"


def test_unsigned_or_tampered_adverts_are_refused() -> None:
    unsigned = {"v": "3", "table": "oak", "broker": "mqtt://10.0.0.2:1883"}
    with pytest.raises(BadAdvert, match="not signed"):
        TableAdvert.from_txt(_raw(unsigned))
    tampered = TableAdvert("oak", "mqtt://10.0.0.2:1883").signed(host_key(1)).txt()
    tampered["broker"] = "mqtt://10.0.0.66:1883"  # a stranger's broker under the host's key
    with pytest.raises(BadAdvert, match="not signed"):
        TableAdvert.from_txt(_raw(tampered))


NODES = ("mqtt://10.0.0.1:1883", "mqtt://10.0.0.2:1884", "mqtt://venue-n3.lan:1883")


def test_a_clusters_nodes_travel_signed_in_the_txt_record() -> None:
    advert = TableAdvert("oak", NODES[0], nodes=NODES[1:]).signed(host_key(1))
    txt = advert.txt()
    assert (txt["broker"], txt["broker2"], txt["broker3"]) == NODES and "broker4" not in txt
    found = TableAdvert.from_txt(_raw(txt))
    assert found == advert and found.brokers == NODES
    moved = dict(txt, broker3="mqtt://10.0.0.66:1883")  # a stranger's node in the list
    with pytest.raises(BadAdvert, match="not signed"):
        TableAdvert.from_txt(_raw(moved))
    dropped = {k: v for k, v in txt.items() if k != "broker3"}
    with pytest.raises(BadAdvert, match="not signed"):
        TableAdvert.from_txt(_raw(dropped))


def test_one_broker_signs_as_before_the_list() -> None:
    # an advert with one broker signs exactly what it did: older finders still read it
    advert = TableAdvert("oak", "mqtt://10.0.0.1:1883").signed(host_key(1))
    assert b'"nodes"' not in advert.signed_bytes()
    assert set(advert.txt()) == {"v", "table", "broker", "key", "sig"}


def test_a_host_advertises_every_broker_another_machine_reaches() -> None:
    key = host_key(1)
    assert table_advertiser("oak", (), key) is None
    assert table_advertiser("oak", ("mqtt://127.0.0.1:1883", "mqtt://localhost:1884"),
                            key) is None  # loopback: this machine only
    venue = table_advertiser("oak", ("mqtt://10.0.0.9:1883",), key)  # an external broker
    assert venue is not None and venue.advert.brokers == ("mqtt://10.0.0.9:1883",)
    assert venue.advert.key == key.public_key().public_bytes_raw()
    cluster = table_advertiser("oak", ("mqtt://127.0.0.1:1883", *NODES), key)
    assert cluster is not None and cluster.advert.brokers == NODES


def test_a_cluster_advertised_is_found_with_every_node() -> None:
    table = unique_table()

    async def scenario() -> list[TableAdvert]:
        advertiser = table_advertiser(table, NODES, host_key(3), interfaces=LOOPBACK)
        assert advertiser is not None
        async with advertiser:
            return await browse(timeout=30, interfaces=LOOPBACK,
                                until=lambda found: found.table == table)

    (found,) = [advert for advert in run(scenario(), 60) if advert.table == table]
    assert found.brokers == NODES and found.fingerprint


def test_tables_shows_every_node_a_cluster_advertises() -> None:
    table = unique_table()

    async def scenario() -> list[tuple[str, ...]]:
        advertiser = table_advertiser(table, NODES, host_key(3), interfaces=LOOPBACK)
        assert advertiser is not None
        async with advertiser:
            rows = await gather_tables(None, 5.0, interfaces=LOOPBACK)
        return [row.addresses for row in rows if row.table == table]

    assert run(scenario(), 60) == [NODES]


@pytest.mark.parametrize(
    "txt",
    [{}, {b"v": b"2", b"table": b"a/b", b"broker": b"mqtt://h"},
     {b"v": b"x", b"table": b"oak", b"broker": b"mqtt://h"},
     {b"v": b"2", b"table": b"oak"},
     {b"v": b"2", b"table": b"oak", b"broker": b"http://h"},
     {b"v": None, b"table": b"oak", b"broker": b"mqtt://h"},
     {b"v": b"2", b"table": b"\xff\xfe", b"broker": b"mqtt://h"}],
)
def test_bad_txt_records_are_refused(txt: dict[bytes, bytes | None]) -> None:
    with pytest.raises(BadAdvert):
        TableAdvert.from_txt(txt)


def test_advertise_and_browse_on_loopback() -> None:
    table = unique_table()

    async def scenario() -> list[TableAdvert]:
        advert = TableAdvert(table, "mqtt://127.0.0.1:18830").signed(host_key(1))
        async with Advertiser(advert, interfaces=LOOPBACK):
            # Stops once this table is found; the timeout is only a safety net.
            return await browse(timeout=30, interfaces=LOOPBACK,
                                until=lambda found: found.table == table)

    found = run(scenario(), 60)
    assert TableAdvert(table, "mqtt://127.0.0.1:18830").signed(host_key(1)) in found


def test_tables_lists_lan_finds_and_broker_announcements(amqtt_broker: ThreadedAmqtt) -> None:
    lan_table, broker_table = unique_table(), unique_table()
    announcement = announced(broker_table, 1, 4, seated=("ann",), options=(("stakes", "2"),))

    async def scenario() -> list[tuple[str, list[str], int | None]]:
        async with MqttTransport(amqtt_broker.url) as host:
            await host.publish(announcement.topic, announcement.encode(), retain=True)
            await host.publish("lodam/v3/lobby/junk", b"\x00not json", retain=True)
        advert = TableAdvert(lan_table, "mqtt://127.0.0.1:1").signed(host_key(2))  # nobody there
        async with Advertiser(advert, interfaces=LOOPBACK):
            # A whole-LAN listing browses for its full time: generous, for a loaded
            # machine (the advert is registered before browsing starts).
            rows = await gather_tables(BrokerUrl.parse(amqtt_broker.url), 5.0,
                                       interfaces=LOOPBACK)
        return [(r.table, sorted(r.found), r.announcement and r.announcement.seats)
                for r in rows]

    rows = run(scenario())
    assert (broker_table, ["broker"], 4) in rows
    assert (lan_table, ["lan"], None) in rows
    assert all(table != "junk" for table, _, _ in rows)


def test_tables_json_on_a_broker(amqtt_broker: ThreadedAmqtt,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    announcement = announced("oak", 1, 5, seated=("ann", "bob"))

    async def announce() -> None:
        async with MqttTransport(amqtt_broker.url) as host:
            await host.publish(announcement.topic, announcement.encode(), retain=True)

    run(announce())
    assert main(["tables", "--broker", amqtt_broker.url, "--no-lan", "--json",
                 "--timeout", "1"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["tables"]
    assert row["table"] == "oak" and row["seated"] == ["ann", "bob"] and row["joinable"]


def test_tables_unreachable_broker_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support.brokers import free_port

    port = free_port()
    assert main(["tables", "--broker", f"mqtt://127.0.0.1:{port}", "--no-lan"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("lodam: cannot connect to mqtt://127.0.0.1:") and err.count("\n") == 1
