"""The host's own broker: a process of its own, so that it outlives a crashed host.

``lodam host`` without ``--broker`` used to run the embedded broker inside the host's
process: a host killed mid-match took the broker with it, and nobody could come back.
Now the host starts ``lodam broker`` as a separate process, in a session of its own (a
closed terminal or a signal to the host's process group leaves it up), and the broker
records its pid, port and URL in the host's state directory (:data:`RECORD`, beside the
journal). The same host command restarted with the same state directory finds the
record, checks that the process is still that broker and still accepting, and uses it
again: the seats that waited for the host's seats never lost their broker.

The broker stops when the host ends on its own terms — its match over, an error it
reports, Ctrl-C — after letting the seats still connected leave (``--drain``). A host
that never comes back leaves no broker for long: the broker ends once nobody has been
connected to it for the table's rejoin grace (``--idle-exit``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from lodam_p2p.transport.broker import BrokerStartError, ListenAddress
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

#: The broker's record in the host's state directory.
RECORD = "broker.json"
#: What the broker process prints (its banner, and why it could not start).
LOG = "broker.log"
#: Time for the broker process to come up, in seconds.
START_S = 60.0
#: Time the broker gives connected seats to leave once the host is done, in seconds.
DRAIN_S = 10.0
#: How often the host looks at the starting or stopping broker, in seconds.
POLL_S = 0.05


@dataclass(frozen=True, slots=True)
class BrokerRecord:
    """Where the host's broker runs: its process and its ``mqtt://`` URL."""

    pid: int
    port: int
    url: str


class HostBroker:
    """The host's broker process, started here or found again (see the module
    docstring); :meth:`stop` ends it."""

    def __init__(self, directory: Path, record: BrokerRecord,
                 process: subprocess.Popen[bytes] | None) -> None:
        self.directory, self.record, self._process = directory, record, process
        #: True when a broker left by an earlier run of the host is used again
        self.reused = process is None

    @property
    def url(self) -> str:
        """The URL the table's peers use."""
        return self.record.url

    def stop(self) -> None:
        """Stop the broker (it lets connected seats leave first) and wait for it."""
        if self._process is not None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(DRAIN_S + 10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            return
        if _is_ours(self.directory, self.record):
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.record.pid, signal.SIGTERM)
            deadline = time.monotonic() + DRAIN_S + 10
            while _alive(self.record.pid) and time.monotonic() < deadline:
                time.sleep(POLL_S)


def host_broker(directory: Path, listen: ListenAddress, idle_s: float) -> HostBroker:
    """The broker recorded in ``directory`` if it still runs, else a new one listening
    on ``listen`` that ends after ``idle_s`` seconds without a client;
    :class:`BrokerStartError` if it cannot start."""
    directory = directory.resolve()
    record = read_record(directory)
    if record is not None and _is_ours(directory, record) and _accepting(record):
        return HostBroker(directory, record, None)
    return _start(directory, listen, idle_s)


def read_record(directory: Path) -> BrokerRecord | None:
    """The broker record in ``directory``, or None (none, or unreadable)."""
    try:
        data = json.loads((directory / RECORD).read_text())
        record = BrokerRecord(int(data["pid"]), int(data["port"]), str(data["url"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    # a damaged record must never name a process group (pid 0 or negative) or init
    if record.pid <= 1 or not 0 < record.port < 65536:
        return None
    return record


def _start(directory: Path, listen: ListenAddress, idle_s: float) -> HostBroker:
    path = directory / RECORD
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    command = [sys.executable, "-m", "lodam_p2p", "broker", "--listen", str(listen),
               "--record", str(path), "--idle-exit", f"{idle_s:g}", "--drain", f"{DRAIN_S:g}"]
    with (directory / LOG).open("ab") as log:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                   start_new_session=True)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        record = read_record(directory)
        if record is not None and record.pid == process.pid:
            return HostBroker(directory, record, process)
        if process.poll() is not None:
            raise BrokerStartError(_last_words(directory / LOG))
        time.sleep(POLL_S)
    process.kill()
    process.wait()
    raise BrokerStartError(f"the broker did not start within {START_S:g} s")


def _last_words(log: Path) -> str:
    """The broker's one-line reason for not starting."""
    with contextlib.suppress(OSError):
        lines = log.read_text(errors="replace").strip().splitlines()
        if lines:
            return lines[-1].removeprefix("lodam: ")
    return "the broker did not start"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_ours(directory: Path, record: BrokerRecord) -> bool:
    """Whether ``record.pid`` is still the broker that wrote the record (not a process
    that took its pid since): its command line names the record, where that is known."""
    if not _alive(record.pid):
        return False
    try:
        command = Path(f"/proc/{record.pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc here: the pid and the port must do
    return b"broker" in command and str(directory / RECORD).encode() in command


def _accepting(record: BrokerRecord) -> bool:
    host = record.url.removeprefix("mqtt://").rsplit(":", 1)[0].strip("[]")
    with contextlib.suppress(OSError), socket.create_connection((host, record.port), 2.0):
        return True
    return False


def on_loopback(url: str) -> bool:
    """Whether the broker URL ``url`` names this machine's loopback (only this machine
    reaches it)."""
    try:
        host = BrokerUrl.parse(url).host
    except BadBrokerUrl:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
