"""``lodam bench engine``: the output format and its determinism (never its speed)."""

from __future__ import annotations

import json

import pytest

from lodam_p2p.cli import main


def run_bench(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, float]:
    assert main(["bench", "engine", "--json", *args]) == 0
    figures: dict[str, float] = json.loads(capsys.readouterr().out)
    return figures


def test_bench_prints_deals_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    figures = run_bench(capsys, "--deals", "30", "--seed", "4")
    assert figures["deals_per_s"] > 0 and figures["deals"] == 30
    assert figures["deals_per_cpu_s"] > 0 and figures["cpu_seconds"] >= 0
    # the same seed plays the same deals
    again = run_bench(capsys, "--deals", "30", "--seed", "4")
    assert again["decisions_per_deal"] == figures["decisions_per_deal"]


def test_bench_takes_options(capsys: pytest.CaptureFixture[str]) -> None:
    plain = run_bench(capsys, "--deals", "20", "--seed", "1")
    off = run_bench(capsys, "--deals", "20", "--seed", "1", "--option", "exchanges=off")
    assert off["decisions_per_deal"] < plain["decisions_per_deal"]


def test_bench_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--deals", "0"]) == 2
    assert main(["bench", "engine", "--option", "lives=99"]) == 2
    assert "lives must be 1 … 9" in capsys.readouterr().err
