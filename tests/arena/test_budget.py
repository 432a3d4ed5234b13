"""The arena's time budget (by an injected clock: no test waits), its decision-time
percentiles, its error report, and bots that cannot start."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.arena.config import build_config
from lodam_p2p.arena.report import to_json, to_text
from lodam_p2p.arena.runner import run_arena
from lodam_p2p.bots import BotType, hookimpl
from lodam_p2p.bots.budget import MARGIN_S
from lodam_p2p.bots.manager import new_plugin_manager
from lodam_p2p.bots.registry import BotRegistry
from lodam_p2p.cli import main


class Clock:
    """A clock that moves only when a bot thinks."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


CLOCK = Clock()


class Thinker:
    """Thinks ``options["seconds"]`` by the test clock, then plays the first legal."""

    def __init__(self, *, seat: int, seed: int, options: Any) -> None:
        self.seconds = float(options["seconds"])

    def decide(self, view: Any) -> Any:
        CLOCK.now += self.seconds
        return view.legal[0]


class Raiser:
    def __init__(self, *, seat: int, seed: int, options: Any) -> None:
        pass

    def decide(self, view: Any) -> Any:
        raise KeyError("nope")


def thinker(name: str, seconds: float, budget: float | None = None) -> BotType:
    def make(*, seat: int, seed: int, options: Any) -> Thinker:
        return Thinker(seat=seat, seed=seed, options={"seconds": seconds})

    return BotType(name, f"thinks {seconds} s", make, games=("*",), budget_s=budget)


class Plugin:
    @hookimpl
    def lodam_bot_types(self) -> list[BotType]:
        # binary fractions: the clock's sums stay exact
        return [thinker("quick", 0.015625), thinker("slow", 0.5, budget=0.02),
                thinker("random", 0.0),
                BotType("raiser", "raises", Raiser, games=("*",))]


@pytest.fixture
def registry() -> BotRegistry:
    manager = new_plugin_manager()
    manager.register(Plugin())
    return BotRegistry(manager)


def test_a_decision_over_budget_is_replaced_and_reported(registry: BotRegistry) -> None:
    config = build_config("slow,quick,random", 3, 5)
    result = run_arena(config, registry, clock=CLOCK)
    failures = [f for r in result.records for f in r.failures]
    assert failures and {f.bot for f in failures} == {"slow"}
    assert {f.kind for f in failures} == {"over-budget"}
    assert len(failures) == result.matches  # once per match: the fallback plays on
    assert all(r.finished for r in result.records)
    report = to_json(result, timings=True)
    assert report["bot_errors"][0]["kind"] == "over-budget"  # type: ignore[index]
    assert report["bots"]["slow"]["errors"] == 3  # type: ignore[index]
    timings = report["decision_ms"]
    assert timings["quick"] == {"p50": 15.625, "p90": 15.625, "p99": 15.625, "max": 15.625}  # type: ignore[index]
    assert timings["slow"] == {"p50": 500.0, "p90": 500.0, "p99": 500.0, "max": 500.0}  # type: ignore[index]
    assert "decision_ms" not in to_json(result)  # deterministic without timings


def test_arena_budget_overrides_the_types_and_holds_up_to_its_margin(
        registry: BotRegistry) -> None:
    at_limit = build_config("slow,quick,random", 3, 5, budget_s=0.5 - MARGIN_S)
    assert not any(r.failures for r in run_arena(at_limit, registry, clock=CLOCK).records)
    over = build_config("slow,quick,random", 3, 5, budget_s=0.5 - MARGIN_S - 0.001)
    failures = [f for r in run_arena(over, registry, clock=CLOCK).records for f in r.failures]
    assert failures and {(f.bot, f.kind) for f in failures} == {("slow", "over-budget")}


def test_the_text_report_counts_every_error_and_says_how_many_it_leaves_out(
        registry: BotRegistry) -> None:
    config = build_config("raiser,random*2", 8, 5)
    result = run_arena(config, registry, clock=CLOCK)
    failures = [f for r in result.records for f in r.failures]
    assert len(failures) > 5
    text = to_text(result)
    assert f"{len(failures)} bot errors" in text
    assert f"… and {len(failures) - 5} more" in text
    assert "exception at " in text and "(at " in text and "in decide)" in text
    assert len(to_json(result)["bot_errors"]) == len(failures)  # type: ignore[arg-type]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Path:
    (tmp_path / "broken.py").write_text(textwrap.dedent('''
        from lodam_p2p.bots import BotType, hookimpl

        class Boom:
            def __init__(self, *, seat, seed, options):
                raise RuntimeError("no brain today")

            def decide(self, view):
                return view.legal[0]

        @hookimpl
        def lodam_bot_types():
            return [BotType("boom", "raises when made", Boom, games=("*",))]
    '''))
    return tmp_path


def test_a_bot_that_cannot_start_is_one_line_naming_it_exit_2(
        capsys: pytest.CaptureFixture[str], plugin_dir: Path) -> None:
    code, out, err = run(capsys, "arena", "--bots", "boom,random*3", "--matches", "2",
                         "--plugin-dir", str(plugin_dir))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "bot 'boom'" in err and str(plugin_dir / "broken.py") in err
    assert "RuntimeError: no brain today" in err


def test_with_v_the_traceback_comes_first(capsys: pytest.CaptureFixture[str],
                                          plugin_dir: Path) -> None:
    code, _out, err = run(capsys, "arena", "--bots", "boom,random*3", "--matches", "2",
                          "--plugin-dir", str(plugin_dir), "-v")
    assert code == 2
    assert err.startswith("Traceback") and 'broken.py", line 6, in __init__' in err
    assert err.rstrip().splitlines()[-1].startswith("lodam: bot 'boom'")


def test_json_has_bot_errors_and_decision_times(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "arena", "--bots", "random*3", "--matches", "3", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["bot_errors"] == []
    assert set(report["decision_ms"]["random"]) == {"p50", "p90", "p99", "max"}


def test_a_table_option_meant_for_a_bot_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "arena", "--bots", "random*3", "--option", "random.x=1")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--bot-option random.x=1" in err


def test_progress_is_told_of_every_match(registry: BotRegistry) -> None:
    seen: list[tuple[int, int]] = []
    run_arena(build_config("quick*3", 6, 5), registry, clock=CLOCK,
              progress=lambda done, total: seen.append((done, total)))
    assert seen == [(k, 6) for k in range(1, 7)]
