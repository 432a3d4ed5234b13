"""``lodam tables``: the tables you could join — found on the LAN and on a broker.

Browses DNS-SD (``_lodam._tcp``) for ``--timeout`` seconds and, at the same time, reads
the retained lobby announcements of the ``--broker`` given, if any; the brokers the LAN
advertises are then asked for their announcements too. Each table is listed once, with
where it was found (``lan``, ``broker``).

The listing shows each table's name, game, seats taken and free, state, and the host's
address: where other machines reach the table's broker, as the host announced it (its
LAN addresses, the first of them and how many more), else the broker it was found on.
A table's name is shown with its host key's short fingerprint, ``oak#7f3a``: the first
4 hex digits of SHA-256 of the host's Ed25519 public key, from its signed announcement
(or signed LAN advert). Two hosts announcing one name are two rows; ``lodam join
oak#7f3a`` (or ``lodam bot … --table oak#7f3a``) joins the one meant. Announcements and
adverts whose signature does not check are not listed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from lodam_p2p.cli import CliError
from lodam_p2p.cli.broker_list import BrokerList, check_brokers
from lodam_p2p.transport.base import TransportError
from lodam_p2p.transport.brokers import parse_brokers
from lodam_p2p.transport.discovery import ALL_INTERFACES, Interfaces, TableAdvert, browse
from lodam_p2p.transport.lobby import SHORT_PRINT, TableAnnouncement, read_lobby
from lodam_p2p.transport.mqtt import MqttTransport
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

#: Exit status when the broker given cannot be reached.
EXIT_UNREACHABLE = 1


@dataclass(slots=True)
class TableRow:
    """One table as listed: what the LAN and the broker said of it."""

    table: str
    broker: str
    found: set[str] = field(default_factory=set)
    #: the host key's fingerprint (hex), as its signed announcement or advert gave it
    fingerprint: str = ""
    announcement: TableAnnouncement | None = None
    version: int | None = None
    #: the table's other brokers the LAN advert gave (a cluster's other nodes, the
    #: broker's other addresses)
    also: tuple[str, ...] = ()

    @property
    def addresses(self) -> tuple[str, ...]:
        """Where other machines reach the table's broker, best first: as announced on
        the broker, else as advertised on the LAN, else the broker it was found on."""
        if self.announcement is not None and self.announcement.brokers:
            return self.announcement.brokers
        return (self.broker, *self.also)

    @property
    def label(self) -> str:
        """The table as shown and joined: ``oak#7f3a``."""
        return f"{self.table}#{self.fingerprint[:SHORT_PRINT]}" if self.fingerprint else self.table

    def as_json(self) -> dict[str, object]:
        """The row as a JSON object."""
        row: dict[str, object] = {"table": self.table, "label": self.label,
                                  "fingerprint": self.fingerprint, "broker": self.broker,
                                  "found": sorted(self.found), "version": self.version,
                                  "addresses": list(self.addresses)}
        a = self.announcement
        if a is not None:
            row |= {"game": a.game, "host": a.host, "seats": a.seats, "seated": list(a.seated),
                    "state": a.state, "options": dict(a.options), "joinable": a.joinable}
        return row


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam tables``."""
    parser = sub.add_parser("tables", help="list the tables on the LAN and on a broker",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--broker", metavar="URL", action=BrokerList,
                        help="also list the tables announced on this broker "
                             "(mqtt://[user:pass@]host[:port] or mqtts://…; several, a "
                             "cluster's nodes, comma separated: the first that answers)")
    parser.add_argument("--timeout", metavar="S", type=_seconds, default=2.0,
                        help="how long to look, in seconds (default 2)")
    parser.add_argument("--no-lan", action="store_true", help="skip DNS-SD browsing")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def _broker_url(text: str) -> BrokerUrl:
    try:
        return BrokerUrl.parse(text)
    except BadBrokerUrl as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"timeout must be 0 to 60 seconds, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """List the tables; exit 1 if the broker given cannot be reached."""
    given = check_brokers(args.broker)
    brokers: list[BrokerUrl | None] = list(parse_brokers(given)) if given else [None]
    for broker in brokers:  # a cluster's nodes: the first that answers
        try:
            rows = asyncio.run(gather_tables(broker, args.timeout, lan=not args.no_lan))
            break
        except CliError:
            if broker is brokers[-1]:
                raise
    if args.json:
        print(json.dumps({"tables": [row.as_json() for row in rows]}))
    else:
        print(render(rows))
    return 0


async def gather_tables(broker: BrokerUrl | None, timeout: float, lan: bool = True,
                        interfaces: Interfaces = ALL_INTERFACES) -> list[TableRow]:
    """Browse (on ``interfaces``) and read lobbies; raise :class:`CliError` if
    ``broker`` is unreachable."""
    adverts_task = asyncio.create_task(browse(timeout, interfaces) if lan else _no_adverts())
    rows: dict[tuple[str, str], TableRow] = {}
    asked: set[str] = set()
    if broker is not None:
        try:
            announced = await _lobby_of(broker, timeout)
        except TransportError as err:
            adverts_task.cancel()
            raise CliError(str(err), EXIT_UNREACHABLE) from None
        asked.add(str(broker.without_login()))
        _merge_announcements(rows, str(broker.without_login()), announced)
    adverts = await adverts_task
    for advert in adverts:
        row = rows.setdefault((advert.label, advert.broker),
                              TableRow(advert.table, advert.broker,
                                       fingerprint=advert.fingerprint))
        row.found.add("lan")
        row.version = row.version or advert.version
        row.also = advert.brokers[1:]
    for url in sorted({advert.broker for advert in adverts} - asked):
        try:
            _merge_announcements(rows, url, await _lobby_of(BrokerUrl.parse(url), 1.0))
        except TransportError:
            continue  # advertised but unreachable: listed without details
    return sorted(rows.values(), key=lambda row: (row.table, row.label, row.broker))


async def _no_adverts() -> list[TableAdvert]:
    return []


async def _lobby_of(broker: BrokerUrl, timeout: float) -> list[TableAnnouncement]:
    async with MqttTransport(broker, timeout=timeout) as transport:
        return await read_lobby(transport, limit=timeout)


def _merge_announcements(rows: dict[tuple[str, str], TableRow], broker: str,
                         announced: list[TableAnnouncement]) -> None:
    for announcement in announced:
        row = rows.setdefault((announcement.label, broker),
                              TableRow(announcement.table, broker,
                                       fingerprint=announcement.fingerprint))
        row.found.add("broker")
        row.announcement, row.version = announcement, announcement.version


#: The listing's columns: header, and the cell of a row.
COLUMNS: tuple[tuple[str, Callable[[TableRow], str]], ...] = (
    ("TABLE", lambda row: row.label),
    ("GAME", lambda row: row.announcement.game if row.announcement else "?"),
    ("TAKEN", lambda row: str(len(row.announcement.seated)) if row.announcement else "?"),
    ("FREE", lambda row: (str(row.announcement.seats - len(row.announcement.seated))
                          if row.announcement else "?")),
    ("STATE", lambda row: row.announcement.state if row.announcement else "?"),
    ("HOST", lambda row: host_address(row.addresses)),
    ("FOUND", lambda row: "+".join(sorted(row.found))),
)


def host_address(urls: tuple[str, ...]) -> str:
    """The first URL's ``host:port`` (IPv6 in brackets), and how many more there are."""
    if not urls:
        return "?"
    try:
        url = BrokerUrl.parse(urls[0])
        first = f"[{url.host}]:{url.port}" if ":" in url.host else f"{url.host}:{url.port}"
    except BadBrokerUrl:
        first = urls[0]
    return first + (f" (+{len(urls) - 1})" if len(urls) > 1 else "")


def render(rows: list[TableRow]) -> str:
    """The rows as an aligned text table."""
    if not rows:
        return "no tables found"
    lines = [tuple(header for header, _cell in COLUMNS)]
    lines += [tuple(cell(row) for _header, cell in COLUMNS) for row in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
                     .rstrip() for line in lines)
