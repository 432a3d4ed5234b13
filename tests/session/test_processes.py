"""Whole matches with every seat in its own OS process, through a real Mosquitto.

Nothing here waits a fixed time: the bots start once the host's announcement is on the
broker, and the victim is killed once the host's log shows a card played. The
process timeouts are only safety nets.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.aio import MATCH_PATIENCE
from tests.support.brokers import Mosquitto
from tests.support.procs import announced, logged, wait_for

#: Small messages must not wait for delayed acknowledgements (see requests.md).
NODELAY = "set_tcp_nodelay true"
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


def _bots(broker: Mosquitto, table: str, tmp_path: Path, *extra: str
          ) -> list[subprocess.Popen[bytes]]:
    wait_for("the host's announcement on the broker", lambda: announced(broker, table))
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
    host = _host(broker, "elm", tmp_path, "--timeout", STEP_TIMEOUT, "--option", "lives=1",
                 "--option", "rejoin_grace=3")
    bots = _bots(broker, "elm", tmp_path, "--timeout", STEP_TIMEOUT, "--option", "rejoin_grace=3")
    wait_for("the first hand under way", lambda: logged(tmp_path / "host.log", " plays "))
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
