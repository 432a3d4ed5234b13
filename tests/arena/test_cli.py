"""``lodam arena`` and ``lodam bots`` on the command line: output shape and errors."""

from __future__ import annotations

import json

import pytest

from lodam_p2p.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_one_object_of_the_promised_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        capsys, "arena", "--bots", "heuristic,random*2", "--matches", "3", "--seed", "7",
        "--json",
    )
    assert code == 0
    report = json.loads(out)
    assert report["matches"] == 3
    assert set(report["bots"]) == {"heuristic", "random"}
    for figures in report["bots"].values():
        assert {"win_share", "ci95", "fair_share", "mean_rank",
                "counters_lost_per_deal"} <= set(figures)
        low, high = figures["ci95"]
        assert 0.0 <= low <= figures["win_share"] <= high <= 1.0
    assert report["bots"]["heuristic"]["fair_share"] == pytest.approx(1 / 3)
    assert sum(f["win_share"] for f in report["bots"].values()) == pytest.approx(1.0)
    assert report["game"] == "lodam"


def test_naming_the_default_game_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("arena", "--bots", "heuristic,random*2", "--matches", "3", "--seed", "5", "--json")
    code, plain, _err = run(capsys, *argv)
    code_named, named, _err = run(capsys, *argv, "--game", "lodam")
    assert code == code_named == 0
    timeless = [{k: v for k, v in json.loads(text).items() if k != "decision_ms"}
                for text in (named, plain)]
    assert timeless[0] == timeless[1]


def test_text_report_and_bot_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "arena", "--bots", "heuristic,random*2", "--matches", "3",
        "--bot-option", "heuristic.risk=2", "--option", "lives=1",
    )
    assert code == 0
    assert "win share" in out and "heuristic" in out
    assert "matches/s" in err


def test_a_comparison_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        capsys, "arena", "--bots", "random*2", "--compare", "heuristic,random",
        "--matches", "3", "--json",
    )
    assert code == 0
    comparison = json.loads(out)["comparison"]
    assert comparison["a"] == "heuristic" and comparison["pairs"] == 3


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--bots", "nosuch,random*2"], "unknown bot 'nosuch'"),
        (["--bots", "random*x"], "bad seat count"),
        (["--bots", "random*0,random"], "at least 1"),
        (["--bots", "random"], "3 to 10 seats"),
        (["--bots", "random*2"], "Losing Lodam needs 3 to 10 seats, got 2"),
        (["--game", "skat", "--bots", "random*4"], "unknown game 'skat': no engine"),
        (["--bots", "random*11"], "at most 10 seats"),
        (["--bots", "random*3", "--matches", "0"], "--matches"),
        (["--bots", "random*3", "--matches", "many"], "invalid int value"),
        (["--bots", "random*3", "--option", "lives=99"], "lives"),
        (["--bots", "random*3", "--option", "colour=red"], "unknown option"),
        (["--bots", "heuristic,random*2", "--bot-option", "heuristic.nope=1"], "no option"),
        (["--bots", "random*3", "--bot-option", "heuristic.risk=1"], "has no seat"),
        (["--bots", "random*3", "--bot-option", "risk=1"], "NAME.key=value"),
        (["--bots", "random*3", "--jobs", "0"], "--jobs"),
        (["--bots", "random*3", "--early-stop"], "--compare"),
        (["--bots", "random*3", "--compare", "random"], "two bot names"),
        (["--bots", "random*3", "--plugin-dir", "/nonexistent/plugins"], "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    code, out, err = run(capsys, "arena", *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert needle in err


def test_lodam_bots_lists_name_source_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "bots", "--json")
    assert code == 0
    bots = json.loads(out)["bots"]
    assert bots["random"]["source"].startswith("entry point random")
    assert "risk" in bots["heuristic"]["options"]
    code, out, _err = run(capsys, "bots")
    assert code == 0 and "heuristic" in out and "from entry point" in out


def test_help_is_there(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "arena", "--help")
    assert code == 0
    assert "--compare" in out and "--bot-option" in out and "NAME*K" in out


def test_a_bad_label_or_its_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "arena", "--bots", "random@,random*2")
    assert code == 2 and "bad bot name" in err
    code, _out, err = run(
        capsys, "arena", "--bots", "heuristic@x,random*2", "--bot-option", "heuristic@x.nope=1"
    )
    assert code == 2 and "no option 'nope'" in err
