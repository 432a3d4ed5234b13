"""LAN discovery: hosted tables advertised and found by DNS-SD (zeroconf).

A host advertises each table as an instance of the service ``_lodam._tcp`` named after
the table. The SRV record points at the broker's port on the host's address, and the
TXT record carries three keys (DESIGN section 2), and one more per other broker::

    v=3                              protocol version
    table=oak                        the table name (instance names may get a " (2)")
    broker=mqtt://192.168.1.5:1883   the broker to join through (no credentials)
    broker2=mqtt://192.168.1.6:1883  the second broker of a cluster's list, broker3 the
                                     third, … (:attr:`TableAdvert.nodes`)

``broker`` lets a host advertise a broker on another machine (a venue's broker, or a
cluster's nodes, :func:`table_advertiser`); without it the finder falls back to the SRV
address and port. The A and AAAA records carry the IP addresses of the advertised
brokers (for a host's own broker, every LAN address of the host, :func:`lan_addresses`,
read from the network interfaces). A finder tries every broker of
:attr:`TableAdvert.brokers` in order, and a seat keeps them all to move to: the TXT
record's brokers, then, for an advert of one broker, the same broker at the host's
other A and AAAA addresses. Browsing waits ``timeout`` seconds for answers, then
resolves each instance found; one looking for a given table stops when it is found.
A manual ``--broker`` always works without any of this: multicast is often blocked on
guest Wi-Fi.

The TXT record is signed by the host's identity key (Ed25519), in two more keys::

    key=<64 hex>                     the host's raw public key
    sig=<128 hex>                    its signature of ADVERT_DOMAIN followed by the JSON
                                     object {"broker", "key", "table", "v"} (sorted keys,
                                     no spaces, UTF-8; v a number), with "nodes" too
                                     (the list broker2, broker3, …) when there are any

An advert without them, or whose signature does not check, is not a table: anyone on
the LAN can advertise, but only under their own key, shown as the table's fingerprint
(``oak#7f3a``, :mod:`lodam_p2p.transport.lobby`).
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from types import TracebackType

import ifaddr
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from lodam_p2p.transport.broker import ListenAddress
from lodam_p2p.transport.topics import PROTOCOL_VERSION, check_name, is_valid_name
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

#: What an advert's signature covers first (then the signed JSON).
ADVERT_DOMAIN = b"lodam/v3/advert\x00"
#: Hex digits of the fingerprint shown after a table's name (as in the lobby).
SHORT_PRINT = 4
#: The DNS-SD service type of a hosted table.
SERVICE_TYPE = "_lodam._tcp.local."
#: The most brokers one advert carries besides its first (a cluster is a handful of nodes).
MAX_NODES = 15
#: Interfaces to use: a list of IPv4 addresses, or every interface.
Interfaces = list[str] | InterfaceChoice
#: Every network interface (the default).
ALL_INTERFACES: Interfaces = InterfaceChoice.All


class BadAdvert(ValueError):
    """A DNS-SD record that does not describe a table."""


@dataclass(frozen=True, slots=True)
class TableAdvert:
    """A table as advertised on the LAN: its name, broker, and protocol version."""

    table: str
    broker: str
    version: int = PROTOCOL_VERSION
    #: the same broker at the host's other addresses (from the A and AAAA records)
    also: tuple[str, ...] = ()
    #: the host's other brokers, signed (a cluster's other nodes, the host's other
    #: LAN addresses): the TXT record's ``broker2``, ``broker3``, …
    nodes: tuple[str, ...] = ()
    #: the host's raw Ed25519 public key (empty: not signed)
    key: bytes = b""
    #: the host's signature of :meth:`signed_bytes` (empty: not signed)
    signature: bytes = b""

    def __post_init__(self) -> None:
        check_name(self.table, "table")
        for url in (self.broker, *self.nodes, *self.also):
            BrokerUrl.parse(url)
        if len(self.nodes) > MAX_NODES:
            raise BadBrokerUrl(f"more than {MAX_NODES} brokers in one advert")

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the host's key, hex (empty for an unsigned advert)."""
        return hashlib.sha256(self.key).hexdigest() if self.key else ""

    @property
    def label(self) -> str:
        """The table as shown and joined: ``oak#7f3a``."""
        return f"{self.table}#{self.fingerprint[:SHORT_PRINT]}" if self.key else self.table

    def signed_bytes(self) -> bytes:
        """What the signature covers (see the module docstring)."""
        broker = str(BrokerUrl.parse(self.broker).without_login())
        body: dict[str, object] = {"v": self.version, "table": self.table,
                                   "broker": broker, "key": self.key.hex()}
        if self.nodes:
            body["nodes"] = [_public(url) for url in self.nodes]
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return ADVERT_DOMAIN + text.encode()

    def signed(self, identity: Ed25519PrivateKey) -> TableAdvert:
        """This advert signed by ``identity``, the host's key."""
        unsigned = replace(self, key=identity.public_key().public_bytes_raw(), signature=b"")
        return replace(unsigned, signature=identity.sign(unsigned.signed_bytes()))

    @property
    def brokers(self) -> tuple[str, ...]:
        """Every URL the table's brokers may answer at: the TXT record's ``broker``,
        its other brokers in order, then the first one's other addresses; each once."""
        return tuple(dict.fromkeys((self.broker, *self.nodes, *self.also)))

    def txt(self) -> dict[str, str]:
        """The TXT record's keys and values."""
        keys = {"v": str(self.version), "table": self.table, "broker": _public(self.broker),
                "key": self.key.hex(), "sig": self.signature.hex()}
        keys.update((f"broker{place}", _public(url))
                    for place, url in enumerate(self.nodes, start=2))
        return keys

    @classmethod
    def from_txt(cls, txt: dict[bytes, bytes | None], fallback_broker: str | None = None
                 ) -> TableAdvert:
        """Decode a TXT record; ``fallback_broker`` (from SRV) serves if ``broker`` is absent."""
        try:
            fields = {k.decode(): (v or b"").decode() for k, v in txt.items()}
        except UnicodeDecodeError:
            raise BadAdvert("advert TXT record is not UTF-8") from None
        table, broker = fields.get("table", ""), fields.get("broker") or fallback_broker
        if not is_valid_name(table):
            raise BadAdvert(f"advert names no valid table: {table!r}")
        if not fields.get("v", "").isdigit():
            raise BadAdvert(f"advert of {table!r} has no protocol version")
        if broker is None:
            raise BadAdvert(f"advert of {table!r} names no broker")
        try:
            url = BrokerUrl.parse(broker)
        except BadBrokerUrl as err:
            raise BadAdvert(f"advert of {table!r}: {err}") from None
        try:
            nodes = _nodes(fields)
        except BadBrokerUrl as err:
            raise BadAdvert(f"advert of {table!r}: {err}") from None
        advert = cls(table, str(url.without_login()), int(fields["v"]), nodes=nodes,
                     key=_hex(fields.get("key", ""), 32), signature=_hex(fields.get("sig", ""), 64))
        try:
            Ed25519PublicKey.from_public_bytes(advert.key).verify(advert.signature,
                                                                  advert.signed_bytes())
        except (InvalidSignature, ValueError):
            raise BadAdvert(f"advert of {table!r} is not signed by its key") from None
        return advert


