"""``lodam bench load``: tables of bots at once on one broker, end to end."""

from __future__ import annotations

import json

import pytest

from lodam_p2p.cli import main


@pytest.mark.slow
def test_two_tables_of_three_finish_on_one_broker(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "load", "--tables", "2", "--seats", "3", "--workers", "2",
                 "--option", "lives=1", "--json"])
    out = capsys.readouterr().out
    figures = json.loads(out)
    assert code == 0, out
    assert figures["tables"] == 2 and figures["finished"] == 2 and figures["blames"] == 0
    assert figures["decision_latency_ms_p95"] > 0 and figures["cpu_s"] > 0


@pytest.mark.parametrize(("args", "message"), [
    (["--tables", "0"], "--tables must be between 1 and 200"),
    (["--seats", "2"], "--seats must be between 3 and 10"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--timeout", "0"], "--timeout must be above 0"),
    (["--broker", "http://x"], "mqtt"),
    (["--bot", "nosuch"], "nosuch"),
])
def test_bad_arguments_are_one_line(args: list[str], message: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "load", *args]) != 0
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
