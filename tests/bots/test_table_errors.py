"""A bot that fails at a networked table says so: its process logs a warning naming
the bot and the exception, and its --json result lists bot_errors (real processes over
a private Mosquitto; nothing waits a fixed time)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.aio import MATCH_PATIENCE
from tests.support.brokers import Mosquitto
from tests.support.procs import announced, wait_for

FLAKY = textwrap.dedent('''
    from lodam_p2p.bots import BotType, hookimpl

    class Flaky:
        def __init__(self, *, seat, seed, options):
            self.answers = 0

        def decide(self, view):
            if self.answers >= 2:
                raise ValueError("lost my marbles")
            self.answers += 1
            return view.legal[0]

    @hookimpl
    def lodam_bot_types():
        return [BotType("flaky", "raises after two answers", Flaky, games=("*",))]
''')


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


@pytest.mark.slow
def test_a_bot_raising_in_decide_is_reported_by_its_process(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "flaky.py").write_text(FLAKY)
    broker = make_mosquitto("set_tcp_nodelay true")
    host = _lodam("host", "--table", "elm", "--seats", "4", "--watch", "--bots", "random*3",
                  "--broker", broker.url, "--json", "--option", "lives=1",
                  log=tmp_path / "host.log")
    wait_for("the host's announcement on the broker", lambda: announced(broker, "elm"))
    bot = _lodam("bot", "flaky", "--table", "elm", "--broker", broker.url, "--json",
                 "--plugin-dir", str(plugins), log=tmp_path / "bot.log")
    host_out, _ = host.communicate(timeout=MATCH_PATIENCE)
    bot_out, _ = bot.communicate(timeout=60)
    log = (tmp_path / "bot.log").read_text()
    assert host.returncode == 0 and bot.returncode == 0, log
    warnings = [line for line in log.splitlines()
                if "bot 'flaky'" in line and "ValueError: lost my marbles" in line]
    assert warnings and "flaky.py" in warnings[0] and "random played the move" in warnings[0]
    result = json.loads(bot_out.decode().splitlines()[-1])
    assert result["bot_errors"] and result["bot_errors"][0]["kind"] == "exception"
    assert result["bot_errors"][0]["bot"] == "flaky"
    assert json.loads(host_out.decode().splitlines()[-1])["bot_errors"] == []
