"""A Lorum seat comes back after its process stopped: in process, over the in-memory hub.

The match state it sits down in is Lorum's own (dealer, place in the contract order,
points, the deal records), saved through the game interface."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session import Session
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.journal import Journal, SeatJournal
from lodam_p2p.session.keys import seeded
from lodam_p2p.session.link import Link
from lodam_p2p.session.table import _sessions
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.transport.memory import MemoryHub
from tests.lorum_net.helpers import LORUM
from tests.session.helpers import bots
from tests.support.aio import until
from tests.support.virtual import run_on_table_clock

#: Patient protocol timeouts and a long rejoin grace: nobody may be blamed here.
TIMING = Timing(timeout_s=60.0, grace_s=60.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                lobby_s=30.0)
#: Safety net for each wait (seconds).
PATIENCE = 120.0


async def _lorum_rejoin(tmp_path: Path, *chosen: str, carried: bool = False
                        ) -> tuple[list[MatchOutcome], SeatJournal, Session]:
    """A seat of a 4-seat table of random bots is killed once a deal is scored and the
    next dealt (``carried``: a deal from the stack the last one left), then comes back
    from its journal."""
    hub = MemoryHub()
    journal = Journal.open(tmp_path / "state")
    options = LORUM.parse_options(list(chosen))
    sessions = _sessions("linden", options, 4, bots(["random"] * 4), connect=hub.transport,
                         seed=2, timing=TIMING, spectator=None, journal=journal, game=LORUM)
    tasks = {s: asyncio.create_task(s.run()) for s in sessions}
    victim = sessions[3]
    await until("a deal scored and the next dealt at the victim", lambda: (
        victim.match is not None and victim.match.deals_played >= 1
        and victim.hand is not None and victim.hand.dealt
        and (not carried or getattr(victim.hand, "carried", False))))
    victim.link.transport.abort()  # as kill -9: the broker fires the Last Will
    tasks.pop(victim).cancel()
    others = [s for s in sessions if s is not victim and s.seat is not None]
    await until("every seat sees the victim away", lambda: all(s.away for s in others))
    kept = SeatJournal(journal, "seat-3", "linden")
    assert kept.rejoining and kept.entry["match"]["game"]["history"]
    epoch = kept.next_epoch()
    identity = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(kept.entry["identity"]))
    link = Link(hub.transport, "linden", identity, heartbeat=0.1, retry=0.1, epoch=epoch)
    back = Session(link, plan=bots(["random"] * 4)[3], entropy=seeded(2, 99), timing=TIMING,
                   journal=kept)
    outcomes = await asyncio.gather(*tasks.values(), back.run())
    journal.close()
    return list(outcomes), kept, back


def test_a_lorum_seat_rejoins_from_its_journal_and_every_peer_ends_with_one_result(
        tmp_path: Path) -> None:
    outcomes, kept, back = run_on_table_clock(
        _lorum_rejoin(tmp_path, "contracts=red_king,lorum"), PATIENCE * 2)
    assert len({repr(o) for o in outcomes}) == 1
    first = outcomes[0]
    assert first.game == "lorum" and first.blames == () and first.deals == 8
    assert back.phase is SessionPhase.DONE and back.match is not None and back.match.is_over
    assert kept.entry["outcome"]["winners"] == list(first.winners)


def test_a_lorum_seat_comes_back_while_a_short_stack_carries_over_and_all_shuffle_anew(
        tmp_path: Path) -> None:
    outcomes, kept, back = run_on_table_clock(_lorum_rejoin(
        tmp_path, "contracts=first_last", "first_last_short=true", carried=True),
        PATIENCE * 2)
    assert len({repr(o) for o in outcomes}) == 1
    first = outcomes[0]
    assert first.blames == () and first.deals == 4 and first.audits_passed == 4
    assert back.phase is SessionPhase.DONE and back.match is not None and back.match.is_over
    assert kept.entry["outcome"]["winners"] == list(first.winners)
