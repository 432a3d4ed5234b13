"""Brokers for tests: a real Mosquitto and an in-process amqtt, both on loopback.

:class:`Mosquitto` runs ``/usr/sbin/mosquitto`` (or the one on ``PATH``) with a
generated configuration on an ephemeral 127.0.0.1 port — never the system's 1883 —
in a private directory, and can be stopped and started again on the same port to test
reconnection. :class:`ThreadedAmqtt` runs :class:`lodam_p2p.transport.broker.EmbeddedBroker` in
its own thread and event loop, so that synchronous tests, ``asyncio.run`` scenarios and
child processes can all use it.

The pytest fixtures wrapping these live in ``tests/conftest.py``.
"""

from __future__ import annotations

import asyncio
import getpass
import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

from lodam_p2p.transport.broker import EmbeddedBroker, ListenAddress

#: Where Debian puts the broker (``/usr/sbin`` is often missing from a user's PATH).
MOSQUITTO_FALLBACK = Path("/usr/sbin/mosquitto")


class BrokerUnavailable(RuntimeError):
    """The broker binary is missing or would not start; the message says why."""


def find_mosquitto() -> str:
    """The mosquitto binary, or :class:`BrokerUnavailable` saying how to get it."""
    found = shutil.which("mosquitto")
    if found:
        return found
    if os.access(MOSQUITTO_FALLBACK, os.X_OK):
        return str(MOSQUITTO_FALLBACK)
    raise BrokerUnavailable(
        "mosquitto not found on PATH or at /usr/sbin/mosquitto: "
        "install it (apt-get install mosquitto; .ci/run does this)")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the kernel's ephemeral choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, timeout: float = 10.0) -> bool:
    """Whether 127.0.0.1:``port`` accepts a connection within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.02)
    return False


class Mosquitto:
    """A private mosquitto on 127.0.0.1; ``extra_config`` lines are appended verbatim."""

    def __init__(self, workdir: Path, extra_config: str = "") -> None:
        self.binary = find_mosquitto()
        self.workdir = workdir
        self.extra_config = extra_config
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``mqtt://127.0.0.1:<port>``."""
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        """Mosquitto's own log file."""
        return self.workdir / "mosquitto.log"

    def start(self) -> None:
        """Start on a fresh ephemeral port (or the previous one, after :meth:`stop`)."""
        for _attempt in range(5):
            port = self.port or free_port()
            if self._try_start(port):
                self.port = port
                return
            if self.port:
                break  # the fixed port is taken: retrying will not help
        raise BrokerUnavailable(f"mosquitto would not start; its log:\n{self._log_tail()}")

    def stop(self) -> None:
        """Terminate the broker (keeping the port for a later :meth:`start`)."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def _try_start(self, port: int) -> bool:
        config = self.workdir / "mosquitto.conf"
        config.write_text(self._config(port))
        with (self.workdir / "mosquitto.stderr").open("ab") as stderr:
            self._process = subprocess.Popen(
                [self.binary, "-c", str(config)],
                stdout=subprocess.DEVNULL, stderr=stderr, cwd=self.workdir)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                return False
            if wait_for_port(port, timeout=0.2):
                return True
        self.stop()
        return False

    def _config(self, port: int) -> str:
        # Started as root, mosquitto would drop to the "mosquitto" user and could not
        # read our private folder; as anyone else it ignores "user".
        return "\n".join([
            f"user {getpass.getuser()}",
            f"listener {port} 127.0.0.1",
            "allow_anonymous true",
            "persistence false",
            # small messages go out at once, as the clients send them (no Nagle delay)
            "set_tcp_nodelay true",
            f"log_dest file {self.log_path}",
            "log_type error",
            "log_type warning",
            "log_type notice",
            self.extra_config,
            "",
        ])

    def _log_tail(self) -> str:
        lines = []
        for path in (self.workdir / "mosquitto.stderr", self.log_path):
            try:
                lines += path.read_text().splitlines()[-20:]
            except OSError:
                continue
        return "\n".join(lines) or "(no log)"


class ThreadedAmqtt:
    """The embedded amqtt broker on an ephemeral loopback port, in a thread of its own."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._broker = EmbeddedBroker(ListenAddress("127.0.0.1", 0))

    @property
    def url(self) -> str:
        """``mqtt://127.0.0.1:<port>``."""
        return self._broker.url

    @property
    def port(self) -> int:
        """The bound port."""
        return self._broker.port

    def start(self) -> None:
        """Start the thread and the broker in it."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._broker.start(), self._loop).result(10)

    def stop(self) -> None:
        """Stop the broker, then the thread."""
        try:
            asyncio.run_coroutine_threadsafe(self._broker.stop(), self._loop).result(10)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()
