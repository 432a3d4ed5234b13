"""Finding a table by name: DNS-SD on the LAN, then a broker address that answers.

``lodam join oak`` and ``lodam bot NAME --table oak`` without ``--broker`` look for the
table's advert (``_lodam._tcp``, :mod:`lodam_p2p.transport.discovery`) and take the first
of its announced broker addresses that accepts a connection, followed by every other
address and node the advert names: a seat at a table on a cluster gets the whole list,
and moves to the next node when it loses its own (:mod:`lodam_p2p.transport.mqtt`). A
table this machine hosts on loopback is not advertised; it is found on the local broker
(``mqtt://127.0.0.1:1883``) when that broker announces it. A table not found yet is
waited for, with one "waiting for table oak…" line (a person's terminal client shows it
on a waiting screen that Esc leaves), up to ``--wait`` seconds; then the seat stops with
a line that says what was looked for and where. ``--broker`` skips the search by name.

A seat given ``--broker URL`` waits the same way for the table's announcement on that
broker (:class:`BrokerWait`): a table whose host starts later, or whose broker does not
answer yet, is waited for up to ``--wait`` seconds, then the seat stops with a line
naming the table and the broker. A person's ``lodam join oak --broker URL`` waits on
the waiting screen; a bot's seat (``lodam bot NAME --table oak --broker URL``) says one
"waiting for table oak on URL…" line on stderr, and another only when the reason
changes (the broker refuses connections, then answers without the table).

Once announced, a table may still have no seat free (full, or playing a match), and a
bot given no table name waits for any open one: a bot's seat says that too in one line
(:class:`SeatWait`), again only when the reason changes, and stops after ``--wait``
seconds with a line naming the table, the broker and the reason.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field

import ifaddr

from lodam_p2p.transport.base import TransportError
from lodam_p2p.transport.brokers import MAX_BROKERS, join_brokers, parse_brokers
from lodam_p2p.transport.discovery import SERVICE_TYPE, TableAdvert, browse
from lodam_p2p.transport.lobby import read_lobby, split_label
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

#: Seconds a seat waits for a table not found yet (``--wait``).
DEFAULT_WAIT_S = 180.0
#: Seconds of one DNS-SD look (browsing stops early once the table is found).
LOOK_S = 3.0
#: Seconds to wait for one broker address to accept a connection.
PROBE_S = 3.0
#: Seconds to read the local broker's lobby.
LOCAL_READ_S = 2.0

#: ``browse(timeout, until=…)``: the adverts on the LAN (:func:`discovery.browse`).
Browse = Callable[..., Awaitable[list[TableAdvert]]]
#: Whether a broker URL answers.
Probe = Callable[[str], Awaitable[bool]]
#: Whether a broker URL announces a table (by name).
Announces = Callable[[str, str], Awaitable[bool]]
#: One look at a broker for a table (its label, the broker): the game its announcement
#: names, or None and why it is not there (:func:`look_announced`).
LookAnnounced = Callable[[str, str], Awaitable[tuple[str | None, str]]]
#: The reason of a table simply not announced (yet) on the broker looked at.
NOT_ANNOUNCED = "not announced there yet"
#: Seconds between two looks at a broker for a table not announced yet.
LOOK_AGAIN_S = 1.0


class TableNotFound(Exception):
    """No broker of the table answered within the wait; the message says where we looked."""


async def answers(url: str, timeout: float = PROBE_S) -> bool:
    """Whether the broker at ``url`` accepts a TCP connection within ``timeout`` s."""
    try:
        parsed = BrokerUrl.parse(url)
    except BadBrokerUrl:
        return False
    try:
        async with asyncio.timeout(timeout):
            _reader, writer = await asyncio.open_connection(parsed.host, parsed.port)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with suppress(OSError):
        await writer.wait_closed()
    return True


async def announces(url: str, table: str) -> bool:
    """Whether the broker at ``url`` answers and announces ``table``."""
    from lodam_p2p.transport.mqtt import MqttTransport  # noqa: PLC0415

    if not await answers(url):
        return False
    try:
        async with MqttTransport(url, timeout=LOCAL_READ_S) as transport:
            found = await read_lobby(transport, limit=LOCAL_READ_S)
    except TransportError:
        return False
    return any(a.table == table for a in found)


def matches(advert: TableAdvert, label: str) -> bool:
    """Whether ``advert`` is the table ``label`` (``oak``, or ``oak#7f3a``: that host)."""
    name, pin = split_label(label)
    return advert.table == name and (pin is None or advert.fingerprint.startswith(pin))


def interfaces_text() -> str:
    """This machine's interfaces with an IPv4 address, for a message: ``eth0 10.0.0.2``."""
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        return "all interfaces"
    named = [f"{a.nice_name} {ip.ip}" for a in adapters for ip in a.ips
             if isinstance(ip.ip, str)]
    return f"all interfaces ({', '.join(named)})" if named else "all interfaces (none up)"


@dataclass(slots=True)
class Finder:
    """Looks for one table until it is found or the wait is over (see the module)."""

    label: str
    wait_s: float = DEFAULT_WAIT_S
    local: str | None = None
    browse: Browse = browse
    probe: Probe = answers
    announces: Announces = announces
    say: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr,
                                                                  flush=True))
    pause: Callable[[float], Awaitable[None]] = asyncio.sleep
    clock: Callable[[], float] | None = None
    tried: list[str] = field(default_factory=list)

    async def find(self) -> str:
        """The table's brokers, a comma-separated list that begins with one that
        answers; :class:`TableNotFound` after ``wait_s`` seconds of looking."""
        clock = self.clock or asyncio.get_running_loop().time
        deadline, told = clock() + self.wait_s, False
        while True:
            url = await self._look(max(0.1, min(LOOK_S, deadline - clock())))
            if url is not None:
                return url
            if clock() >= deadline:
                raise TableNotFound(self.why())
            if not told:
                self.say(f"lodam: waiting for table {self.label}… (DNS-SD on "
                         f"{interfaces_text()}; up to {self.wait_s:g} s, --wait to change)")
                told = True
            await self.pause(min(LOOK_S, max(0.0, deadline - clock())))

    async def _look(self, seconds: float) -> str | None:
        """One round: the adverts of the table, each announced address in order (the
        first that answers, then the advert's others), then the local broker."""
        found = await self.browse(seconds, until=lambda a: matches(a, self.label))
        for advert in found:
            if not matches(advert, self.label):
                continue
            for url in advert.brokers:
                if await self.probe(url):
                    return join_brokers(parse_brokers([url, *advert.brokers][:MAX_BROKERS]))
                if url not in self.tried:
                    self.tried.append(url)
        name = split_label(self.label)[0]
        if self.local is not None and await self.announces(self.local, name):
            return self.local
        return None

    def why(self) -> str:
        """The failure line: what was looked for, and where."""
        name = split_label(self.label)[0]
        where = [f"DNS-SD ({SERVICE_TYPE} table={name}) on {interfaces_text()}"]
        if self.local is not None:
            where.append(f"the broker on this machine, {self.local}")
        line = (f"no table {self.label} found in {self.wait_s:g} s: looked by "
                f"{' and '.join(where)}")
        if self.tried:
            line += f"; its announced brokers did not answer: {', '.join(self.tried)}"
        return (line + "; if multicast is blocked on this network, give the host's broker: "
                "--broker mqtt://HOST:1883")


