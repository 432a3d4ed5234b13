"""A whole round of Lorum with every seat in its own OS process, through a real Mosquitto.

The bots start once the host's announcement is on the broker; nothing waits a fixed
time (the process timeouts are only safety nets).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lodam_p2p.bots import BotRegistry
from tests.support.aio import MATCH_PATIENCE
from tests.support.brokers import Mosquitto
from tests.support.procs import announced, tables, wait_for

#: Small messages must not wait for delayed acknowledgements.
NODELAY = "set_tcp_nodelay true"


def _lorum_bot() -> str:
    """``heuristic`` once it plays Lorum, else ``random`` (which plays every game)."""
    return "heuristic" if BotRegistry.load().get("heuristic").plays("lorum") else "random"


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


@pytest.mark.slow
def test_a_whole_lorum_round_in_four_processes_over_mosquitto(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto(NODELAY)
    bot = _lorum_bot()
    host = _lodam("host", "--game", "lorum", "--table", "linden", "--seats", "4",
                  "--bot", bot, "--broker", broker.url, "--json", "--watch",
                  log=tmp_path / "host.log")
    wait_for("the host's announcement on the broker", lambda: announced(broker, "linden"))
    assert '"game": "lorum"' in tables(broker)
    bots = [_lodam("bot", bot, "--table", "linden", "--broker", broker.url, "--json",
                   log=tmp_path / f"bot{i}.log") for i in range(3)]
    out, _ = host.communicate(timeout=MATCH_PATIENCE)
    assert host.returncode == 0, (tmp_path / "host.log").read_text()
    outs = [b.communicate(timeout=60)[0].decode() for b in bots]
    assert [b.returncode for b in bots] == [0, 0, 0]
    result = json.loads(out.decode().strip())
    assert set(result) == {"table", "game", "winners", "deals", "audits_passed", "blames",
                           "audited", "standings", "broker_faults", "bot_errors"}
    assert result["game"] == "lorum" and result["table"] == "linden"
    assert result["deals"] == result["audits_passed"] == 32 and result["blames"] == []
    assert sorted(result["standings"]) == [0, 1, 2, 3] and result["winners"]
    assert all(json.loads(text.strip()) == result for text in outs)


@pytest.mark.slow
def test_three_seats_blind_red_king_and_short_first_and_last_in_processes(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """Three processes over Mosquitto: 7S 8S set aside, the blind Red King, and the short
    First-and-last dealt on from the carried, still encrypted deck."""
    broker = make_mosquitto(NODELAY)
    bot = _lorum_bot()
    options = ["--option", "contracts=red_king,first_last", "--option",
               "red_king_blind=true", "--option", "first_last_short=true"]
    host = _lodam("host", "--game", "lorum", "--table", "elm", "--seats", "3",
                  "--bot", bot, "--broker", broker.url, "--json", "--watch", *options,
                  log=tmp_path / "host.log")
    wait_for("the host's announcement on the broker", lambda: announced(broker, "elm"))
    bots = [_lodam("bot", bot, "--table", "elm", "--broker", broker.url, "--json",
                   log=tmp_path / f"bot{i}.log") for i in range(2)]
    out, _ = host.communicate(timeout=MATCH_PATIENCE)
    assert host.returncode == 0, (tmp_path / "host.log").read_text()
    outs = [b.communicate(timeout=60)[0].decode() for b in bots]
    assert [b.returncode for b in bots] == [0, 0]
    result = json.loads(out.decode().strip())
    assert result["game"] == "lorum" and result["blames"] == []
    assert result["deals"] == result["audits_passed"] == 6  # two contracts, three dealers
    assert all(json.loads(text.strip()) == result for text in outs)
