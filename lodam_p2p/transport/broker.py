"""The embedded MQTT broker: amqtt, wrapped, for solo play and for hosting on a LAN.

``EmbeddedBroker`` starts an amqtt broker in the running event loop as an async context
manager. It listens on 127.0.0.1 unless told otherwise — a LAN address only when
someone hosts for others — and on an ephemeral port when given port 0 (the bound port
is then in :attr:`EmbeddedBroker.port`).

Its plugin list is explicit (:data:`PLUGINS`): anonymous login only. That leaves out
amqtt's defaults of a ``$SYS`` publisher (a topic tree republished every few seconds)
and two loggers of every event and packet, so the broker starts in milliseconds and
says nothing; its own loggers are turned down to warnings as well.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from amqtt.errors import BrokerError

if TYPE_CHECKING:
    from amqtt.broker import Broker

#: The broker's plugins, in full: anyone on the listener may connect.
PLUGINS: dict[str, dict[str, Any]] = {
    "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True},
}
#: Where a solo game's broker listens.
LOOPBACK = "127.0.0.1"
#: The standard MQTT port, used by ``lodam broker`` when none is given.
MQTT_PORT = 1883


class BrokerStartError(Exception):
    """The embedded broker could not start (address in use, bad address …)."""


@dataclass(frozen=True, slots=True)
class ListenAddress:
    """Where the broker listens: ``HOST:PORT`` (port 0: any free port)."""

    host: str = LOOPBACK
    port: int = 0

    @classmethod
    def parse(cls, text: str, default_port: int = MQTT_PORT) -> ListenAddress:
        """Parse ``HOST``, ``HOST:PORT``, ``:PORT`` or ``[V6]:PORT``; raise ``ValueError``."""
        host, sep, port_text = text.strip().rpartition(":")
        if not sep or (host.count(":") and not host.startswith("[")):
            host, port_text = text.strip(), ""  # no port, or a bare IPv6 address
        host = host.removeprefix("[").removesuffix("]") or LOOPBACK
        try:
            port = int(port_text) if port_text else default_port
        except ValueError:
            raise ValueError(f"bad listen address {text!r}: port is not a number") from None
        if not 0 <= port <= 65535:
            raise ValueError(f"bad listen address {text!r}: port out of range")
        return cls(host, port)

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


class EmbeddedBroker:
    """An in-process amqtt broker: ``async with EmbeddedBroker() as broker: broker.url``."""

    def __init__(self, listen: ListenAddress | None = None) -> None:
        self.listen = listen or ListenAddress()
        self._broker: Broker | None = None
        self.port = self.listen.port

    @property
    def url(self) -> str:
        """The ``mqtt://`` URL clients use (loopback if listening on every address)."""
        host = self.listen.host
        if host in ("0.0.0.0", "::", ""):
            host = LOOPBACK
        host = f"[{host}]" if ":" in host else host
        return f"mqtt://{host}:{self.port}"

    async def start(self) -> None:
        """Bind and start serving; raise :class:`BrokerStartError` if that fails."""
        # imported here: half a second of start-up that a peer using another broker
        # (every ``lodam bot`` and ``join``) never needs
        from amqtt.broker import Broker  # noqa: PLC0415 -- start-up time

        _quiet_amqtt()
        config = {
            "listeners": {"default": {"type": "tcp", "bind": str(self.listen)}},
            "plugins": PLUGINS,
        }
        broker = Broker(config)
        broker._subscriptions = _Subscriptions()
        try:
            await broker.start()
        except (BrokerError, OSError) as err:
            cause = err.__cause__ or err
            reason = cause.strerror if isinstance(cause, OSError) and cause.strerror else cause
            raise BrokerStartError(f"cannot listen on {self.listen}: {reason}") from None
        self._broker = broker
        self.port = _bound_port(broker)

    def clients(self) -> int:
        """How many clients are connected now (0 before the start)."""
        if self._broker is None:
            return 0
        sessions = self._broker._sessions.values()
        return sum(1 for session, _handler in sessions if session.transitions.is_connected())

    async def stop(self) -> None:
        """Close every connection and the listener; idempotent."""
        broker, self._broker = self._broker, None
        if broker is not None:
            await broker.shutdown()

    async def __aenter__(self) -> EmbeddedBroker:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


