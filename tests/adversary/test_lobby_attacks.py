"""The fake-announcement kind against honest machines, on a fake clock, in both games.

A :class:`LobbyRouter` carries what each machine writes to the lobby (its retained
announcements) to every other machine, as the broker would deliver them to each link.
The cheat announces the table under its own key and signs a START that seats a victim
alone against its puppets: nobody is seated at the fake table, every honest seat keeps
the host it joined and the same result, and only the cheat is named.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lodam_p2p.redteam.attacks import ATTACKS
from lodam_p2p.redteam.seat import Cheat
from lodam_p2p.session.link import LobbySeen
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.transport.lobby import TableAnnouncement
from tests.adversary.memory import CheatRouter, cheat_table
from tests.adversary.support import assert_convicted
from tests.adversary.support import play_against as play_over_mosquitto
from tests.support.brokers import Mosquitto


class LobbyRouter(CheatRouter):
    """A router that also delivers every retained announcement to the other machines."""

    def _carry(self, machine: TableMachine) -> bool:
        writes = [payload for _topic, payload in machine.retained if payload]
        for payload in writes:
            announcement = TableAnnouncement.decode(payload)
            for other in self.machines:
                if other is not machine:
                    other.receive(LobbySeen(announcement), self.now)
        return super()._carry(machine) or bool(writes)


@pytest.mark.parametrize("game", ["lodam", "lorum"])
def test_a_fake_announcement_takes_nobody_and_only_its_seat_is_named(game: str) -> None:
    attack = ATTACKS["fake-announcement"]()
    table = cheat_table(attack, game=game)
    watcher = table[0]
    router = LobbyRouter(table)
    router.start()
    router.play_out_honest()
    cheat = next(m for m in table if isinstance(m, Cheat))
    honest = [m for m in table if not isinstance(m, Cheat)]
    report = cheat.report()
    assert report["attempted"] and report["learned"] == [], report
    # nobody joined the fake table: every honest seat kept its host and its roster
    rosters = {tuple(s.peer for s in m.roster.sitters) for m in honest if m.roster}
    assert rosters == {tuple(m.me for m in table[1:])}
    assert all(m.host == watcher.me for m in honest)
    results = [m.outcome.to_json() for m in honest if m.outcome is not None]
    assert len(results) == len(honest) and all(r == results[0] for r in results)
    blamed = {line.split(":")[0] for line in results[0]["blames"]}
    assert blamed == {f"seat {cheat.seat}"}, results[0]["blames"]
    assert any("signed a START for table" in line for line in results[0]["blames"])


@pytest.mark.slow
def test_a_fake_announcement_over_mosquitto_convicts_only_the_attacker(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """In separate processes (host, an honest bot, the adversary): the honest seats
    stay at their host's table and both name the attacker alone, in the same words."""
    played = play_over_mosquitto("fake-announcement", make_mosquitto(""), tmp_path)
    assert_convicted(played)
    assert all("signed a START for table" in r["blames"][0] for r in played.honest)
