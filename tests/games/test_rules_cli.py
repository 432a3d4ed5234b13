"""``lodam rules`` asks the game registry: each scenario's game replays it, each game
states its options (and their help) once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lodam_p2p.cli import main
from lodam_p2p.games import game_names, get_game


@pytest.mark.parametrize("name", game_names())
def test_show_options_prints_the_game_s_own_rows(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = get_game(name).option_rows()
    assert main(["rules", "show-options", "--game", name, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {row.name: row.default for row in rows}
    assert main(["rules", "show-options", "--game", name]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(rows)
    for line, row in zip(lines, rows, strict=True):
        assert line.startswith(row.name) and line.endswith(row.help) and row.help


def test_a_scenario_of_an_unknown_game_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "skat.json"
    path.write_text(json.dumps({"game": "skat", "players": 3}), encoding="utf-8")
    assert main(["rules", "replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "'skat'" in err and "lorum" in err


def test_a_lorum_scenario_is_replayed_by_lorum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = [str(card) for card in get_game("lorum").deal_plan(
        get_game("lorum").start_match(get_game("lorum").default_options(), 4, 0)).pack]
    scenario = {"game": "lorum", "players": 4, "dealer": 3, "contract": "lorum",
                "deck": deck, "actions": [{"seat": 0, "play": "7E"}]}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    assert main(["rules", "replay", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["lays"][0] == [0, "7E"]
    assert result["error"]["index"] == 1, "the actions ran out with the deal going on"
