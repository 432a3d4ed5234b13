"""People at a networked table, in real terminals: two clients in tmux — one hosting
(with a bot seated by its process), one joining — and a bot process, over a private
mosquitto, played by keyboard to the end of the match.

Keys are sent only when a screen shows that a decision is awaited (its answer buttons
end in "Enter"), or the end-of-deal panel ("Enter: continue"); after each key the test
waits for the screen to show it was taken. Every wait polls with a generous safety
limit; nothing is timed. At the end both people leave with ``q`` ``y`` and every
process prints its one JSON line: the same result everywhere, ended by play (no blame).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.brokers import Mosquitto
from tests.support.tmux import Tmux
from tests.ui.netplay import NODELAY, Pane, client, play_to_the_end, until, winner_first

#: Safety limit on the match, in seconds (a hang fails the test; it never passes by waiting).
MATCH_S = 600.0
#: A short match: four seats, one counter, four cards a hand, one exchange round.
OPTIONS = ("--option", "lives=1", "--option", "hand_size=4", "--option",
           "exchanges=first_trick")
ASKED = re.compile(r"(Enter confirm|←/→ · Enter)\s*$", re.MULTILINE)
OUT = "You are out of the match"
#: Tables tried for the host to be knocked out before the final deal.
TABLES = 6
OVER = "The match is over"


@dataclass
class Person(Pane):
    """One client pane and how its person plays."""

    idle_when_out: bool = False
    reckless: bool = False  #: Enter alone: the first card, the highest of its suit
    was_out: bool = False
    decisions: int = 0
    deals_while_out: int = 0
    screens: list[str] = field(default_factory=list)

    def step(self) -> bool:
        """Press what the screen asks for, if anything; True once the match is over."""
        screen = self.screen()
        if OVER in screen:
            self.screens.append(screen)
            return True
        if OUT in screen and not self.was_out:
            self.was_out = True
            self.screens.append(screen)
        if self.was_out and self.idle_when_out:
            return False  # gone for a drink: not a single key from now on
        if "Enter: continue" in screen:
            self.deals_while_out += self.was_out
            self.tmux.keys("Enter", target=self.pane)
            until(lambda: "Enter: continue" not in self.screen() or OVER in self.screen(),
                  "the end-of-deal panel closed", self.screen)
        elif ASKED.search(screen) and "Leave the table?" not in screen:
            self.decisions += 1
            if not self.screens:
                self.screens.append(screen)
            if self.reckless:
                self.tmux.keys("Enter", target=self.pane)
                until(lambda: self.screen() != screen, "the answer taken", self.screen)
                return False
            self.tmux.keys("h", target=self.pane)
            until(lambda: "hint:" in self.screen() or not ASKED.search(self.screen()),
                  "the hint", self.screen)
            if "hint:" in self.screen():
                self.tmux.keys("Enter", target=self.pane)
                until(lambda: "hint:" not in self.screen(), "the answer taken", self.screen)
        return False


def _table(broker: Mosquitto, table: str, tmp_path: Path, *, idle_host: bool = False,
           reckless_host: bool = False) -> tuple[list[dict[str, object]], Person, Person]:
    url = broker.url
    host_cmd = client("host", "--table", table, "--seats", "4", "--bot", "heuristic",
                      "--broker", url, "--name", "Ann", *OPTIONS)
    tmux = Tmux(host_cmd, name="host")
    try:
        host = Person(tmux, "host", idle_when_out=idle_host, reckless=reckless_host)
        until(lambda: "2 of 4 seats taken" in host.screen(), "the host's waiting room",
              host.screen)
        tmux.open("join", client("join", table, "--broker", url, "--name", "Bo"))
        joiner = Person(tmux, "join")
        until(lambda: "3 of 4 seats taken" in joiner.screen(), "the joiner seated",
              joiner.screen)
        waiting = joiner.screen()
        assert "1 still missing" in waiting and "Moll" in waiting and "bot heuristic" in waiting
        results = play_to_the_end([host, joiner], ["heuristic", "--table", table,
                                                   "--broker", url], tmp_path / "bot.log",
                                  MATCH_S)
    finally:
        tmux.close()
    for person in (host, joiner):
        winner_first(person.screens[-1], "The match is over: ")
    return results, host, joiner


def _same_result_by_play(results: list[dict[str, object]]) -> None:
    assert all(r == results[0] for r in results), results
    assert results[0]["blames"] == [] and results[0]["winners"]
    assert results[0]["audits_passed"] == results[0]["deals"]


@pytest.mark.slow
def test_two_people_and_two_bots_play_a_match_over_the_network(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    results, host, joiner = _table(make_mosquitto(NODELAY), "oak", tmp_path)
    _same_result_by_play(results)
    assert host.decisions and joiner.decisions
    assert "Losing Lodam · table oak" in host.screens[0]


@pytest.mark.slow
def test_the_match_ends_by_play_while_the_knocked_out_host_presses_no_key(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """The host plays recklessly (Enter alone: high cards) to be knocked out early, and
    from then on presses no key: its bot, Moll, plays on. Whoever is knocked out is up
    to the cards, so a table where the host lasts to the final deal is played again
    (rarely needed: a reckless host seldom lasts)."""
    broker = make_mosquitto(NODELAY)
    for attempt in range(TABLES):
        results, host, _joiner = _table(broker, f"elm{attempt}", tmp_path, idle_host=True,
                                        reckless_host=True)
        _same_result_by_play(results)
        if host.was_out:
            break
    else:
        pytest.fail(f"the host lasted to the final deal at {TABLES} tables in a row")
    assert host.deals_while_out == 0  # not a key after the knock-out
    assert any("watch the rest, or q to leave" in screen for screen in host.screens)
    assert all(winner != 0 for winner in results[0]["winners"])  # type: ignore[attr-defined]
