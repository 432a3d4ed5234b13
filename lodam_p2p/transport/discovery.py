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
(``oak#7f3a``, :mod:`lodam_p2p.transport.lobby`). The record itself, read and written
and its signature checked, is :class:`~lodam_p2p.transport.advert.TableAdvert`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import replace
from types import TracebackType

import ifaddr
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from lodam_p2p.transport.advert import (
    ADVERT_DOMAIN,
    MAX_NODES,
    SHORT_PRINT,
    BadAdvert,
    TableAdvert,
)
from lodam_p2p.transport.broker import ListenAddress
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

__all__ = [
    "ADVERT_DOMAIN", "ALL_INTERFACES", "MAX_NODES", "SERVICE_TYPE", "SHORT_PRINT", "WILDCARDS",
    "Advertiser", "BadAdvert", "Interfaces", "TableAdvert", "announced_brokers", "broker_url",
    "browse", "hosts_of", "lan_addresses", "lan_brokers", "reachable_urls", "table_advertiser",
    "with_addresses",
]

#: The DNS-SD service type of a hosted table.
SERVICE_TYPE = "_lodam._tcp.local."
#: Interfaces to use: a list of IPv4 addresses, or every interface.
Interfaces = list[str] | InterfaceChoice
#: Every network interface (the default).
ALL_INTERFACES: Interfaces = InterfaceChoice.All

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
