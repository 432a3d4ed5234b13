"""``--broker``: one broker URL, or several (a cluster's nodes), in every command.

``--broker mqtt://n1:1883,mqtt://n2:1883`` and ``--broker mqtt://n1:1883 --broker
mqtt://n2:1883`` mean the same: a seat connects to the first that answers and moves to
the next when it loses its broker (:mod:`lodam_p2p.transport.brokers`). The option's
value stays one string (the list joined by commas), so the table drivers, the journal
and the bots' command lines carry a list as they carry one URL. A bad URL is a one-line
usage error that names it, given when the command checks its arguments
(:func:`check_brokers`), as for one URL.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from lodam_p2p.cli import CliError
from lodam_p2p.transport.base import TransportError
from lodam_p2p.transport.brokers import join_brokers, parse_brokers, split_brokers
from lodam_p2p.transport.url import BadBrokerUrl

__all__ = ["BROKER_HELP", "BrokerList", "add_broker", "broker_urls", "check_brokers",
           "with_announced"]

#: The option's help, for commands that add it themselves.
BROKER_HELP = ("MQTT broker: mqtt://[user:pass@]host[:port] or mqtts://…; several "
               "(a cluster's nodes) separated by commas or by repeating the option: a "
               "seat uses the first that answers and moves to the next if it is lost")


class BrokerList(argparse.Action):
    """Joins every ``--broker`` given into one comma-separated list (checked later, by
    :func:`check_brokers`, so that a bad URL is the command's one-line error)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[object] | None, option_string: str | None = None,
                 ) -> None:
        text = values if isinstance(values, str) else ",".join(map(str, values or []))
        before = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{before},{text}" if before else text)


def add_broker(parser: argparse.ArgumentParser, help: str = BROKER_HELP) -> None:
    """Add ``--broker URL[,URL…]`` (repeatable) to ``parser``."""
    parser.add_argument("--broker", metavar="URL", action=BrokerList, help=help)


def check_brokers(text: str | None) -> str | None:
    """A broker list that parses, in its one-string form, or a one-line error."""
    if text is None:
        return None
    try:
        return join_brokers(parse_brokers(text))
    except BadBrokerUrl as err:
        raise CliError(str(err)) from None


def broker_urls(text: str) -> list[str]:
    """The URLs of a checked list, in order."""
    return split_brokers(text)


#: How long a joiner reads the lobby for the nodes its table announces, seconds.
ANNOUNCED_READ_S = 5.0


async def with_announced(broker: str, table: str | None) -> str:
    """``broker`` followed by every other node the announcement of ``table`` names
    (its ``brokers``: the host's cluster), so that a seat given one node of a cluster
    can move to the others. ``broker`` as it is if the table or its broker is not
    found (the join then says why) or the announcement names no other."""
    if table is None:
        return broker
    from lodam_p2p.transport.lobby import read_lobby  # noqa: PLC0415
    from lodam_p2p.transport.mqtt import MqttTransport  # noqa: PLC0415

    try:
        async with MqttTransport(broker, timeout=ANNOUNCED_READ_S) as transport:
            found = await read_lobby(transport, limit=ANNOUNCED_READ_S)
    except TransportError:
        return broker
    named = [a.brokers for a in found if a.table == table]
    if not named or not named[0]:
        return broker
    try:
        return join_brokers(parse_brokers([broker, *named[0]]))
    except BadBrokerUrl:
        return broker
