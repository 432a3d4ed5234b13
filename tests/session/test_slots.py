"""The default state slots of one account: which slot a process takes (``Journal.pick``).

Two people at one machine account (one laptop at a LAN party) host and join in two
terminals, match after match; a match killed mid-play leaves its journals behind. A
slot is a process's own while it lives, and a killed match's slot is taken up again only
by the same role at the same table.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lodam_p2p.session.journal import HOST, SEAT, Journal, SeatJournal
from lodam_p2p.session.keys import seeded


def _killed(root: Path, role: str, table: str) -> Path:
    """A slot left as a killed process leaves it: ``role``'s match at ``table`` begun,
    no outcome, the lock free."""
    journal = Journal.pick(root, table, role)
    SeatJournal(journal, role, table).keep(start=["00", {}, []])
    directory = journal.directory
    journal.close()
    return directory


def test_a_joining_seat_never_takes_up_a_killed_hosts_journal(tmp_path: Path) -> None:
    hosted = _killed(tmp_path, HOST, "oak")
    seat = Journal.pick(tmp_path, "oak", SEAT)
    assert seat.directory != hosted and not seat.resumable(None)
    host = Journal.pick(tmp_path, "oak", HOST)  # the host's own command comes back to it
    assert host.directory == hosted and host.resumable("oak", HOST)


def test_a_host_never_takes_up_a_killed_seats_journal(tmp_path: Path) -> None:
    joined = _killed(tmp_path, SEAT, "oak")
    host = Journal.pick(tmp_path, "oak", HOST)
    assert host.directory != joined and not host.resumable(None)
    seat = Journal.pick(tmp_path, "oak", SEAT)
    assert seat.directory == joined and seat.resumable("oak", SEAT)


def test_a_killed_match_neither_blocks_nor_is_taken_by_a_match_elsewhere(
        tmp_path: Path) -> None:
    hosted, joined = _killed(tmp_path, HOST, "oak"), _killed(tmp_path, SEAT, "oak")
    host, seat = Journal.pick(tmp_path, "elm", HOST), Journal.pick(tmp_path, "elm", SEAT)
    assert len({hosted, joined, host.directory, seat.directory}) == 4
    assert not host.resumable(None) and not seat.resumable(None)
    host.close()
    seat.close()
    # the killed match is still there for its own table, each role in its own slot
    assert Journal.pick(tmp_path, "oak", HOST).directory == hosted
    assert Journal.pick(tmp_path, "oak", SEAT).directory == joined


def test_two_live_processes_never_share_a_slot_nor_an_identity(tmp_path: Path) -> None:
    host = Journal.pick(tmp_path, "oak", HOST)
    seat = Journal.pick(tmp_path, "oak", SEAT)
    assert host.directory != seat.directory
    keys = {SeatJournal(host, HOST, "oak").identity(seeded(1, 1)).private_bytes_raw(),
            SeatJournal(host, "seat-1", "oak").identity(seeded(1, 2)).private_bytes_raw(),
            SeatJournal(seat, SEAT, "oak").identity(seeded(2, 1)).private_bytes_raw()}
    assert len(keys) == 3


def test_a_finished_match_leaves_its_slot_to_the_next_one(tmp_path: Path) -> None:
    first = Journal.pick(tmp_path, "oak", SEAT)
    kept = SeatJournal(first, SEAT, "oak")
    old_key = kept.identity(seeded(1, 1)).private_bytes_raw()
    kept.keep(start=["00", {}, []])
    kept.keep(outcome={"winners": [0]})
    first.close()
    again = Journal.pick(tmp_path, "elm", HOST)
    assert again.directory == first.directory  # slots do not pile up match after match
    assert SeatJournal(again, SEAT, "elm").identity(seeded(2, 2)).private_bytes_raw() \
        != old_key


def test_a_slot_is_free_again_once_its_process_is_gone(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from pathlib import Path; from lodam_p2p.session.journal import Journal; "
         "j = Journal.pick(Path(sys.argv[1]), 'oak', 'seat'); print(j.directory, flush=True); "
         "sys.stdin.read()", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        held = Path(holder.stdout.readline().strip())
        mine = Journal.pick(tmp_path, "oak", SEAT)
        assert mine.directory != held
        mine.close()
    finally:
        holder.kill()  # killed, not closed: the kernel drops the lock
        holder.wait()
    assert Journal.pick(tmp_path, "oak", SEAT).directory == held
