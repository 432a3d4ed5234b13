"""A host that only watched (``lodam host --watch``) comes back after its process died:
it follows the table to its end and prints the result the seats print."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from lodam_p2p.games import get_game
from lodam_p2p.games.lodam import Options
from lodam_p2p.session import Session, SessionError
from lodam_p2p.session.course import SessionPhase
from lodam_p2p.session.journal import Journal
from lodam_p2p.session.table import _run_all, _sessions
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots
from tests.session.test_rejoin import PATIENCE, TIMING, _joiner
from tests.support.aio import until
from tests.support.virtual import run_on_table_clock


async def _watcher_back(tmp_path: Path) -> tuple[MatchOutcome, list[MatchOutcome], Session]:
    hub = MemoryHub()
    journal = Journal.open(tmp_path / "state")
    (host,) = _sessions("oak", Options(lives=2), 3, [], connect=hub.transport, seed=4,
                        timing=TIMING, spectator=None, journal=journal)
    joiners = [_joiner(hub, plan, place)
               for place, plan in enumerate(bots(["random", "heuristic", "random"]), 1)]
    hosting = asyncio.create_task(host.run())
    joined = [asyncio.create_task(s.run()) for s in joiners]
    await until("a hand dealt at the host", lambda: host.hand_no >= 2
                and host.hand is not None and host.hand.dealt)
    host.link.transport.abort()  # as kill -9 of lodam host --watch
    hosting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await hosting
    (again,) = _sessions("oak", Options(lives=2), 3, [], connect=hub.transport, seed=4,
                         timing=TIMING, spectator=None, journal=journal)
    assert again.me == host.me
    try:
        watched = (await _run_all([again]))[0]
        outcomes = list(await asyncio.gather(*joined))
    finally:
        journal.close()
    return watched, outcomes, again


def test_a_watching_host_comes_back_and_prints_the_seats_result(tmp_path: Path) -> None:
    watched, outcomes, again = run_on_table_clock(_watcher_back(tmp_path),
                                                  PATIENCE * 2)
    assert {repr(o.to_json()) for o in outcomes} == {repr(watched.to_json())}
    assert watched.blames == () and watched.winners
    assert again.phase is SessionPhase.DONE


async def _lorum_watcher_back(tmp_path: Path) -> str:
    hub = MemoryHub()
    journal = Journal.open(tmp_path / "state")
    lorum = get_game("lorum")
    options = lorum.parse_options(["contracts=red_king"])
    (host,) = _sessions("oak", options, 3, [], connect=hub.transport, seed=4, timing=TIMING,
                        spectator=None, journal=journal, game=lorum)
    joiners = [_joiner(hub, plan, place) for place, plan in enumerate(bots(["random"] * 3), 1)]
    tasks = [asyncio.create_task(s.run()) for s in [host, *joiners]]
    try:
        await until("a hand dealt at the host", lambda: host.hand is not None
                    and host.hand.dealt)
        host.link.transport.abort()
        tasks[0].cancel()
        (again,) = _sessions("oak", options, 3, [], connect=hub.transport, seed=4,
                             timing=TIMING, spectator=None, journal=journal, game=lorum)
        try:
            await _run_all([again])
        except SessionError as err:
            return str(err)
        return "came back"
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        journal.close()


def test_a_watching_host_of_a_lorum_table_says_why_it_cannot_come_back(
        tmp_path: Path) -> None:
    told = run_on_table_clock(_lorum_watcher_back(tmp_path), PATIENCE * 2)
    assert "the host of Lorum table oak comes back only beside a seat of its own" in told