class _Subscriptions(dict[str, list[Any]]):
    """amqtt's table of topic filters and their subscribers, iterated over a copy.

    amqtt (0.12) awaits inside two loops over this table: a connecting client is sent
    the retained messages that match each filter, and a broadcast asks the plugins about
    each subscriber. A filter that another client subscribes to meanwhile changes the
    table's size, and the loop raises. At a connect that leaves the new client connected
    with no message loop: its subscriptions are never answered and it never hears a
    message, so a bot that joined at that moment waited for a table it never saw. A
    broadcast lost the rest of its subscribers. Iterated over a copy, each loop sees the
    table as it stood when the loop began; a filter added since is served from then on.
    """

    def __iter__(self) -> Iterator[str]:
        return iter(list(dict.keys(self)))

    def keys(self) -> list[str]:  # type: ignore[override]
        return list(dict.keys(self))

    def values(self) -> list[list[Any]]:  # type: ignore[override]
        return list(dict.values(self))

    def items(self) -> list[tuple[str, list[Any]]]:  # type: ignore[override]
        return list(dict.items(self))


def _bound_port(broker: Broker) -> int:
    """The port the default listener actually bound (amqtt keeps its servers private)."""
    server = broker._servers["default"].instance
    sockets: list[socket.socket] = list(getattr(server, "sockets", ()))
    return int(sockets[0].getsockname()[1])


def _quiet_amqtt() -> None:
    """amqtt logs every connection at INFO; a game wants warnings only.

    The null handler keeps Python's last-resort handler from printing amqtt's own
    tracebacks (a failed bind, say) on stderr when the application configured no
    logging: we report those failures ourselves, in one line.
    """
    for name in ("amqtt", "transitions"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.WARNING)
        if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
            logger.addHandler(logging.NullHandler())


@contextlib.contextmanager
def private_mosquitto() -> Iterator[str | None]:
    """A Mosquitto of our own on an ephemeral loopback port, for benchmarks.

    Yields its ``mqtt://`` URL, or None when the ``mosquitto`` binary is not installed
    or does not come up. Nagle's algorithm is off (``set_tcp_nodelay``): the session's
    messages are small and latency-bound.

    The broker runs in a process group of its own, so a terminal's Ctrl-C reaches the
    command and not its broker: the command stops its players first and the broker
    last, and no player reports a broker that vanished under it. On Linux it is also
    told to end with this process, so that it outlives no command killed outright.
    """
    binary = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")
    if binary is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        config = Path(folder) / "mosquitto.conf"
        # started as root, mosquitto switches to its own user, and a change of user
        # clears its parent-death signal: it stays root then (anyone else it cannot
        # switch away from, and whose uid may have no name to give it)
        stay = "user root\n" if os.getuid() == 0 else ""
        config.write_text(f"listener {port} {LOOPBACK}\nallow_anonymous true\n"
                          "persistence false\nlog_dest none\nset_tcp_nodelay true\n"
                          + stay)
        process = subprocess.Popen([*_dying_with_us(), binary, "-c", str(config)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   process_group=0)
        try:
            yield f"mqtt://{LOOPBACK}:{port}" if _accepting(port) else None
        finally:
            process.terminate()
            process.wait(10)


#: Run as ``python -c _EXEC_DYING_WITH PARENT_PID PROGRAM ARGS…``: ask Linux for SIGTERM
#: when the parent ends (``PR_SET_PDEATHSIG``, which exec keeps), give up if it already
#: has, then become PROGRAM.
_EXEC_DYING_WITH = (
    "import ctypes, os, signal, sys\n"
    "ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))\n"
    "if os.getppid() != int(sys.argv[1]):\n"
    "    sys.exit(0)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n")


def _dying_with_us() -> list[str]:
    """The words that start a program so that it ends when this process does (Linux;
    nothing elsewhere)."""
    if not sys.platform.startswith("linux"):
        return []
    return [sys.executable, "-c", _EXEC_DYING_WITH, str(os.getpid())]


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def _accepting(port: int, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, port), 0.2):
            return True
        time.sleep(0.02)
    return False
