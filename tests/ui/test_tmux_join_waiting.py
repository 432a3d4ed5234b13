"""A person who joins a table by ``--broker`` before its host has started, in a real
terminal (tmux), over a private mosquitto: the waiting screen says which table it waits
for and on which broker; once the host starts, the person is seated at the table; Esc
leaves the waiting screen with status 0; a wait that runs out ends with one line naming
the table and the broker, status 1.

Every wait polls the screen with a generous safety limit; nothing is timed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.brokers import Mosquitto
from tests.support.tmux import Tmux
from tests.ui.netplay import NODELAY, client

WAITING = "waiting for table {table} on {url}"


@pytest.mark.slow
def test_a_person_waiting_for_a_table_is_seated_once_its_host_starts(
        make_mosquitto: Callable[[str], Mosquitto]) -> None:
    url = make_mosquitto(NODELAY).url
    tmux = Tmux(client("join", "oak", "--broker", url, "--name", "Bo"), name="join")
    try:
        waiting = tmux.wait_for(WAITING.format(table="oak", url=url), "join")
        assert "Joining table oak" in waiting and "Esc leaves" in waiting
        tmux.open("host", client("host", "--table", "oak", "--seats", "4", "--bot",
                                 "random", "--broker", url, "--name", "Ann"))
        seated = tmux.wait_for("3 of 4 seats taken", "join")
        assert "Joining table oak" not in seated
        tmux.keys("q", target="join")
        tmux.wait_for("Leave the table?", "join")
        tmux.keys("y", target="join")
        tmux.wait_for("EXIT=", "join")
        assert "EXIT=0" in tmux.joined("join") and "Traceback" not in tmux.joined("join")
    finally:
        tmux.close()


@pytest.mark.slow
def test_esc_leaves_the_waiting_screen_and_a_wait_run_out_is_one_line(
        make_mosquitto: Callable[[str], Mosquitto]) -> None:
    url = make_mosquitto(NODELAY).url
    tmux = Tmux(client("join", "elm", "--broker", url), name="esc")
    try:
        tmux.wait_for(WAITING.format(table="elm", url=url), "esc")
        tmux.keys("Escape", target="esc")
        tmux.wait_for("EXIT=", "esc")
        assert "EXIT=0" in tmux.joined("esc")
        tmux.open("out", client("join", "elm", "--broker", url, "--wait", "1"))
        tmux.wait_for("EXIT=", "out")
        after = tmux.joined("out")  # the line as said, not as the pane wraps it
        said = [line for line in after.splitlines() if line.strip()]
        assert said[0].startswith(f"lodam: no table elm on {url} in 1 s"), after
        assert said[1] == "EXIT=1", after
    finally:
        tmux.close()
