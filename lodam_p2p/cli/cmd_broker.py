"""``lodam broker``: run the embedded MQTT broker on its own until Ctrl-C.

Useful when the machine that hosts the broker is not one that plays, or to give a LAN
party one fixed broker: ``lodam broker --listen 0.0.0.0:1883`` and everyone passes
``--broker mqtt://<this machine>:1883``. Without ``--listen`` it stays on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys

from lodam_p2p.broker import LOOPBACK, MQTT_PORT, BrokerStartError, EmbeddedBroker, ListenAddress
from lodam_p2p.cli import CliError

#: Exit status when the broker cannot start.
EXIT_BROKER = 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam broker``."""
    parser = sub.add_parser(
        "broker", help="run the embedded MQTT broker until Ctrl-C", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--listen", metavar="HOST:PORT", type=_listen_address,
        default=ListenAddress(LOOPBACK, MQTT_PORT),
        help=f"address to listen on (default {LOOPBACK}:{MQTT_PORT}; 0.0.0.0 for the LAN; "
             "port 0 picks a free one)",
    )
    parser.set_defaults(run=run)


def _listen_address(text: str) -> ListenAddress:
    try:
        return ListenAddress.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM; exit 0 then, 1 if the broker cannot start."""
    return asyncio.run(serve(args.listen))


async def serve(listen: ListenAddress, stop: asyncio.Event | None = None) -> int:
    """Run the broker until ``stop`` is set (or a signal sets it)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stop.set)
    try:
        async with EmbeddedBroker(listen) as broker:
            print(f"lodam broker: listening on {broker.listen.host}:{broker.port} "
                  f"(clients use {broker.url}); Ctrl-C stops it", flush=True)
            if broker.listen.host not in (LOOPBACK, "localhost", "::1"):
                print("lodam broker: reachable from the network; anyone may connect",
                      file=sys.stderr, flush=True)
            await stop.wait()
    except BrokerStartError as err:
        raise CliError(str(err), EXIT_BROKER) from None
    print("lodam broker: stopped", flush=True)
    return 0