def _public(url: str) -> str:
    """``url`` without its login: what an advert may show."""
    return str(BrokerUrl.parse(url).without_login())


def _nodes(fields: dict[str, str]) -> tuple[str, ...]:
    """The TXT record's ``broker2``, ``broker3``, … in order (up to the first missing)."""
    nodes: list[str] = []
    for place in range(2, MAX_NODES + 2):
        url = fields.get(f"broker{place}")
        if not url:
            break
        nodes.append(_public(url))
    return tuple(nodes)


def _hex(text: str, size: int) -> bytes:
    """``size`` bytes from hex ``text`` (b"" when it is not that)."""
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        return b""
    return raw if len(raw) == size else b""


#: Hosts that mean "every address" to a listening socket.
WILDCARDS = ("0.0.0.0", "::", "")


def lan_addresses(adapters: Iterable[ifaddr.Adapter] | None = None, *,
                  ipv6: bool = True) -> list[str]:
    """This machine's addresses that another machine could reach, read from its network
    interfaces (``adapters``: :func:`ifaddr.get_adapters` unless given).

    Loopback, unspecified and multicast addresses are left out, and so are IPv6
    link-local ones (``fe80::/10``: a URL cannot name them without the zone of the
    interface). IPv4 comes first, in the order of the interfaces, then IPv6 (``ipv6``:
    whether to list it at all); IPv4 link-local (``169.254/16``, a LAN without DHCP)
    comes after the other IPv4 addresses. Best effort: an interface that cannot be read
    gives nothing.
    """
    if adapters is None:
        try:
            adapters = ifaddr.get_adapters()
        except OSError:
            return []
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for adapter in adapters:
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                address = ipaddress.ip_address(text.split("%", 1)[0])
            except ValueError:
                continue
            if _reachable(address, ipv6) and address not in found:
                found.append(address)
    found.sort(key=lambda a: (a.version, a.is_link_local))  # stable: interface order
    return [str(address) for address in found]


def _reachable(address: ipaddress.IPv4Address | ipaddress.IPv6Address, ipv6: bool) -> bool:
    if address.is_loopback or address.is_unspecified or address.is_multicast:
        return False
    if address.version == 6:
        return ipv6 and not address.is_link_local
    return True


