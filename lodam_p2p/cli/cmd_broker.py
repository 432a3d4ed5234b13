"""``lodam broker``: run the embedded MQTT broker on its own until Ctrl-C.

Useful when the machine that hosts the broker is not one that plays, or to give a LAN
party one fixed broker: ``lodam broker --listen 0.0.0.0:1883`` and everyone passes
``--broker mqtt://<this machine>:1883``. Without ``--listen`` it stays on loopback.

``lodam host`` without ``--broker`` runs one too, as a process of its own that outlives
a crashed host (:mod:`lodam_p2p.transport.hostbroker`): ``--record`` tells it where to write its
pid and port, ``--idle-exit`` ends it once nobody has been connected for a while, and
``--drain`` lets the seats still connected when it is stopped say their last word.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
from pathlib import Path

from lodam_p2p.cli import CliError
from lodam_p2p.transport.broker import (
    LOOPBACK,
    MQTT_PORT,
    BrokerStartError,
    EmbeddedBroker,
    ListenAddress,
)

#: Exit status when the broker cannot start.
EXIT_BROKER = 1
#: How often the idle and drain waits look at the connected clients, in seconds.
POLL_S = 0.5


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
    parser.add_argument("--record", metavar="FILE", type=Path,
                        help="once listening, write the pid, port and URL here as JSON "
                             "(removed when the broker stops)")
    parser.add_argument("--idle-exit", metavar="S", type=_seconds,
                        help="stop once no client has been connected for S seconds")
    parser.add_argument("--drain", metavar="S", type=_seconds, default=0.0,
                        help="when told to stop, wait up to S seconds for the clients "
                             "still connected to leave (default 0)")
    parser.set_defaults(run=run)


def _listen_address(text: str) -> ListenAddress:
    try:
        return ListenAddress.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError("must be between 0 and 86400 seconds")
    return value


def run(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM; exit 0 then, 1 if the broker cannot start."""
    return asyncio.run(serve(args.listen, record=args.record, idle_s=args.idle_exit,
                             drain_s=args.drain))


async def serve(listen: ListenAddress, stop: asyncio.Event | None = None, *,
                record: Path | None = None, idle_s: float | None = None,
                drain_s: float = 0.0) -> int:
    """Run the broker until ``stop`` is set (or a signal sets it), or until nobody has
    been connected for ``idle_s`` seconds."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stop.set)
    try:
        async with EmbeddedBroker(listen) as broker:
            print(f"lodam broker: listening on {broker.listen.host}:{broker.port} "
                  f"(clients use {broker.url}); Ctrl-C stops it", flush=True)
            if broker.listen.host not in (LOOPBACK, "localhost", "::1"):
                print("lodam broker: reachable from the network; anyone may connect",
                      file=sys.stderr, flush=True)
                _tell_reachable(broker)
            if record is not None:
                _write_record(record, broker)
            try:
                await _serving(broker, stop, idle_s)
                await _drained(broker, drain_s)
            finally:
                if record is not None:
                    _remove_record(record)
    except BrokerStartError as err:
        raise CliError(str(err), EXIT_BROKER) from None
    print("lodam broker: stopped", flush=True)
    return 0


def _tell_reachable(broker: EmbeddedBroker) -> None:
    """Say where other machines reach the broker (this machine's LAN addresses)."""
    from lodam_p2p.transport.discovery import reachable_urls  # noqa: PLC0415 - zeroconf is slow

    urls = reachable_urls(broker.listen.host, broker.port)
    if urls:
        print(f"lodam broker: other machines use {', '.join(urls)}", flush=True)


async def _serving(broker: EmbeddedBroker, stop: asyncio.Event, idle_s: float | None) -> None:
    """Until ``stop`` is set, or no client was connected for ``idle_s`` seconds."""
    if idle_s is None:
        await stop.wait()
        return
    loop = asyncio.get_running_loop()
    idle_since = loop.time()
    while not stop.is_set():
        # asyncio.timeout, not wait_for: 3.11's wait_for drops a cancel that comes as
        # ``stop`` is set, and a cancelled broker would go on to drain its clients
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(POLL_S):
                await stop.wait()
        if broker.clients():
            idle_since = loop.time()
        elif loop.time() - idle_since >= idle_s:
            print(f"lodam broker: nobody connected for {idle_s:g} s", flush=True)
            return


async def _drained(broker: EmbeddedBroker, drain_s: float) -> None:
    """Wait up to ``drain_s`` seconds for the connected clients to leave."""
    loop = asyncio.get_running_loop()
    until = loop.time() + drain_s
    while broker.clients() and loop.time() < until:
        await asyncio.sleep(POLL_S)


def _write_record(path: Path, broker: EmbeddedBroker) -> None:
    """Where this broker is, written whole (a reader never sees half of it)."""
    text = json.dumps({"pid": os.getpid(), "port": broker.port, "url": broker.url})
    part = path.with_name(path.name + ".part")
    part.write_text(text)
    os.replace(part, path)


def _remove_record(path: Path) -> None:
    """Remove the record if it is still this process's own."""
    with contextlib.suppress(OSError, ValueError):
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
