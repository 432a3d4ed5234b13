"""``lodam bench engine``: the output format and its determinism (never its speed)."""

from __future__ import annotations

import json
import random

import pytest

from lodam_p2p.cli import main
from lodam_p2p.cli.bench_engine import SEATS, play_deals
from lodam_p2p.games.lodam import FULL_PACK, Deal, Options


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


def test_the_benchmark_takes_the_choices_of_a_plain_random_bot() -> None:
    # the benchmark picks among codes; a bot picking among actions with the same
    # generator takes the same decisions, so the count is the count of any random bot
    rng = random.Random(9)
    decks = [rng.sample(FULL_PACK, 52) for _ in range(40)]
    options = Options()
    counted = play_deals(options, decks, random.Random(5).random)
    uniform, plain = random.Random(5).random, 0
    for number, deck in enumerate(decks):
        deal = Deal.start(options, number % SEATS, [options.lives] * SEATS, deck)
        while legal := deal.legal:
            deal.apply(legal[int(uniform() * len(legal))])
            plain += 1
    assert counted == plain
