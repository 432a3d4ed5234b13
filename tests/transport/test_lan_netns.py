"""A LAN party on three machines: network namespaces on one bridge, DNS-SD across them.

The host listens on every address of its machine (``--listen 0.0.0.0:1883``), two bots
on two other machines join it by name with no ``--broker`` (one started before the
host: it waits for the table), ``lodam tables`` on a third machine lists the table at
the host's LAN address, and the three results agree. Needs root and ``ip netns``; the
namespaces, their private subnet (10.213.0.0/24, which exists only inside them), the
bridge (in a namespace of its own) and every process started are removed at the end.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

#: The private subnet the namespaces share.
SUBNET = "10.213.0"
#: Safety net for one step (the machine may be loaded); events end each wait first.
STEP_S = 120.0
#: Safety net for the whole match.
MATCH_S = 600.0


def _ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=False)


def _must(*args: str) -> None:
    done = _ip(*args)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def _why_not() -> str | None:
    """Why namespaces cannot be made here, or None."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "no 'ip' command (iproute2)"
    probe = f"lodam-probe-{os.getpid()}"
    if _ip("netns", "add", probe).returncode != 0:
        return "'ip netns add' fails here (no CAP_SYS_ADMIN or no netns support)"
    _ip("netns", "del", probe)
    return None


@dataclass
class Lan:
    """Three machines (``machines[i]`` at 10.213.0.(i+1)) and a switch between them."""

    switch: str
    machines: list[str]
    made: list[str] = field(default_factory=list)

    def address(self, place: int) -> str:
        """The LAN address of machine ``place``."""
        return f"{SUBNET}.{place + 1}"

    def build(self) -> None:
        """Make the namespaces, the bridge and one veth pair per machine."""
        for ns in (self.switch, *self.machines):
            _must("netns", "add", ns)
            self.made.append(ns)
            _must("-n", ns, "link", "set", "lo", "up")
        _must("-n", self.switch, "link", "add", "br0", "type", "bridge")
        _must("-n", self.switch, "link", "set", "br0", "up")
        tag = str(os.getpid())
        for place, ns in enumerate(self.machines):
            port, nic = f"lp{place}x{tag}"[:15], f"ln{place}x{tag}"[:15]
            _must("link", "add", port, "netns", self.switch, "type", "veth", "peer", "name",
                  nic, "netns", ns)
            _must("-n", self.switch, "link", "set", port, "master", "br0")
            _must("-n", self.switch, "link", "set", port, "up")
            _must("-n", ns, "addr", "add", f"{self.address(place)}/24", "dev", nic)
            _must("-n", ns, "link", "set", nic, "up")
            _must("-n", ns, "route", "add", "224.0.0.0/4", "dev", nic)

    def remove(self) -> None:
        """Delete every namespace made (their links and the bridge go with them)."""
        for ns in reversed(self.made):
            _ip("netns", "del", ns)
        self.made.clear()


