"""``lodam bench net``: the figures it prints, one match or several (never its speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lodam_p2p.cli import main
from lodam_p2p.cli.bench_net import summarize


def _sample(match_s: float, deals: int, remasks: int) -> dict[str, object]:
    return {"broker": "mosquitto", "shuffle_deal_ms_median": 250.0 + match_s,
            "match_s": match_s, "bytes_per_hand": 190_000 + deals, "deals": deals,
            "audits_passed": deals, "remasks": remasks, "us_per_scalar_mult": 30.0,
            "cpu_s": 2 * match_s}


def test_the_summary_takes_each_figure_s_median_and_the_spread_of_match_times() -> None:
    summary = summarize([_sample(15.5, 14, 460), _sample(21.0, 13, 500),
                         _sample(13.25, 14, 380)])
    assert summary["broker"] == "mosquitto" and summary["matches"] == 3
    assert summary["match_s"] == 15.5 and summary["cpu_s"] == 31.0
    assert summary["deals"] == 14 and isinstance(summary["deals"], int)
    assert summary["remasks"] == 460
    assert (summary["match_s_min"], summary["match_s_max"]) == (13.25, 21.0)


def test_an_even_count_of_matches_gives_the_middle_two_s_mean() -> None:
    summary = summarize([_sample(14.0, 13, 401), _sample(18.0, 14, 450)])
    assert summary["match_s"] == 16.0
    assert summary["deals"] == 13.5 and summary["remasks"] == 425.5


@pytest.mark.parametrize("count", ["0", "101"])
def test_a_count_of_matches_out_of_range_is_one_line(
        count: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "net", "--matches", count]) != 0
    err = capsys.readouterr().err.strip()
    assert "--matches must be between 1 and 100" in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_two_lorum_matches_print_each_one_and_then_their_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "net", "--game", "lorum", "--seats", "3", "--matches", "2",
                 "--json", "--profile", str(tmp_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3
    first, second, summary = lines
    for match in (first, second):
        assert match["deals"] == 24 and match["audits_passed"] == 24
        assert match["match_s"] > 0 and match["cpu_s"] > 0
    assert summary["matches"] == 2 and summary["deals"] == 24
    assert summary["match_s_min"] == min(first["match_s"], second["match_s"])
    assert summary["match_s_max"] == max(first["match_s"], second["match_s"])
    # each match's bots profiled apart, none overwriting another's
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"match-{m}-seat-{s}.prof" for m in (1, 2) for s in range(3)]