def reachable_urls(host: str, port: int,
                   adapters: Iterable[ifaddr.Adapter] | None = None) -> list[str]:
    """The ``mqtt://`` URLs at which other machines reach a broker listening on
    ``host``:``port``: every LAN address for a wildcard (``0.0.0.0`` is IPv4 only),
    ``host`` itself for another address, none for loopback."""
    if host in WILDCARDS:
        addresses = lan_addresses(adapters, ipv6=host != "0.0.0.0")
    elif host == "localhost" or _is_loopback(host):
        addresses = []
    else:
        addresses = [host]
    return [broker_url(address, port) for address in addresses]


def announced_brokers(url: str, listen: str | None,
                      adapters: Iterable[ifaddr.Adapter] | None = None) -> tuple[str, ...]:
    """Where a host tells other machines to reach the table's broker, at ``url`` for
    the host itself: with ``listen`` (the host's own broker), the URLs of
    :func:`reachable_urls`; without, ``url`` (no login) unless it is on loopback.
    ``url`` may list a cluster's nodes (comma separated): each is announced that is not
    on loopback; if all are (a cluster on this one machine), all of them are."""
    if "," in url and listen is None:
        return _announced_cluster(url)
    try:
        parsed = BrokerUrl.parse(url)
    except BadBrokerUrl:
        return ()
    if listen is not None:
        try:
            where = ListenAddress.parse(listen)
        except ValueError:
            return ()
        return tuple(reachable_urls(where.host, parsed.port, adapters))
    if parsed.host == "localhost" or _is_loopback(parsed.host):
        return ()
    return (str(parsed.without_login()),)


def _announced_cluster(urls: str) -> tuple[str, ...]:
    """The nodes of a cluster to announce (see :func:`announced_brokers`)."""
    from lodam_p2p.transport.brokers import parse_brokers  # noqa: PLC0415

    try:
        nodes = [url.without_login() for url in parse_brokers(urls)]
    except BadBrokerUrl:
        return ()
    remote = [url for url in nodes if url.host != "localhost" and not _is_loopback(url.host)]
    return tuple(str(url) for url in (remote or nodes))


def lan_brokers(urls: Iterable[str]) -> tuple[str, ...]:
    """The brokers among ``urls`` that another machine may reach: those not on loopback."""
    return tuple(url for url in urls if not _on_loopback(url))


def table_advertiser(table: str, brokers: Iterable[str], identity: Ed25519PrivateKey,
                     interfaces: Interfaces = InterfaceChoice.All) -> Advertiser | None:
    """The DNS-SD advert of a hosted ``table`` whose announced brokers are ``brokers``
    (:func:`announced_brokers`): every one another machine may reach (the host's own
    broker at its LAN addresses, a venue's broker, a cluster's nodes), the first as
    ``broker`` and the others as :attr:`TableAdvert.nodes`, signed by the host's
    ``identity``; its A records are their IP addresses (this machine's LAN addresses
    when a broker is named by host name). None when no broker is reachable from
    another machine: a table on loopback is not advertised."""
    reachable = lan_brokers(brokers)[:MAX_NODES + 1]
    if not reachable:
        return None
    advert = TableAdvert(table, reachable[0], nodes=reachable[1:]).signed(identity)
    return Advertiser(advert, hosts_of(reachable) or None, interfaces)


def _on_loopback(url: str) -> bool:
    """Whether the broker ``url`` is on this machine's loopback (or is no URL at all)."""
    try:
        host = BrokerUrl.parse(url).host
    except BadBrokerUrl:
        return True
    return host == "localhost" or _is_loopback(host)


def hosts_of(urls: Iterable[str]) -> list[str]:
    """The IP addresses among the hosts of ``urls`` (for A and AAAA records)."""
    return _literals([BrokerUrl.parse(url).host for url in urls], fallback=False)


def broker_url(host: str, port: int) -> str:
    """``mqtt://host:port``, with an IPv6 address in brackets."""
    return f"mqtt://[{host}]:{port}" if ":" in host else f"mqtt://{host}:{port}"


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Advertiser:
    """Advertise one table while the context is open: ``async with Advertiser(advert, …)``.

    ``addresses`` are the A and AAAA records (default: the broker URL's host if it is
    an IP address, else this machine's LAN addresses); ``port`` the SRV port (the
    broker's). ``interfaces`` limits the network interfaces used (default: all).
    """

    def __init__(self, advert: TableAdvert, addresses: list[str] | None = None,
                 interfaces: Interfaces = InterfaceChoice.All) -> None:
        url = BrokerUrl.parse(advert.broker)
        self.advert = advert
        self._addresses = addresses if addresses is not None else _literals([url.host])
        self._port = url.port
        self._interfaces = interfaces
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    async def start(self) -> None:
        """Register the service (probing takes about a second)."""
        zc = AsyncZeroconf(interfaces=self._interfaces, ip_version=IPVersion.V4Only)
        info = AsyncServiceInfo(
            SERVICE_TYPE, f"{self.advert.table}.{SERVICE_TYPE}",
            parsed_addresses=self._addresses, port=self._port,
            properties=self.advert.txt(), server=f"{socket.gethostname()}-lodam.local.",
        )
        await zc.async_register_service(info, allow_name_change=True)
        self._zc, self._info = zc, info

    async def stop(self) -> None:
        """Withdraw the service; idempotent."""
        zc, info, self._zc, self._info = self._zc, self._info, None, None
        if zc is not None:
            if info is not None:
                await zc.async_unregister_service(info)
            await zc.async_close()

    async def __aenter__(self) -> Advertiser:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.stop()


