"""What a newcomer meets on a real terminal (tmux): a table that cannot start closes the
screen and says why in one line with a non-zero status, in both games; Esc closes the
keys panel; the Lorum score sheet's columns line up on the screen.

tmux must be installed (``.ci/run`` installs it); without it the test fails, it does not
skip. Waits poll the screen; their bounds are only a safety net against a hang.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.brokers import Mosquitto
from tests.support.tmux import Tmux

LODAM = Path(sys.executable).with_name("lodam")


def _env(tmp_path: Path) -> str:
    return f"HOME={tmp_path} XDG_STATE_HOME={tmp_path}/state XDG_CONFIG_HOME={tmp_path}/cfg "


@pytest.mark.slow
@pytest.mark.parametrize("game", ["lodam", "lorum"])
def test_a_broker_that_refuses_closes_the_screen_with_one_line_and_status_1(
        tmp_path: Path, game: str) -> None:
    log = tmp_path / "lodam.log"
    tmux = Tmux(f"{_env(tmp_path)}{LODAM} play --game {game} --broker mqtt://127.0.0.1:9 "
                f"--log-file {log}; echo EXIT=$?; sleep 60")
    try:
        after = tmux.wait_for("EXIT=")
    finally:
        tmux.close()
    assert "EXIT=1" in after
    said = [line for line in after.splitlines() if line.strip()]
    assert said[0].startswith("lodam: the table stopped: cannot connect"), after
    assert "leave out --broker" in after and "Traceback" not in after
    assert "waiting for the table" not in after  # the screen is gone


@pytest.mark.slow
def test_esc_closes_the_keys_panel(tmp_path: Path) -> None:
    tmux = Tmux(f"{_env(tmp_path)}{LODAM} play --offline --seed 2 --bot-delay 0 "
                f"--log-file {tmp_path}/lodam.log; echo EXIT=$?; sleep 60")
    try:
        tmux.wait_for("? help")
        tmux.keys("?")
        tmux.wait_for("Esc or ? closes this")
        tmux.keys("Escape")
        tmux.wait_until(lambda s: "Esc or ? closes this" not in s, "the keys panel closed")
        tmux.keys("q")
        tmux.wait_for("Leave the table?")
        tmux.keys("y")
        assert "EXIT=0" in tmux.wait_for("EXIT=")
    finally:
        tmux.close()


@pytest.mark.slow
def test_the_score_sheet_lines_up_on_the_screen(tmp_path: Path) -> None:
    tmux = Tmux(f"{_env(tmp_path)}{LODAM} play --game lorum --offline --seed 2 --bot-delay 0 "
                f"--log-file {tmp_path}/lodam.log; echo EXIT=$?; sleep 60", width=100,
                height=30)
    try:
        tmux.wait_for("Lorum")
        tmux.keys("s")
        screen = tmux.wait_for("Score sheet")
        rows = [line for line in screen.splitlines()
                if "/4" in line or "total points" in line]
        assert len(rows) == 9, screen  # eight contracts and the totals
        ends = {len(line.split("│")[1].rstrip()) if "│" in line else len(line.rstrip())
                for line in rows}
        assert len(ends) == 1, screen
        tmux.keys("Escape")
        tmux.keys("q")
        tmux.wait_for("Leave the table?")
        tmux.keys("y")
        tmux.wait_for("EXIT=")
    finally:
        tmux.close()


@pytest.mark.slow
def test_the_lobby_of_lorum_names_lorum_and_not_losing_lodam(tmp_path: Path) -> None:
    tmux = Tmux(f"{_env(tmp_path)}{LODAM} play --game lorum --lobby "
                f"--log-file {tmp_path}/lodam.log; echo EXIT=$?; sleep 60")
    try:
        screen = tmux.wait_for("a new table plays Lorum")
        assert "Losing Lodam" not in screen
        tmux.keys("c")
        screen = tmux.wait_for("A new table of Lorum")
        assert "Lobby · a new table of Lorum" in screen and "Losing Lodam" not in screen
        tmux.keys("Escape")
        tmux.wait_for("a new table plays Lorum")
        tmux.keys("q")
        assert "EXIT=0" in tmux.wait_for("EXIT=")
    finally:
        tmux.close()


@pytest.mark.slow
def test_the_lobbys_bots_fill_every_empty_seat_of_a_new_table(
        tmp_path: Path, mosquitto: Mosquitto) -> None:
    tmux = Tmux(f"{_env(tmp_path)}{LODAM} play --lobby --broker {mosquitto.url} "
                f"--name Ann --bot-delay 0 --log-file {tmp_path}/lodam.log; "
                f"echo EXIT=$?; sleep 60")
    try:
        tmux.wait_for("a new table plays Losing Lodam")
        tmux.keys("c")
        tmux.wait_for("A new table of Losing Lodam")
        tmux.keys("Down", "BSpace", "3")  # three seats: Ann and two bots
        tmux.wait_for("3_")
        tmux.keys("Down", "Down", "Down")  # past the bots (heuristic) to the button
        tmux.keys("Enter")
        # both empty seats are taken by bots: the match begins with no one else to come
        # (the waiting room may show while the bots' seats connect to the broker)
        screen = tmux.wait_for("deal 1")
        assert "still missing" not in screen, screen
        tmux.keys("q")
        tmux.wait_for("Leave the table?")
        tmux.keys("y")
        assert "EXIT=0" in tmux.wait_for("EXIT=")
    finally:
        tmux.close()
