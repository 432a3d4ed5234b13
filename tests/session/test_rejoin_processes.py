"""A dropped seat comes back: separate processes over a private Mosquitto.

Every wait here is on something observable (a journal entry, a line of a log, a
process's exit), with a generous safety timeout; none races the clock.
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

from tests.support.brokers import Mosquitto
from tests.support.procs import PATIENCE, announced, logged, seated, tables, wait_for

NODELAY = "set_tcp_nodelay true"


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


def _journal_hand(state: Path, role: str = "seat") -> int:
    try:
        data = json.loads((state / "journal.json").read_text())
    except (OSError, ValueError):
        return 0
    match = data.get("sessions", {}).get(role, {}).get("match") or {}
    return int(match.get("hand_no", 0))


def _seat_five(broker: Mosquitto, table: str, tmp_path: Path, *extra: str,
               hosting: tuple[str, ...] = ()
               ) -> tuple[subprocess.Popen[bytes], list[subprocess.Popen[bytes]], list[Path]]:
    """A 5-seat table: the host (with ``hosting`` arguments) seats a bot, four bot
    processes join, each with a state directory; ``extra`` goes to every process."""
    host = _lodam(*_host_args(broker, table), *hosting, *extra, log=tmp_path / "host.log")
    wait_for("the table announced", lambda: announced(broker, table))
    states = [tmp_path / f"state{i}" for i in range(4)]
    bots = [_lodam("bot", name, "--table", table, "--broker", broker.url, "--json",
                   "--state-dir", str(state), *extra, log=tmp_path / f"bot{i}.log")
            for i, (name, state) in enumerate(zip(["random", "heuristic", "random",
                                                   "heuristic"], states, strict=True))]
    return host, bots, states


def _host_args(broker: Mosquitto, table: str) -> list[str]:
    return ["host", "--table", table, "--seats", "5", "--broker", broker.url, "--json",
            "--option", "lives=2"]


def _results(procs: list[subprocess.Popen[bytes]], tmp_path: Path) -> list[str]:
    lines = []
    for proc in procs:
        out, _ = proc.communicate(timeout=PATIENCE * 2)
        assert proc.returncode == 0, (tmp_path / "host.log").read_text()[-2000:]
        lines.append(out.decode().strip().splitlines()[-1])
    return lines


@pytest.mark.slow
def test_a_killed_bot_comes_back_and_every_peer_prints_one_result(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto(NODELAY)
    host, bots, states = _seat_five(broker, "ash", tmp_path, hosting=("--bot", "random"))
    wait_for("a hand in progress at seat bot2", lambda: _journal_hand(states[2]) >= 2)
    bots[2].send_signal(signal.SIGKILL)
    bots[2].wait(timeout=PATIENCE)
    wait_for("the table sees the seat gone",
              lambda: logged(tmp_path / "host.log", "is gone: waiting"))
    bots[2] = _lodam("bot", "random", "--table", "ash", "--broker", broker.url, "--json",
                     "--state-dir", str(states[2]), log=tmp_path / "bot2-again.log")
    lines = _results([host, *bots], tmp_path)
    assert len(set(lines)) == 1, lines
    result = json.loads(lines[0])
    assert result["blames"] == [] and result["winners"]
    journal = json.loads((states[2] / "journal.json").read_text())
    assert journal["sessions"]["seat"]["outcome"]["winners"] == result["winners"]
    assert "came back" in (tmp_path / "host.log").read_text()


@pytest.mark.slow
def test_a_host_killed_in_the_lobby_ends_the_joiners_wait_and_leaves_the_lobby(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto(NODELAY)
    host = _lodam("host", "--table", "fir", "--seats", "5", "--bot", "random", "--broker",
                  broker.url, "--json", log=tmp_path / "host.log")
    wait_for("the table announced", lambda: announced(broker, "fir"))
    joiner = _lodam("bot", "random", "--table", "fir", "--broker", broker.url,
                    "--state-dir", str(tmp_path / "state"), log=tmp_path / "bot.log")
    wait_for("the joiner seated", lambda: seated(broker, "fir") == 2)
    host.send_signal(signal.SIGKILL)
    host.wait(timeout=PATIENCE)
    joiner.communicate(timeout=PATIENCE)
    assert joiner.returncode != 0
    reason = (tmp_path / "bot.log").read_text().strip().splitlines()
    assert reason and "left before the start" in reason[-1]
    assert '"fir"' not in tables(broker)  # what `lodam tables` prints


@pytest.mark.slow
def test_the_broker_restarted_mid_match_every_seat_finishes_with_one_result(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto(NODELAY)
    host, bots, states = _seat_five(broker, "yew", tmp_path, hosting=("--bot", "random"))
    wait_for("a hand in progress", lambda: all(_journal_hand(s) >= 2 for s in states))
    broker.stop()
    time.sleep(2.0)  # the outage itself: a broker that stays away a moment, not a race
    broker.start()
    lines = _results([host, *bots], tmp_path)
    assert len(set(lines)) == 1, lines
    assert json.loads(lines[0])["winners"]



@pytest.mark.slow
def test_a_killed_host_comes_back_and_every_peer_prints_one_result(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto(NODELAY)
    state = tmp_path / "host-state"
    hosting = ("--bot", "heuristic", "--state-dir", str(state))
    host, bots, _states = _seat_five(broker, "elm", tmp_path, hosting=hosting)
    wait_for("a hand in progress at the host's seat",
             lambda: _journal_hand(state, "seat-1") >= 2)
    host.send_signal(signal.SIGKILL)
    host.wait(timeout=PATIENCE)
    wait_for("the table sees the host's seat gone",
             lambda: logged(tmp_path / "bot0.log", "seat 0 is gone: waiting"))
    host = _lodam(*_host_args(broker, "elm"), *hosting, log=tmp_path / "host-again.log")
    lines = _results([host, *bots], tmp_path)
    assert len(set(lines)) == 1, lines
    result = json.loads(lines[0])
    assert result["blames"] == [] and result["winners"]
    journal = json.loads((state / "journal.json").read_text())["sessions"]
    assert journal["host"]["outcome"]["winners"] == result["winners"]
    assert journal["seat-1"]["outcome"]["winners"] == result["winners"]
    assert "came back" in (tmp_path / "bot0.log").read_text()
    assert '"elm"' not in tables(broker)  # what `lodam tables` prints


@pytest.mark.slow
def test_a_killed_watching_host_comes_back_and_prints_the_seats_result(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """``lodam host --watch`` sits at no seat: killed mid-match and started again with
    its state directory, it follows the table to its end (nobody waited for it) and
    prints the result the three seats print."""
    broker = make_mosquitto(NODELAY)
    state = tmp_path / "host-state"
    watching = ["host", "--table", "oak", "--seats", "3", "--watch", "--broker", broker.url,
                "--json", "--option", "lives=3", "--state-dir", str(state)]
    host = _lodam(*watching, log=tmp_path / "host.log")
    wait_for("the table announced", lambda: announced(broker, "oak"))
    bots = [_lodam("bot", name, "--table", "oak", "--broker", broker.url, "--json",
                   log=tmp_path / f"bot{i}.log")
            for i, name in enumerate(["random", "heuristic", "random"])]
    wait_for("a hand in progress at the watching host", lambda: _journal_hand(state, "host") >= 2)
    host.send_signal(signal.SIGKILL)
    host.wait(timeout=PATIENCE)
    host = _lodam(*watching, log=tmp_path / "host-again.log")
    lines = _results([host, *bots], tmp_path)
    assert len(set(lines)) == 1, lines
    result = json.loads(lines[0])
    assert result["table"] == "oak" and result["winners"] and result["blames"] == []
    journal = json.loads((state / "journal.json").read_text())["sessions"]
    assert journal["host"]["outcome"]["winners"] == result["winners"]
    assert "match over" not in (tmp_path / "host.log").read_text()  # killed mid-match
    again = (tmp_path / "host-again.log").read_text()
    assert "back at table oak: following it to its result" in again and "match over" in again
