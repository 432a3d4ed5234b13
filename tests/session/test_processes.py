"""Whole matches with every seat in its own OS process, through a real Mosquitto.

Nothing here waits a fixed time: the bots start once the host's announcement is on the
broker, and the victim is killed once the host's log shows a trick taken. The
process timeouts are only safety nets.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from lodam_p2p.transport import topics
from lodam_p2p.transport.mqtt import MqttTransport
from tests.support.aio import MATCH_PATIENCE, Inbox, run
from tests.support.brokers import Mosquitto

#: Small messages must not wait for delayed acknowledgements (see requests.md).
NODELAY = "set_tcp_nodelay true"
#: Safety net for what should take a second or two (a loaded machine may take longer).
PATIENCE_S = 90.0
#: A protocol step or bot decision: generous, so that no honest process is ever found
#: silent on a loaded machine, yet short enough to find the killed one soon.
STEP_TIMEOUT = "8"


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


def _host(broker: Mosquitto, table: str, tmp_path: Path, *extra: str) -> subprocess.Popen[bytes]:
    return _lodam("host", "--table", table, "--seats", "5", "--bot", "random",
                  "--broker", broker.url, "--json", *extra, log=tmp_path / "host.log")


def _announced(broker: Mosquitto, table: str) -> None:
    """Return once the broker holds the host's retained announcement of ``table``."""
    topic = topics.lobby_topic(table)

    async def wait() -> None:
        async with MqttTransport(broker.url) as transport:
            inbox = Inbox(transport)
            await transport.subscribe(topic)
            await inbox.wait_for(lambda m: m.topic == topic and bool(m.payload), PATIENCE_S)
            await inbox.stop()

    run(wait(), PATIENCE_S + 10)


def _log_shows(path: Path, text: str, limit: float = 120.0) -> None:
    """Wait until ``path`` holds ``text`` (a generous safety limit, never a race)."""
    deadline = time.monotonic() + limit
    while text not in path.read_text():
        assert time.monotonic() < deadline, f"never logged {text!r}:\n{path.read_text()}"
        time.sleep(0.1)


def _bots(broker: Mosquitto, table: str, tmp_path: Path, *extra: str
          ) -> list[subprocess.Popen[bytes]]:
    _announced(broker, table)  # a bot looks the table up in the lobby first
    return [_lodam("bot", name, "--table", table, "--broker", broker.url, *extra,
                   log=tmp_path / f"bot{i}.log")
            for i, name in enumerate(["random", "heuristic", "random", "heuristic"])]


@pytest.mark.slow
def test_five_seats_in_five_processes_over_mosquitto(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto(NODELAY)
    host = _host(broker, "oak", tmp_path, "--option", "lives=2")
    bots = _bots(broker, "oak", tmp_path)
    out, _ = host.communicate(timeout=MATCH_PATIENCE)
    outs = [bot.communicate(timeout=30)[0].decode() for bot in bots]
    assert host.returncode == 0, (tmp_path / "host.log").read_text()
    assert [bot.returncode for bot in bots] == [0] * 4
    lines = out.decode().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["table"] == "oak" and result["blames"] == []
    assert result["winners"] and result["audits_passed"] == result["deals"] >= 4
    log = (tmp_path / "host.log").read_text()
    assert "first dealer by lot" in log and "match over" in log
    assert all("match over" in text for text in outs)  # each seat's own spectator log


@pytest.mark.slow
def test_a_killed_bot_process_is_blamed_and_the_table_ends_with_a_result(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto(NODELAY)
    host = _host(broker, "elm", tmp_path, "--timeout", STEP_TIMEOUT, "--option", "lives=1")
    bots = _bots(broker, "elm", tmp_path, "--timeout", STEP_TIMEOUT)
    _log_shows(tmp_path / "host.log", "takes trick")  # well into the first hand
    bots[2].send_signal(signal.SIGKILL)
    out, _ = host.communicate(timeout=MATCH_PATIENCE)
    codes = [bot.communicate(timeout=30) and bot.returncode
             for i, bot in enumerate(bots) if i != 2]
    assert host.returncode == 0, (tmp_path / "host.log").read_text()
    assert codes == [0] * 3
    result = json.loads(out.decode().splitlines()[-1])
    assert result["blames"] and result["winners"]
    blamed = {line.split(":")[0] for line in result["blames"]}
    assert len(blamed) == 1 and blamed.pop() not in {f"seat {w}" for w in result["winners"]}
