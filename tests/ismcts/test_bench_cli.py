"""``lodam bench ismcts``: the figures' shape and clean errors (speed is not asserted)."""

from __future__ import annotations

import json

import pytest

from lodam_p2p.cli import main


def test_json_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ismcts", "--seats", "4", "--time-ms", "5", "--decisions", "4",
                 "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["seats"] == 4 and figures["budget_ms"] == 5
    assert figures["decisions"] == 4
    assert figures["p50_ms"] <= figures["p95_ms"] <= figures["max_ms"]
    assert figures["iterations_per_s"] > 0
    assert isinstance(figures["p95_within_budget"], bool)


def test_plain_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ismcts", "--time-ms", "5", "--decisions", "2"]) == 0
    line = capsys.readouterr().out
    assert "iterations/s at 5 seats" in line and "p95" in line


@pytest.mark.parametrize("argv", [["--seats", "2"], ["--seats", "11"], ["--decisions", "0"],
                                  ["--time-ms", "0"]])
def test_bad_arguments_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ismcts", *argv]) != 0
    err = capsys.readouterr().err
    assert err.startswith("lodam: ") and err.count("\n") == 1


def test_lorum_figures_and_its_seat_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ismcts", "--game", "lorum", "--seats", "4", "--time-ms", "5",
                 "--decisions", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["seats"] == 4 and figures["decisions"] == 3
    assert figures["iterations_per_s"] > 0
    assert main(["bench", "ismcts", "--game", "lorum", "--seats", "5"]) != 0
    assert "3 to 4 seats" in capsys.readouterr().err
