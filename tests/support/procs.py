"""Waiting on separate ``lodam`` processes: observable events, never a fixed sleep.

The lobby is read in this process (:func:`lobby`), as ``lodam tables`` reads it, rather
than by starting ``lodam tables`` at every poll: each of those costs a second or more
of processor time, taken from the very processes the test waits for.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from lodam_p2p.transport import TransportError
from lodam_p2p.transport.lobby import TableAnnouncement, read_lobby
from lodam_p2p.transport.mqtt import MqttTransport
from tests.support.brokers import Mosquitto

#: Safety net of one lobby read (it ends as soon as the broker has sent the lobby).
LOBBY_READ_S = 10.0

#: Safety net for every wait (seconds); the events come far sooner.
PATIENCE = 120.0

#: How much of each process's log a failed wait shows.
TAIL_LINES = 40

#: How much of each log a failed match shows: enough to hold a seat's last deal and
#: its reconnections, where the cause of an early exit usually is.
MATCH_TAIL_LINES = 60


def wait_for(what: str, check: Callable[[], bool], patience: float = PATIENCE,
             logs: Sequence[Path] = ()) -> None:
    """Poll ``check`` until it holds; fail the test after ``patience`` seconds, showing
    the end of each of ``logs`` (what the processes waited on were doing)."""
    deadline = time.monotonic() + patience
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}" + "".join(_tail(log) for log in logs))
        time.sleep(0.05)


def _tail(log: Path, lines: int = TAIL_LINES) -> str:
    try:
        text = log.read_text(errors="replace").splitlines()[-lines:]
    except OSError as exc:
        return f"\n--- {log.name}: unreadable ({exc})"
    return f"\n--- the end of {log.name}:\n" + "\n".join(text)


def processes_failed(codes: Mapping[str, int | None], logs: Sequence[Path], report: Path,
                     lines: int = MATCH_TAIL_LINES) -> str:
    """Why a match of processes failed, for a test to fail with: each process's exit
    code (``None``: still running) and the last ``lines`` lines of each of ``logs``,
    whole. The same text goes to the file ``report`` (named in it), since a runner may
    cut a long failure message short."""
    text = ("exit codes: " + ", ".join(f"{name} {code}" for name, code in codes.items())
            + f"\n(this report: {report})"
            + "".join(_tail(log, lines) for log in logs) + "\n")
    report.write_text(text)
    return text


def tables(broker: Mosquitto) -> str:
    """What ``lodam tables --json`` prints for the broker."""
    out = subprocess.run([sys.executable, "-m", "lodam_p2p", "tables", "--no-lan", "--timeout",
                          "1", "--broker", broker.url, "--json"],
                         capture_output=True, timeout=PATIENCE, check=False)
    return out.stdout.decode()


def lobby(url: str) -> list[TableAnnouncement]:
    """The tables the broker at ``url`` announces, read in this process ([] if the
    broker cannot be reached)."""
    async def read() -> list[TableAnnouncement]:
        async with MqttTransport(url, timeout=LOBBY_READ_S) as transport:
            return await read_lobby(transport, limit=LOBBY_READ_S)

    try:
        return asyncio.run(read())
    except (TransportError, OSError):
        return []


def announced(broker: Mosquitto, table: str) -> bool:
    """Whether the broker's lobby lists ``table``."""
    return any(a.table == table for a in lobby(broker.url))


def seated(broker: Mosquitto, table: str) -> int:
    """How many seats the lobby announcement of ``table`` shows taken."""
    return max((len(a.seated) for a in lobby(broker.url) if a.table == table), default=0)


def logged(path: Path, text: str) -> bool:
    """Whether the log at ``path`` holds ``text`` yet."""
    try:
        return text in path.read_text()
    except OSError:
        return False


def ended(pid: int) -> bool:
    """The process ``pid`` has ended (only its reaping may be left)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def listening(port: int, host: str = "127.0.0.1") -> bool:
    """Something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), 1.0):
            return True
    except OSError:
        return False
