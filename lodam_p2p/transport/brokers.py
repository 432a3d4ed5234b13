"""Several brokers for one seat: a comma-separated list of broker URLs.

A venue that runs a broker cluster gives each seat every node it may use:
``--broker mqtt://n1:1883,mqtt://n2:1883`` (the option may also be repeated). The seat
connects to the first that answers and, when it loses its broker, moves on to the next
one that answers (:class:`~lodam_p2p.transport.mqtt.MqttTransport`). A list travels as
one string through the command line, the journal and the table drivers; this module is
the one place that splits, checks and joins it.
"""

from __future__ import annotations

from collections.abc import Iterable

from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

__all__ = ["MAX_BROKERS", "join_brokers", "parse_brokers", "rotated", "split_brokers"]

#: The most URLs one list may hold (a cluster is a handful of nodes).
MAX_BROKERS = 16


def split_brokers(text: str) -> list[str]:
    """The URLs of a comma-separated list, blanks around each removed, empty ones left out."""
    return [part.strip() for part in text.split(",") if part.strip()]


def parse_brokers(text: str | Iterable[str]) -> tuple[BrokerUrl, ...]:
    """Parse one list (``"mqtt://a,mqtt://b"``) or several (each possibly a list); raise
    :class:`~lodam_p2p.transport.url.BadBrokerUrl` with a one-line reason for a bad URL,
    an empty list or one too long. A URL given twice counts once, where it came first."""
    texts = [text] if isinstance(text, str) else list(text)
    urls: list[BrokerUrl] = []
    for whole in texts:
        for part in split_brokers(whole):
            url = BrokerUrl.parse(part)
            if url not in urls:
                urls.append(url)
    if not urls:
        raise BadBrokerUrl("no broker URL given")
    if len(urls) > MAX_BROKERS:
        raise BadBrokerUrl(f"more than {MAX_BROKERS} broker URLs")
    return tuple(urls)


def join_brokers(urls: Iterable[BrokerUrl | str]) -> str:
    """The one-string form of a list (what :func:`parse_brokers` reads back)."""
    return ",".join(str(url) for url in urls)


def rotated(text: str, turn: int) -> str:
    """The list ``text`` begun at its ``turn``-th node (modulo its length), the others
    after it in order: the list of the ``turn``-th seat when seats are spread round-robin
    over a cluster's nodes, each keeping every other node to move to."""
    urls = split_brokers(text)
    if len(urls) < 2:
        return text
    start = turn % len(urls)
    return ",".join(urls[start:] + urls[:start])
