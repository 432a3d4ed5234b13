"""People at a networked Lorum table, in real terminals: ``lodam host --game lorum``
with a person and a bot seated by its process, ``lodam join`` with a second person, and
a ``lodam bot`` process, over a private mosquitto, played by keyboard to the end of a
short match (the Quartet and the Lorum: one round of eight deals).

Keys are sent only when a screen shows that a decision is awaited ("Enter confirm"),
or the end-of-deal panel ("Enter: continue"); a decision is answered with ``h`` (the
hint) and, once the hint shows, Enter; after each key the test waits for the screen to
show it was taken. Every wait polls with a generous safety limit; nothing is timed. At
the end both screens show the round's standings ("play again"), both people leave with
``q`` ``y``, and every process prints its one JSON line: the same result everywhere,
ended by play (no blame).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.brokers import Mosquitto
from tests.support.tmux import Tmux
from tests.ui.netplay import (
    LEAVE,
    NODELAY,
    Pane,
    client,
    play_to_the_end,
    until,
    winner_first,
)

#: Safety limit on the match, in seconds (a hang fails the test; it never passes by waiting).
MATCH_S = 900.0
#: A short match: two contracts a dealer, four dealers.
OPTIONS = ("--option", "contracts=quartet,lorum")
ASKED = "Enter confirm"
HINTED = "hint: Enter plays it"
DEAL_OVER = "Enter: continue"
OVER = "Enter: play again"


@dataclass
class Person(Pane):
    """One client pane and the keys its person presses."""

    decisions: int = 0
    deal_ends: int = 0
    screens: list[str] = field(default_factory=list)

    def step(self) -> bool:
        """Press what the screen asks for, if anything; True once the match is over."""
        screen = self.screen()
        if OVER in screen:
            self.screens.append(screen)
            return True
        if DEAL_OVER in screen:
            self.deal_ends += 1
            self.tmux.keys("Enter", target=self.pane)
            until(lambda: DEAL_OVER not in self.screen() or OVER in self.screen(),
                  "the end-of-deal panel closed", self.screen)
        elif ASKED in screen and LEAVE not in screen:
            self._hint_then_enter(screen)
        return False

    def _hint_then_enter(self, screen: str) -> None:
        """``h``, then Enter once the hint shows; a question answered by the table in
        the meantime (a timed table does not wait) leaves nothing to press."""
        self.decisions += 1
        if len(self.screens) < 3:
            self.screens.append(screen)
        self.tmux.keys("h", target=self.pane)
        until(lambda: HINTED in self.screen() or ASKED not in self.screen(), "the hint",
              self.screen)
        if HINTED in self.screen():
            self.tmux.keys("Enter", target=self.pane)
            until(lambda: HINTED not in self.screen(), "the answer taken", self.screen)


@pytest.mark.slow
def test_two_people_host_and_join_a_lorum_table_and_play_it_to_the_end(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    url, table = make_mosquitto(NODELAY).url, "linden"
    tmux = Tmux(client("host", "--game", "lorum", "--table", table, "--seats", "4",
                       "--bot", "heuristic", "--broker", url, "--name", "Ann", *OPTIONS),
                name="host", width=80, height=24)
    try:
        host = Person(tmux, "host")
        until(lambda: "2 of 4 seats taken" in host.screen(), "the host's waiting room",
              host.screen)
        assert "Lorum · table linden" in host.screen() and "Moll" in host.screen()
        tmux.open("join", client("join", table, "--broker", url, "--name", "Bo"))
        joiner = Person(tmux, "join")
        until(lambda: "3 of 4 seats taken" in joiner.screen(), "the joiner seated",
              joiner.screen)
        waiting = joiner.screen()
        assert "Lorum · table linden" in waiting and "1 still missing" in waiting
        results = play_to_the_end([host, joiner], ["heuristic", "--table", table,
                                                   "--broker", url], tmp_path / "bot.log",
                                  MATCH_S)
    finally:
        tmux.close()
    assert all(r == results[0] for r in results), results
    line = results[0]
    assert line["game"] == "lorum" and line["table"] == table
    assert line["blames"] == [] and line["winners"]
    assert line["deals"] == 8 and line["audits_passed"] == line["deals"]
    assert sorted(line["standings"]) == [0, 1, 2, 3]  # type: ignore[call-overload]
    for person, other in ((host, "Bo"), (joiner, "Ann")):
        assert person.decisions and person.deal_ends >= 1
        final = person.screens[-1]
        assert f"table {table}" in final and other in final and "you" in final, final
        winner_first(final, "The round is over: ")
    assert "Quart" in "".join(host.screens[:3] + joiner.screens[:3])
