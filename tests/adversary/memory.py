"""Test support: one cheating seat among honest table machines, on a fake clock.

:func:`cheat_table` builds what :func:`tests.session.machines.machines` builds — the
host's watcher and one machine per seat, random bots, seeded secrets — with one seat a
:class:`~lodam_p2p.redteam.seat.Cheat` mounting the attack. :class:`CheatRouter` carries
what the cheat pretends about its presence (it went away, it came back) to every other
machine, as the broker would carry its presence. :func:`play_against` plays the match
out and returns the honest outcomes, which :func:`assert_held` checks.

:func:`play_linked` plays a match over the in-memory hub instead, every seat with its
link and runner and the attacker an :class:`~lodam_p2p.redteam.seat.Adversary`: for the
kinds that act below the session (floods, frames), in real time.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from lodam_p2p.games import Game, get_game
from lodam_p2p.redteam.attacks import ATTACKS, Attack
from lodam_p2p.redteam.seat import Adversary, Cheat
from lodam_p2p.session.course import Timing
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.link import Link, PresenceSeen
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.session.runner import Session
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import peer_name, raw_public
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots
from tests.session.machines import TABLE, Router, Spot

#: The table's limits on the fake clock: a silent seat is voted out after 20 s, an away
#: one has left after 40 s.
TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)
#: Real-time limits for matches over the in-memory hub: patient enough that a loaded
#: machine never has an honest seat found silent.
LINKED = Timing(timeout_s=30.0, grace_s=30.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                lobby_s=30.0)
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
    router: CheatRouter


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
    return Played(cheat, honest, table, router)


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


@dataclass
class Linked:
    """A match against an adversary over the in-memory hub: the adversary, the honest
    seats' outcomes (the watcher's first) and their sessions."""

    adversary: Adversary
    honest: list[dict[str, Any]]
    sessions: list[Session]


async def play_linked(attack: Attack, *, game: str = "lodam", seat: int = 1, seats: int = 4,
                      options: tuple[str, ...] | None = None, seed: int = 1,
                      timing: Timing = LINKED) -> Linked:
    """One match of random bots on a :class:`~lodam_p2p.transport.memory.MemoryHub`,
    every seat with its link and runner, the adversary ``attack`` at ``seat``: what a
    flood needs, the frames below the session."""
    hub = MemoryHub()
    played: Game = get_game(game)
    chosen = played.parse_options(list(GAMES[game] if options is None else options))
    entropies = [seeded(seed, place) for place in range(seats + 1)]
    links = [Link(hub.transport, TABLE, new_identity(entropy), heartbeat=timing.heartbeat_s,
                  retry=timing.retry_s) for entropy in entropies]
    host, *places = links
    desk = HostDesk(TABLE, host.peer, seats, chosen, tuple(link.peer for link in places),
                    limit_s=timing.timeout_s, game=played)
    sessions: list[Session] = [Session(host, plan=None, entropy=entropies[0], timing=timing,
                                       host=host.peer, desk=desk)]
    for at, (link, plan) in enumerate(zip(places, bots(["random"] * seats), strict=True)):
        kwargs: dict[str, Any] = {"plan": plan, "entropy": entropies[at + 1],
                                  "timing": timing, "host": host.peer}
        sessions.append(Adversary(link, attack=attack, **kwargs) if at == seat
                        else Session(link, **kwargs))
    outcomes = await asyncio.gather(*(s.run() for s in sessions))
    adversary = next(s for s in sessions if isinstance(s, Adversary))
    honest = [o.to_json() for s, o in zip(sessions, outcomes, strict=True)
              if s is not adversary]
    return Linked(adversary, honest, [s for s in sessions if s is not adversary])


def assert_linked_held(played: Linked) -> None:
    """As :func:`assert_held`, for a match over the hub."""
    report = played.adversary.report()
    assert report["attempted"], report
    assert report["learned"] == [], report
    first = played.honest[0]
    assert all(result == first for result in played.honest), played.honest
    seat = played.adversary.seat
    assert {line.split(":")[0] for line in first["blames"]} <= {f"seat {seat}"}, first
