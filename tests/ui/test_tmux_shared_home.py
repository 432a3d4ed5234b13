"""Two people on one machine account, match after match: host and join in two terminals.

One ``HOME`` (the suite's private one) for both, as at a LAN party on one laptop: ``lodam
host`` (the person at the first seat, a hosted heuristic bot in the second) and ``lodam
join`` in tmux panes over a private mosquitto, one counter each, each person pressing
``h`` and Enter on every decision and Enter at every end of a deal. Several matches in a
row, each on a table of its own; between two of them a match is killed mid-play (both
processes, with SIGKILL), leaving its unfinished journals in the state directory, and
the next person to join types the command before the host has announced its table, and
after the last match both press Enter ("play again"), the joiner first.

Every match must end by play on both screens — the match-over panel with "play again",
no voided deal, no early end — and both clients print the same result, with no blame.
Every wait polls the screens with a generous safety limit; nothing is timed.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lodam_p2p.session.journal import default_state_root
from tests.support.brokers import Mosquitto
from tests.support.tmux import Tmux
from tests.ui.netplay import NODELAY, client, until

#: Safety limit on one match, in seconds (a hang fails the test; it never passes by waiting).
MATCH_S = 420.0
#: A decision awaited on the screen (its answer buttons end in "Enter").
ASKED = re.compile(r"(Enter confirm|←/→ · Enter)\s*$", re.MULTILINE)
AGAIN = "Enter: play again"
VOID = "The deal is void"
HOST_ARGS = ("--seats", "3", "--bot", "heuristic", "--option", "lives=1", "--name", "Ann")


@dataclass
class Screen:
    """One person's pane, and what it showed."""

    tmux: Tmux
    pane: str
    voids: int = 0
    over: str = ""
    seen: list[str] = field(default_factory=list)

    def text(self) -> str:
        return self.tmux.screen(self.pane)

    def step(self) -> bool:
        """Press what the screen asks for (``h`` then Enter on a decision, Enter at the
        end of a deal); True once the match-over panel is up."""
        screen = self.text()
        if AGAIN in screen:
            self.over = screen
            return True
        assert "The table stopped" not in screen and "EXIT=" not in screen, screen
        if "Enter: continue" in screen:
            self.voids += VOID in screen
            self.tmux.keys("Enter", target=self.pane)
            until(lambda: "Enter: continue" not in self.text() or AGAIN in self.text(),
                  "the end-of-deal panel closed", self.text)
        elif ASKED.search(screen) and "Leave the table?" not in screen:
            self.seen.append(screen)
            self.tmux.keys("h", target=self.pane)
            until(lambda: "hint:" in self.text() or not ASKED.search(self.text()),
                  "the hint", self.text)
            if "hint:" in self.text():
                self.tmux.keys("Enter", target=self.pane)
                until(lambda: "hint:" not in self.text(), "the answer taken", self.text)
        return False

    def again(self) -> None:
        """Press Enter at the match-over panel: play again."""
        self.tmux.keys("Enter", target=self.pane)
        until(lambda: AGAIN not in self.text(), "a new match begun", self.text)
        self.over, self.voids = "", 0

    def leave(self, matches: int = 1) -> dict[str, object]:
        """Leave with ``q`` ``y``; the JSON line the client printed for its last match
        (one line a match: ``matches`` of them)."""
        self.tmux.keys("q", target=self.pane)
        until(lambda: "Leave the table?" in self.text(), "leave the table?", self.text)
        self.tmux.keys("y", target=self.pane)
        until(lambda: "EXIT=" in self.tmux.joined(self.pane), "the client's exit", self.text)
        text = self.tmux.joined(self.pane)
        assert "EXIT=0" in text and "Traceback" not in text, text
        lines = [line for line in text.splitlines() if line.startswith('{"table"')]
        assert len(lines) == matches, text
        return json.loads(lines[-1])  # type: ignore[no-any-return]

    def kill(self) -> None:
        """SIGKILL the client in this pane (the shell around it stays)."""
        shell = int(self.tmux.run("list-panes", "-t", self.pane, "-F", "#{pane_pid}").split()[0])
        for pid in _children(shell):
            os.kill(pid, signal.SIGKILL)
        until(lambda: "EXIT=" in self.tmux.joined(self.pane), "the killed client gone",
              self.text)


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (the client in a pane's shell)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _host(tmux: Tmux, url: str, table: str) -> Screen:
    tmux.open(f"host-{table}", client("host", "--table", table, "--broker", url, *HOST_ARGS))
    return Screen(tmux, f"host-{table}")


def _join(tmux: Tmux, url: str, table: str) -> Screen:
    tmux.open(f"join-{table}", client("join", table, "--broker", url, "--name", "Bo"))
    return Screen(tmux, f"join-{table}")


def _seated(host: Screen, joiner: Screen) -> None:
    """Both screens past the waiting room, which showed the same seats on both."""
    until(lambda: "3 of 3 seats taken" in joiner.text() or ASKED.search(joiner.text())
          or "Enter: continue" in joiner.text(), "the joiner seated", joiner.text)
    assert "The table stopped" not in host.text() + joiner.text()


def _play(host: Screen, joiner: Screen) -> None:
    """Both people play until both screens show the match-over panel."""
    deadline = time.monotonic() + MATCH_S
    over = [False, False]
    while not all(over):
        assert time.monotonic() < deadline, host.text() + joiner.text()
        over = [done or person.step() for done, person in zip(over, (host, joiner),
                                                               strict=True)]
        time.sleep(0.05)


def _by_play(host: Screen, joiner: Screen) -> None:
    for person in (host, joiner):
        assert "The match is over: " in person.over and person.voids == 0, person.over
        assert VOID not in person.over and "did not answer" not in person.over, person.over


def _results_in(table: str) -> int:
    """How many matches at ``table`` the clients have finished: the screen shows the end
    of a match at once, while its session still lingers a moment for the others (leaving
    then would cancel it before its result is in). Both clients log to the account's one
    log file."""
    log = default_state_root() / "lodam.log"
    text = log.read_text(errors="replace") if log.exists() else ""
    return text.count(f"match over: MatchOutcome(table='{table}'")


def _ended_by_play(host: Screen, joiner: Screen, table: str, matches: int = 1) -> None:
    _by_play(host, joiner)
    until(lambda: _results_in(table) >= 2 * matches, "both clients' results", joiner.text)
    results = [host.leave(matches), joiner.leave(matches)]
    assert results[0] == results[1], results
    assert results[0]["table"] == table and results[0]["blames"] == []
    assert results[0]["winners"] and results[0]["audits_passed"] == results[0]["deals"]


def _played_again(host: Screen, joiner: Screen, table: str) -> None:
    """After a match both press Enter (play again), the joiner first: it looks for the
    table until its host has opened it again, and the new match ends by play too."""
    _by_play(host, joiner)
    joiner.again()
    until(lambda: "looking again" in joiner.text() or "asking the host" in joiner.text(),
          "the joiner waiting for the host to play again", joiner.text)
    assert "seats taken" not in joiner.text()  # no seat shown that its host did not give
    host.again()
    _seated(host, joiner)
    _play(host, joiner)
    _ended_by_play(host, joiner, table, matches=2)


def _match(tmux: Tmux, url: str, table: str, *, join_first: bool = False,
           again: bool = False) -> None:
    if join_first:  # the joiner types faster than the host: it waits for the table
        joiner = _join(tmux, url, table)
        until(lambda: f"waiting for table {table} on {url}" in tmux.joined(joiner.pane),
              "the joiner's waiting screen", joiner.text)
        host = _host(tmux, url, table)
    else:
        host = _host(tmux, url, table)
        until(lambda: "2 of 3 seats taken" in host.text(), "the host's waiting room",
              host.text)
        joiner = _join(tmux, url, table)
    _seated(host, joiner)
    _play(host, joiner)
    if again:
        _played_again(host, joiner, table)
    else:
        _ended_by_play(host, joiner, table)


def _killed_mid_play(tmux: Tmux, url: str, table: str, state: Path) -> None:
    host = _host(tmux, url, table)
    until(lambda: "2 of 3 seats taken" in host.text(), "the host's waiting room", host.text)
    joiner = _join(tmux, url, table)
    until(lambda: any(ASKED.search(p.text()) for p in (host, joiner)), "the first decision",
          host.text)
    host.kill()
    joiner.kill()
    unfinished = [p for p in state.glob("seat-*/journal.json")
                  if table in p.read_text() and '"outcome"' not in p.read_text()]
    assert len(unfinished) == 2, unfinished  # the host's and the joiner's, left behind


@pytest.mark.slow
def test_host_and_joiner_of_one_account_play_match_after_match(
        make_mosquitto: Callable[[str], Mosquitto]) -> None:
    url = make_mosquitto(NODELAY).url
    state = default_state_root()  # the suite's private one, shared by both clients
    tmux = Tmux("sleep 3600", name="idle")
    try:
        _match(tmux, url, "ash")
        _killed_mid_play(tmux, url, "beech", state)
        _match(tmux, url, "cedar", join_first=True)
        _match(tmux, url, "damson", again=True)
    finally:
        tmux.close()