async def browse(timeout: float = 2.0, interfaces: Interfaces = InterfaceChoice.All, *,
                 until: Callable[[TableAdvert], bool] | None = None) -> list[TableAdvert]:
    """The tables advertised on the LAN, found within ``timeout`` seconds, by name.

    Without ``until``, browsing lasts ``timeout`` seconds: nothing else tells when every
    table on a LAN has answered. With ``until``, it stops as soon as a table it accepts
    has been found and resolved (then ``timeout`` is only an upper bound), returning what
    was found so far. Records that do not describe a table are skipped.
    """
    loop = asyncio.get_running_loop()
    names: set[str] = set()
    news = asyncio.Event()

    def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        if state_change is not ServiceStateChange.Removed:
            names.add(name)
            loop.call_soon_threadsafe(news.set)

    adverts: dict[str, TableAdvert] = {}
    resolved: set[str] = set()

    async def resolve_new() -> bool:
        """Resolve the names not resolved yet; whether one of them satisfies ``until``."""
        fresh = sorted(names - resolved)
        resolved.update(fresh)
        found = [a for a in await asyncio.gather(*(_resolve(zc, n) for n in fresh)) if a]
        adverts.update((advert.table, advert) for advert in found)
        return until is not None and any(until(advert) for advert in found)

    zc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    try:
        browser = AsyncServiceBrowser(zc.zeroconf, [SERVICE_TYPE], handlers=[on_change])
        deadline = loop.time() + timeout
        if until is None:
            await asyncio.sleep(timeout)
        else:
            while await _news_before(news, deadline) and not await resolve_new():
                pass
        await browser.async_cancel()
        if until is None:
            await resolve_new()
    finally:
        await zc.async_close()
    return [adverts[table] for table in sorted(adverts)]


async def _news_before(news: asyncio.Event, deadline: float) -> bool:
    """Wait for ``news`` until the loop time ``deadline``; clear it and say if it came."""
    try:
        async with asyncio.timeout_at(deadline):
            await news.wait()
    except TimeoutError:
        return False
    news.clear()
    return True


async def _resolve(zc: AsyncZeroconf, name: str) -> TableAdvert | None:
    """Ask for one instance's records; None if they do not come or do not fit."""
    info = AsyncServiceInfo(SERVICE_TYPE, name)
    if not await info.async_request(zc.zeroconf, 1000):
        return None
    addresses = info.parsed_addresses(IPVersion.All)
    port = info.port
    fallback = broker_url(addresses[0], port) if addresses and port else None
    try:
        advert = TableAdvert.from_txt(dict(info.properties), fallback)
    except BadAdvert:
        return None
    return with_addresses(advert, addresses)


def with_addresses(advert: TableAdvert, addresses: list[str]) -> TableAdvert:
    """``advert`` with the broker at the host's other ``addresses`` too, when its broker
    is at one of them (a broker on another machine has no other address here) and the
    advert lists no other broker itself (its :attr:`~TableAdvert.nodes`: then the host
    said where its brokers are, and the A records hold a cluster's nodes' hosts)."""
    url = BrokerUrl.parse(advert.broker)
    if url.host not in addresses or advert.nodes:
        return advert
    also = tuple(str(replace(url, host=a)) for a in addresses
                 if a != url.host and _usable(a))
    return replace(advert, also=also)


def _usable(address: str) -> bool:
    """Whether another machine can reach ``address`` by URL (as :func:`lan_addresses`)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return _reachable(ip, ipv6=True) and "%" not in address


def _literals(hosts: list[str], fallback: bool = True) -> list[str]:
    """The IP literals among ``hosts``, else (``fallback``) this machine's LAN
    addresses, else loopback."""
    literal = []
    for host in hosts:
        try:
            literal.append(str(ipaddress.ip_address(host)))
        except ValueError:
            continue
    if literal or not fallback:
        return literal
    return lan_addresses() or ["127.0.0.1"]
