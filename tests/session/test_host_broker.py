"""The host's own broker outlives the host: a host killed with its broker's table
comes back to the same broker, and the broker goes once the match is over.

Separate processes; every wait is on something observable (a file, a log line, a
process's exit) with a generous safety timeout. Every process started here, the
brokers included, is ended by its own pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from lodam_p2p.transport.hostbroker import RECORD, read_record
from tests.support.brokers import free_port
from tests.support.procs import PATIENCE, announced, logged, wait_for


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):  # a zombie of ours has exited
        if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z"):
            return False
    return True


@contextlib.contextmanager
def _owned(procs: list[subprocess.Popen[bytes]], brokers: set[int]) -> Iterator[None]:
    """Kill whatever of ours is still running at the end: the processes started here
    and the broker pids they recorded."""
    try:
        yield
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(PATIENCE)
        for pid in brokers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _hand(state: Path, role: str) -> int:
    try:
        data = json.loads((state / "journal.json").read_text())
    except (OSError, ValueError):
        return 0
    return int((data.get("sessions", {}).get(role, {}).get("match") or {}).get("hand_no", 0))


@pytest.mark.slow
def test_lodam_broker_writes_its_record_and_ends_once_nobody_comes(tmp_path: Path) -> None:
    record = tmp_path / RECORD
    broker = subprocess.Popen([sys.executable, "-m", "lodam_p2p", "broker", "--listen",
                               "127.0.0.1:0", "--record", str(record), "--idle-exit", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with _owned([broker], set()):
        wait_for("the record written", lambda: read_record(tmp_path) is not None)
        written = read_record(tmp_path)
        assert written is not None and written.pid == broker.pid
        assert written.url == f"mqtt://127.0.0.1:{written.port}"
        out, _err = broker.communicate(timeout=PATIENCE)
    assert broker.returncode == 0 and b"nobody connected for 1 s" in out
    assert not record.exists()


@pytest.mark.slow
def test_a_host_killed_with_its_own_broker_comes_back_to_it(tmp_path: Path) -> None:
    port, state = free_port(), tmp_path / "host-state"
    hosting = ["host", "--table", "oak", "--seats", "3", "--bot", "heuristic", "--listen",
               f"127.0.0.1:{port}", "--state-dir", str(state), "--json", "--option",
               "lives=2"]
    procs: list[subprocess.Popen[bytes]] = []
    brokers: set[int] = set()
    with _owned(procs, brokers):
        procs.append(_lodam(*hosting, log=tmp_path / "host.log"))
        wait_for("the host's broker up", lambda: read_record(state) is not None)
        first = read_record(state)
        assert first is not None and first.pid != procs[0].pid
        brokers.add(first.pid)
        url = first.url
        wait_for("the table announced", lambda: announced(SimpleNamespace(url=url), "oak"))
        procs += [_lodam("bot", name, "--table", "oak", "--broker", url, "--json",
                         "--state-dir", str(tmp_path / f"bot{i}"), log=tmp_path / f"bot{i}.log")
                  for i, name in enumerate(["random", "heuristic"])]
        wait_for("a hand under way at the host's seat", lambda: _hand(state, "seat-1") >= 2,
                 logs=[tmp_path / "host.log", tmp_path / "bot0.log", tmp_path / "bot1.log",
                       state / "broker.log"])
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(PATIENCE)
        wait_for("the table sees the host's seat gone",
                 lambda: logged(tmp_path / "bot0.log", "seat 0 is gone: waiting"))
        assert _alive(first.pid)  # the broker outlived its host
        procs[0] = _lodam(*hosting, log=tmp_path / "host-again.log")
        lines = []
        for proc in procs:
            out, _ = proc.communicate(timeout=PATIENCE * 3)
            assert proc.returncode == 0, (tmp_path / "host-again.log").read_text()[-2000:]
            lines.append(out.decode().strip().splitlines()[-1])
        wait_for("the broker gone with the match", lambda: not _alive(first.pid))
    assert len(set(lines)) == 1, lines
    result = json.loads(lines[0])
    assert result["blames"] == [] and result["winners"]
    assert logged(tmp_path / "host-again.log", f"broker at {url} is still up: using it again")
    assert not (state / RECORD).exists()


def test_a_damaged_broker_record_names_no_process_group(tmp_path: Path) -> None:
    """A record whose pid would signal a process group (or init) is read as none, so
    the host starts a broker of its own and never signals what the record names."""
    from lodam_p2p.transport.hostbroker import RECORD, read_record
    url = "mqtt://127.0.0.1:1883"
    for pid, port in [(-1, 1883), (0, 1883), (1, 1883), (4242, 0), (4242, 70000)]:
        (tmp_path / RECORD).write_text(json.dumps({"pid": pid, "port": port, "url": url}))
        assert read_record(tmp_path) is None
    (tmp_path / RECORD).write_text(json.dumps({"pid": 4242, "port": 1883, "url": url}))
    assert read_record(tmp_path) is not None
