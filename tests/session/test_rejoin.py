"""A seat comes back after its process died: in process, over the in-memory hub."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.games.lodam import Options
from lodam_p2p.session import Session, SessionError
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.journal import Journal, SeatJournal
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.link import Link
from lodam_p2p.session.table import _run_all, _sessions
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots, table
from tests.support.aio import until
from tests.support.virtual import run_on_table_clock

#: Patient protocol timeouts and a long rejoin grace: nobody may be blamed here.
TIMING = Timing(timeout_s=60.0, grace_s=60.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                lobby_s=30.0)
#: Safety net for each wait (seconds).
PATIENCE = 120.0


async def _rejoin_match(tmp_path: Path) -> None:
    hub = MemoryHub()
    journal = Journal.open(tmp_path / "state")
    seats = bots(["random", "heuristic", "random", "heuristic"])
    sessions = _sessions("oak", Options(lives=1), 4, seats, connect=hub.transport, seed=3,
                         timing=TIMING, spectator=None, journal=journal)
    tasks = {s: asyncio.create_task(s.run()) for s in sessions}
    victim = sessions[3]  # seat-3: a joiner's seat, not the coordinator
    await until("a hand dealt at the victim",
                 lambda: victim.hand_no >= 2 and victim.hand is not None and victim.hand.dealt)
    victim.link.transport.abort()  # as kill -9: the broker fires the Last Will
    tasks.pop(victim).cancel()
    others = [s for s in sessions if s is not victim and s.seat is not None]
    await until("every seat sees the victim away", lambda: all(s.away for s in others))
    kept = SeatJournal(journal, "seat-3", "oak")
    assert kept.rejoining
    epoch = kept.next_epoch()
    identity = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(kept.entry["identity"]))
    link = Link(hub.transport, "oak", identity, heartbeat=0.1, retry=0.1, epoch=epoch)
    assert link.peer == victim.me
    back = Session(link, plan=bots(["random"] * 4)[3], entropy=seeded(3, 99), timing=TIMING,
                   journal=kept)
    outcomes = await asyncio.gather(*tasks.values(), back.run())
    assert len({o.to_json().__repr__() for o in outcomes}) == 1
    assert outcomes[0].blames == () and outcomes[0].winners
    assert kept.entry["outcome"]["winners"] == list(outcomes[0].winners)
    assert epoch == 1 and back.phase is SessionPhase.DONE
    with contextlib.suppress(Exception):
        journal.close()


def test_a_dead_seat_rejoins_from_its_journal_and_every_peer_ends_with_one_result(
        tmp_path: Path) -> None:
    run_on_table_clock(_rejoin_match(tmp_path), PATIENCE * 2)


async def _leaves(tmp_path: Path) -> None:
    hub = MemoryHub()
    timing = Timing(timeout_s=60.0, grace_s=0.5, linger_s=0.5, heartbeat_s=0.1, retry_s=0.1,
                    lobby_s=30.0)
    sessions = _sessions("oak", Options(lives=1), 3, bots(["random"] * 3),
                         connect=hub.transport, seed=5, timing=timing, spectator=None)
    tasks = {s: asyncio.create_task(s.run()) for s in sessions}
    victim = sessions[2]
    await until("a hand dealt", lambda: victim.hand is not None and victim.hand.dealt)
    victim.link.transport.abort()
    tasks.pop(victim).cancel()
    outcomes = await asyncio.gather(*tasks.values())
    assert len({repr(o.to_json()) for o in outcomes}) == 1
    blames = outcomes[0].blames
    assert len(blames) == 1 and blames[0].startswith("seat 1: left: away for 0.5 s")
    assert 1 not in outcomes[0].winners


def test_a_seat_away_past_the_grace_has_left_and_the_rest_end_with_one_result(
        tmp_path: Path) -> None:
    run_on_table_clock(_leaves(tmp_path), PATIENCE)


async def _bounce(tmp_path: Path) -> None:
    hub = MemoryHub()
    sessions = _sessions("oak", Options(lives=1), 4, bots(["random", "heuristic"] * 2),
                         connect=hub.transport, seed=4, timing=TIMING, spectator=None)
    tasks = [asyncio.create_task(s.run()) for s in sessions]
    sleeper = sessions[2]
    await until("a hand dealt", lambda: sleeper.hand is not None and sleeper.hand.dealt)
    hand = sleeper.hand_no
    await sleeper.link.transport.bounce()  # the will fires; the same process reconnects
    await until("the hand dealt again", lambda: sleeper.hand_no > hand)
    outcomes = await asyncio.gather(*tasks)
    assert len({repr(o.to_json()) for o in outcomes}) == 1
    assert outcomes[0].blames == () and outcomes[0].winners
    begun = sessions[1].hand_no - 1
    assert begun > outcomes[0].deals  # the hand under way was voided and dealt again


def test_a_seat_whose_will_fired_asks_back_from_the_same_process(tmp_path: Path) -> None:
    run_on_table_clock(_bounce(tmp_path), PATIENCE * 2)


def _joiner(hub: MemoryHub, plan: SeatPlan, place: int) -> Session:
    """A seat that joins the table from a process of its own."""
    entropy = seeded(8, place)
    link = Link(hub.transport, "oak", new_identity(entropy), watch_lobby=True,
                heartbeat=0.1, retry=0.1)
    return Session(link, plan=plan, entropy=entropy, timing=TIMING)


async def _host_back(tmp_path: Path) -> None:
    hub = MemoryHub()
    journal = Journal.open(tmp_path / "state")
    hosted = _sessions("oak", Options(lives=1), 4, bots(["heuristic"]),
                       connect=hub.transport, seed=3, timing=TIMING, spectator=None,
                       journal=journal)
    joiners = [_joiner(hub, plan, place)
               for place, plan in enumerate(bots(["random", "heuristic", "random"]), 1)]
    host_tasks = [asyncio.create_task(s.run()) for s in hosted]
    joined = [asyncio.create_task(s.run()) for s in joiners]
    mine = hosted[1]
    await until("a hand dealt at the host's seat",
                 lambda: mine.hand_no >= 2 and mine.hand is not None and mine.hand.dealt)
    for session, task in zip(hosted, host_tasks, strict=True):  # as kill -9 of the host
        session.link.transport.abort()
        task.cancel()
    await until("every joiner sees the host's seat away", lambda: all(
        s.away for s in joiners))
    again = _sessions("oak", Options(lives=1), 4, bots(["heuristic"]), connect=hub.transport,
                      seed=3, timing=TIMING, spectator=None, journal=journal)
    assert [s.me for s in again] == [s.me for s in hosted]
    watched = (await _run_all(again))[0]
    outcomes = [*await asyncio.gather(*joined), again[1].outcome]
    assert {repr(o.to_json()) for o in outcomes if o is not None} == {repr(watched.to_json())}
    assert None not in outcomes
    assert watched.blames == () and watched.winners
    assert journal.entry("host")["outcome"]["winners"] == list(watched.winners)
    assert journal.entry("host")["epoch"] == 1
    with contextlib.suppress(Exception):
        journal.close()


def test_a_dead_host_comes_back_from_its_journal_beside_its_seat(tmp_path: Path) -> None:
    """The host's watcher and its local seat die together, as in ``kill -9`` of ``lodam
    host``; the same journal puts both back, and every peer ends with one result."""
    run_on_table_clock(_host_back(tmp_path), PATIENCE * 2)


async def _host_of_two_back(tmp_path: Path) -> None:
    hub = MemoryHub()
    journal = Journal.open(tmp_path / "state")
    local = bots(["heuristic", "random"])
    hosted = _sessions("oak", Options(lives=1), 4, local, connect=hub.transport, seed=6,
                       timing=TIMING, spectator=None, journal=journal)
    joiners = [_joiner(hub, plan, place)
               for place, plan in enumerate(bots(["random", "heuristic"]), 1)]
    host_tasks = [asyncio.create_task(s.run()) for s in hosted]
    joined = [asyncio.create_task(s.run()) for s in joiners]
    mine = hosted[1:]
    await until("a hand dealt at the host's seats", lambda: all(
        s.hand_no >= 2 and s.hand is not None and s.hand.dealt for s in mine))
    for session, task in zip(hosted, host_tasks, strict=True):  # as kill -9 of the host
        session.link.transport.abort()
        task.cancel()
    await until("every joiner sees both of the host's seats away", lambda: all(
        len(s.away) == 2 for s in joiners))
    again = _sessions("oak", Options(lives=1), 4, local, connect=hub.transport, seed=6,
                      timing=TIMING, spectator=None, journal=journal)
    assert [s.me for s in again] == [s.me for s in hosted]
    watched = (await _run_all(again))[0]
    outcomes = [*await asyncio.gather(*joined), again[1].outcome, again[2].outcome]
    assert None not in outcomes
    assert {repr(o.to_json()) for o in outcomes if o is not None} == {repr(watched.to_json())}
    assert watched.blames == () and watched.winners
    seats = {s.seat for s in again[1:]}
    assert len(seats) == 2 and None not in seats
    coordinator = min(set(range(4)) - seats)
    assert all(s.coordinator(seat) == coordinator for s in joiners for seat in seats)
    with contextlib.suppress(Exception):
        journal.close()


def test_a_dead_host_comes_back_with_two_seats_of_its_own(tmp_path: Path) -> None:
    """Both local seats of a restarted host come back at once: the coordinator is the
    lowest seat that stayed, not one of them, and every peer ends with one result."""
    run_on_table_clock(_host_of_two_back(tmp_path), PATIENCE * 2)


async def _every_seat_back(tmp_path: Path) -> str:
    hub = MemoryHub()
    journal = Journal.open(tmp_path / "state")
    local = bots(["random"] * 3)
    hosted = _sessions("oak", Options(lives=1), 3, local, connect=hub.transport, seed=7,
                       timing=TIMING, spectator=None, journal=journal)
    tasks = [asyncio.create_task(s.run()) for s in hosted]
    await until("a hand dealt", lambda: all(
        s.hand is not None and s.hand.dealt for s in hosted[1:]))
    for session, task in zip(hosted, tasks, strict=True):
        session.link.transport.abort()
        task.cancel()
    again = _sessions("oak", Options(lives=1), 3, local, connect=hub.transport, seed=7,
                      timing=TIMING, spectator=None, journal=journal)
    try:
        await _run_all(again)
    except SessionError as err:
        assert not journal.resumable("oak")  # the next start is a new match
        return str(err)
    finally:
        journal.close()
    return "resumed"


def test_a_table_whose_every_seat_comes_back_at_once_ends_with_a_reason(
        tmp_path: Path) -> None:
    """Nobody holds the match: the returning seats stop at once, saying why, rather
    than wait out the grace."""
    told = run_on_table_clock(_every_seat_back(tmp_path), PATIENCE)
    assert "every seat of table oak is coming back at once" in told


async def _gone_after_the_end() -> list[set[int]]:
    sessions = table(MemoryHub(), bots(["random"] * 3), Options(lives=1), timing=TIMING)
    watcher, seat = sessions[0], sessions[1]
    assert watcher.desk is not None
    for session in sessions[1:]:
        watcher.desk.join(session.me, session.link.pubkey, "bot", "bot:random")
    seat.seating.take_start(watcher.desk.start_body(bytes(16)))
    seat.begin_match(0)
    peer = seat.roster.sitters[2].peer if seat.roster is not None else ""
    seen = []
    seat.seat_gone(2)  # gone mid-match: the table waits for it
    seen.append(set(seat.away))
    seat.away.clear()
    seat.results[peer] = ()  # its result is in: it finished, nobody waits for it
    seat.seat_gone(2)
    seen.append(set(seat.away))
    seat.results.clear()
    assert seat.match is not None
    seat.match.revoke(2)  # put out of the match: nobody waits for it either
    seat.seat_gone(2)
    seen.append(set(seat.away))
    return seen


def test_a_seat_gone_after_its_result_or_put_out_is_not_waited_for() -> None:
    """A seat behind the others (an attacker stuck in a voided hand, a host's watcher
    still checking the audit) must not hold its clocks for a seat that finished."""
    assert asyncio.run(_gone_after_the_end()) == [{2}, set(), set()]
