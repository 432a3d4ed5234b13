"""``lodam adversary --campaign``: the verdict of a run, the command's errors, and one real
run over mosquitto (host, two bots and the adversary, each its own process)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.cli.campaign import Run, judge
from tests.support.brokers import Mosquitto


def _result(winners: list[int], blames: list[str]) -> dict[str, Any]:
    return {"winners": winners, "blames": blames, "deals": 2}


def _report(seat: int, *, attempted: bool = True, learned: tuple[str, ...] = (),
            reason: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "attempted": attempted, "learned": list(learned), "reason": reason}


def test_an_attack_that_won_nothing_and_named_only_its_seat_held() -> None:
    honest = [_result([0], ["seat 3: timeout: silent (hand 2)"])] * 3
    run = judge(Run("k", "lodam"), honest, _report(3))
    assert run.verdict == "held" and run.named == ["seat 3"] and run.agree


def test_an_attack_never_mounted_is_not_applicable_with_its_reason() -> None:
    run = judge(Run("k", "lorum"), [_result([1], [])] * 3,
                _report(3, attempted=False, reason="no exchange in this game"))
    assert run.verdict == "n/a" and run.reason == "no exchange in this game"


@pytest.mark.parametrize(("honest", "report"), [
    # an honest seat named
    ([_result([0], ["seat 1: timeout: silent (hand 1)"])] * 3, _report(3)),
    # the honest seats disagree
    ([_result([0], []), _result([1], []), _result([0], [])], _report(3)),
    # the attack learned something
    ([_result([0], [])] * 3, _report(3, learned=("a card",))),
    # named, yet among the winners
    ([_result([3], ["seat 3: shuffle: bad proof (hand 1)"])] * 3, _report(3)),
])
def test_a_run_fails_on_each_way_the_table_could_give_way(
        honest: list[dict[str, Any]], report: dict[str, Any]) -> None:
    assert judge(Run("k", "lodam"), honest, report).verdict == "FAILED"


def _lodam(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lodam_p2p", "adversary", *args],
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.parametrize(("args", "said"), [
    (["--campaign", "--kinds", "no-such-kind"], "no seat kind no-such-kind"),
    (["--campaign", "--kinds", "broker-censor"], "no seat kind broker-censor"),
    (["--campaign", "--games", "whist"], "no game whist"),
    (["--campaign", "--run-timeout", "0"], "--run-timeout must be positive"),
])
def test_bad_campaign_arguments_are_refused_in_one_line(args: list[str], said: str) -> None:
    out = _lodam(*args)
    assert out.returncode != 0 and said in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_a_campaign_run_over_mosquitto_holds(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto("set_tcp_nodelay true")
    out = _lodam("--campaign", "--kinds", "lone-timeout-vote", "--games", "lodam",
                 "--broker", broker.url, "--json", "--logs", str(tmp_path / "logs"))
    logs = "\n".join(f"--- {p}\n{p.read_text()}" for p in (tmp_path / "logs").rglob("*.log"))
    assert out.returncode == 0, out.stdout + out.stderr + logs
    run = json.loads(out.stdout.splitlines()[-1])
    assert run["kind"] == "lone-timeout-vote" and run["game"] == "lodam"
    assert run["verdict"] == "held" and run["attempted"] and run["agree"], run
    assert run["host_rss_mb"] is None or run["host_rss_mb"] > 0
