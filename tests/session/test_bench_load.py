"""``lodam bench load``: tables of bots at once on one broker, end to end."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from lodam_p2p.cli import main
from lodam_p2p.cli.bench_load import TableReport, _watched
from lodam_p2p.session.course import SessionPhase


@pytest.mark.slow
def test_two_tables_of_three_finish_on_one_broker(capfd: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "load", "--tables", "2", "--seats", "3", "--workers", "2",
                 "--option", "lives=1", "--json"])
    out, err = capfd.readouterr()
    figures = json.loads(out)
    assert code == 0, out
    assert figures["tables"] == 2 and figures["finished"] == 2 and figures["blames"] == 0
    assert figures["decision_latency_ms_p95"] > 0 and figures["cpu_s"] > 0
    # each table said so as it ended, from its worker process
    assert err.count(" finished after ") == 2, err


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


def test_a_table_nobody_at_which_moves_ends_stalled_with_where_each_stood() -> None:
    still = SimpleNamespace(phase=SessionPhase.MATCH, hand_no=3, hand=None, seat=1,
                            votes={(3, 4, 2): {1}}, away={}, queues={})
    report = TableReport("oak")

    async def never() -> list[object]:
        await asyncio.Event().wait()
        return []

    async def scenario() -> None:
        with pytest.raises(TimeoutError):
            await _watched(never(), [still], 0.2, report)  # type: ignore[arg-type, list-item]

    asyncio.run(asyncio.wait_for(scenario(), 60))
    assert report.stalled and not report.finished
    assert report.error.startswith("stalled: nothing moved for")
    assert "seat 1: match hand 3 step - awaits None" in report.error
    assert "votes [(3, 4, 2)]" in report.error
