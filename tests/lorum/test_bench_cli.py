"""``lodam bench engine --game lorum``: the output and its determinism (never its speed)."""

from __future__ import annotations

import json

import pytest

from lodam_p2p.cli import main


def run_bench(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, float]:
    assert main(["bench", "engine", "--json", "--game", "lorum", *args]) == 0
    figures: dict[str, float] = json.loads(capsys.readouterr().out)
    return figures


def test_lorum_bench_prints_deals_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    figures = run_bench(capsys, "--deals", "40", "--seed", "3")
    assert figures["deals_per_s"] > 0 and figures["deals"] == 40
    again = run_bench(capsys, "--deals", "40", "--seed", "3")
    assert again["decisions_per_deal"] == figures["decisions_per_deal"]


def test_lorum_bench_takes_lorum_options(capsys: pytest.CaptureFixture[str]) -> None:
    blind = run_bench(capsys, "--deals", "10", "--option", "contracts=red_king",
                      "--option", "red_king_blind=true")
    assert blind["decisions_per_deal"] == 0
    assert main(["bench", "engine", "--game", "lorum", "--option", "lives=2"]) == 2
    assert "unknown option 'lives'" in capsys.readouterr().err
