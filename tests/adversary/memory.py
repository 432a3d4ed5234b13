"""Test support: one cheating seat among honest table machines, on a fake clock.

:func:`cheat_table` builds what :func:`tests.session.machines.machines` builds — the
host's watcher and one machine per seat, random bots, seeded secrets — with one seat a
:class:`~lodam_p2p.redteam.seat.Cheat` mounting the attack. :class:`CheatRouter` carries
what the cheat pretends about its presence (it went away, it came back) to every other
machine, as the broker would carry its presence. :func:`play_against` plays the match
out and returns the honest outcomes, which :func:`assert_held` checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lodam_p2p.games import Game, get_game
from lodam_p2p.redteam.attacks import ATTACKS, Attack
from lodam_p2p.redteam.seat import Cheat
from lodam_p2p.session.course import Timing
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.link import PresenceSeen
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import peer_name, raw_public
from tests.session.helpers import bots
from tests.session.machines import TABLE, Router, Spot

#: The table's limits on the fake clock: a silent seat is voted out after 20 s, an away
#: one has left after 40 s.
TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)
#: The two games as the issue plays them: Lodam with one life, and a short Lorum (one
#: contract; the default round is the command's, over a broker).
GAMES: dict[str, tuple[str, ...]] = {"lodam": ("lives=1",), "lorum": ("contracts=red_king",)}


def cheat_table(attack: Attack, *, game: str = "lodam", options: tuple[str, ...] | None = None,
                seat: int = 1, seats: int = 4, seed: int = 1,
                timing: Timing = TIMING) -> list[TableMachine]:
    """The watcher first, then the seats; seat ``seat`` is a :class:`Cheat` mounting
    ``attack`` (the others are random bots)."""
    played: Game = get_game(game)
    chosen = played.parse_options(list(GAMES[game] if options is None else options))
    entropies = [seeded(seed, place) for place in range(seats + 1)]
    spots = [Spot(TABLE, identity, peer_name(raw_public(identity)))
             for identity in map(new_identity, entropies)]
    host, *places = spots
    desk = HostDesk(TABLE, host.peer, seats, chosen, tuple(s.peer for s in places),
                    limit_s=timing.timeout_s, game=played)
    table = [TableMachine(host, plan=None, entropy=entropies[0], timing=timing,
                          host=host.peer, desk=desk)]
    for at, (spot, plan) in enumerate(zip(places, bots(["random"] * seats), strict=True)):
        kwargs: dict[str, Any] = {"plan": plan, "entropy": entropies[at + 1],
                                  "timing": timing, "host": host.peer}
        table.append(Cheat(spot, attack=attack, **kwargs) if at == seat
                     else TableMachine(spot, **kwargs))
    return table


class CheatRouter(Router):
    """A :class:`~tests.session.machines.Router` that also carries the cheat's pretended
    presence changes to every other machine."""

    def pump(self) -> bool:
        said = super().pump()
        for machine in self.machines:
            if isinstance(machine, Cheat) and machine.moves:
                moves, machine.moves = machine.moves, []
                for online in moves:
                    for other in self.machines:
                        if other is not machine:
                            other.receive(PresenceSeen(machine.me, online), self.now)
                said = True
        return said

    def play_out_honest(self, turns: int = 2000) -> None:
        """As :meth:`play_out`, until every honest machine is done (a cheat that left,
        say, may never be)."""
        for _ in range(turns):
            self.settle()
            if all(m.done for m in self.machines if not isinstance(m, Cheat)):
                return
            dues = [due for m in self.machines if not m.done
                    and (due := m.timer()) is not None]
            assert dues, "waiting with no deadline"
            self.now = max(self.now, min(dues))
        raise AssertionError("the match never ended")


@dataclass
class Played:
    """A match against a cheat: the cheat and the honest seats' outcomes (watcher first)."""

    cheat: Cheat
    honest: list[dict[str, Any]]
    table: list[TableMachine]


def play_against(kind: str | Attack, *, game: str = "lodam", seat: int = 1,
                 options: tuple[str, ...] | None = None, seed: int = 1,
                 timing: Timing = TIMING) -> Played:
    """Play one match of random bots with the attack ``kind`` at ``seat``."""
    attack = ATTACKS[kind]() if isinstance(kind, str) else kind
    table = cheat_table(attack, game=game, options=options, seat=seat, seed=seed,
                        timing=timing)
    router = CheatRouter(table)
    router.start()
    router.play_out_honest()
    cheat = next(m for m in table if isinstance(m, Cheat))
    honest = [m.outcome.to_json() for m in table
              if not isinstance(m, Cheat) and m.outcome is not None]
    assert len(honest) == len(table) - 1
    return Played(cheat, honest, table)


def assert_held(played: Played) -> None:
    """The attack was mounted and won nothing; every honest seat has the same result, no
    honest seat is blamed, and the cheat is not among the winners if it was blamed."""
    report = played.cheat.report()
    assert report["attempted"], report
    assert report["learned"] == [], report
    first = played.honest[0]
    assert all(result == first for result in played.honest), played.honest
    seat = played.cheat.seat
    blamed = {line.split(":")[0] for line in first["blames"]}
    assert blamed <= {f"seat {seat}"}, first["blames"]
    if blamed:
        assert seat not in first["winners"], first
