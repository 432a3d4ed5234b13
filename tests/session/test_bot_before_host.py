"""A bot started before its table, in its own process over a private Mosquitto: it
waits, saying what for and where, while the broker is not up yet and then while the
table is not announced; the host opens the table, and the bot takes its seat and plays
the match to the same result as the host.

Nothing here waits a fixed time: each step waits on the bot's own lines, and the
process timeouts are only safety nets.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lodam_p2p.cli.finding import NOT_ANNOUNCED
from tests.support.aio import MATCH_PATIENCE
from tests.support.brokers import Mosquitto
from tests.support.procs import logged, wait_for


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


@pytest.mark.slow
def test_a_bot_started_before_broker_and_host_waits_then_plays(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto("")
    broker.stop()  # its port kept: the bot's first looks are refused
    bot_log, host_log = tmp_path / "bot.log", tmp_path / "host.log"
    waiting = f"lodam: waiting for table oak on {broker.url}…"
    bot = _lodam("bot", "random", "--table", "oak", "--broker", broker.url, "--json",
                 "--wait", "900", "--state-dir", str(tmp_path / "bot"), log=bot_log)
    started = [bot]
    try:
        wait_for("the bot waiting on a broker not up yet",
                 lambda: logged(bot_log, f"cannot connect to {broker.url}"), logs=[bot_log])
        broker.start()
        wait_for("the bot waiting for the table on the broker now up",
                 lambda: logged(bot_log, NOT_ANNOUNCED), logs=[bot_log])
        host = _lodam("host", "--table", "oak", "--seats", "3", "--watch", "--bots",
                      "random*2", "--broker", broker.url, "--json", "--option", "lives=1",
                      "--state-dir", str(tmp_path / "host"), log=host_log)
        started.append(host)
        host_out, _ = host.communicate(timeout=MATCH_PATIENCE)
        bot_out, _ = bot.communicate(timeout=MATCH_PATIENCE)
    finally:
        for process in started:  # only after a failed wait
            if process.poll() is None:
                process.kill()
                process.wait()
    assert host.returncode == 0, host_log.read_text()
    assert bot.returncode == 0, bot_log.read_text()
    told = [line for line in bot_log.read_text().splitlines() if line.startswith(waiting)]
    # one line at first, another only when the reason changed: never one a look
    assert f"cannot connect to {broker.url}" in told[0] and "up to 900 s" in told[0]
    assert NOT_ANNOUNCED in told[-1]
    assert all(before != after for before, after in itertools.pairwise(told))
    hosted = json.loads(host_out.decode().splitlines()[-1])
    seated = json.loads(bot_out.decode().splitlines()[-1])
    assert seated["table"] == hosted["table"] == "oak"
    assert seated["winners"] == hosted["winners"] and seated["deals"] == hosted["deals"]
    assert seated["blames"] == hosted["blames"] == []
    assert "match over" in bot_log.read_text()