class Process:
    """A lodam command in a namespace, its output lines read as they come."""

    def __init__(self, ns: str, args: list[str], home: Path) -> None:
        env = {**os.environ, "HOME": str(home), "XDG_STATE_HOME": str(home / "state"),
               "PYTHONUNBUFFERED": "1"}
        home.mkdir(parents=True, exist_ok=True)
        self.argv = ["ip", "netns", "exec", ns, sys.executable, "-m", "lodam_p2p", *args]
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        self.lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
        self.out: list[str] = []
        self.err: list[str] = []
        for name, stream in (("out", self.proc.stdout), ("err", self.proc.stderr)):
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name: str, stream: object) -> None:
        assert stream is not None
        for line in stream:  # type: ignore[attr-defined]
            (self.out if name == "out" else self.err).append(line)
            self.lines.put((name, line))
        self.lines.put((name, None))

    def wait_for(self, text: str, limit: float = STEP_S) -> str:
        """The first line (stdout or stderr) containing ``text``; fails if the process
        ends first or the safety net runs out."""
        deadline, ended = time.monotonic() + limit, 0
        for line in self.out + self.err:
            if text in line:
                return line
        while ended < 2:
            try:
                _name, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                ended += 1
            elif text in line:
                return line
        raise AssertionError(f"no line with {text!r} from {' '.join(self.argv[4:])}:\n"
                             f"{''.join(self.err)[-3000:]}")

    def result(self, limit: float = MATCH_S) -> dict[str, object]:
        """The JSON line of a finished match (exit 0)."""
        code = self.proc.wait(timeout=limit)
        assert code == 0, f"{' '.join(self.argv[4:])} exited {code}:\n{''.join(self.err)[-3000:]}"
        lines = [line for line in self.out if line.startswith("{")]
        assert lines, f"no JSON line from {' '.join(self.argv[4:])}"
        parsed: dict[str, object] = json.loads(lines[-1])
        return parsed

    def stop(self) -> None:
        """End the process (by its pid) if it still runs."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def lan() -> Iterator[Lan]:
    """Three machines on one bridge, removed afterwards; skipped where they cannot be made."""
    why = _why_not()
    if why is not None:
        pytest.skip(why)
    tag = os.getpid()
    made = Lan(f"lodam-{tag}-sw", [f"lodam-{tag}-m{i}" for i in range(3)])
    try:
        made.build()
    except RuntimeError as err:
        made.remove()
        pytest.skip(f"cannot build the namespaces: {err}")
    try:
        yield made
    finally:
        made.remove()


def test_bots_on_other_machines_find_the_table_by_name_and_agree(lan: Lan,
                                                                  tmp_path: Path) -> None:
    table, started = f"oak{os.getpid()}", []
    host_ns, early_ns, late_ns = lan.machines

    def start(ns: str, who: str, *args: str) -> Process:
        process = Process(ns, [*args, "--state-dir", str(tmp_path / who / "seat")],
                          tmp_path / who)
        started.append(process)
        return process

    try:
        early = start(early_ns, "early", "bot", "random", "--table", table, "--json",
                      "--wait", "300")
        early.wait_for(f"waiting for table {table}")
        host = start(host_ns, "host", "host", "--table", table, "--seats", "3", "--bot",
                     "random", "--watch", "--json", "--listen", "0.0.0.0:1883",
                     "--option", "lives=1")
        hosting = host.wait_for(f"hosting table {table}")
        assert lan.address(0) in hosting
        late = start(late_ns, "late", "bot", "heuristic", "--table", table, "--json",
                     "--wait", "300")
        listed = _tables_until_listed(lan, late_ns, table, tmp_path)
        assert any(lan.address(0) in url for url in listed["addresses"])  # type: ignore
        results = [p.result() for p in (host, early, late)]
    finally:
        for process in started:
            process.stop()
    assert len({json.dumps(r["winners"]) for r in results}) == 1
    assert all(r["audits_passed"] for r in results)
    assert all(not r["blames"] for r in results)


def _tables_until_listed(lan: Lan, ns: str, table: str, tmp_path: Path) -> dict[str, object]:
    """``lodam tables --json`` on machine ``ns``, asked again until it lists ``table``."""
    deadline = time.monotonic() + STEP_S
    while True:
        done = subprocess.run(["ip", "netns", "exec", ns, sys.executable, "-m", "lodam_p2p",
                               "tables", "--json", "--timeout", "3"],
                              capture_output=True, text=True, timeout=STEP_S, check=False,
                              env={**os.environ, "HOME": str(tmp_path / "tables")})
        assert done.returncode == 0, done.stderr
        rows = [row for row in json.loads(done.stdout).get("tables", [])
                if row.get("table") == table]
        if rows:
            return dict(rows[0])
        assert time.monotonic() < deadline, f"{table} never listed: {done.stdout}"
