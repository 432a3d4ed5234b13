"""A small table with one ``lodam adversary`` seat, every seat its own process.

:func:`play_against` starts a private mosquitto's table: ``lodam host`` (a watcher and
one random bot), one ``lodam bot random`` and ``lodam adversary KIND``, three seats, one
life each so the match stays short, and a short table time limit so that silence is
voted out quickly. It returns the honest results (the host's and the joining bot's JSON
lines) and the adversary's report. :func:`play_four` plays the red team's own table instead:
four seats, either game, the adversary joining first (seat 1) or last (seat 3), checked
by :func:`assert_held` (the attack won nothing and no honest seat is named).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.brokers import Mosquitto
from tests.support.procs import announced, seated, wait_for

#: The table's time limit: silence is voted out after this many seconds. Only the
#: attacks that go silent wait for it (a seat the others' results put out ends at once),
#: and once the attacker is out one honest seat's vote puts the other out: the limit must
#: outlast a busy machine's longest pause of an honest process.
LIMIT = "10"


@dataclass
class Played:
    """What each process printed."""

    honest: list[dict[str, Any]]
    adversary: dict[str, Any]
    logs: str
    host_log: str = ""


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


def play_against(kind: str, broker: Mosquitto, tmp_path: Path, *, seed: str = "7",
                 lives: int = 1) -> Played:
    """Play one match with the adversary ``kind`` at the third seat."""
    table = kind.replace("-", "")[:20]
    host = _lodam("host", "--table", table, "--seats", "3", "--bot", "random", "--broker",
                  broker.url, "--json", "--timeout", LIMIT, "--option", f"lives={lives}",
                  "--seed", seed, log=tmp_path / "host.log")
    wait_for("the table announced", lambda: announced(broker, table))
    bot = _lodam("bot", "random", "--table", table, "--broker", broker.url, "--json",
                 "--timeout", LIMIT, "--seed", seed, log=tmp_path / "bot.log")
    # the honest bot takes the second seat, the adversary the third
    wait_for("the honest bot seated", lambda: seated(broker, table) == 2)
    adversary = _lodam("adversary", kind, "--table", table, "--broker", broker.url, "--json",
                       "--timeout", LIMIT, log=tmp_path / "adversary.log")
    try:
        outs = [p.communicate(timeout=150)[0].decode() for p in (host, bot, adversary)]
    finally:
        for process in (host, bot, adversary):
            if process.poll() is None:
                process.kill()
                process.wait()
    logs = "\n".join(f"--- {name}\n{(tmp_path / f'{name}.log').read_text()}"
                     for name in ("host", "bot", "adversary"))
    assert [p.returncode for p in (host, bot, adversary)] == [0, 0, 0], logs
    results = [json.loads(out.splitlines()[-1]) for out in outs]
    return Played(results[:2], results[2], logs, (tmp_path / "host.log").read_text())


def assert_convicted(played: Played) -> None:
    """Every honest seat names the adversary alone, with the same evidence, and the
    honest seats finished the match; the adversary learned nothing, and held its table
    for none of the honest seats once they had finished."""
    report, logs = played.adversary, played.logs
    assert report["attempted"], logs
    assert report["learned"] == [], logs
    seat = report["seat"]
    assert seat is not None, logs
    blames = [result["blames"] for result in played.honest]
    assert blames[0] == blames[1], logs
    assert blames[0], logs
    assert {line.split(":")[0] for line in blames[0]} == {f"seat {seat}"}, logs
    for result in played.honest:
        assert result["winners"] and seat not in result["winners"], logs
    # the honest seats finished and went: even the attacker's own view waited for nobody
    seen = (report.get("result") or {}).get("blames", [])
    assert not [line for line in seen if ": left:" in line], logs


def assert_out_before_a_card(played: Played) -> None:
    """The host's log puts the attacker out before the first card of the match is played."""
    lines = played.host_log.splitlines()
    out = next(i for i, line in enumerate(lines) if "is out of the match" in line)
    plays = [i for i, line in enumerate(lines) if " plays " in line]
    assert not plays or out < plays[0], played.logs


def play_four(kind: str, broker: Mosquitto, tmp_path: Path, *, game: str = "lodam",
              options: tuple[str, ...] = ("lives=1",), early: bool = False,
              grace: str = "20", limit: str = "20") -> Played:
    """Play one match at four seats — ``lodam host`` with a random bot, two ``lodam bot
    random`` and ``lodam adversary KIND`` — of ``game`` with ``options``. ``early``: the
    adversary joins before the bots, at seat 1 (the coordinator of seat 0's return),
    else last, at seat 3. Each seat waits ``grace`` seconds for a seat that is gone, and
    ``limit`` seconds for a step (longer than :data:`LIMIT`: four processes and a flood
    on a busy machine must never make an honest seat look silent)."""
    table = (kind.replace("-", "") + game)[:24]
    rules = [arg for option in options for arg in ("--option", option)]
    common = ["--table", table, "--broker", broker.url, "--json", "--timeout", limit]
    host = _lodam("host", "--seats", "4", "--bot", "random", "--game", game, *rules,
                  "--option", f"rejoin_grace={grace}", *common, log=tmp_path / "host.log")
    wait_for("the table announced", lambda: announced(broker, table))
    started: list[subprocess.Popen[bytes]] = []

    def join(name: str, *args: str) -> None:
        started.append(_lodam(*args, *common, "--option", f"rejoin_grace={grace}",
                              log=tmp_path / f"{name}.log"))
        wait_for(f"{name} seated", lambda: seated(broker, table) == len(started) + 1)

    adversary = ("adversary", "adversary", kind)
    for name, *args in ([adversary] if early else []) + [
            ("bot1", "bot", "random"), ("bot2", "bot", "random")] + (
            [] if early else [adversary]):
        join(name, *args)
    processes = [host, *started]
    names = ["host", *(("adversary", "bot1", "bot2") if early else
                       ("bot1", "bot2", "adversary"))]
    try:
        outs = [p.communicate(timeout=240)[0].decode() for p in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    logs = "\n".join(f"--- {name}\n{(tmp_path / f'{name}.log').read_text()}"
                     for name in names)
    assert [p.returncode for p in processes] == [0] * 4, logs
    results = {name: json.loads(out.splitlines()[-1]) for name, out in zip(names, outs,
                                                                           strict=True)}
    report = results.pop("adversary")
    return Played(list(results.values()), report, logs, (tmp_path / "host.log").read_text())


def assert_held(played: Played) -> None:
    """The attack was mounted and won nothing; the honest seats agree, name no honest
    seat, and a seat they name is not among their winners."""
    report, logs = played.adversary, played.logs
    assert report["attempted"], logs
    assert report["learned"] == [], logs
    first = played.honest[0]
    assert all(result == first for result in played.honest), logs
    seat = report["seat"]
    named = {line.split(":")[0] for line in first["blames"]}
    assert named <= {f"seat {seat}"}, logs
    if named:
        assert seat not in first["winners"], logs
