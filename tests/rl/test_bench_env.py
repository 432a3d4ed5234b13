"""``lodam bench engine --env``: PettingZoo environment steps per second."""

from __future__ import annotations

import json

import pytest

from lodam_p2p.cli import main


@pytest.mark.parametrize(("game", "seats"), [("lodam", 4), ("lorum", 3)])
def test_env_figure(game: str, seats: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--env", "--json", "--game", game, "--seats", str(seats),
                 "--deals", "3"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == game and figures["seats"] == seats and figures["deals"] == 3
    assert figures["steps"] > 3 * 10 and figures["env_steps_per_s"] > 0


def test_env_figure_seeded_steps_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        assert main(["bench", "engine", "--env", "--json", "--deals", "2", "--seed", "9"]) == 0
        runs.append(json.loads(capsys.readouterr().out)["steps"])
    assert runs[0] == runs[1]


def test_env_refuses_a_bad_table() -> None:
    assert main(["bench", "engine", "--env", "--seats", "2"]) == 2