async def look_announced(label: str, broker: str) -> tuple[str | None, str]:
    """One read of ``broker``'s lobby for the table ``label``: the game it plays, or
    None and why not (:data:`NOT_ANNOUNCED`, a broker that does not answer, …)."""
    # the session and the MQTT client load only when a table is looked for
    from lodam_p2p.session.effects import SessionError  # noqa: PLC0415
    from lodam_p2p.session.table import find_announcement, mqtt_connector  # noqa: PLC0415

    try:
        found = await find_announcement(mqtt_connector(broker), label, patience_s=0.0)
    except SessionError as err:
        why = str(err)
        return None, NOT_ANNOUNCED if why.startswith("no table ") else why
    except TransportError as err:
        return None, str(err)
    return found.game, ""


@dataclass(slots=True)
class BrokerWait:
    """Waits for the table ``label`` to be announced on ``broker`` (``--broker``), up to
    ``wait_s`` seconds: one line said at first and again whenever the reason changes,
    :class:`TableNotFound` naming the table and the broker at the end."""

    label: str
    broker: str
    wait_s: float = DEFAULT_WAIT_S
    look: LookAnnounced | None = None  # None: :func:`look_announced`
    say: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr,
                                                                  flush=True))
    pause: Callable[[float], Awaitable[None]] = asyncio.sleep
    clock: Callable[[], float] | None = None
    why: str = ""  #: why the table was not there at the last look

    async def game(self) -> str:
        """The game the table's announcement names, once it is there."""
        clock = self.clock or asyncio.get_running_loop().time
        look, deadline = self.look or look_announced, clock() + self.wait_s
        while True:
            game, why = await look(self.label, self.broker)
            if game is not None:
                return game
            changed, self.why = why != self.why, why
            if clock() >= deadline:
                raise TableNotFound(self.gave_up())
            if changed:
                self.say(self.waiting())
            await self.pause(min(LOOK_AGAIN_S, max(0.0, deadline - clock())))

    def waiting(self) -> str:
        """The waiting line: what is looked for, where, why not yet, for how long."""
        return (f"lodam: waiting for table {self.label} on {self.broker}… ({self.why}; "
                f"up to {self.wait_s:g} s, --wait to change)")

    def gave_up(self) -> str:
        """The failure line: the table, the broker, the last reason."""
        line = f"no table {self.label} on {self.broker} in {self.wait_s:g} s of waiting"
        if self.why and self.why != NOT_ANNOUNCED:
            line += f" ({self.why})"
        return line + (f"; the tables it announces: lodam tables --broker {self.broker} "
                       "--no-lan")


