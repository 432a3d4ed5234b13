"""A host that listens on every address tells others where to reach it: the LAN
addresses of this machine's interfaces, in the table's announcement and in its
"hosting table" line, and ``lodam tables`` shows them in the HOST column. A host on a
venue's broker (``--broker`` at a LAN address) is advertised by DNS-SD at that broker,
and bots without ``--broker`` find it by name and play.

Real ``lodam`` processes. The expected addresses are read from the interfaces here as
the host reads them; a machine with loopback alone has none to announce, and the tests
say so.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lodam_p2p.transport.discovery import browse, lan_addresses
from lodam_p2p.transport.hostbroker import read_record
from tests.support.aio import MATCH_PATIENCE, run
from tests.support.brokers import Mosquitto, free_port
from tests.support.procs import PATIENCE, lobby, logged, wait_for


@pytest.mark.slow
def test_a_host_on_every_address_announces_its_lan_addresses(tmp_path: Path) -> None:
    addresses = lan_addresses(ipv6=False)
    if not addresses:
        pytest.skip("this machine has no interface but loopback: no LAN address to announce")
    port, state, log = free_port(), tmp_path / "host", tmp_path / "host.log"
    table = f"lan-{os.getpid()}"
    expected = tuple(f"mqtt://{address}:{port}" for address in addresses)
    with log.open("wb") as err:
        host = subprocess.Popen(
            [sys.executable, "-m", "lodam_p2p", "host", "--table", table, "--seats", "3",
             "--bot", "random", "--watch", "--listen", f"0.0.0.0:{port}",
             "--state-dir", str(state)], stdout=subprocess.DEVNULL, stderr=err)
    broker_pid = None
    try:
        wait_for("the host's broker up", lambda: read_record(state) is not None, logs=[log])
        record = read_record(state)
        assert record is not None
        broker_pid = record.pid
        local = f"mqtt://127.0.0.1:{port}"
        wait_for("the table announced", lambda: any(a.table == table for a in lobby(local)),
                 logs=[log])
        (announcement,) = [a for a in lobby(local) if a.table == table]
        assert announcement.brokers == expected
        assert logged(log, f"hosting table {table} on {expected[0]};")
        listed = subprocess.run(
            [sys.executable, "-m", "lodam_p2p", "tables", "--no-lan", "--broker", local,
             "--timeout", "5", "--json"], capture_output=True, timeout=PATIENCE, check=True)
        (row,) = [r for r in json.loads(listed.stdout)["tables"] if r["table"] == table]
        assert row["addresses"] == list(expected)
    finally:
        host.terminate()
        host.wait(PATIENCE)
        if broker_pid is not None:  # the host's broker outlives a host that is killed
            with contextlib.suppress(ProcessLookupError):
                os.kill(broker_pid, signal.SIGTERM)


@pytest.mark.slow
def test_a_host_on_a_venues_broker_is_advertised_and_joined_by_name(
        tmp_path: Path, make_mosquitto: Callable[[str], Mosquitto]) -> None:
    addresses = lan_addresses(ipv6=False)
    if not addresses:
        pytest.skip("this machine has no interface but loopback: no LAN address to serve")
    port = free_port()
    make_mosquitto(f"listener {port} {addresses[0]}\n")  # the venue's broker, on the LAN
    venue, table = f"mqtt://{addresses[0]}:{port}", f"venue-{os.getpid()}"

    def lodam(name: str, *args: str) -> subprocess.Popen[bytes]:
        with (tmp_path / f"{name}.log").open("wb") as err:
            return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args, "--json",
                                     "--state-dir", str(tmp_path / name)],
                                    stdout=subprocess.PIPE, stderr=err)

    # a bot started before the host waits for the table's advert
    bots = [lodam("bot0", "bot", "random", "--table", table, "--wait", str(PATIENCE))]
    host = lodam("host", "host", "--table", table, "--seats", "3", "--bot", "random",
                 "--watch", "--broker", venue, "--option", "lives=1")
    found = run(browse(timeout=PATIENCE, interfaces=addresses[:1],
                       until=lambda advert: advert.table == table), PATIENCE + 30)
    assert [a.brokers for a in found if a.table == table] == [(venue,)]
    bots.append(lodam("bot1", "bot", "random", "--table", table, "--wait", str(PATIENCE)))
    processes = [host, *bots]
    try:
        outs = [p.communicate(timeout=MATCH_PATIENCE)[0] for p in processes]
        logs = {p.name: p.read_text(errors="replace")[-2000:] for p in tmp_path.glob("*.log")}
        assert [p.returncode for p in processes] == [0, 0, 0], logs
        results = [json.loads(out.decode().strip().splitlines()[-1]) for out in outs]
        assert results[0]["table"] == table and results[0]["blames"] == []
        assert all(r["winners"] == results[0]["winners"] for r in results), results
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                process.wait(PATIENCE)
