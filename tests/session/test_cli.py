"""The command lines: clean one-line errors for bad input, and a hosted match end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lodam_p2p.cli import main
from lodam_p2p.session.journal import Journal


@pytest.mark.parametrize(("argv", "message"), [
    (["host", "--table", "oak", "--seats", "2"], "--seats must be between 3 and 10"),
    (["host", "--table", "o/k", "--seats", "3"], "bad table name"),
    (["host", "--table", "oak", "--seats", "3", "--option", "lives=zero"], "bad --option"),
    (["host", "--table", "oak", "--seats", "3", "--bot", "nosuchbot"], "unknown bot"),
    (["host", "--table", "oak", "--seats", "3", "--broker", "http://x"], "broker"),
    (["join", "oak"], "needs a terminal"),
    (["bot", "random", "--broker", "mqtt://127.0.0.1:1", "--table", "oak", "--wait", "0"],
     "lodam: no table oak on mqtt://127.0.0.1:1"),
    (["bench", "net", "--seats", "11"], "--seats must be between 3 and 10"),
    (["bench", "net", "--profile", "pyproject.toml"], "--profile: cannot use pyproject.toml"),
])
def test_bad_input_is_one_line(argv: list[str], message: str,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) != 0
    err = capsys.readouterr().err.strip()
    assert message in err and "Traceback" not in err
    assert len(err.splitlines()) == 1


def test_host_with_every_seat_a_local_bot_prints_one_json_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["host", "--table", "solo", "--seats", "3", "--bot", "random", "--bot", "heuristic",
            "--bot", "random", "--option", "lives=1", "--listen", "127.0.0.1:0", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["table"] == "solo" and result["winners"] and result["blames"] == []
    assert result["audits_passed"] == result["deals"]
    assert "[solo] match over" in captured.err


@pytest.mark.parametrize("option", ["rejoin_grace=soon", "rejoin_grace=0"])
def test_a_bad_rejoin_grace_is_one_line(option: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "random", "--table", "oak", "--option", option]) != 0
    err = capsys.readouterr().err.strip()
    assert "rejoin_grace" in err and len(err.splitlines()) == 1


def test_a_state_dir_in_use_is_one_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    held = Journal.open(tmp_path / "seat")
    try:
        argv = ["bot", "random", "--table", "oak", "--broker", "mqtt://127.0.0.1:1",
                "--state-dir", str(tmp_path / "seat")]
        assert main(argv) != 0
    finally:
        held.close()
    err = capsys.readouterr().err.strip()
    assert "in use by another process" in err and len(err.splitlines()) == 1