@dataclass(slots=True)
class SeatWait:
    """A bot's seat waiting on ``broker`` for a seat at the table ``label`` announced
    but full or playing a match, or (``label`` None) for any open table, up to
    ``wait_s`` seconds (``--wait``): :meth:`waiting` is told each new reason and says
    one line; :meth:`gave_up` is the failure line, naming the table, the broker and
    the reason."""

    label: str | None
    broker: str
    wait_s: float = DEFAULT_WAIT_S
    say: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr,
                                                                  flush=True))

    def waiting(self, why: str) -> None:
        """Say why the seat waits (the session's reason), what for, and how long."""
        where, named = self._where(why)
        what = "a seat" if self.label is not None else "one to open"
        on = "" if named else f"on {self.broker}; "
        self.say(f"lodam: {where}: waiting for {what}… ({on}up to {self.wait_s:g} s, "
                 "--wait to change)")

    def gave_up(self, why: str) -> str:
        """The failure line once the wait is over; ``why`` is the last reason."""
        where, named = self._where(why)
        line = where if named else f"{where} on {self.broker}"
        return (f"{line} after {self.wait_s:g} s of waiting; the tables it announces: "
                f"lodam tables --broker {self.broker} --no-lan")

    def _where(self, why: str) -> tuple[str, bool]:
        """``why`` with "this broker" named, and whether it was."""
        named = why.replace("on this broker", f"on {self.broker}")
        return named, named != why


def find_broker(label: str, wait_s: float, local: str | None) -> str:
    """:meth:`Finder.find` run to its end (outside an event loop): the table's brokers,
    the first one answering."""
    return asyncio.run(Finder(label, wait_s, local).find())


def wait_on_broker(label: str, broker: str, wait_s: float) -> str:
    """:meth:`BrokerWait.game` run to its end (outside an event loop), its lines on
    stderr: the game the announcement of the table ``label`` on ``broker`` names."""
    return asyncio.run(BrokerWait(label, broker, wait_s).game())


def wait_seconds(text: str) -> float:
    """``--wait SECONDS``: 0 to a day."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"--wait takes 0 to 86400 seconds, not {text!r}")
    return value


def add_wait(parser: argparse.ArgumentParser) -> None:
    """``--wait SECONDS`` on a seat's command."""
    parser.add_argument(
        "--wait", type=wait_seconds, default=DEFAULT_WAIT_S, metavar="SECONDS",
        help=f"how long to wait for the table before giving up: without --broker, "
             f"looking by DNS-SD (and on this machine's broker); with --broker, for its "
             f"announcement there; then, a bot, for a seat free at it (default "
             f"{DEFAULT_WAIT_S:g} each)")
