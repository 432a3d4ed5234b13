"""The benchmarks' private Mosquitto: its own process group, and it ends with its command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from lodam_p2p.transport.broker import private_mosquitto
from tests.support.procs import ended, listening, wait_for

#: A command that starts the private broker, says the broker's process id and port, and
#: waits to be killed.
_COMMAND = """
import os, sys
from lodam_p2p.transport.broker import private_mosquitto
from tests.transport.test_private_broker import _children
with private_mosquitto() as url:
    assert url is not None
    print(_children(os.getpid())[0], url.rsplit(":", 1)[1], flush=True)
    sys.stdin.read()
"""


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_the_broker_has_a_process_group_of_its_own() -> None:
    """A terminal's Ctrl-C goes to the command's group: the broker is not in it, so the
    command can stop its players before the broker; it stops the broker on its way out."""
    before = set(_children(os.getpid()))  # an earlier test's process may linger
    with private_mosquitto() as url:
        assert url is not None
        brokers = [pid for pid in _children(os.getpid()) if pid not in before
                   and Path(f"/proc/{pid}/comm").read_text().strip() == "mosquitto"]
        assert len(brokers) == 1
        assert os.getpgid(brokers[0]) == brokers[0] != os.getpgid(0)
    assert not listening(int(url.rsplit(":", 1)[1]))


def test_the_broker_ends_with_a_command_killed_outright() -> None:
    """Outside the command's group, a broker must not outlive a command that had no
    chance to stop it (SIGKILL)."""
    command = subprocess.Popen([sys.executable, "-c", _COMMAND], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        assert command.stdout is not None
        broker, port = (int(word) for word in command.stdout.readline().split())
        assert listening(port)
    finally:
        command.kill()
        command.wait()
    wait_for("the broker gone with its command", lambda: ended(broker))
    assert not listening(port)
