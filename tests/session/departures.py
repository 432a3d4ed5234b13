"""Test support for leaving: the seat that leads, a seat that goes, and the one result
every peer that stayed must report (machines of :mod:`tests.session.machines`)."""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.session.link import PresenceSeen
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.tableplan import MatchOutcome
from tests.session.machines import Router


def sole_leader(table: Sequence[TableMachine]) -> int | None:
    """The one seat best placed by the game once every peer has settled the same deals
    (and at least one): None while that is not so."""
    played = {m.match.deals_played if m.match is not None else -1 for m in table}
    if len(played) != 1 or played.pop() < 1:
        return None
    watcher = table[0]
    assert watcher.game is not None
    ranks = watcher.game.standings(watcher.match).ranks
    playing = [s for s, dealt in enumerate(watcher.game.dealt_in(watcher.match)) if dealt]
    best = min(ranks[s] for s in playing)
    leaders = [s for s in playing if ranks[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def leave(router: Router, machine: TableMachine) -> None:
    """``machine`` is gone: it moves no more, and every other peer sees its presence go."""
    router.machines.remove(machine)
    for other in router.machines:
        other.receive(PresenceSeen(machine.me, False), router.now)


def honest_outcomes(stayed: Sequence[TableMachine]) -> list[MatchOutcome]:
    """Every outcome of the peers that stayed, checked to be one and the same result."""
    outcomes = [m.outcome for m in stayed]
    assert all(o is not None for o in outcomes)
    done = [o for o in outcomes if o is not None]
    assert all(o.to_json() == done[0].to_json() and o.standings == done[0].standings
               and o.lives == done[0].lives for o in done)
    return done
